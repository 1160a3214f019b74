/**
 * test/bench/convert: the same small documents converted to PDF by
 *   (a) Ode's warm pool over HTTP (POST /ode/convert-to/pdf),
 *   (b) cold `soffice --headless --convert-to pdf` with a fresh profile each time,
 *   (c) `unoconv` against a running LibreOffice listener,
 *   (d) the floor: load + saveAs inside one warm kit (times measured in the kit, no HTTP),
 * printing the median and min-max per document and ratios, then throughput (documents/s) with 1, 2 and 4
 * concurrent clients against 1 and 2 kits. Run: `npm run bench:convert` (about 3-4 minutes).
 * Writes the tables to stdout and to test/bench/convert/last-run.md.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pino } from 'pino';
import { KitProcess } from '../../../daemon/server/pool/kit-process.ts';
import { fmt, median } from '../stats.ts';
import { CORPUS, DOCS, startOde, THROUGHPUT_DOCS } from './ode-server.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);
const log = pino({ level: 'silent' });
const out: string[] = [];
const say = (line = '') => {
  out.push(line);
  console.log(line);
};

async function odeConvert(url: string, file: string): Promise<number> {
  const form = new FormData();
  form.append('data', new Blob([new Uint8Array(readFileSync(file))]), basename(file));
  const t = performance.now();
  const res = await fetch(`${url}/ode/convert-to/pdf`, { method: 'POST', body: form });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`ode answered ${res.status} for ${file}`);
  return performance.now() - t;
}

function coldSoffice(file: string): number {
  const dir = mkdtempSync(join(tmpdir(), 'ode-bench-cold-'));
  try {
    const t = performance.now();
    execFileSync('soffice', [`-env:UserInstallation=file://${dir}/profile`, '--headless', '--convert-to', 'pdf', '--outdir', dir, file], { stdio: 'ignore' });
    return performance.now() - t;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function withUnoconvListener<T>(fn: (convert: (file: string) => number) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'ode-bench-unoconv-'));
  const port = 2002 + Math.floor(Math.random() * 1000);
  // Debian's python3 (unoconv's python3-uno lives there), whatever python3 comes first on PATH.
  const listener = spawn('/usr/bin/python3', ['/usr/bin/unoconv', '--listener', `--port=${port}`, `--user-profile=${dir}/profile`], {
    stdio: 'ignore',
    env: { ...process.env, HOME: dir },
  });
  try {
    await new Promise((r) => setTimeout(r, 4000));
    const convert = (file: string) => {
      const t = performance.now();
      execFileSync('/usr/bin/python3', ['/usr/bin/unoconv', `--port=${port}`, '-f', 'pdf', '-o', join(dir, 'out.pdf'), file], {
        stdio: 'ignore',
        env: { ...process.env, HOME: dir },
      });
      return performance.now() - t;
    };
    convert(join(CORPUS, DOCS[0])); // warm-up: connects and loads Writer
    return await fn(convert);
  } finally {
    listener.kill('SIGKILL');
    spawn('pkill', ['-9', '-f', `port=${port}`], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  }
}

async function floorRuns(file: string): Promise<number[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'ode-bench-floor-'));
  const kit = new KitProcess({ loPath: '/usr/lib/libreoffice/program', tmpRoot: tmp, log });
  await new Promise<void>((resolve, reject) => {
    kit.once('ready', () => resolve());
    kit.once('exit', () => reject(new Error('floor kit died')));
  });
  const times: number[] = [];
  try {
    for (let i = 0; i < RUNS + 2; i++) {
      const dir = kit.jobDir();
      const input = join(dir, `in${i}.${file.split('.').pop()}`);
      copyFileSync(file, input);
      const r = await kit.convert({ input, output: join(dir, 'out.pdf'), format: 'pdf' }, { loadMs: 100_000, convertMs: 100_000 });
      if (i >= 2) times.push((r.loadMs ?? 0) + (r.saveMs ?? 0));
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    await kit.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
  return times;
}

async function main(): Promise<void> {
  const lo = execFileSync('soffice', ['--version'], { encoding: 'utf8' }).trim();
  say(`# Conversion benchmark (${new Date().toISOString().slice(0, 10)})`);
  say();
  say(
    `Machine: ${execFileSync('nproc').toString().trim()} cores, Node ${process.version}, ${lo}. ${RUNS} runs per document for Ode, the floor and unoconv (after 2 warm-ups), ${COLD_RUNS} for cold soffice.`,
  );
  say();
  const results: Record<string, { ode: number[]; floor: number[]; cold: number[]; unoconv: number[] }> = {};
  for (const d of DOCS) results[d] = { ode: [], floor: [], cold: [], unoconv: [] };

  const ode = await startOde(1);
  for (const d of DOCS) {
    const file = join(CORPUS, d);
    for (let i = 0; i < 2; i++) await odeConvert(ode.url, file);
    for (let i = 0; i < RUNS; i++) results[d].ode.push(await odeConvert(ode.url, file));
  }
  await ode.stop();
  for (const d of DOCS) results[d].floor = await floorRuns(join(CORPUS, d));
  for (const d of DOCS) for (let i = 0; i < COLD_RUNS; i++) results[d].cold.push(coldSoffice(join(CORPUS, d)));
  try {
    await withUnoconvListener(async (convert) => {
      for (const d of DOCS) {
        convert(join(CORPUS, d));
        for (let i = 0; i < RUNS; i++) results[d].unoconv.push(convert(join(CORPUS, d)));
      }
    });
  } catch (e) {
    say(`(unoconv could not run: ${(e as Error).message})`);
  }

  say('## Latency per document to PDF, ms: median (min-max)');
  say();
  say('| document | size | (a) Ode HTTP, warm | (d) floor: load+saveAs in a warm kit | (b) cold soffice | (c) unoconv listener | a/d | b/a | c/a |');
  say('|---|---|---|---|---|---|---|---|---|');
  for (const d of DOCS) {
    const r = results[d];
    const size = `${Math.round(readFileSync(join(CORPUS, d)).length / 1024)} kB`;
    const ratio = (x: number[], y: number[]) => (x.length && y.length ? (median(x) / median(y)).toFixed(2) : '-');
    say(
      `| ${d} | ${size} | ${fmt(r.ode)} | ${fmt(r.floor)} | ${fmt(r.cold)} | ${r.unoconv.length ? fmt(r.unoconv) : '-'} | ${ratio(r.ode, r.floor)} | ${ratio(r.cold, r.ode)} | ${ratio(r.unoconv, r.ode)} |`,
    );
  }
  say();

  say('## Throughput, documents/s (the five documents in rotation, 40 conversions per cell)');
  say();
  say('| kits | 1 client | 2 clients | 4 clients |');
  say('|---|---|---|---|');
  const tput: Record<number, number[]> = {};
  for (const kits of [1, 2]) {
    tput[kits] = [];
    for (const clients of [1, 2, 4]) {
      // A fresh daemon per cell: 120 jobs on one kit would cross kits.max_jobs (100) and time a recycle.
      const o = await startOde(kits);
      for (let i = 0; i < THROUGHPUT_DOCS.length; i++) await odeConvert(o.url, join(CORPUS, THROUGHPUT_DOCS[i])); // warm each kit's filters
      let next = 0;
      const total = 40;
      const t = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (next < total) {
            const i = next++;
            await odeConvert(o.url, join(CORPUS, THROUGHPUT_DOCS[i % THROUGHPUT_DOCS.length]));
          }
        }),
      );
      tput[kits].push(total / ((performance.now() - t) / 1000));
      await o.stop();
    }
    say(`| ${kits} | ${tput[kits].map((x) => x.toFixed(1)).join(' | ')} |`);
  }
  say();
  const best2 = Math.max(...tput[2]);
  const best1 = Math.max(...tput[1]);
  say(`2 kits vs 1 kit (best of each): ${(best2 / best1).toFixed(2)}x`);
  writeFileSync(new URL('./last-run.md', import.meta.url), `${out.join('\n')}\n`);
}

await main();
process.exit(0);
