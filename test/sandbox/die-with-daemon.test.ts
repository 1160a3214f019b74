/**
 * Kits die with their daemon (issue 17 item 4, issue 18): a real `ode serve` with two kits, one of them busy in
 * LibreOffice (a conversion in flight), is SIGKILLed; every process below it (bwrap, the kits' node, anything
 * LibreOffice started) must be gone within a second, with the sandbox and without it (then the parent-death
 * signal does it). The process tree is read from /proc before the kill, independently of Ode's own records. And a
 * starting daemon ends a kit a dead one left behind (its pid file in `<state_dir>/kits`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../../daemon/server/install-paths.ts';
import { processStartTime } from '../../daemon/server/pool/kit-pids.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Pids of every live descendant of `root`, from /proc/<pid>/stat's ppid field. */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [pid, pp] of parent) if (pp === p) out.push(pid), walk(pid);
  };
  walk(root);
  return out;
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

interface Serve {
  child: ChildProcess;
  dir: string;
  stateDir: string;
  log: string[];
  url: () => string | undefined;
}

const running: Serve[] = [];

function serve(sandbox: string, stateDir?: string): Serve {
  const dir = mkdtempSync(join(tmpdir(), 'ode-sandbox-die-'));
  const sd = stateDir ?? join(dir, 'state');
  const child = spawn(process.execPath, [join(ROOT, 'bin/ode.js'), 'serve', '--config', '/dev/null'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ODE_STATE_DIR: sd,
      ODE_NET__PORT: '0',
      ODE_ADMIN__PORT: '0',
      ODE_KITS__PRESPAWN: '2',
      ODE_SECURITY__SANDBOX: sandbox,
      ODE_DEMO_HOST__ENABLED: 'false',
      ODE_LOG_LEVEL: 'info',
    },
  });
  const s: Serve = { child, dir, stateDir: sd, log: [], url: () => undefined };
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (c: Buffer) => s.log.push(...c.toString().split('\n')));
  s.url = () => {
    for (const line of s.log) {
      const m = /"url":"(http:\/\/127\.0\.0\.1:\d+)".*"Ode is listening"/.exec(line);
      if (m) return m[1];
    }
    return undefined;
  };
  running.push(s);
  return s;
}

async function waitFor(what: string, pred: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

afterEach(async () => {
  for (const s of running.splice(0)) {
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await sleep(200);
    rmSync(s.dir, { recursive: true, force: true });
  }
});

describe.each(['required', 'off'])('security.sandbox: %s', (mode) => {
  it('SIGKILL of the daemon ends every kit within a second, one of them busy converting', async () => {
    const s = serve(mode);
    await waitFor('two ready kits', () => s.log.filter((l) => l.includes('"kit ready"')).length >= 2, 120_000);
    if (mode === 'required') expect(s.log.some((l) => l.includes('kits run in a bubblewrap sandbox'))).toBe(true);
    // A conversion in flight keeps one kit busy inside LibreOffice when the daemon dies.
    const body = new FormData();
    body.append(
      'data',
      new Blob([readFileSync('/work/shared/corpus/spreadsheets/' + readdirSync('/work/shared/corpus/spreadsheets').find((n) => n.endsWith('.xlsx'))!)]),
      'big.xlsx',
    );
    void fetch(`${s.url()}/ode/convert-to/pdf`, { method: 'POST', body }).catch(() => undefined);
    await sleep(300);
    const tree = descendants(s.child.pid!);
    expect(tree.length).toBeGreaterThanOrEqual(2);
    s.child.kill('SIGKILL');
    const killedAt = Date.now();
    await waitFor('every kit process to end', () => tree.every((p) => !alive(p)), 5000);
    expect(Date.now() - killedAt).toBeLessThan(1000);
  }, 240_000);
});

describe('a starting daemon and the kits a dead one left', () => {
  it('ends a process recorded in <state_dir>/kits whose daemon is gone, and leaves others alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ode-sandbox-left-'));
    const stateDir = join(dir, 'state');
    mkdirSync(join(stateDir, 'kits'), { recursive: true });
    // A stand-in orphan: a real process in its own group, recorded as a kit of a daemon that no longer exists.
    const orphan = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
    const bystander = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
    await sleep(100);
    const gone = spawn('true');
    await new Promise((r) => gone.on('exit', r));
    writeFileSync(
      join(stateDir, 'kits', `${orphan.pid}.json`),
      JSON.stringify({ pid: orphan.pid, startTime: processStartTime(orphan.pid!), daemonPid: gone.pid, daemonStartTime: '1' }),
    );
    // A record whose start time does not match (a reused pid) must not be killed.
    writeFileSync(
      join(stateDir, 'kits', `${bystander.pid}.json`),
      JSON.stringify({ pid: bystander.pid, startTime: '1', daemonPid: gone.pid, daemonStartTime: '1' }),
    );
    try {
      const s = serve('off', stateDir);
      await waitFor('the daemon to listen', () => s.url() !== undefined, 60_000);
      await waitFor('the orphan to end', () => !alive(orphan.pid!), 2000);
      expect(alive(bystander.pid!)).toBe(true);
      expect(s.log.some((l) => l.includes('ended kits a previous daemon left behind'))).toBe(true);
      expect(existsSync(join(stateDir, 'kits', `${orphan.pid}.json`))).toBe(false);
    } finally {
      orphan.kill('SIGKILL');
      bystander.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
