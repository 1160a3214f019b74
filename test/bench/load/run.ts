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
 * After the users leave, each document is waited for by condition, not by a fixed time: until its stored file holds
 * every typed character, or the daemon no longer has it open (admin API `documents.list`: the exit save stored or
 * failed, so the file is final), at most BENCH_SAVE_WAIT_SECS (300). The column "exit saves stored" is the longest
 * time from the users leaving to a document's stored file holding everything; a document still open at the bound is
 * reported, with the recovery copies the daemon keeps (`documents.recovery`).
 *
 * When characters are lost the step prints what the daemon kept of them, so a loss explains itself: the recovery
 * copies (`documents.recovery`), the edit journals left in its state dir (`<state_dir>/journal/*`: file, inputs after
 * the snapshot, the snapshot's input number), and the daemon's log lines about the lost document plus its warnings
 * and errors since the users left (from the last LOG_KEEP_LINES lines of its log, at BENCH_LOG's level); the daemon's
 * dir is then kept (as with BENCH_KEEP_DIR=1) and its path printed.
 *
 * The daemon runs as `ode serve` in its own process (its event loop is not the clients'); the WOPI host is the
 * tests' fake host in this process. BENCH_STEPS (default "2,4,8,12,16,20") lists N; BENCH_CONVERT_NICE sets
 * kits.convert_nice (default: the daemon's, 10; 0 runs conversions at the editing kits' priority). BENCH_LOG sets the
 * daemon's log_level (default warn) and BENCH_LOG_FILE keeps its whole log (default: only the last 20 kB, printed when
 * it fails to start). BENCH_KEEP_DIR=1 keeps the daemon's dir (config, state_dir) at the end. BENCH_KILL_KITS=N is a
 * fault, not load: in each step the kits of the first N documents die in their exit save (every process stopped
 * before the users leave, killed once the document is unloading), as a kit did at load; their exit save is then made
 * from the edit journal and every character must still be stored; BENCH_SNAPSHOT_SECS=600 (no journal snapshot)
 * makes it replay the whole minute of typing. Prints the table and writes it to
 * test/bench/load/last-run.md (or BENCH_OUT). Issue 17's goal: p95 under 50 ms and zero errors; Collabora sizes about 10 users per
 * CPU thread (20 on these 2-core machines), aim 60.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { stringify } from 'yaml';
import { processTree, treeUsage } from '../../../daemon/server/pool/kit-limits.ts';
import { createAdminClient, type AdminTestClient } from '../../helpers/admin-client.ts';
import { EditorClient } from '../../helpers/editor-client.ts';
import { FakeWopiHost } from '../../helpers/fake-wopi-host.ts';
import { freePort } from '../../helpers/net.ts';
import { median, percentile } from '../stats.ts';

const CORPUS = new URL('../../../../shared/corpus/', import.meta.url).pathname;
const DOC = 'properties/documentProperties.docx';
const STEPS = (process.env.BENCH_STEPS ?? '2,4,8,12,16,20').split(',').map(Number);
const SECS = Number(process.env.BENCH_SECS ?? 60);
const CONVERT_NICE = process.env.BENCH_CONVERT_NICE === undefined ? undefined : Number(process.env.BENCH_CONVERT_NICE);
const LOG_LEVEL = process.env.BENCH_LOG ?? 'warn';
const LOG_FILE = process.env.BENCH_LOG_FILE;
/** BENCH_KILL_KITS: the kits of this many documents of each step die in their exit save (a fault, not load). */
const KILL_KITS = Number(process.env.BENCH_KILL_KITS ?? 0);
/**
 * BENCH_SNAPSHOT_SECS: documents.journal_snapshot_secs (default the daemon's, 2): 600 takes no journal snapshot in a
 * step, so an exit save made from the journal replays the whole minute of typing.
 */
const SNAPSHOT_SECS = process.env.BENCH_SNAPSHOT_SECS === undefined ? undefined : Number(process.env.BENCH_SNAPSHOT_SECS);
/** Lines of the daemon's log kept in memory, for the lines about a lost document. */
const LOG_KEEP_LINES = 20_000;
/** Longest wait for the exit saves of one step after the users left (ms). */
const SAVE_WAIT_MS = Number(process.env.BENCH_SAVE_WAIT_SECS ?? 300) * 1000;
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

/** The daemon's last LOG_KEEP_LINES log lines (stderr: pino JSON lines, and a few plain ones). */
const logTail: string[] = [];
let logPartial = '';
function keepLog(chunk: string): void {
  const lines = (logPartial + chunk).split('\n');
  logPartial = lines.pop() ?? '';
  logTail.push(...lines.filter(Boolean));
  if (logTail.length > LOG_KEEP_LINES) logTail.splice(0, logTail.length - LOG_KEEP_LINES);
}

/**
 * What the daemon kept of lost document `id` (the host's file id): its log lines, and every warning or error logged
 * since `since` (ms since the epoch: a kit's exit names no document). At most 60 lines, each cut to 600 characters.
 */
function logAbout(id: string, since: number): string[] {
  const doc = `/wopi/files/${id}"`;
  const found: string[] = [];
  for (const line of logTail) {
    let entry: { time?: number; level?: number } = {};
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      // A plain line (the start banner): never about a document.
    }
    if (line.includes(doc) || ((entry.time ?? 0) >= since && (entry.level ?? 0) >= 40)) found.push(line.slice(0, 600));
  }
  return found.slice(-60);
}

/** The edit journals left in `stateDir` (journal-store.ts): per folder its file, inputs after its snapshot, the snapshot's input. */
function journalsLeft(stateDir: string): string[] {
  const root = join(stateDir, 'journal');
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => {
      const dir = join(root, e.name);
      const read = (f: string) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : '');
      let file = '?';
      let snapshot = '?';
      try {
        file = (JSON.parse(read('meta.json')) as { fileName?: string }).fileName ?? '?';
      } catch {}
      try {
        snapshot = String((JSON.parse(read('snapshot.json')) as { seq?: number }).seq);
      } catch {}
      const inputs = read('events.jsonl').split('\n').filter(Boolean).length;
      return `${e.name}: ${file}, ${inputs} inputs after the snapshot of input ${snapshot}`;
    });
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
  /** Longest time from the users leaving to a document's stored file holding every typed character (ms). */
  storedMs: number;
  /** Documents still open in the daemon when the wait ended (their exit save neither stored nor failed). */
  stillOpen: number;
}

async function step(
  n: number,
  url: string,
  host: FakeWopiHost,
  daemon: ChildProcess,
  admin: AdminTestClient,
  docx: Buffer,
  stepNo: number,
  stateDir: string,
): Promise<StepResult> {
  const errors: string[] = [];
  const latencies: number[] = [];
  const docs: Array<{ id: string; clients: EditorClient[]; typed: number[] }> = [];
  for (let d = 0; d < n; d++) {
    const id = `load${stepNo}d${d}`;
    const src = host.addFile(id, `${id}.docx`, docx);
    const clients: EditorClient[] = [];
    for (let u = 0; u < USERS; u++) {
      // A load that fails (at high load the daemon's CheckFileInfo can meet a keep-alive socket the host is closing:
      // UND_ERR_SOCKET) is an error of the step, and the user opens the document again, as a user would.
      for (let attempt = 1; ; attempt++) {
        try {
          clients.push((await EditorClient.open(url, src, { token: host.token }, 120_000)).client);
          break;
        } catch (e) {
          errors.push(`${id} user ${u}: open failed (${(e as Error).message.slice(0, 120)})`);
          if (attempt === 3) throw e;
        }
      }
    }
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
  // BENCH_KILL_KITS: every process of these documents' kits is stopped before the users leave and killed once the
  // document is unloading, so the kit dies in its exit save (seen at load: the exit save is then made from the journal).
  const doomed = new Map<string, number[]>();
  if (KILL_KITS > 0) {
    const list = await admin.client.documents.list.query();
    for (const doc of docs.slice(0, KILL_KITS)) {
      const pid = list.find((d) => d.fileName === `${doc.id}.docx`)?.kitPid;
      if (!pid) continue;
      const tree = processTree(pid);
      for (const p of tree) process.kill(p, 'SIGSTOP');
      doomed.set(`${doc.id}.docx`, tree);
    }
  }
  // The users leave: the last one's leaving makes the exit save.
  const left = Date.now();
  for (const doc of docs) for (const c of doc.clients) c.close();
  const killing = (async () => {
    while (doomed.size > 0 && Date.now() < left + 120_000) {
      for (const d of await admin.client.documents.list.query()) {
        const tree = doomed.get(d.fileName);
        if (!tree || d.state !== 'unloading') continue;
        for (const p of tree)
          try {
            process.kill(p, 'SIGKILL');
          } catch {
            // Ended with its parent.
          }
        doomed.delete(d.fileName);
        console.log(`  ${d.fileName}: its kit killed in the exit save ${((Date.now() - left) / 1000).toFixed(1)} s after the users left`);
      }
      await sleep(20);
    }
  })();
  const original = docxText(docx);
  const stored = (id: string) => docxText(host.files.get(id)!.bytes);
  const complete = (doc: (typeof docs)[number]) => LETTERS.every((ch, u) => count(stored(doc.id), ch) >= count(original, ch) + doc.typed[u]!);
  // Each document until its stored file holds everything, or the daemon closed it (its exit save stored or failed:
  // the stored file is final), or the bound.
  const storedAt = new Map<string, number>();
  const closedAt = new Map<string, number>();
  const deadline = left + SAVE_WAIT_MS;
  const waiting = () => docs.filter((d) => !storedAt.has(d.id) && !closedAt.has(d.id));
  while (waiting().length > 0 && Date.now() < deadline) {
    for (const doc of waiting()) if (complete(doc)) storedAt.set(doc.id, Date.now());
    if (waiting().length === 0) break;
    const open = new Set((await admin.client.documents.list.query()).map((d) => d.fileName));
    for (const doc of waiting()) {
      if (complete(doc)) storedAt.set(doc.id, Date.now());
      else if (!open.has(`${doc.id}.docx`)) closedAt.set(doc.id, Date.now());
    }
    await sleep(200);
  }
  await killing;
  let typed = 0;
  let lost = 0;
  for (const doc of docs) {
    let docLost = 0;
    for (const [u, ch] of LETTERS.entries()) {
      typed += doc.typed[u]!;
      docLost += Math.max(0, count(original, ch) + doc.typed[u]! - count(stored(doc.id), ch));
    }
    lost += docLost;
    const at = storedAt.get(doc.id);
    // Which save stored it: the last PutFile of the document (an exit save, or an idle or auto save before it).
    const put = host
      .of('PutFile')
      .filter((r) => r.path === `/wopi/files/${doc.id}/contents`)
      .at(-1);
    const kind = !put
      ? 'no PutFile'
      : put.headers['x-ode-wopi-isexitsave'] === 'true'
        ? 'exit save'
        : put.headers['x-ode-wopi-isautosave'] === 'true'
          ? 'idle or auto save'
          : 'save';
    if (at !== undefined && at - left > 10_000) console.log(`  ${doc.id}: stored ${((at - left) / 1000).toFixed(1)} s after the users left (${kind})`);
    if (docLost > 0)
      console.log(
        `  ${doc.id}: ${docLost} of ${doc.typed.reduce((a, b) => a + b, 0)} typed characters not stored (last PutFile: ${kind}; ${closedAt.has(doc.id) ? `the daemon closed it ${((closedAt.get(doc.id)! - left) / 1000).toFixed(1)} s after the users left` : `still open after ${SAVE_WAIT_MS / 1000} s`})`,
      );
  }
  const stillOpen = docs.length - storedAt.size - closedAt.size;
  if (lost > 0) {
    const copies = await admin.client.documents.recovery.query();
    const journals = journalsLeft(stateDir);
    console.log(`  recovery copies: ${copies.length}, edit journals left: ${journals.length}`);
    for (const r of copies) console.log(`  recovery copy: ${r.fileName} ${r.source} ${r.state} ${r.error ?? ''}`);
    for (const j of journals) console.log(`  edit journal: ${j}`);
    for (const doc of docs.filter((d) => LETTERS.some((ch, u) => count(stored(d.id), ch) < count(original, ch) + d.typed[u]!))) {
      console.log(`  ${doc.id}: the daemon's log about it, and its warnings and errors since the users left (log level ${LOG_LEVEL}):`);
      for (const line of logAbout(doc.id, left)) console.log(`    ${line}`);
    }
  }
  const storedMs = Math.max(0, ...[...storedAt.values()].map((t) => t - left));
  return { n, latencies, errors, conversions, conversionErrors, daemonMb, kitsMb, load, typed, lost, storedMs, stillOpen };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ode-bench-load-'));
  const host = await FakeWopiHost.start();
  const docx = readFileSync(join(CORPUS, DOC));
  const port = await freePort();
  const adminPort = await freePort();
  const config = join(dir, 'ode.yaml');
  // The bench's own admin token for its daemon, in the daemon's state dir (certs/admin-token.ts reads it there).
  const adminToken = randomBytes(32).toString('base64url');
  mkdirSync(join(dir, 'state'), { recursive: true });
  writeFileSync(join(dir, 'state', 'admin_token'), `${adminToken}\n`, { mode: 0o600 });
  const maxN = Math.max(...STEPS);
  writeFileSync(
    config,
    stringify({
      net: { port },
      admin: { listen: '127.0.0.1', port: adminPort },
      state_dir: join(dir, 'state'),
      log_level: LOG_LEVEL,
      kits: { prespawn: 2, max: maxN + 4, ...(CONVERT_NICE === undefined ? {} : { convert_nice: CONVERT_NICE }) },
      documents: { check_secs: 0, ...(SNAPSHOT_SECS === undefined ? {} : { journal_snapshot_secs: SNAPSHOT_SECS }) },
    }),
  );
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ODE_')));
  const daemon = spawn(process.execPath, [ODE, 'serve', '--config', config], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...env, ODE_FROM_SOURCES: '1' } });
  let stderr = '';
  const logFile = LOG_FILE ? createWriteStream(LOG_FILE) : undefined;
  daemon.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-20_000);
    keepLog(d.toString());
    logFile?.write(d);
  });
  const url = `http://127.0.0.1:${port}`;
  const admin = createAdminClient(`http://127.0.0.1:${adminPort}`, adminToken);
  const results: StepResult[] = [];
  let keepDir = process.env.BENCH_KEEP_DIR !== undefined;
  try {
    const deadline = Date.now() + 120_000;
    while (!stderr.includes('Ode is running at') && Date.now() < deadline && daemon.exitCode === null) await sleep(100);
    if (!stderr.includes('Ode is running at')) throw new Error(`the daemon did not start:\n${stderr}`);
    for (const [i, n] of STEPS.entries()) {
      console.log(`step ${n} documents x ${USERS} users (${SECS} s)...`);
      const r = await step(n, url, host, daemon, admin, docx, i, join(dir, 'state'));
      results.push(r);
      if (r.lost > 0) keepDir = true;
      console.log(
        `  p50 ${median(r.latencies).toFixed(1)} ms, p95 ${percentile(r.latencies, 95).toFixed(1)} ms, errors ${r.errors.length}, lost ${r.lost}/${r.typed}, exit saves stored within ${(r.storedMs / 1000).toFixed(1)} s${r.stillOpen ? `, ${r.stillOpen} documents still open` : ''}`,
      );
      for (const e of [...new Set(r.errors)].slice(0, 5)) console.log(`  error: ${e}`);
    }
  } finally {
    await admin.close();
    daemon.kill('SIGTERM');
    await new Promise((r) => daemon.once('exit', r));
    logFile?.end();
    await host.stop();
    if (keepDir) console.log(`kept the daemon's dir (state_dir: state/; delete it when done): ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  const f = (x: number) => x.toFixed(1);
  say(
    `Run of ${new Date().toISOString().slice(0, 16)}Z, Node ${process.version}; ${DOC}; ${SECS} s per step; ${USERS} users per document typing a key every ${KEY_MS} ms; ${CONVERTERS} clients converting docx to pdf back to back; kits.convert_nice ${CONVERT_NICE ?? 'default (10)'}.`,
  );
  say();
  say(
    '| documents | typing users | keys | key to own cursor p50 (ms) | p95 (ms) | max (ms) | errors | conversions (failed) | daemon RSS (MB) | kits RSS (MB) | typed chars lost | exit saves stored within (s) | load average (1/5/15 min) |',
  );
  say('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    say(
      `| ${r.n} | ${r.n * USERS} | ${r.latencies.length} | ${f(median(r.latencies))} | ${f(percentile(r.latencies, 95))} | ${f(Math.max(...r.latencies))} | ${r.errors.length} | ${r.conversions} (${r.conversionErrors}) | ${Math.round(r.daemonMb)} | ${Math.round(r.kitsMb)} | ${r.lost} of ${r.typed}${r.stillOpen ? ` (${r.stillOpen} documents still open)` : ''} | ${(r.storedMs / 1000).toFixed(1)} | ${r.load} |`,
    );
  }
  writeFileSync(process.env.BENCH_OUT ?? new URL('./last-run.md', import.meta.url), `${out.join('\n')}\n`);
}

await main();
