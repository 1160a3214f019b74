import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../daemon/server/config/load.ts';
import { inKitJob } from '../../daemon/server/convert/kit-job.ts';
import { OdeError } from '../../daemon/server/errors.ts';
import { KitPool } from '../../daemon/server/pool/pool.ts';
import type { KitProcess } from '../../daemon/server/pool/kit-process.ts';
import { DOCX, LIMITS, stage } from './helpers.ts';

/**
 * A kit leased for editing that dies (SIGKILL while a document is open and requests are in flight): the
 * KitProcess emits `exit`, every pending request fails with kit_crashed, and the pool gives a fresh kit after it.
 */
describe('kit editing: a kit killed while a document is open', () => {
  const config = validateConfig({ kits: { prespawn: 1, max: 2, convert_concurrency: 1 }, limits: { queue: 4 } }, 'test');
  const pool = new KitPool({ config: () => config, log: pino({ level: process.env.ODE_TEST_LOG ?? 'silent' }) });
  afterAll(async () => pool.stop());

  it('exit is emitted, pending requests reject with kit_crashed, the pool leases a fresh kit afterwards', async () => {
    pool.start();
    const kit: KitProcess = await pool.leaseEditingKit();
    expect(pool.status().kits.find((k) => k.id === kit.id)?.editing).toBe(true);
    const opened = await kit.open({ input: stage(kit, DOCX) }, LIMITS);
    const exited = new Promise<[number | null, string | null]>((r) => kit.once('exit', (code, signal) => r([code, signal])));
    const pending = [kit.exportDoc(join(kit.dir, 'slow.pdf'), 'pdf'), kit.saveDoc(opened.viewId, false), kit.commandValues(opened.viewId, '.uno:CharFontName')];
    process.kill(kit.pid!, 'SIGKILL');
    const settled = await Promise.allSettled(pending);
    expect(await exited).toEqual([null, 'SIGKILL']);
    // Every request settles (none hangs); one the kit answered before the signal landed may have succeeded (a quick
    // getCommandValues can), every other one fails with kit_crashed, and the PDF export (the slowest) cannot finish.
    for (const s of settled) if (s.status === 'rejected') expect(s.reason).toMatchObject({ code: 'kit_crashed' });
    expect(settled.filter((s) => s.status === 'rejected').length).toBeGreaterThan(0);
    expect(pool.crashes).toBe(1);
    // Nothing more goes to a dead kit, and retiring it is harmless.
    kit.sendEvent(opened.viewId, { type: 'textInput', text: 'lost' });
    await expect(kit.commandValues(opened.viewId, '.uno:CharFontName')).rejects.toMatchObject({ code: 'internal' });
    pool.retireKit(kit);

    const fresh = await pool.leaseEditingKit();
    expect(fresh.pid).not.toBe(kit.pid);
    const again = await fresh.open({ input: stage(fresh, DOCX) }, LIMITS);
    expect(again.docType).toBe(0);
    // A document that closes normally: the kit exits by itself and is not counted as a crash.
    const gone = new Promise((r) => fresh.once('exit', r));
    await fresh.closeDoc();
    await gone;
    pool.retireKit(fresh);
    expect(pool.crashes).toBe(1);
    // The pool keeps a warm kit for conversions meanwhile.
    await pool.waitReady(1);
    expect(pool.status().kits.every((k) => !k.editing)).toBe(true);
  });

  it('a kit folder that cannot be removed after the kit died is logged, not thrown, and the pool goes on', async () => {
    // A file made immutable (chattr +i: root cannot remove it either) stands for a process of the dead kit still
    // writing into its folder (ENOTEMPTY): before, the exit handler's rmSync threw, an uncaught exception.
    const lines: string[] = [];
    const logged = new KitPool({ config: () => config, log: pino({ level: 'warn' }, { write: (l: string) => void lines.push(l) }) });
    logged.start();
    const kit = await logged.leaseEditingKit();
    const stuck = join(kit.dir, 'stuck');
    writeFileSync(stuck, 'x');
    execFileSync('chattr', ['+i', stuck]);
    try {
      const exited = new Promise((r) => kit.once('exit', r));
      process.kill(kit.pid!, 'SIGKILL');
      await exited;
      await expect.poll(() => lines.some((l) => l.includes('kit folder not removed after the exit')), { timeout: 15_000 }).toBe(true);
      logged.retireKit(kit);
      const fresh = await logged.leaseEditingKit();
      expect(fresh.pid).not.toBe(kit.pid);
      logged.retireKit(fresh);
    } finally {
      execFileSync('chattr', ['-i', stuck]);
      rmSync(kit.dir, { recursive: true, force: true });
      await logged.stop();
    }
  });

  it("a conversion job's folder that cannot be removed is logged; the job's own error stands", async () => {
    // As above, an immutable file stands for a timed-out job's killed kit still writing into the job folder. Before,
    // inKitJob's rmSync threw EPERM/ENOTEMPTY in its finally, and the request got that (a 500) instead of its time-out.
    const lines: string[] = [];
    const logged = new KitPool({ config: () => config, log: pino({ level: 'warn' }, { write: (l: string) => void lines.push(l) }) });
    logged.start();
    let stuck = '';
    try {
      const job = inKitJob(logged, async (_kit, dir) => {
        stuck = join(dir, 'stuck');
        writeFileSync(stuck, 'x');
        execFileSync('chattr', ['+i', stuck]);
        throw new OdeError('timeout', 'the conversion took too long');
      });
      await expect(job).rejects.toMatchObject({ code: 'timeout' });
      expect(lines.some((l) => l.includes('job folder not removed'))).toBe(true);
    } finally {
      if (stuck) execFileSync('chattr', ['-i', stuck]);
      await logged.stop();
    }
  });

  it('editing kits count towards kits.max: with every kit editing, a lease waits until one is retired', async () => {
    const a = await pool.leaseEditingKit();
    const b = await pool.leaseEditingKit();
    let third: KitProcess | undefined;
    const waiting = pool.leaseEditingKit().then((k) => (third = k));
    await new Promise((r) => setTimeout(r, 500));
    expect(third).toBeUndefined();
    expect(pool.status().queue).toBe(1);
    pool.retireKit(a);
    await waiting;
    expect(third).toBeDefined();
    expect([a.id, b.id]).not.toContain(third!.id);
    pool.retireKit(b);
    pool.retireKit(third!);
  });
});
