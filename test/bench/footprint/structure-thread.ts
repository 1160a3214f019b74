/**
 * test/bench/footprint/structure-thread.ts: what one structure worker thread costs the daemon (issue 19), with the
 * compiled worker (`dist/structure-worker.js`) as an install runs it: a package check of a small docx on a cold
 * pool (the thread starts for it) against the same check on a warm thread (ms, median of BENCH_RUNS), and this
 * process's RSS with no thread, with one idle thread, and after piscina ended it (MB). Run:
 * `node bin/run-ts.js test/bench/footprint/structure-thread.ts`. Needs `dist/` (node scripts/setup.mjs).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { median } from '../stats.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;
const DOCX = join(ROOT, '../shared/corpus/tracked-changes/delins.docx');
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const IDLE_MS = 1000;
const limits = { xmlDepth: 512, maxUncompressedBytes: 512 * 2 ** 20, maxEntries: 10_000, maxRatio: 200 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;

function pool(): Piscina {
  return new Piscina({ filename: pathToFileURL(join(ROOT, 'dist/structure-worker.js')).href, minThreads: 0, maxThreads: 1, idleTimeout: IDLE_MS });
}

const check = (p: Piscina) => p.run({ kind: 'check', path: DOCX, ext: 'docx', limits });

const cold: number[] = [];
const warm: number[] = [];
const rss = { none: 0, oneThread: 0, afterEnd: 0 };
for (let i = 0; i < RUNS; i++) {
  const p = pool();
  if (i === 0) {
    await sleep(200);
    rss.none = rssMb();
  }
  let t = performance.now();
  await check(p);
  cold.push(performance.now() - t);
  t = performance.now();
  await check(p);
  warm.push(performance.now() - t);
  if (i === 0) {
    rss.oneThread = rssMb();
    await sleep(IDLE_MS + 1500);
    rss.afterEnd = rssMb();
  }
  await p.destroy();
}
console.log(
  JSON.stringify({
    coldCheckMs: Math.round(median(cold) * 10) / 10,
    warmCheckMs: Math.round(median(warm) * 10) / 10,
    rssMb: Object.fromEntries(Object.entries(rss).map(([k, v]) => [k, Math.round(v)])),
    load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
  }),
);
