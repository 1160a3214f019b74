import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { stringify } from 'yaml';
import type { FakeWopiHost } from './fake-wopi-host.ts';
import { daemonLogFile } from './log-capture.ts';
import { freePort } from './net.ts';

const ODE = new URL('../../bin/ode.js', import.meta.url).pathname;

/** An `ode serve` process started by startServe. */
export interface ServeProcess {
  child: ChildProcess;
  /** What it has written so far: its stderr (the logger's output), and its stdout when asked for. */
  readonly output: string;
}

/**
 * Starts `ode serve --config <config>` (bin/ode.js) as a child process and resolves once it logged "Ode is running
 * at". `fromSources`: the TypeScript sources run (ODE_FROM_SOURCES=1) and the test's own ODE_TEST* variables stay
 * out of its environment (ODE_* variables are configuration overrides); otherwise it gets `env` (default
 * process.env). `stdout`: its stdout is collected into `output` too. `timeoutMs` (default 60 s): how long to wait.
 * @throws Error with what it wrote, when it exited or did not start within `timeoutMs` (it is then killed).
 */
export async function startServe(
  config: string,
  opts: { fromSources?: boolean; env?: NodeJS.ProcessEnv; stdout?: boolean; timeoutMs?: number } = {},
): Promise<ServeProcess> {
  const base = opts.env ?? process.env;
  const env = opts.fromSources ? { ...Object.fromEntries(Object.entries(base).filter(([k]) => !k.startsWith('ODE_TEST'))), ODE_FROM_SOURCES: '1' } : base;
  const child = spawn(process.execPath, [ODE, 'serve', '--config', config], { stdio: ['ignore', opts.stdout ? 'pipe' : 'ignore', 'pipe'], env });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  // In a vitest run its log lines also go to the run's log folder, grepped for secrets at the end (log-capture.ts).
  const logFile = daemonLogFile('serve');
  if (logFile) {
    child.stderr?.on('data', (d: Buffer) => logFile.write(d.toString()));
    child.once('close', () => logFile.end());
  }
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  while (!output.includes('Ode is running at') && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
  if (!output.includes('Ode is running at')) {
    child.kill('SIGKILL');
    throw new Error(`ode serve did not start (${child.exitCode === null ? 'timed out' : `exit code ${child.exitCode}`}):\n${output}`);
  }
  return {
    child,
    get output() {
      return output;
    },
  };
}

/**
 * Writes `<dir>/ode.yaml` for `ode serve`: `settings` (the keys of the checkout's ode.yaml) with `net.port` a free
 * port of this machine, and `admin.port` another unless `settings.admin` names one (the default 9981 is taken when
 * another `ode serve` runs on the machine: the daemon would exit with EADDRINUSE). Returns the file's path, the
 * address the daemon will serve (`http://127.0.0.1:<port>`) and its admin listener's (`http://127.0.0.1:<port>`;
 * meaningless when `settings.admin` sets a socket or port 0).
 */
export async function writeServeConfig(
  dir: string,
  settings: Record<string, unknown> & { net?: never; admin?: Record<string, unknown> },
): Promise<{ config: string; url: string; adminUrl: string }> {
  const port = await freePort();
  let adminPort = await freePort();
  while (adminPort === port) adminPort = await freePort(); // each was released before the next was asked for
  const admin = { port: adminPort, ...settings.admin };
  const config = join(dir, 'ode.yaml');
  writeFileSync(config, stringify({ net: { port }, ...settings, admin }));
  return { config, url: `http://127.0.0.1:${port}`, adminUrl: `http://127.0.0.1:${admin.port}` };
}

/** A scratch folder for an `ode serve` test, and what the test started: ended by useServeScratch's afterAll. */
export interface ServeScratch {
  /** A new temporary folder (config file, state dir), removed after all tests. */
  readonly dir: string;
  /** The daemon process, SIGKILLed after all tests if still there. */
  child?: ChildProcess;
  /** The fake WOPI host, stopped after all tests. */
  host?: FakeWopiHost;
}

/**
 * For the describe block it is called in: a temporary folder named with `prefix`, and an afterAll that kills the
 * `child` the tests left in the returned object, stops its `host` and removes the folder.
 */
export function useServeScratch(prefix: string): ServeScratch {
  const scratch: ServeScratch = { dir: mkdtempSync(join(tmpdir(), prefix)) };
  afterAll(async () => {
    scratch.child?.kill('SIGKILL');
    await scratch.host?.stop();
    rmSync(scratch.dir, { recursive: true, force: true });
  });
  return scratch;
}
