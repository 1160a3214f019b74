/**
 * Shared set-up of the fixture scripts. A fixture is a small program run in its own process by a test
 * (LibreOffice lives for the life of a process and must be destroyed before it exits, so it cannot run
 * inside the vitest worker). Command line: `<fixture> <workDir> <profileDir> [args...]`; the test owns and
 * removes both directories. The fixture reports one JSON value on a line starting with RESULT_MARK
 * (LibreOffice writes its own noise to stdout/stderr).
 */
import { copyFileSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { LokDocument } from '../index.ts';

/** Prefix of the result line. */
export const RESULT_MARK = '@@fixture-result ';

/** The shared read-only corpus (/work/shared/corpus), or $ODE_CORPUS. */
export const CORPUS = process.env.ODE_CORPUS ?? fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));

/** Parsed command line of a fixture. */
export interface FixtureArgs {
  workDir: string;
  profileUrl: string;
  args: string[];
}

/** Reads `<workDir> <profileDir> [args...]`. */
export function fixtureArgs(): FixtureArgs {
  const [workDir, profileDir, ...args] = process.argv.slice(2);
  if (!workDir || !profileDir) throw new Error('usage: <fixture> <workDir> <profileDir> [args...]');
  return { workDir, profileUrl: pathToFileURL(profileDir).href, args };
}

/**
 * Copies a corpus file (path relative to the corpus, or absolute) into `workDir` and returns its file URL:
 * LibreOffice leaves a lock file next to what it opens, and the corpus is read-only.
 */
export function copyToWork(workDir: string, file: string, as?: string): string {
  const src = isAbsolute(file) ? file : join(CORPUS, file);
  const dst = join(workDir, as ?? basename(file));
  copyFileSync(src, dst);
  return pathToFileURL(dst).href;
}

/** Prints the fixture's result line. */
export function emit(result: unknown): void {
  process.stdout.write(`${RESULT_MARK}${JSON.stringify(result)}\n`);
}

/** The `code` and `message` of a thrown value, for results. */
export function errorInfo(err: unknown): { code: string | undefined; message: string } {
  const e = err as { code?: unknown; message?: unknown };
  return { code: typeof e?.code === 'string' ? e.code : undefined, message: String(e?.message ?? err) };
}

/** The error `code` `fn` throws, or undefined when it returns. */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return errorInfo(err).code;
  }
}

/** The error `code` `p` rejects with, or undefined when it resolves. */
export async function codeOfAsync(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return errorInfo(err).code;
  }
}

/** Resolves when `check()` is true, polling every 10 ms; rejects after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Waits until LibreOffice's main loop has run the input posted so far (keys and UNO commands are posted events):
 * an input fence (LokDocument.postInputFence). Needed before another view posts input too: posted right behind
 * this view's, it can run in this view (measured: 300 alternating keys of two views without it lost most of them),
 * which is why the kit fences view switches (edit-session.ts). The timer keeps the process alive meanwhile (the
 * fence's callback does not) and bounds the wait at 30 s.
 */
export async function settle(doc: LokDocument): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the input fence did not come back in 30 s')), 30_000);
    const posted = doc.postInputFence(() => {
      clearTimeout(timer);
      resolve();
    }, 2);
    if (!posted) {
      clearTimeout(timer);
      reject(new Error('no input fence in this LibreOffice'));
    }
  });
}
