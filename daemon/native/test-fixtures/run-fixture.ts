/**
 * Test-side runner of the fixture scripts: spawns `node --import tsx <fixture>.ts <workDir> <profileDir>
 * [args]` from the repository root, kills it with SIGKILL after a timeout (a hung LibreOffice ignores
 * SIGTERM), and returns its exit status, output and parsed result line.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { RESULT_MARK } from './fixture-env.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** What a fixture run produced. `result` is the parsed RESULT_MARK line, or undefined if none. */
export interface FixtureRun<T> {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  result: T | undefined;
  timedOut: boolean;
}

/** Runs fixture `name` (a file in this folder, without .ts). */
export function runFixture<T>(name: string, opts: { workDir: string; profileDir: string; args?: string[]; timeoutMs?: number }): Promise<FixtureRun<T>> {
  const script = fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, opts.workDir, opts.profileDir, ...(opts.args ?? [])], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, opts.timeoutMs ?? 50_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARK));
      const result = line === undefined ? undefined : (JSON.parse(line.slice(RESULT_MARK.length)) as T);
      resolve({ code, signal, stdout, stderr, result, timedOut });
    });
  });
}

/** Temp directories of one test file: a LibreOffice profile shared by its fixture runs, and work dirs. */
export interface FixtureDirs {
  profileDir: string;
  /** A fresh, empty work directory (removed by cleanup()). */
  workDir(): string;
  /** Removes every directory made here. */
  cleanup(): void;
}

/** Makes the temp directories for a test file (call cleanup() in afterAll). */
export function fixtureDirs(prefix: string): FixtureDirs {
  const root = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const profileDir = join(root, 'profile');
  let n = 0;
  return {
    profileDir,
    workDir: () => {
      const dir = join(root, `work-${n++}`);
      mkdirSync(dir);
      return dir;
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Page count of a PDF, read with poppler's pdfinfo. */
export function pdfPages(path: string): number {
  const info = execFileSync('pdfinfo', [path], { encoding: 'utf8' });
  const m = /^Pages:\s+(\d+)/m.exec(info);
  if (!m) throw new Error(`pdfinfo gave no page count for ${path}`);
  return Number(m[1]);
}
