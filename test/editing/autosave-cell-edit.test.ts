import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { documentsClosed, startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';

const XLSX = readFileSync(join(CORPUS, 'spreadsheets/SampleSS.xlsx'));

/** The text of every cell of a stored xlsx: its shared strings and inline strings, joined. */
function xlsxText(bytes: Uint8Array): string {
  const parts = unzipSync(bytes, { filter: (f) => f.name === 'xl/sharedStrings.xml' || f.name.startsWith('xl/worksheets/') });
  return Object.values(parts)
    .map((p) => strFromU8(p))
    .join('\n');
}

/**
 * Issue 16 ("whatever a user has typed in a cell is part of every save"): the autosave timer saves with
 * DontTerminateEdit (it must not end the edit of someone typing), so LibreOffice stores the sheet without the text of
 * a cell still being edited, and that text does not mark the document modified. The upload then left the document
 * "saved", and a close right after made no exit save: the cell's text reached the host only when a later start
 * rebuilt the edit journal. Now a spreadsheet saved in edit mode stays unsaved, and the exit save enters the cell.
 * Real LibreOffice, a fake WOPI host; checked in the stored xlsx.
 */
describe('a cell being edited: saves and snapshots do not end its edit, the exit save stores it', () => {
  let host: FakeWopiHost | undefined;
  let daemon: TestDaemon | undefined;
  afterAll(async () => {
    await daemon?.stop();
    await host?.stop();
  });

  it('the exit save stores the cell text the autosave left out', { timeout: 240_000 }, async () => {
    host = await FakeWopiHost.start();
    daemon = await startDaemon({ documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 4 } }, 1);
    const src = host.addFile('ac1', 'ac1.xlsx', XLSX);
    const { client } = await EditorClient.open(daemon.url, src, { token: host.token }, 90_000);
    // A committed change (Enter), then text typed into the next cell and left in edit mode.
    const from = client.messages.length;
    client.type('Committed1');
    client.send({ type: 'key', event: 'input', charCode: 13, keyCode: 1280 });
    client.send({ type: 'key', event: 'up', charCode: 13, keyCode: 1280 });
    await client.next('modified', (m) => m.modified, 30_000, from);
    client.type('Pending2');
    // The formula bar shows the typed text: LibreOffice has it, in the cell's edit mode.
    await client.next('cellFormula', (m) => JSON.stringify(m).includes('Pending2'), 30_000, from);
    // The autosave timer's save and upload.
    const deadline = Date.now() + 60_000;
    while (!host.of('PutFile').some((p) => p.headers['x-ode-wopi-isautosave'] === 'true') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const autosaves = host.of('PutFile').filter((p) => p.headers['x-ode-wopi-isautosave'] === 'true');
    expect(autosaves.length).toBeGreaterThan(0);
    // The autosave kept the cell in edit mode: what it stored has the committed text, not the pending one.
    const afterAutosave = xlsxText(host.files.get('ac1')!.bytes);
    expect(afterAutosave).toContain('Committed1');
    expect(afterAutosave).not.toContain('Pending2');

    client.close();
    expect(await documentsClosed(daemon.server, 90_000)).toBe(true);
    const last = host.of('PutFile').at(-1)!;
    expect(last.headers['x-ode-wopi-isexitsave']).toBe('true');
    const stored = xlsxText(host.files.get('ac1')!.bytes);
    expect(stored).toContain('Committed1');
    expect(stored).toContain('Pending2');
  });

  // LibreOffice's saveAs (the edit journal's snapshot, 2 s after the last key; documents.journal_snapshot_secs) and
  // a save entering the cell (the idle save) end a cell's edit mode; the user's next key then starts a new edit that
  // replaces the cell: 'Hello', a pause, 'World' + Enter stored 'World'. Now neither runs into a cell being edited.
  it.each([
    ['the journal snapshot', 3600, 6],
    ['the idle save', 3, 7],
  ])('a pause in a cell past %s: the text typed after it is added, not put in its place', { timeout: 240_000 }, async (_what, idleSecs, pauseSecs) => {
    host ??= await FakeWopiHost.start();
    await daemon?.stop();
    daemon = await startDaemon({ documents: { check_secs: 0, idle_save_secs: idleSecs, autosave_secs: 3600, journal_snapshot_secs: 2 } }, 1);
    const id = `pause${idleSecs}`;
    const { client } = await EditorClient.open(daemon.url, host.addFile(id, `${id}.xlsx`, XLSX), { token: host.token }, 90_000);
    const from = client.messages.length;
    client.type('Hello');
    await client.next('cellFormula', (m) => m.formula === 'Hello', 30_000, from);
    // Past the snapshot time and the idle save time, with nothing typed.
    await new Promise((r) => setTimeout(r, pauseSecs * 1000));
    client.type('World');
    await client.next('cellFormula', (m) => m.formula.endsWith('World'), 30_000, from);
    client.send({ type: 'key', event: 'input', charCode: 13, keyCode: 1280 });
    client.send({ type: 'key', event: 'up', charCode: 13, keyCode: 1280 });
    await client.next('modified', (m) => m.modified, 30_000, from);
    client.close();
    expect(await documentsClosed(daemon.server, 90_000)).toBe(true);
    expect(xlsxText(host.files.get(id)!.bytes)).toContain('HelloWorld');
  });
});
