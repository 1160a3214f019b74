import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { validateConfig } from '../../daemon/server/config/load.ts';
import type { KitProcess } from '../../daemon/server/pool/kit-process.ts';
import { KitPool } from '../../daemon/server/pool/pool.ts';
import { DOCX, LIMITS, stage } from '../kit-editing/helpers.ts';

/**
 * Issue 17 (bench:load): kits that run conversions run at `kits.convert_nice` so that typing in editing kits wins the
 * CPU. Real kits (in bubblewrap where it runs, as in production). The oracle is the kernel's own view: field 19
 * (nice) of /proc/<pid>/task/<tid>/stat for every task of every process under the kit's pid, walked here through
 * /proc/<pid>/task/<tid>/children, and the autogroup nice value of /proc/<pid>/autogroup where the kernel has it.
 */

/** Every process under `pid` (itself included). */
function processes(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        for (const c of readFileSync(`/proc/${out[i]}/task/${tid}/children`, 'utf8').trim().split(/\s+/)) if (c) out.push(Number(c));
      } catch {
        // The task ended.
      }
    }
  }
  return out;
}

/** The nice value of every task of the kit's process tree (field 19 of each task's stat). */
function taskNices(pid: number): number[] {
  const nices: number[] = [];
  for (const p of processes(pid)) {
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${p}/task/${tid}/stat`, 'utf8');
        nices.push(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
      } catch {
        // The task ended.
      }
    }
  }
  return nices;
}

/** The autogroup nice values of the kit's processes (empty where the kernel has no autogroups). */
function autogroupNices(pid: number): number[] {
  return processes(pid).flatMap((p) => {
    try {
      const m = / nice (-?\d+)/.exec(readFileSync(`/proc/${p}/autogroup`, 'utf8'));
      return m ? [Number(m[1])] : [];
    } catch {
      return [];
    }
  });
}

/** Time limits of the test's conversions: a niced kit gets a small share of a loaded machine's CPU. */
const CONVERT_LIMITS = { loadMs: 150_000, convertMs: 150_000 };

/** Converts the test docx to PDF on a conversion kit; returns the kit (still alive, back in the pool). */
async function convertOnce(pool: KitPool): Promise<KitProcess> {
  return pool.withConversionKit(async (kit) => {
    const input = stage(kit, DOCX);
    const output = join(input, '..', 'out.pdf');
    await kit.convert({ input, output, format: 'pdf' }, CONVERT_LIMITS);
    expect(readFileSync(output).subarray(0, 5).toString()).toBe('%PDF-');
    return kit;
  });
}

describe('conversion kits run at kits.convert_nice, editing kits at normal priority', () => {
  // The test runner's own nice value: kits start with it (a runner started under `nice` makes it above 0).
  const base = getPriority();
  const stateDir = mkdtempSync(join(tmpdir(), 'ode-priority-state-'));
  let pool: KitPool | undefined;
  const newPool = (kits: Record<string, number>) => {
    const config = validateConfig({ state_dir: stateDir, kits: { prespawn: 1, convert_concurrency: 1, ...kits }, limits: { queue: 4 } }, 'test');
    pool = new KitPool({ config: () => config, log: pino({ level: process.env.ODE_TEST_LOG ?? 'silent' }) });
    pool.start();
    return pool;
  };
  afterEach(async () => {
    await pool?.stop();
    pool = undefined;
  });
  afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

  it('a conversion kit is reniced in every task and kept for conversions; an editing document gets a kit at normal priority', async () => {
    const p = newPool({ max: 3, convert_nice: 10 });
    await p.waitReady(1, 60_000);
    const conv = await convertOnce(p);
    const want = Math.max(base, 10);
    // LibreOffice's threads (a dozen and more) and the sandbox's processes, every one of them at the new value.
    const nices = taskNices(conv.pid!);
    expect(nices.length).toBeGreaterThan(5);
    expect(new Set(nices)).toEqual(new Set([want]));
    for (const n of autogroupNices(conv.pid!)) expect(n).toBe(10);
    expect(p.status().kits.find((k) => k.id === conv.id)?.nice).toBe(10);

    // The next conversion prefers the niced kit over the warm normal one; threads LibreOffice starts meanwhile
    // inherit the value.
    const again = await convertOnce(p);
    expect(again.id).toBe(conv.id);
    expect(new Set(taskNices(conv.pid!))).toEqual(new Set([want]));

    // An editing document never gets the niced kit: a normal one, whose tasks stay at the runner's value after
    // LibreOffice loaded the document.
    const edit = await p.leaseEditingKit();
    expect(edit.id).not.toBe(conv.id);
    await edit.open({ input: stage(edit, DOCX) }, LIMITS);
    const editNices = taskNices(edit.pid!);
    expect(editNices.length).toBeGreaterThan(5);
    expect(new Set(editNices)).toEqual(new Set([base]));
    for (const n of autogroupNices(edit.pid!)) expect(n).toBe(0);
    // The runner (the daemon's place) keeps its priority.
    expect(getPriority()).toBe(base);
    p.retireKit(edit);
  }, 400_000);

  it('at kits.max 1 an editing document still gets a kit: the free niced kit is stopped and a normal one started', async () => {
    const p = newPool({ max: 1, convert_nice: 10 });
    await p.waitReady(1, 60_000);
    const conv = await convertOnce(p);
    expect(conv.nice).toBe(10);
    const edit = await p.leaseEditingKit();
    expect(edit.id).not.toBe(conv.id);
    expect(edit.nice).toBe(0);
    expect(new Set(taskNices(edit.pid!))).toEqual(new Set([base]));
    expect(conv.alive).toBe(false);
    p.retireKit(edit);
  }, 400_000);

  it('with kits.convert_nice 0 nothing is reniced and the kit that converted can be leased for editing', async () => {
    const p = newPool({ max: 1, convert_nice: 0 });
    await p.waitReady(1, 60_000);
    const conv = await convertOnce(p);
    expect(conv.nice).toBe(0);
    expect(new Set(taskNices(conv.pid!))).toEqual(new Set([base]));
    for (const n of autogroupNices(conv.pid!)) expect(n).toBe(0);
    const edit = await p.leaseEditingKit();
    expect(edit.id).toBe(conv.id);
    p.retireKit(edit);
  }, 400_000);
});
