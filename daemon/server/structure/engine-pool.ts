/**
 * The structure engine off the daemon's event loop (issue 17, item 2): a small pool of worker_threads (piscina)
 * that runs the engine (extract, transform, recipe check) and the package checks. Each worker has a heap limit
 * (`resourceLimits`, limits.structure_memory_mb); each job a time limit (limits.structure_secs) past which its
 * worker is terminated and replaced. The daemon thread only posts jobs and reads answers, so /health and the
 * editing sockets answer whatever a document does to a reader.
 */
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { Logger } from 'pino';
import type { ExtractOptions, StructureFormat } from '../../structure/index.ts';
import { StructureError } from '../../structure/errors.ts';
import type { OdeConfig } from '../config/schema.ts';
import { OdeError } from '../errors.ts';
import { entryPoint } from '../install-paths.ts';
import type { EngineTask, PostedTask, TaskInput, TaskResult } from './engine-tasks.ts';
import type { PackageLimits } from './package-check.ts';

/**
 * How long a structure worker thread may wait for a job before it ends (ms): an idle daemon holds no thread
 * (issue 19), while a burst of uploads keeps its threads.
 */
export const IDLE_THREAD_MS = 5000;

/** Jobs waiting for a worker before new ones get 429 queue_full. */
const MAX_QUEUE = 64;

/** The pool's state for /health and the admin API. */
export interface EnginePoolStats {
  threads: number;
  queued: number;
  completed: number;
}

/** The worker pool running the structure engine. Created at start; `close()` ends the workers. */
export class StructureEngine {
  private readonly pool: Piscina;

  /**
   * @param config the live configuration: limits.structure_threads and structure_memory_mb are read now,
   *   structure_secs, xml_depth, recipe_commands and package.* per job
   */
  constructor(
    private readonly config: () => OdeConfig,
    private readonly log: Logger,
  ) {
    const limits = config().limits;
    const threads = limits.structure_threads > 0 ? limits.structure_threads : Math.min(4, availableParallelism());
    this.pool = new Piscina({
      // engine-worker.mjs (registers tsx) from sources, dist/structure-worker.js in a compiled install.
      filename: pathToFileURL(entryPoint('structure-worker').file).href,
      // Threads start on demand (one is warmed at start) and end after IDLE_THREAD_MS: each is a V8 isolate of its
      // own, about 20 MB of the daemon's memory budget (issue 19: <= 100 MB idle; docs/benchmarks.md, "Footprint").
      // A first upload after an idle spell pays a thread's start (test/bench/footprint/structure-thread.ts).
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: IDLE_THREAD_MS,
      maxQueue: MAX_QUEUE,
      concurrentTasksPerWorker: 1,
      // Batch work below typing (limits.structure_nice): piscina renices each thread as it starts (@napi-rs/nice, a
      // per-thread nice(2) on Linux); the daemon's main thread keeps its priority.
      niceIncrement: limits.structure_nice,
      resourceLimits: { maxOldGenerationSizeMb: limits.structure_memory_mb, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 },
    });
    // A worker that dies outside a job (out of memory while idle is not possible, but a crash is) is replaced by piscina.
    this.pool.on('error', (e: Error) => this.log.error({ err: e.message }, 'a structure worker failed'));
    // Load the engine in one thread now (from sources tsx compiles it once per thread), not in the first request's time.
    this.pool.run({ kind: 'warm' } satisfies EngineTask).catch(() => {});
  }

  /** The package limits of the current configuration (limits.xml_depth, limits.package.*). */
  packageLimits(): PackageLimits {
    const l = this.config().limits;
    return {
      xmlDepth: l.xml_depth,
      maxUncompressedBytes: l.package.max_uncompressed_mb * 1024 * 1024,
      maxEntries: l.package.max_entries,
      maxRatio: l.package.max_ratio,
    };
  }

  /**
   * Checks an uploaded file before a kit or the engine reads it (package-check.ts).
   * @throws OdeError package_too_large, xml_too_deep, load_failed, too_complex, queue_full.
   */
  async check(path: string, ext: string): Promise<void> {
    await this.run({ kind: 'check', path, ext, limits: this.packageLimits() });
  }

  /**
   * Extracts DocStructure in a worker (structure/index.ts extractStructure).
   * @throws StructureError as the engine does (the caller maps it); OdeError too_complex, queue_full.
   */
  async extract(input: TaskInput, format: StructureFormat, opts: ExtractOptions): Promise<Record<string, unknown>> {
    return (await this.run({ kind: 'extract', input, format, opts })) as Record<string, unknown>;
  }

  /**
   * Checks a recipe: its size (limits.recipe_commands, recipe-limits.ts), then the engine's own check.
   * @throws StructureError recipe_too_large and the recipe codes; OdeError too_complex, queue_full.
   */
  async checkRecipe(recipe: string): Promise<void> {
    await this.run({ kind: 'checkRecipe', recipe, maxCommands: this.config().limits.recipe_commands });
  }

  /**
   * Transforms a document in a worker (structure/index.ts transformStructure); the new package's bytes.
   * @throws StructureError as the engine does; OdeError too_complex, queue_full.
   */
  async transform(input: TaskInput, format: StructureFormat, recipe: string): Promise<Uint8Array> {
    return (await this.run({ kind: 'transform', input, format, recipe })) as Uint8Array;
  }

  /** Threads, jobs waiting, jobs done. */
  stats(): EnginePoolStats {
    return { threads: this.pool.threads.length, queued: this.pool.queueSize, completed: this.pool.completed };
  }

  /** Ends the workers (jobs in flight fail). */
  async close(): Promise<void> {
    await this.pool.destroy();
  }

  /**
   * Posts one job and waits for its answer. limits.structure_secs counts from the moment a worker starts the job
   * (the worker says so on a MessagePort), not from the post: under load a job may wait for a worker longer than
   * the limit (bench:load at load average 60 refused small conversions 422 too_complex while they only waited), and
   * that wait is bounded by the queue's length (MAX_QUEUE, then 429 queue_full), not by the engine's limit.
   */
  private async run(task: EngineTask): Promise<unknown> {
    const secs = this.config().limits.structure_secs;
    const { port1, port2 } = new MessageChannel();
    const transferList = 'input' in task && 'bytes' in task.input ? [task.input.bytes.buffer as ArrayBuffer, port2] : [port2];
    const abort = new AbortController();
    let limit: NodeJS.Timeout | undefined;
    port1.once('message', () => {
      limit = setTimeout(() => abort.abort(), secs * 1000);
    });
    let result: TaskResult;
    try {
      result = (await this.pool.run({ ...task, started: port2 } satisfies PostedTask, { signal: abort.signal, transferList })) as TaskResult;
    } catch (e) {
      const err = e as Error & { code?: string };
      if (err.name === 'AbortError' || err.name === 'TimeoutError') {
        this.log.warn({ task: task.kind, limitSecs: secs }, 'structure job past limits.structure_secs: its worker was ended');
        throw new OdeError('too_complex', `The structure engine took longer than ${secs} s on this document (limits.structure_secs).`);
      }
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        this.log.warn({ task: task.kind }, 'structure job past limits.structure_memory_mb: its worker was ended');
        throw new OdeError(
          'too_complex',
          `The structure engine needed more than ${this.config().limits.structure_memory_mb} MB for this document (limits.structure_memory_mb).`,
        );
      }
      if (/queue is at limit/.test(err.message)) throw new OdeError('queue_full', 'Too many structure jobs are waiting; try again later.');
      throw e;
    } finally {
      clearTimeout(limit);
      port1.close();
    }
    if (result.ok) return result.value;
    if (result.source === 'structure') throw new StructureError(result.code, result.message, result.path);
    if (result.source === 'unexpected') this.log.warn({ task: task.kind, err: result.stack }, 'the structure engine threw on a document: answered load_failed');
    throw new OdeError(result.code as 'package_too_large' | 'xml_too_deep' | 'load_failed' | 'too_complex', result.message);
  }
}
