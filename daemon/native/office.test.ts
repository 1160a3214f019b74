/**
 * The addon against real LibreOffice 25.2: each case runs a fixture script in its own process (LibreOffice
 * lives for the life of a process and must be destroyed before it exits).
 */
import { afterAll, describe, expect, it } from 'vitest';

import { fixtureDirs, pdfPages, runFixture } from './test-fixtures/run-fixture.ts';

const dirs = fixtureDirs('ode-native-office');
afterAll(() => dirs.cleanup());

interface ErrorInfo {
  code: string | undefined;
  message: string;
}

interface Basics {
  initMs: number;
  version: { ProductName: string; ProductVersion: string };
  filterTypeCount: number;
  docxMediaType: string | undefined;
  officeEvents: number[];
  docType: number;
  parts: number;
  size: { width: number; height: number };
  pdfPath: string;
  tileLength: number;
  nonWhite: number;
  invalidateMs: number;
  invalidatePayload: string;
  fontNamesIsJson: boolean;
  missing: string | null;
  afterDocDestroy: ErrorInfo;
  asyncAfterDestroy: ErrorInfo;
  invalidArgument: ErrorInfo;
  destroyMs: number;
  afterOfficeDestroy: ErrorInfo;
}

describe('Office and LokDocument (real LibreOffice)', () => {
  it('initialises, loads a docx, saves a PDF, paints a tile, delivers a key event callback, guards destroyed objects', async () => {
    const run = await runFixture<Basics>('basics', {
      workDir: dirs.workDir(),
      profileDir: dirs.profileDir,
      args: ['content-controls/ContentControls.docx'],
    });
    expect(run.code, run.stderr).toBe(0);
    const r = run.result!;
    expect(r.version.ProductName).toBe('LibreOffice');
    expect(r.version.ProductVersion).toBe('25.2');
    expect(r.filterTypeCount).toBeGreaterThan(50);
    expect(r.docxMediaType).toBeTypeOf('string');
    expect(r.officeEvents).toContain(40); // LOK_CALLBACK_SIGNATURE_STATUS after the load
    expect(r.docType).toBe(0); // LOK_DOCTYPE_TEXT
    expect(r.parts).toBe(1);
    // A4 or Letter page width, in twips.
    expect(r.size.width).toBeGreaterThan(11000);
    expect(r.size.height).toBeGreaterThan(15000);
    expect(pdfPages(r.pdfPath)).toBeGreaterThanOrEqual(1);
    expect(r.tileLength).toBe(256 * 256 * 4);
    expect(r.nonWhite).toBeGreaterThan(100);
    expect(r.invalidatePayload).toMatch(/^\d+, \d+, \d+, \d+/);
    expect(r.invalidateMs).toBeLessThan(5000);
    expect(r.fontNamesIsJson).toBe(true);
    expect(r.missing).toBeNull();
    expect(r.afterDocDestroy.code).toBe('destroyed');
    expect(r.asyncAfterDestroy.code).toBe('destroyed');
    expect(r.invalidArgument.code).toBe('invalid_argument');
    expect(r.afterOfficeDestroy.code).toBe('destroyed');
    console.log(
      `[native] lok_init_2 ${r.initMs.toFixed(0)} ms, key -> INVALIDATE_TILES ${r.invalidateMs.toFixed(1)} ms, office.destroy ${r.destroyMs.toFixed(1)} ms`,
    );
  });

  it('refuses destroy while an async call is in flight (busy), and a concurrent load of the same URL', async () => {
    const run = await runFixture<Record<string, string | undefined>>('lifecycle', {
      workDir: dirs.workDir(),
      profileDir: dirs.profileDir,
      args: ['busy'],
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.result).toEqual({
      duringSave: 'busy',
      officeDuringSave: 'busy',
      // Synchronous calls during an async one are allowed (LibreOffice serialises them).
      callDuringSave: undefined,
      duringPaint: 'busy',
      afterAwait: undefined,
      officeDuringLoad: 'busy',
      sameUrl: 'busy',
      secondAfterOfficeDestroy: 'destroyed',
    });
  });

  it('allows one Office per process, even after destroy', async () => {
    const run = await runFixture<Record<string, string>>('lifecycle', {
      workDir: dirs.workDir(),
      profileDir: dirs.profileDir,
      args: ['second-init'],
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.result).toEqual({ again: 'already_initialized', afterDestroy: 'already_initialized' });
  });

  it('exits cleanly on process.exit() with LibreOffice still open (the exit hook destroys it)', async () => {
    const run = await runFixture<{ exiting: boolean }>('lifecycle', {
      workDir: dirs.workDir(),
      profileDir: dirs.profileDir,
      args: ['exit-alive'],
    });
    expect(run.result).toEqual({ exiting: true });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/Unspecified Application Error|Fatal exception/);
  });

  it('office.exitProcess destroys LibreOffice and ends the process with the given code', async () => {
    const run = await runFixture<{ exiting: boolean }>('lifecycle', {
      workDir: dirs.workDir(),
      profileDir: dirs.profileDir,
      args: ['exit-process'],
    });
    expect(run.result).toEqual({ exiting: true });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).not.toMatch(/Unspecified Application Error|Fatal exception/);
  });

  it('rejects bad JSON arguments and bad sizes before they reach LibreOffice', async () => {
    const run = await runFixture<Record<string, string>>('lifecycle', {
      workDir: dirs.workDir(),
      profileDir: dirs.profileDir,
      args: ['bad-json'],
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.result).toEqual({ uno: 'invalid_argument', render: 'invalid_argument', paint: 'invalid_argument', url: 'invalid_argument' });
  });

  it('creates, switches and destroys views; callbacks are per view', async () => {
    const run = await runFixture<Record<string, unknown>>('lifecycle', {
      workDir: dirs.workDir(),
      profileDir: dirs.profileDir,
      args: ['views'],
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.result).toMatchObject({ first: 0, count: 2, countAfter: 1, secondGotInvalidate: true });
    expect(run.result!.current).toBe(run.result!.second);
  });

  it('selects, copies, reads and sets the clipboard, pastes, and paints a part tile', async () => {
    const run = await runFixture<Record<string, unknown>>('lifecycle', {
      workDir: dirs.workDir(),
      profileDir: dirs.profileDir,
      args: ['editing'],
    });
    expect(run.code, run.stderr).toBe(0);
    const r = run.result!;
    expect(r.selection).toMatchObject({ usedMimeType: 'text/plain;charset=utf-8' });
    expect((r.selection as { length: number }).length).toBeGreaterThan(100);
    expect(r.copiedText).toEqual([{ mimeType: 'text/plain;charset=utf-8', text: expect.stringMatching(/\S/) }]);
    expect(r.roundTrip).toEqual(['from the clipboard']);
    expect(r.pasted).toBe(true);
    expect(r.afterContainsPaste).toBe(true);
    expect(r.partName).toBe('Page 1');
    expect(r.rectangles).toMatch(/^\d+, \d+, \d+, \d+$/);
    expect(r.partTileLength).toBe(128 * 64 * 4);
  });

  it('turns a throwing callback listener into an uncaught exception and keeps going', async () => {
    const run = await runFixture<{ uncaughtFirst: string; callsAtLeast: number; partsAfter: number }>('lifecycle', {
      workDir: dirs.workDir(),
      profileDir: dirs.profileDir,
      args: ['throwing'],
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.result!.uncaughtFirst).toBe('listener failed');
    expect(run.result!.partsAfter).toBe(1);
  });
});
