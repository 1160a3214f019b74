/**
 * The whole suite's daemon logs, grepped for secrets (issue 17, item 10: "no token or user info in any log line (a
 * test greps the logs of the whole suite)"; docs/reliability.md). A vitest run's global setup (test/log-grep.setup.ts)
 * makes a run folder and names it in RUN_LOG_DIR_ENV; then:
 * - every daemon the test helpers start writes its log lines, at every level, to `<run>/<name>-<pid>-<n>.log`
 *   (`daemonLogFile`; test/helpers/daemon.ts), through the daemon's own redaction hook (LOG_OPTIONS);
 * - the secrets tests use are appended to `<run>/secrets.jsonl` (`recordSecret`): every token the fake WOPI host
 *   accepts, each test daemon's admin token and a piece of its proof key's private key;
 * - the global teardown (`grepRunLogs`) searches every log file for every secret and fails the run naming each line.
 * Outside such a run (a benchmark, a script) nothing is written.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';

/** The environment variable naming the run folder (not ODE_*: `ode serve` children read those as configuration). */
export const RUN_LOG_DIR_ENV = 'TEST_DAEMON_LOG_DIR';
/** Secrets shorter than this are not recorded: too likely to occur by chance in a log line. */
const MIN_SECRET = 6;

let files = 0;

/** The run folder of this vitest run, or undefined outside one. */
export function runLogDir(): string | undefined {
  const dir = process.env[RUN_LOG_DIR_ENV];
  return dir && existsSync(dir) ? dir : undefined;
}

/** A run-folder log file: `write` takes serialized lines (ignored once ended), `end` flushes and closes. */
export interface RunLogFile {
  write(line: string): void;
  end(): void;
}

/**
 * A file of the run folder for one daemon's log lines (buffered, asynchronous: the suite does not wait on the disk
 * per line), or undefined outside a run. Lines written after `end()` (a late timer of a stopped daemon) are dropped.
 */
export function daemonLogFile(name: string): RunLogFile | undefined {
  const dir = runLogDir();
  if (!dir) return undefined;
  const dest = pino.destination({ dest: join(dir, `${name}-${process.pid}-${++files}.log`), sync: false, minLength: 4096 });
  let ended = false;
  return {
    write(line) {
      if (!ended) dest.write(line);
    },
    end() {
      if (ended) return;
      ended = true;
      dest.end();
    },
  };
}

/** Records a secret a test used (`what` names it in a finding), for the teardown's grep. No-op outside a run. */
export function recordSecret(value: string | undefined, what: string): void {
  const dir = runLogDir();
  if (!dir || !value || value.length < MIN_SECRET) return;
  appendFileSync(join(dir, 'secrets.jsonl'), `${JSON.stringify({ value, what })}\n`);
}

/** One secret found in a log: the file, the line number (1-based), what the secret is, and the line with it masked. */
export interface SecretFinding {
  file: string;
  line: number;
  what: string;
  text: string;
}

/** Every occurrence of a recorded secret in the run folder's `*.log` files. */
export function grepRunLogs(dir: string): { findings: SecretFinding[]; files: number; lines: number; secrets: number } {
  const secrets = new Map<string, string>();
  const list = join(dir, 'secrets.jsonl');
  if (existsSync(list)) {
    for (const l of readFileSync(list, 'utf8').split('\n')) {
      if (!l) continue;
      const s = JSON.parse(l) as { value: string; what: string };
      secrets.set(s.value, s.what);
    }
  }
  const findings: SecretFinding[] = [];
  let lines = 0;
  const logs = readdirSync(dir).filter((n) => n.endsWith('.log'));
  for (const name of logs) {
    const text = readFileSync(join(dir, name), 'utf8');
    const all = text.split('\n');
    lines += all.length - 1;
    for (const [value, what] of secrets) {
      if (!text.includes(value)) continue;
      all.forEach((l, i) => {
        if (l.includes(value)) findings.push({ file: name, line: i + 1, what, text: l.split(value).join('<SECRET>').slice(0, 400) });
      });
    }
  }
  return { findings, files: logs.length, lines, secrets: secrets.size };
}

/** Removes run folders under `root` older than `maxAgeMs` (runs that failed or were killed keep theirs a while). */
export function removeOldRuns(root: string, maxAgeMs: number): void {
  if (!existsSync(root)) return;
  for (const name of readdirSync(root)) {
    const p = join(root, name);
    try {
      if (Date.now() - statSync(p).mtimeMs > maxAgeMs) rmSync(p, { recursive: true, force: true });
    } catch {
      // another run removed it
    }
  }
}

/** Makes `dir` (and parents). */
export function makeRunDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}
