/**
 * test/bench/footprint: what a running install costs in memory and start-up time (issue 19), measured on the
 * real `ode serve` process started the way a user starts it (`node --max-semi-space-size=2 bin/ode.js serve`, as
 * `npm start` and the systemd unit do), once from the TypeScript
 * sources through tsx (`ODE_FROM_SOURCES=1`, how every process ran before) and once from the compiled bundle
 * (`dist/`, what set-up builds now), in one run on the same machine:
 *   - start-up: spawn of `ode serve` to the first conversion answered; a kit's spawn-to-ready time (its
 *     `kit ready` log line: lok_init_2 plus the warm-up, and the wall time from spawn);
 *   - RSS (VmRSS from /proc, MB = 2^20 bytes) of the daemon idle and with 10 open documents, of a warm idle kit,
 *     of a kit holding one small open document (and its PSS), and of one kit after 10 and after 100 conversions.
 * Documents are opened through a small WOPI host in this process, with real WebSocket editor clients.
 * Run: `npm run bench:footprint` (about 3 minutes). Prints the table and writes it to test/bench/footprint/last-run.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EditorClient } from '../../helpers/editor-client.ts';
import { FakeWopiHost } from '../../helpers/fake-wopi-host.ts';
import { median } from '../stats.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;
const SMALL_DOCX = readFileSync(join(ROOT, '../shared/corpus/tracked-changes/delins.docx'));
const CONVERSIONS = Number(process.env.BENCH_CONVERSIONS ?? 100);
const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 10);
const out: string[] = [];
const say = (line = '') => {
  out.push(line);
  console.log(line);
};

/** The pids of a process's children (from /proc/<pid>/task/<tid>/children), or none when it is gone. */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) => readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

/**
 * Resident set size in MB (VmRSS) of a process and everything under it, e.g. a kit inside its sandbox
 * (bwrap, then the kit's Node process and LibreOffice in it); `alone` counts the process alone.
 * NaN when it is gone.
 */
function rssMb(pid: number | undefined, alone = false): number {
  if (pid === undefined) return Number.NaN;
  let kb = 0;
  try {
    kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return Number.NaN;
  }
  const below = alone ? 0 : childrenOf(pid).reduce((sum, c) => sum + (rssMb(c) || 0), 0);
  return kb / 1024 + below;
}

/**
 * Proportional set size in MB (smaps_rollup Pss) of a process and everything under it: pages shared with other
 * processes (LibreOffice's libraries, fonts, Node's binary) counted as a share. NaN when it is gone.
 */
function pssMb(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  let kb = 0;
  try {
    kb = Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return Number.NaN;
  }
  return kb / 1024 + childrenOf(pid).reduce((sum, c) => sum + (pssMb(c) || 0), 0);
}

/** One kit as the admin API lists it. */
interface Kit {
  pid: number;
  state: string;
  jobs: number;
}

/** A running `ode serve` and what it logged. */
interface Running {
  child: ChildProcess;
  url: string;
  adminUrl: string;
  stateDir: string;
  kitReady: Array<{ initMs: number; warmMs: number; at: number }>;
  spawnedAt: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startServe(fromSources: boolean, port: number): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'ode-bench-footprint-'));
  const stateDir = join(dir, 'state');
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, ['--max-semi-space-size=2', join(ROOT, 'bin/ode.js'), 'serve', '--config', '/dev/null'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ODE_FROM_SOURCES: fromSources ? '1' : '0',
      ODE_STATE_DIR: stateDir,
      ODE_NET__PORT: String(port),
      ODE_ADMIN__PORT: String(port + 1),
      ODE_KITS__PRESPAWN: '1',
      ODE_KITS__MAX: String(DOCUMENTS + 4),
      ODE_KITS__CONVERT_CONCURRENCY: '1',
      ODE_KITS__MAX_JOBS: String(CONVERSIONS + 10),
      ODE_KITS__IDLE_SECS: '3600',
      ODE_DEMO_HOST__ENABLED: 'false',
      ODE_LOG_LEVEL: 'info',
    },
  });
  const running: Running = { child, url: `http://127.0.0.1:${port}`, adminUrl: `http://127.0.0.1:${port + 1}`, stateDir, kitReady: [], spawnedAt };
  let buf = '';
  child.stdout!.resume();
  child.stderr!.on('data', (c: Buffer) => {
    buf += c.toString();
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (!line.includes('"kit ready"')) continue;
      try {
        const j = JSON.parse(line) as { initMs: number; warmMs: number };
        running.kitReady.push({ initMs: j.initMs, warmMs: j.warmMs, at: performance.now() });
      } catch {
        // not a JSON line
      }
    }
  });
  return running;
}

async function stopServe(r: Running): Promise<void> {
  r.child.kill('SIGTERM');
  await new Promise((res) => r.child.once('exit', res));
  rmSync(join(r.stateDir, '..'), { recursive: true, force: true });
}

async function convertOnce(url: string): Promise<number> {
  const form = new FormData();
  form.append('data', new Blob([SMALL_DOCX]), 'hello.docx');
  const res = await fetch(`${url}/ode/convert-to/pdf`, { method: 'POST', body: form });
  await res.arrayBuffer();
  return res.status;
}

async function kits(r: Running): Promise<Kit[]> {
  const token = readFileSync(join(r.stateDir, 'admin_token'), 'utf8').trim();
  const res = await fetch(`${r.adminUrl}/trpc/status.get`, { headers: { Authorization: `Bearer ${token}` } });
  const j = (await res.json()) as { result: { data: { kits: Kit[] } } };
  return j.result.data.kits;
}

/** Measures one mode; returns the rows' values. */
async function measure(fromSources: boolean, port: number, host: FakeWopiHost): Promise<Record<string, number>> {
  const r = await startServe(fromSources, port);
  const v: Record<string, number> = {};
  try {
    // Start-up: the first conversion answered (retried while the listener or the first kit is not up).
    for (;;) {
      try {
        if ((await convertOnce(r.url)) === 200) break;
      } catch {
        // not listening yet
      }
      await sleep(50);
    }
    v.firstConversionMs = performance.now() - r.spawnedAt;
    const first = r.kitReady[0];
    v.kitInitWarmMs = first ? first.initMs + first.warmMs : Number.NaN;
    // Idle: wait for the pool to settle, then read the daemon and a ready kit.
    await sleep(8000);
    v.daemonIdle = rssMb(r.child.pid, true);
    const ready = (await kits(r)).filter((k) => k.state === 'ready');
    v.kitIdle = median(ready.map((k) => rssMb(k.pid)));
    // Conversions: with one conversion at a time and max_jobs above the count, one kit runs them all.
    for (let i = 1; i <= CONVERSIONS; i++) {
      const status = await convertOnce(r.url);
      if (status !== 200) throw new Error(`conversion ${i} answered ${status}`);
      if (i === 9 || i === CONVERSIONS - 1) {
        // The busiest kit after 10 (resp. 100) conversions in all (the first one above counts).
        const busiest = (await kits(r)).sort((a, b) => b.jobs - a.jobs)[0];
        v[i === 9 ? 'kitAfter10' : 'kitAfter100'] = rssMb(busiest.pid);
      }
    }
    // Ten open documents, one view each.
    const clients: EditorClient[] = [];
    try {
      for (let i = 0; i < DOCUMENTS; i++) {
        const src = host.addFile(`fp${port}-${i}`, `letter${i}.docx`, SMALL_DOCX);
        clients.push((await EditorClient.open(r.url, src, { token: host.token }, 120_000)).client);
      }
      await sleep(3000);
      v.daemonWith10 = rssMb(r.child.pid, true);
      const editing = (await kits(r)).filter((k) => k.state === 'editing');
      v.kitOneDocument = median(editing.map((k) => rssMb(k.pid)));
      v.kitOneDocumentPss = median(editing.map((k) => pssMb(k.pid)));
    } finally {
      for (const c of clients) c.close();
    }
  } finally {
    await stopServe(r);
  }
  return v;
}

async function main(): Promise<void> {
  const host = await FakeWopiHost.start();
  try {
    const before = await measure(true, 19_880, host);
    const after = await measure(false, 19_890, host);
    const rows: Array<[string, string, string]> = [
      ['daemon RSS idle (MB)', 'daemonIdle', '<= 100'],
      [`daemon RSS with ${DOCUMENTS} open documents (MB)`, 'daemonWith10', '<= 150'],
      ['warm idle kit RSS (MB)', 'kitIdle', 'as small as LibreOffice allows'],
      ['kit RSS, one small document open (MB, median of the editing kits)', 'kitOneDocument', '<= 220'],
      [`kit PSS, one small document open (MB, median of the ${DOCUMENTS} editing kits, shared pages split among them)`, 'kitOneDocumentPss', ''],
      ['kit RSS after 10 conversions (MB)', 'kitAfter10', ''],
      [`kit RSS after ${CONVERSIONS} conversions (MB)`, 'kitAfter100', 'within 10 % of after 10'],
      ['`ode serve` spawn to first conversion answered (ms)', 'firstConversionMs', ''],
      ['first kit: lok_init_2 + warm-up (ms)', 'kitInitWarmMs', ''],
    ];
    say(
      `Footprint (${new Date().toISOString().slice(0, 10)}, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}; small docx ${SMALL_DOCX.length} bytes)`,
    );
    say('');
    say('| measure | before: sources through tsx | after: compiled dist/ | target |');
    say('|---|---:|---:|---|');
    for (const [label, key, target] of rows) say(`| ${label} | ${before[key].toFixed(0)} | ${after[key].toFixed(0)} | ${target} |`);
    writeFileSync(new URL('./last-run.md', import.meta.url), `${out.join('\n')}\n`);
  } finally {
    await host.stop();
  }
}

await main();
