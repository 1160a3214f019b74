/**
 * Argument checks of the facade: done once in TS with readable messages (sharp style) before anything
 * crosses into C++. Each throws LokError `invalid_argument`.
 */
import { LokError } from './errors.ts';

/** Throws unless `v` is an integer in [min, max]. */
export function checkInt(name: string, v: unknown, min = -0x80000000, max = 0x7fffffff): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new LokError(`${name} must be an integer in [${min}, ${max}], got ${String(v)}`, 'invalid_argument');
  }
  return v;
}

/** Throws unless `v` is a string (optionally non-empty). */
export function checkString(name: string, v: unknown, nonEmpty = false): string {
  if (typeof v !== 'string' || (nonEmpty && v.length === 0)) {
    throw new LokError(`${name} must be a${nonEmpty ? ' non-empty' : ''} string`, 'invalid_argument');
  }
  return v;
}

/** Throws unless `v` is a boolean. */
export function checkBoolean(name: string, v: unknown): boolean {
  if (typeof v !== 'boolean') throw new LokError(`${name} must be a boolean`, 'invalid_argument');
  return v;
}

/** Like checkString, but undefined passes through. */
export function checkOptionalString(name: string, v: unknown): string | undefined {
  return v === undefined ? undefined : checkString(name, v);
}

/**
 * Like checkOptionalString, and the string must parse as JSON: LibreOffice parses these arguments with
 * boost::property_tree, whose exception on bad JSON is not caught and aborts the process.
 */
export function checkOptionalJson(name: string, v: unknown): string | undefined {
  const s = checkOptionalString(name, v);
  if (s === undefined || s === '') return s;
  try {
    JSON.parse(s);
  } catch {
    throw new LokError(`${name} must be a JSON string (LOK's {"Name":{"type":"string","value":"..."}} form)`, 'invalid_argument');
  }
  return s;
}

/** Throws unless `v` is a `file://` URL (LibreOffice loads and saves by URL, not by path). */
export function checkFileUrl(name: string, v: unknown): string {
  const s = checkString(name, v, true);
  if (!s.startsWith('file:///')) {
    throw new LokError(`${name} must be a file:/// URL (use url.pathToFileURL), got ${s}`, 'invalid_argument');
  }
  return s;
}

/** Throws unless `v` is a function. */
export function checkFunction<T extends (...args: never[]) => unknown>(name: string, v: T): T {
  if (typeof v !== 'function') throw new LokError(`${name} must be a function`, 'invalid_argument');
  return v;
}

/**
 * Throws unless `v` is a `file://` URL or one of LibreOffice's new-document URLs
 * (`private:factory/swriter|scalc|simpress|sdraw`), which documentLoad accepts to create an empty document.
 */
export function checkLoadUrl(name: string, v: unknown): string {
  const s = checkString(name, v, true);
  if (/^private:factory\/(swriter|scalc|simpress|sdraw)$/.test(s)) return s;
  return checkFileUrl(name, s);
}

/** Throws unless `v` is a Buffer. */
export function checkBuffer(name: string, v: unknown): Buffer {
  if (!Buffer.isBuffer(v)) throw new LokError(`${name} must be a Buffer`, 'invalid_argument');
  return v;
}

/** Max canvas side in px: the C++ side refuses more (a 16384² BGRA buffer is already 1 GiB). */
export const MAX_CANVAS_PX = 16384;

/**
 * Runs an async native call so that a rejection carries the caller's stack (a native error is created
 * on an empty JS stack). `holder` is an object passed through Error.captureStackTrace by the caller.
 */
export async function withCallerStack<T>(holder: { stack?: string }, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof Error && holder.stack) {
      const frames = holder.stack.split('\n').slice(1).join('\n');
      err.stack = `${err.name}: ${err.message}\n${frames}`;
    }
    throw err;
  }
}

/**
 * Wraps a callback listener so that an exception it throws becomes an ordinary uncaught exception
 * (process 'uncaughtException', or a crash with its stack) on the next tick, like an EventEmitter
 * listener's. Node would otherwise swallow it: exceptions thrown into a Node-API thread-safe function only
 * print DEP0168 in Node 20.
 */
export function reportThrows<A extends unknown[]>(listener: (...args: A) => void): (...args: A) => void {
  return (...args: A) => {
    try {
      listener(...args);
    } catch (err) {
      process.nextTick(() => {
        throw err;
      });
    }
  };
}
