import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { FileInfo } from '../wopi/check-file-info.ts';
import { DocumentJournal } from './document-journal.ts';
import type { KitEditEvent } from './editing-kit.ts';
import type { ViewHandle } from './view-handle.ts';

const root = mkdtempSync(join(tmpdir(), 'ode-doc-journal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const view: ViewHandle = {
  fileInfo: { BaseFileName: 'a.xlsx', UserCanWrite: true, UserFriendlyName: 'U', UserId: 'u' } as FileInfo,
  token: 'tok',
  readonly: false,
  viewId: 0,
  lang: undefined,
  deviceFormFactor: undefined,
  send: () => undefined,
  sendBinary: () => undefined,
  close: () => undefined,
};
const click: KitEditEvent = { type: 'mouse', event: 'buttondown', x: 10, y: 10, count: 1, buttons: 1, modifier: 0 };
const key: KitEditEvent = { type: 'key', event: 'input', charCode: 97, keyCode: 0 };

/** A journal over a kit folder file of its own (no kit: snapshots are not taken; this is the lifecycle of the journal). */
function journal(name: string): { j: DocumentJournal; dir: string } {
  const file = join(root, `${name}.xlsx`);
  writeFileSync(file, 'stored file');
  const dir = join(root, 'journal', name);
  const j = new DocumentJournal(
    {
      wopiSrc: () => `http://127.0.0.1:1/wopi/files/${name}`,
      kit: () => undefined,
      path: () => file,
      fileName: () => `${name}.xlsx`,
      lastModifiedTime: () => 't0',
      writer: () => view,
      live: () => true,
      log: pino({ level: 'silent' }),
    },
    { dir, syncMs: 10_000, snapshotMs: 60_000 },
  );
  return { j, dir };
}

/**
 * The edit journal's lifecycle (issue 17): input that changes nothing waits in memory and starts no journal; a change
 * (an input, or LibreOffice saying "modified") starts it with that input first; it goes when the host has everything.
 * The same behaviour against real kits and a restart: test/faults/view-only-journal.test.ts.
 */
describe('DocumentJournal: when a journal starts and goes', () => {
  it('clicks, arrows and sheet switches start no journal; a typed key starts one holding them first', () => {
    const { j, dir } = journal('lead');
    j.record(view, { type: 'setPart', part: 2 });
    j.record(view, click);
    j.record(view, { type: 'key', event: 'input', charCode: 0, keyCode: 1024 });
    expect(j.active).toBe(false);
    expect(existsSync(dir)).toBe(false);
    j.record(view, key);
    expect(j.active).toBe(true);
    const back = j.readBack()!;
    expect(back.snapshot.stored).toBe(true);
    expect(back.entries.map((e) => ('e' in e ? e.e.type : 'paste'))).toEqual(['setPart', 'mouse', 'key', 'key']);
  });

  it('LibreOffice saying "modified" after a click (a check box) starts the journal with the click', () => {
    const { j } = journal('modified');
    j.record(view, click);
    expect(j.active).toBe(false);
    j.modifiedChanged(true);
    expect(j.active).toBe(true);
    expect(j.readBack()!.entries).toHaveLength(1);
  });

  it('an upload holding the last change deletes the journal though clicks came after it', () => {
    const { j, dir } = journal('upload');
    j.record(view, key);
    const cut = j.cut();
    j.saved(cut);
    j.record(view, click);
    j.uploaded(cut, 't1');
    expect(j.active).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });

  it('at the unload with the host holding everything, a journal of changes made before the last upload goes; typed keys after it stay', () => {
    const a = journal('unload-a');
    a.j.record(view, click);
    a.j.modifiedChanged(true);
    a.j.storedAll();
    expect(a.j.active).toBe(false);
    const b = journal('unload-b');
    b.j.record(view, key);
    b.j.storedAll();
    expect(b.j.active).toBe(true);
  });
});
