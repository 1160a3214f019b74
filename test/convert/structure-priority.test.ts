import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { validateConfig } from '../../daemon/server/config/load.ts';
import { StructureEngine } from '../../daemon/server/structure/engine-pool.ts';
import { CORPUS } from '../helpers/convert-client.ts';

/**
 * Issue 17: the structure engine's worker threads (the package check before every conversion, extract, transform)
 * run at `limits.structure_nice`, below the daemon's main thread, which serves the typing. The oracle is the
 * kernel's view: field 19 (nice) of /proc/self/task/<tid>/stat for every thread of this process (the engine runs
 * in the test's process, as in the daemon's).
 */

/** The nice value of every thread of this process, by thread id. */
function threadNices(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

describe('structure worker threads run at limits.structure_nice', () => {
  let engine: StructureEngine | undefined;
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
  });
  const base = getPriority();
  const docx = join(CORPUS, 'properties/documentProperties.docx');

  it('with 10 the threads that ran a package check are reniced, the main thread is not', async () => {
    const before = new Set(threadNices().keys());
    engine = new StructureEngine(() => validateConfig({ limits: { structure_nice: 10, structure_threads: 1 } }, 'test'), pino({ level: 'silent' }));
    await engine.check(docx, 'docx');
    const after = threadNices();
    const niced = [...after].filter(([tid, n]) => !before.has(tid) && n === Math.min(19, base + 10));
    expect(niced.length).toBeGreaterThan(0);
    expect(after.get(process.pid)).toBe(base);
  });

  it('with 0 no thread changes its priority', async () => {
    engine = new StructureEngine(() => validateConfig({ limits: { structure_nice: 0, structure_threads: 1 } }, 'test'), pino({ level: 'silent' }));
    await engine.check(docx, 'docx');
    expect([...threadNices().values()].filter((n) => n !== base)).toEqual([]);
  });
});
