/**
 * test/bench/convert/cpu-split.ts: where the CPU of a conversion goes. Runs the throughput rotation (the five
 * documents of bench:convert) from `BENCH_CLIENTS` clients (default 4) against `BENCH_KITS` kits (default 2), and
 * prints wall time, documents/s and the CPU seconds of the daemon's process (HTTP, package check in the structure
 * worker threads, IPC; the bench's clients run in it too) and of the kits (every process under each kit, from
 * /proc/<pid>/stat utime+stime) per conversion. Run: `node bin/run-ts.js test/bench/convert/cpu-split.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CORPUS, startOde, THROUGHPUT_DOCS } from './ode-server.ts';

const KITS = Number(process.env.BENCH_KITS ?? 2);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const JOBS = Number(process.env.BENCH_JOBS ?? 40);
const TICK = 100; // USER_HZ

/** utime+stime in s of `pid` and all its descendants (reads /proc). */
function treeCpu(pid: number): number {
  const kids = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const st = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(f[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch {
      // the process ended meanwhile
    }
  }
  let total = 0;
  const walk = (p: number) => {
    try {
      const st = readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      total += (Number(f[11]) + Number(f[12])) / TICK;
    } catch {
      // the process ended meanwhile
    }
    for (const k of kids.get(p) ?? []) walk(k);
  };
  walk(pid);
  return total;
}

const { url, kitPids, stop } = await startOde(KITS);
const files = THROUGHPUT_DOCS.map((d) => ({ name: basename(d), body: readFileSync(join(CORPUS, d)) }));
const convert = async (i: number) => {
  const f = files[i % files.length];
  const form = new FormData();
  form.append('data', new Blob([new Uint8Array(f.body)]), f.name);
  const res = await fetch(`${url}/ode/convert-to/pdf`, { method: 'POST', body: form });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${res.status} for ${f.name}`);
};
for (let i = 0; i < 5; i++) await convert(i);
const pids = kitPids();
const kit0 = pids.map(treeCpu);
const self0 = process.cpuUsage();
const t0 = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    while (next < JOBS) await convert(next++);
  }),
);
const wall = (performance.now() - t0) / 1000;
const self = process.cpuUsage(self0);
const kits = pids.map(treeCpu).reduce((a, b, i) => a + b - kit0[i], 0);
const daemon = (self.user + self.system) / 1e6;
console.log(
  `kits ${KITS} clients ${CLIENTS} jobs ${JOBS}: ${wall.toFixed(1)} s, ${(JOBS / wall).toFixed(1)} docs/s; CPU per conversion: daemon+clients ${((daemon / JOBS) * 1000).toFixed(0)} ms, kits ${((kits / JOBS) * 1000).toFixed(0)} ms; CPU use ${((daemon + kits) / wall).toFixed(2)} cores`,
);
await stop();
