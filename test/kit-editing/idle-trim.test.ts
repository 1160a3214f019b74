import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { strFromU8, unzipSync } from 'fflate';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { LOK_CALLBACK_INVALIDATE_TILES } from '../../daemon/protocol/lok-enums.ts';
import { KitProcess } from '../../daemon/server/pool/kit-process.ts';
import { DOCX, endKit, keyEvents, LIMITS, LO_PATH, nextCallback, sleep, stage, startKit } from './helpers.ts';

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
    // LibreOffice gives back about 8 MB by itself some 5-8 s after start (its own idle jobs; seen in both kits, the
    // one with trimming off too), so the trim comes later than that: the baseline is taken after LibreOffice's own
    // release and just before the trim, and both kits are compared over the same window.
    const idleMs = 15_000;
    const trimming = await kitWith(idleMs);
    const readyAt = Date.now();
    const steady = await kitWith(0);
    await sleep(Math.max(0, readyAt + idleMs - 1000 - Date.now()));
    const atBaseline = { trimming: rssMb(trimming.pid!), steady: rssMb(steady.pid!) };
    // The trim timer may fire late on a loaded machine: wait for the drop up to 15 s more.
    let trimmed = rssMb(trimming.pid!);
    for (let waited = 0; trimmed > atBaseline.trimming - 5 && waited < 15_000; waited += 250) {
      await sleep(250);
      trimmed = rssMb(trimming.pid!);
    }
    await sleep(500);
    trimmed = rssMb(trimming.pid!);
    const kept = rssMb(steady.pid!);
    console.log(
      `RSS trimming kit ${atBaseline.trimming.toFixed(0)} -> ${trimmed.toFixed(0)} MB; kit with trimming off ${atBaseline.steady.toFixed(0)} -> ${kept.toFixed(0)} MB`,
    );
    // With the kits' MALLOC_ARENA_MAX=2 (kit-process.ts) the trim gives back about 10 MB (11 MB measured, quiet).
    expect(trimmed).toBeLessThan(atBaseline.trimming - 5);
    expect(atBaseline.trimming - trimmed).toBeGreaterThan(atBaseline.steady - kept + 5);
  }, 90_000);
});

/**
 * An editing kit whose document had no input or request for ODE_KIT_TRIM_EDIT_IDLE_MS trims too (idle-trim.ts), and
 * typing goes on afterwards: the kit's own log line says so, and the saved docx holds the text typed before and
 * after the trim.
 */
describe('an idle editing document trims its kit', () => {
  let kit: KitProcess | undefined;
  let tmp: string | undefined;
  afterAll(async () => endKit(kit, tmp));

  it('after the idle time the kit trims; keys typed after it still land and are saved', async () => {
    tmp = mkdtempSync(join(tmpdir(), 'ode-kit-edit-trim-'));
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    process.env.ODE_KIT_TRIM_EDIT_IDLE_MS = '2000';
    try {
      kit = new KitProcess({ loPath: LO_PATH, tmpRoot: tmp, log: pino({ level: 'debug' }, sink) });
    } finally {
      delete process.env.ODE_KIT_TRIM_EDIT_IDLE_MS;
    }
    const started = kit;
    await new Promise<void>((resolve, reject) => {
      started.once('ready', () => resolve());
      started.once('exit', () => reject(new Error('kit died while starting')));
    });
    const input = stage(kit, DOCX);
    const { viewId } = await kit.open({ input, userName: 'Alice' }, LIMITS);
    const type = async (text: string) => {
      for (const ch of text) {
        const invalidated = nextCallback(started, (_v, t) => t === LOK_CALLBACK_INVALIDATE_TILES);
        for (const e of keyEvents(ch)) started.sendEvent(viewId, e);
        await invalidated;
        await sleep(40);
      }
    };
    await type('Before');
    const trimmed = () => lines.some((l) => l.includes('editing kit: idle for 2 s, trimmed memory'));
    expect(trimmed()).toBe(false);
    for (let waited = 0; !trimmed() && waited < 15_000; waited += 250) await sleep(250);
    expect(trimmed()).toBe(true);
    await type('After');
    expect(await kit.saveDoc(viewId, false)).toEqual({ saved: true });
    const xml = strFromU8(unzipSync(readFileSync(input), { filter: (f) => f.name === 'word/document.xml' })['word/document.xml']);
    expect(xml.replace(/<[^>]+>/g, '')).toContain('BeforeAfter');
  }, 90_000);
});
