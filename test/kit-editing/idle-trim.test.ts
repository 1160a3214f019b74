import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { KitProcess } from '../../daemon/server/pool/kit-process.ts';
import { endKit, sleep, startKit } from './helpers.ts';

/** Resident set size of a process in MB (/proc/<pid>/status VmRSS). */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/**
 * An idle pool kit gives memory back (idle-trim.ts: LibreOffice 25.2's trimMemory after ODE_KIT_TRIM_IDLE_MS
 * without work), measured from outside in the kit's RSS, against a kit with trimming off.
 */
describe('idle kits trim their memory', () => {
  const kits: Array<{ kit: KitProcess; tmp: string }> = [];
  afterAll(async () => {
    for (const k of kits) await endKit(k.kit, k.tmp);
  });

  async function kitWith(idleMs: number): Promise<KitProcess> {
    process.env.ODE_KIT_TRIM_IDLE_MS = String(idleMs);
    try {
      const k = await startKit();
      kits.push(k);
      return k.kit;
    } finally {
      delete process.env.ODE_KIT_TRIM_IDLE_MS;
    }
  }

  it('after the warm-up, an idle kit trims (RSS drops); a kit with trimming off keeps its RSS', async () => {
    const trimming = await kitWith(4000);
    const atReady = rssMb(trimming.pid!);
    const steady = await kitWith(0);
    const steadyAtReady = rssMb(steady.pid!);
    await sleep(7000);
    const trimmed = rssMb(trimming.pid!);
    const kept = rssMb(steady.pid!);
    console.log(`RSS trimming kit ${atReady.toFixed(0)} -> ${trimmed.toFixed(0)} MB; kit with trimming off ${steadyAtReady.toFixed(0)} -> ${kept.toFixed(0)} MB`);
    expect(trimmed).toBeLessThan(atReady - 10);
    // LibreOffice gives back a little by itself after start (0-5 MB seen): the trimming kit drops clearly more.
    expect(atReady - trimmed).toBeGreaterThan(steadyAtReady - kept + 5);
  }, 90_000);
});
