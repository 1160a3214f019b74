/**
 * test/bench/load (`npm run bench:load`, issue 17 "Must show"): how many typing users one daemon holds. For each
 * step N: N documents, 3 users each typing one key every 200 ms over real WebSockets, plus 4 clients converting a
 * small docx to pdf back to back, for BENCH_SECS (60) seconds; then the users leave (exit saves) and every stored file
 * is read back. Per step it reports keystroke-to-own-invalidation p50/p95 (a key to the next `cursor` message of the
 * typing view: LibreOffice moved that view's own cursor, so the key was processed and its area invalidated), the
 * errors (error frames, closed sockets, keys without an answer within 5 s, failed conversions), the conversions done,
 * daemon and kit resident memory at the end of the minute, the load average, and whether every typed character is in
 * the stored files (per user a letter of its own; the stored count must be the original's plus what was typed).
 *
 * The daemon runs as `ode serve` in its own process (its event loop is not the clients'); the WOPI host is the
 * tests' fake host in this process. BENCH_STEPS (default "2,4,8,12,16,20") lists N; BENCH_CONVERT_NICE sets
 * kits.convert_nice (default: the daemon's, 10; 0 runs conversions at the editing kits' priority). Prints the table and writes it to
 * test/bench/load/last-run.md. Issue 17's goal: p95 under 50 ms and zero errors; Collabora sizes about 10 users per
 * CPU thread (20 on these 2-core machines), aim 60.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { stringify } from 'yaml';
import { treeUsage } from '../../../daemon/server/pool/kit-limits.ts';
import { EditorClient } from '../../helpers/editor-client.ts';
import { FakeWopiHost } from '../../helpers/fake-wopi-host.ts';
import { freePort } from '../../helpers/net.ts';
import { median, percentile } from '../stats.ts';

const CORPUS = new URL('../../../../shared/corpus/', import.meta.url).pathname;
const DOC = 'properties/documentProperties.docx';
const STEPS = (process.env.BENCH_STEPS ?? '2,4,8,12,16,20').split(',').map(Number);
const SECS = Number(process.env.BENCH_SECS ?? 60);
const CONVERT_NICE = process.env.BENCH_CONVERT_NICE === undefined ? undefined : Number(process.env.BENCH_CONVERT_NICE);
const USERS = 3;
const KEY_MS = 200;
const CONVERTERS = 4;
/** One letter per user of a document: counted in the stored file. */
const LETTERS = ['q', 'x', 'z'];
const ODE = new URL('../../../bin/ode.js', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const out: string[] = [];
const say = (line = '') => {
  out.push(line);
  console.log(line);
};

/** The text of a docx's main part (w:t runs joined). */
const docxText = (bytes: Uint8Array) =>
  [...new TextDecoder().decode(unzipSync(bytes)['word/document.xml']).matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');
const count = (text: string, ch: string) => text.split(ch).length - 1;

/** Resident MB of `pid` alone (VmRSS). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

interface StepResult {
  n: number;
  latencies: number[];
  errors: string[];
  conversions: number;
  conversionErrors: number;
  daemonMb: number;
  kitsMb: number;
  load: string;
  typed: number;
  lost: number;
}

async function step(n: number, url: string, host: FakeWopiHost, daemon: ChildProcess, docx: Buffer, stepNo: number): Promise<StepResult> {
  const errors: string[] = [];
  const latencies: number[] = [];
  const docs: Array<{ id: string; clients: EditorClient[]; typed: number[] }> = [];
  for (let d = 0; d < n; d++) {
    const id = `load${stepNo}d${d}`;
    const src = host.addFile(id, `${id}.docx`, docx);
    const clients: EditorClient[] = [];
    for (let u = 0; u < USERS; u++) clients.push((await EditorClient.open(url, src, { token: host.token }, 120_000)).client);
    docs.push({ id, clients, typed: [0, 0, 0] });
  }
  let stop = false;
  let conversions = 0;
  let conversionErrors = 0;
  const converters = Array.from({ length: CONVERTERS }, async () => {
    while (!stop) {
      const form = new FormData();
      form.append('data', new Blob([new Uint8Array(docx)]), 'a.docx');
      try {
        const r = await fetch(`${url}/ode/convert-to/pdf`, { method: 'POST', body: form });
        const body = Buffer.from(await r.arrayBuffer());
        if (r.status === 200) conversions++;
        else {
          conversionErrors++;
          errors.push(`conversion ${r.status} ${body.toString('utf8').slice(0, 200)}`);
        }
      } catch (e) {
        conversionErrors++;
        errors.push(`conversion ${(e as Error).message}`);
      }
    }
  });
  const typists = docs.flatMap((doc) =>
    doc.clients.map(async (client, u) => {
      // Spread the users' keys over the 200 ms period.
      await sleep(Math.random() * KEY_MS);
      const until = Date.now() + SECS * 1000;
      while (Date.now() < until) {
        const next = Date.now() + KEY_MS;
        const ch = LETTERS[u]!;
        const from = client.messages.length;
        const t = performance.now();
        client.type(ch);
        doc.typed[u]!++;
        try {
          await client.next('cursor', () => true, 5000, from);
          latencies.push(performance.now() - t);
        } catch {
          errors.push(`${doc.id} user ${u}: no cursor within 5 s`);
        }
        if (client.closeCode !== undefined) {
          errors.push(`${doc.id} user ${u}: socket closed ${client.closeCode}`);
          return;
        }
        await sleep(Math.max(0, next - Date.now()));
      }
    }),
  );
  await Promise.all(typists);
  const kitsMb = treeUsage(daemon.pid!).rss / 1048576 - rssMb(daemon.pid!);
  const daemonMb = rssMb(daemon.pid!);
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  stop = true;
  await Promise.all(converters);
  for (const doc of docs)
    for (const c of doc.clients) for (const m of c.messages) if (m.type === 'error') errors.push(`${doc.id}: error frame ${String(m.code)}`);
  // The users leave: the last one's leaving makes the exit save.
  for (const doc of docs) for (const c of doc.clients) c.close();
  const original = docxText(docx);
  let typed = 0;
  let lost = 0;
  for (const doc of docs) {
    const deadline = Date.now() + 60_000;
    const stored = () => docxText(host.files.get(doc.id)!.bytes);
    const complete = () => LETTERS.every((ch, u) => count(stored(), ch) >= count(original, ch) + doc.typed[u]!);
    while (!complete() && Date.now() < deadline) await sleep(200);
    for (const [u, ch] of LETTERS.entries()) {
      typed += doc.typed[u]!;
      lost += Math.max(0, count(original, ch) + doc.typed[u]! - count(stored(), ch));
    }
  }
  return { n, latencies, errors, conversions, conversionErrors, daemonMb, kitsMb, load, typed, lost };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ode-bench-load-'));
  const host = await FakeWopiHost.start();
  const docx = readFileSync(join(CORPUS, DOC));
  const port = await freePort();
  const config = join(dir, 'ode.yaml');
  const maxN = Math.max(...STEPS);
  writeFileSync(
    config,
    stringify({
      net: { port },
      admin: { port: 0 },
      state_dir: join(dir, 'state'),
      log_level: 'warn',
      kits: { prespawn: 2, max: maxN + 4, ...(CONVERT_NICE === undefined ? {} : { convert_nice: CONVERT_NICE }) },
      documents: { check_secs: 0 },
    }),
  );
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ODE_')));
  const daemon = spawn(process.execPath, [ODE, 'serve', '--config', config], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...env, ODE_FROM_SOURCES: '1' } });
  let stderr = '';
  daemon.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  const results: StepResult[] = [];
  try {
    const deadline = Date.now() + 120_000;
    while (!stderr.includes('Ode is running at') && Date.now() < deadline && daemon.exitCode === null) await sleep(100);
    if (!stderr.includes('Ode is running at')) throw new Error(`the daemon did not start:\n${stderr}`);
    for (const [i, n] of STEPS.entries()) {
      console.log(`step ${n} documents x ${USERS} users (${SECS} s)...`);
      const r = await step(n, url, host, daemon, docx, i);
      results.push(r);
      console.log(
        `  p50 ${median(r.latencies).toFixed(1)} ms, p95 ${percentile(r.latencies, 95).toFixed(1)} ms, errors ${r.errors.length}, lost ${r.lost}/${r.typed}`,
      );
      for (const e of [...new Set(r.errors)].slice(0, 5)) console.log(`  error: ${e}`);
    }
  } finally {
    daemon.kill('SIGTERM');
    await new Promise((r) => daemon.once('exit', r));
    await host.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const f = (x: number) => x.toFixed(1);
  say(
    `Run of ${new Date().toISOString().slice(0, 16)}Z, Node ${process.version}; ${DOC}; ${SECS} s per step; ${USERS} users per document typing a key every ${KEY_MS} ms; ${CONVERTERS} clients converting docx to pdf back to back; kits.convert_nice ${CONVERT_NICE ?? 'default (10)'}.`,
  );
  say();
  say(
    '| documents | typing users | keys | key to own cursor p50 (ms) | p95 (ms) | max (ms) | errors | conversions (failed) | daemon RSS (MB) | kits RSS (MB) | typed chars lost | load average (1/5/15 min) |',
  );
  say('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    say(
      `| ${r.n} | ${r.n * USERS} | ${r.latencies.length} | ${f(median(r.latencies))} | ${f(percentile(r.latencies, 95))} | ${f(Math.max(...r.latencies))} | ${r.errors.length} | ${r.conversions} (${r.conversionErrors}) | ${Math.round(r.daemonMb)} | ${Math.round(r.kitsMb)} | ${r.lost} of ${r.typed} | ${r.load} |`,
    );
  }
  writeFileSync(new URL('./last-run.md', import.meta.url), `${out.join('\n')}\n`);
}

await main();
