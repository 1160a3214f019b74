/**
 * The structure worker thread's side (engine-pool.ts is the daemon's side): one function per task kind, run by
 * piscina in a worker_threads Worker with its own heap limit. Errors cross the thread boundary as plain data
 * (`TaskFailure`): the structure engine's StructureError code and path, a package check's refusal, or a stack
 * overflow (a document or recipe nested too deeply for a reader).
 */
import { readFileSync } from 'node:fs';
import type { MessagePort } from 'node:worker_threads';
import { checkRecipe, extractStructure, StructureError, transformStructure, type ExtractOptions, type StructureFormat } from '../../structure/index.ts';
import { checkPackage, PackageRefusal, type PackageLimits } from './package-check.ts';
import { countRecipeCommands } from './recipe-limits.ts';

/** The input document: a file to read in the worker, or bytes (moved to the worker). */
export type TaskInput = { path: string } | { bytes: Uint8Array };

/**
 * One job for a structure worker, as posted: the task and, from engine-pool.ts, a port on which the worker says
 * when it starts the job (the time limit counts from then: the wait for a free worker is not the engine's work).
 */
export type PostedTask = EngineTask & { started?: MessagePort };

/** One job for a structure worker. */
export type EngineTask =
  | { kind: 'warm' }
  | { kind: 'check'; path: string; ext: string; limits: PackageLimits }
  | { kind: 'extract'; input: TaskInput; format: StructureFormat; opts: ExtractOptions }
  | { kind: 'checkRecipe'; recipe: string; maxCommands: number }
  | { kind: 'transform'; input: TaskInput; format: StructureFormat; recipe: string };

/** A failed task: `source` says whose code it is (the engine's, the package check's, a stack overflow, or an unexpected throw). */
export interface TaskFailure {
  ok: false;
  source: 'structure' | 'package' | 'stack' | 'unexpected';
  code: string;
  message: string;
  path: string;
  /** The stack of an unexpected error, for the daemon's log. */
  stack?: string;
}

/** What a task answers: its value, or a failure. */
export type TaskResult = { ok: true; value: unknown } | TaskFailure;

function bytesOf(input: TaskInput): Uint8Array {
  return 'path' in input ? new Uint8Array(readFileSync(input.path)) : input.bytes;
}

/** Runs one task (piscina's entry point in the worker). Never throws for a document's or recipe's fault. */
export default async function runTask(task: PostedTask): Promise<TaskResult> {
  // The daemon starts the job's time limit (limits.structure_secs) when this arrives (and closes the channel after the job).
  task.started?.postMessage(Date.now());
  try {
    switch (task.kind) {
      case 'warm':
        return { ok: true, value: null };
      case 'check':
        await checkPackage(task.path, task.ext, task.limits);
        return { ok: true, value: null };
      case 'extract':
        return { ok: true, value: extractStructure(bytesOf(task.input), task.format, task.opts) };
      case 'checkRecipe':
        countRecipeCommands(task.recipe, task.maxCommands);
        checkRecipe(task.recipe);
        return { ok: true, value: null };
      case 'transform':
        return { ok: true, value: await transformStructure(bytesOf(task.input), task.format, task.recipe) };
    }
  } catch (e) {
    if (e instanceof StructureError) return { ok: false, source: 'structure', code: e.code, message: e.message, path: e.path };
    if (e instanceof PackageRefusal) return { ok: false, source: 'package', code: e.code, message: e.message, path: '' };
    if (e instanceof RangeError && /call stack/i.test(e.message))
      return { ok: false, source: 'stack', code: 'too_complex', message: 'The document or recipe is nested too deeply for the structure engine.', path: '' };
    // Anything else a reader throws on a document's bytes (a TypeError on a part that is not what it should be,
    // fflate's "invalid zip data") is the document's fault as far as the client can tell; the stack goes to the log.
    const err = e as Error;
    return {
      ok: false,
      source: 'unexpected',
      code: 'load_failed',
      message: `The document cannot be read: ${err?.message ?? String(e)}`,
      path: '',
      stack: err?.stack,
    };
  }
}
