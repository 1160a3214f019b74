import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { DOMParser } from '@xmldom/xmldom';
import { strFromU8, unzipSync } from 'fflate';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pino } from 'pino';
import { KitProcess } from '../../daemon/server/pool/kit-process.ts';
import { VclKeyCode } from '../../daemon/protocol/lok-enums.ts';
import type { KitEditEvent } from '../../daemon/protocol/kit.ts';

export const LO_PATH = '/usr/lib/libreoffice/program';
export const LIMITS = { loadMs: 60_000, convertMs: 60_000 };
export const DOCX = '/work/shared/corpus/properties/documentProperties.docx';

/** A kit started for one test file, in its own temp root. */
export async function startKit(): Promise<{ kit: KitProcess; tmp: string }> {
  const tmp = mkdtempSync(join(tmpdir(), 'ode-kit-editing-'));
  const kit = new KitProcess({ loPath: LO_PATH, tmpRoot: tmp, log: pino({ level: process.env.ODE_TEST_LOG ?? 'silent' }) });
  await new Promise<void>((resolve, reject) => {
    kit.once('ready', () => resolve());
    kit.once('exit', () => reject(new Error('kit died while starting')));
  });
  return { kit, tmp };
}

/** Kills the kit (if alive) and removes its temp root. */
export async function endKit(kit: KitProcess | undefined, tmp: string | undefined): Promise<void> {
  if (kit?.alive) {
    const exited = new Promise((r) => kit.once('exit', r));
    kit.kill();
    await exited;
  }
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}

/**
 * For the describe block it is called in: a kit started before all tests (startKit) and ended after them (endKit).
 * Returns the object the beforeAll fills in (`kit`, its temp root `tmp`): read it in tests and later hooks.
 */
export function useKit(): { kit: KitProcess; tmp: string } {
  const env = {} as { kit: KitProcess; tmp: string };
  beforeAll(async () => {
    Object.assign(env, await startKit());
  });
  afterAll(async () => endKit(env.kit, env.tmp));
  return env;
}

/**
 * Copies `file` into a fresh job dir of the kit and returns the copy's path. The copy is writable (0644), as the
 * daemon's downloaded copy is: the corpus files are read-only (0444), and a copy keeping that mode cannot be saved in
 * place (`.uno:Save` answers save_failed).
 */
export function stage(kit: KitProcess, file: string): string {
  const input = join(kit.jobDir(), basename(file));
  copyFileSync(file, input);
  chmodSync(input, 0o644);
  return input;
}

/** The key events (input, then up) of typing one character. */
export function keyEvents(ch: string): KitEditEvent[] {
  const keyCode = ch === ' ' ? VclKeyCode.KEY_SPACE : 0;
  const charCode = ch.charCodeAt(0);
  return [
    { type: 'key', event: 'input', charCode, keyCode },
    { type: 'key', event: 'up', charCode, keyCode },
  ];
}

/** Resolves with the first callback matching `pred` (rejects after `ms`). */
export function nextCallback(
  kit: KitProcess,
  pred: (viewId: number, type: number, payload: string) => boolean,
  ms = 5000,
  what = 'matching callback',
): Promise<{ viewId: number; type: number; payload: string; at: number }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      kit.off('callback', listener);
      reject(new Error(`no ${what} within ${ms} ms`));
    }, ms);
    const listener = (viewId: number, type: number, payload: string) => {
      if (!pred(viewId, type, payload)) return;
      clearTimeout(timer);
      kit.off('callback', listener);
      resolve({ viewId, type, payload, at: performance.now() });
    };
    kit.on('callback', listener);
  });
}

/** The value at fraction `q` of sorted numbers (nearest rank). */
export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The cached value (`c/v`) of cell `ref` in any worksheet of xlsx bytes (ECMA-376 Part 1, 18.3.1.4), as a number. */
export function xlsxCellValue(xlsx: Uint8Array, ref: string): number | undefined {
  const parts = unzipSync(xlsx, { filter: (f) => /^xl\/worksheets\/[^/]+\.xml$/.test(f.name) });
  for (const bytes of Object.values(parts)) {
    const cells = new DOMParser().parseFromString(strFromU8(bytes), 'text/xml').getElementsByTagName('c');
    for (let i = 0; i < cells.length; i++) {
      const c = cells[i]!;
      if (c.getAttribute('r') !== ref) continue;
      const v = c.getElementsByTagName('v')[0]?.textContent;
      return v == null ? undefined : Number(v);
    }
  }
  return undefined;
}

/** A spreadsheet serial date-time (days since 1899-12-30) as hours ahead of UTC now. */
export const hoursAheadOfUtc = (serial: number) => (serial - (Date.now() / 86_400_000 + 25_569)) * 24;
