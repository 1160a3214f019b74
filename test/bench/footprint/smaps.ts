/**
 * test/bench/footprint/smaps.ts: one process's memory read from /proc/<pid>/smaps (issue 19's footprint benches).
 */
import { readFileSync } from 'node:fs';

/** Memory of one process from /proc/<pid>/smaps, kB: totals and the resident file mappings by basename. */
export interface Breakdown {
  rss: number;
  /** Proportional set size: shared pages (libraries, fonts) divided among the processes mapping them. */
  pss: number;
  anon: number;
  heap: number;
  file: number;
  fonts: number;
  byFile: Record<string, number>;
}

/**
 * Reads /proc/<pid>/smaps into a Breakdown (kB).
 * @throws Error when the process is gone (ENOENT).
 */
export function breakdown(pid: number): Breakdown {
  const b: Breakdown = { rss: 0, pss: 0, anon: 0, heap: 0, file: 0, fonts: 0, byFile: {} };
  let name = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      name = head[1];
      continue;
    }
    const m = /^(Rss|Pss|Anonymous):\s+(\d+) kB/.exec(line);
    if (!m) continue;
    const kb = Number(m[2]);
    if (m[1] === 'Pss') {
      b.pss += kb;
      continue;
    }
    if (m[1] === 'Anonymous') {
      b.anon += kb;
      continue;
    }
    b.rss += kb;
    if (name === '[heap]') b.heap += kb;
    else if (name.startsWith('/')) {
      b.file += kb;
      if (/\/fonts\//.test(name)) b.fonts += kb;
      const base = name.slice(name.lastIndexOf('/') + 1);
      b.byFile[base] = (b.byFile[base] ?? 0) + kb;
    }
  }
  return b;
}
