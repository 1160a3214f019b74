import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
/** vcl key codes: F2 (Calc's edit mode in the cell), Home, Up. */
const F2 = 769;
const HOME = 1028;
const UP = 1025;

/** Presses and releases one key. */
function key(client: EditorClient, charCode: number, keyCode: number): void {
  client.send({ type: 'key', event: 'input', charCode, keyCode });
  client.send({ type: 'key', event: 'up', charCode, keyCode });
}

/** Enter: the cell's text is entered and the cursor moves down. */
const enter = (client: EditorClient) => key(client, 13, 1280);

/**
 * Types `text` into the cell `client` is editing and waits (30 s at most) for a formula bar message, after message
 * index `from`, showing `formula`: the cell's whole text once LibreOffice has the keys.
 */
async function typeShowing(client: EditorClient, text: string, formula: string, from: number): Promise<void> {
  client.type(text);
  await client.next('cellFormula', (m) => m.formula === formula, 30_000, from);
}

/** Enter, then waits until the cell cursor has moved (a cell address after it). */
async function entered(client: EditorClient): Promise<void> {
  const from = client.messages.length;
  enter(client);
  await client.next('cellAddress', () => true, 30_000, from);
}

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

  // LibreOffice's saveAs (the edit journal's snapshot, 2 s after the last key; documents.journal_snapshot_secs) ends a
  // cell's edit mode; the user's next key then starts a new edit that replaces the cell: 'Hello', a pause, 'World' +
  // Enter stored 'World'. The snapshot waits until the cell's edit ends.
  it('a pause in a cell past the journal snapshot: the text typed after it is added, not put in its place', { timeout: 240_000 }, async () => {
    host ??= await FakeWopiHost.start();
    await daemon?.stop();
    daemon = await startDaemon({ documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600, journal_snapshot_secs: 2 } }, 1);
    const { client } = await EditorClient.open(daemon.url, host.addFile('pause', 'pause.xlsx', XLSX), { token: host.token }, 90_000);
    const from = client.messages.length;
    await typeShowing(client, 'Hello', 'Hello', from);
    // Past the snapshot time, with nothing typed.
    await new Promise((r) => setTimeout(r, 6000));
    await typeShowing(client, 'World', 'HelloWorld', from);
    await entered(client);
    client.close();
    expect(await documentsClosed(daemon.server, 90_000)).toBe(true);
    expect(xlsxText(host.files.get('pause')!.bytes)).toContain('HelloWorld');
  });

  // The idle save enters the cell (its text is in the stored file) and the kit puts the cell back into edit mode with
  // the caret where it was, so typing goes on in the cell (issue 16).
  describe('the idle save stores the text of a cell being edited, and the cell stays in edit mode', () => {
    /** Opens `id` with idle_save_secs 3 in a daemon of its own; the stored file's text after the first idle save. */
    const open = async (id: string) => {
      host ??= await FakeWopiHost.start();
      await daemon?.stop();
      daemon = await startDaemon({ documents: { check_secs: 0, idle_save_secs: 3, autosave_secs: 3600, journal_snapshot_secs: 2 } }, 1);
      const { client } = await EditorClient.open(daemon.url, host.addFile(id, `${id}.xlsx`, XLSX), { token: host.token }, 90_000);
      return client;
    };
    /** Waits for `n` idle-save PutFiles of `id` (isautosave), then the stored text. */
    const idleStored = async (id: string, n = 1) => {
      const idle = () => host!.of('PutFile').filter((p) => p.path.includes(`/files/${id}/`) && p.headers['x-ode-wopi-isautosave'] === 'true');
      const deadline = Date.now() + 60_000;
      while (idle().length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(idle().length).toBeGreaterThanOrEqual(n);
      return xlsxText(host!.files.get(id)!.bytes);
    };

    it("'Hello', the idle save stores it, 'World' + Enter: the cell is 'HelloWorld'", { timeout: 240_000 }, async () => {
      const client = await open('idle1');
      const from = client.messages.length;
      await typeShowing(client, 'Hello', 'Hello', from);
      expect(await idleStored('idle1')).toContain('Hello');
      // Saved, and every view is told (the status bar's "All changes saved": the file holds the cell's text).
      await client.next('modified', (m) => !m.modified, 30_000, from);
      client.type('World');
      // Still the cell's edit: the text typed after the save goes on after 'Hello' (a new edit would show 'World').
      await client.next('cellFormula', (m) => m.formula === 'HelloWorld', 30_000, from);
      await entered(client);
      client.close();
      expect(await documentsClosed(daemon!.server, 90_000)).toBe(true);
      const stored = xlsxText(host!.files.get('idle1')!.bytes);
      expect(stored).toContain('HelloWorld');
      expect(
        host!
          .of('PutFile')
          .filter((p) => p.path.includes('/files/idle1/'))
          .at(-1)!.headers['x-ode-wopi-isexitsave'],
      ).toBe('true');
    });

    it('the caret is put back where it was: F2 in a cell, Home, a key, the idle save, a key', { timeout: 240_000 }, async () => {
      // 'abc' entered, Up back to it, F2 edits it with the caret at the end, Home moves the caret to the start. (Lower
      // case: LibreOffice's autocorrect makes 'YZabcX' 'YzabcX' on Enter, TWo INitial CApitals.)
      const client = await open('idle2');
      const from = client.messages.length;
      client.type('abc');
      enter(client);
      key(client, 0, UP);
      key(client, 0, F2);
      await typeShowing(client, 'x', 'abcx', from);
      key(client, 0, HOME);
      await typeShowing(client, 'y', 'yabcx', from);
      expect(await idleStored('idle2')).toContain('yabcx');
      await typeShowing(client, 'z', 'yzabcx', from);
      await entered(client);
      client.close();
      expect(await documentsClosed(daemon!.server, 90_000)).toBe(true);
      expect(xlsxText(host!.files.get('idle2')!.bytes)).toContain('yzabcx');
    });

    it("the kit dies after the idle save, 'World' typed: the rebuild from the journal has 'HelloWorld' (no F2 needed)", { timeout: 240_000 }, async () => {
      // The re-entry (F2) is not input and is not journaled: the journal keeps its snapshot from before the cell's
      // edit and replays 'Hello' and 'World' into it. A journal started from the idle save's file would type 'World'
      // into the entered cell and replace it.
      const client = await open('idle4');
      const from = client.messages.length;
      await typeShowing(client, 'Hello', 'Hello', from);
      expect(await idleStored('idle4')).toContain('Hello');
      await typeShowing(client, 'World', 'HelloWorld', from);
      const doc = daemon!.server.documents.list().find((d) => d.key.endsWith('/idle4'))!;
      const pid = doc.kitPid!;
      expect(pid).toBeGreaterThan(0);
      const before = client.messages.length;
      process.kill(pid, 'SIGKILL');
      await client.next('reloaded', () => true, 90_000, before);
      expect(doc.kitPid).not.toBe(pid);
      await entered(client);
      client.close();
      expect(await documentsClosed(daemon!.server, 90_000)).toBe(true);
      expect(xlsxText(host!.files.get('idle4')!.bytes)).toContain('HelloWorld');
    });

    it('closed after the idle save with nothing typed since: no exit save, no journal left', { timeout: 240_000 }, async () => {
      // The journal kept after the idle save (its replay needs the cell's first keys) goes at the close: the stored
      // file holds everything.
      const client = await open('idle5');
      const from = client.messages.length;
      await typeShowing(client, 'Hello', 'Hello', from);
      expect(await idleStored('idle5')).toContain('Hello');
      const journals = () => {
        const dir = join(daemon!.store.get().state_dir, 'journal');
        return existsSync(dir) ? readdirSync(dir) : [];
      };
      // Kept after the idle save's upload.
      expect(journals()).toHaveLength(1);
      const puts = host!.of('PutFile').length;
      client.close();
      expect(await documentsClosed(daemon!.server, 90_000)).toBe(true);
      expect(host!.of('PutFile').length).toBe(puts);
      expect(journals()).toEqual([]);
    });

    it('a formula being typed is not entered by the idle save: it stays in edit mode and unsaved, the exit save stores it', { timeout: 240_000 }, async () => {
      // '=SUM(B1:' is no formula yet: entering it would store what LibreOffice makes of it. As Collabora's idle saves
      // (DontTerminateEdit), the cell stays in edit mode and the document "Unsaved changes".
      const client = await open('idle3');
      const from = client.messages.length;
      client.type('Committed');
      enter(client);
      await client.next('modified', (m) => m.modified, 30_000, from);
      await typeShowing(client, '=LEN(A1', '=LEN(A1', from);
      const stored = await idleStored('idle3');
      expect(stored).toContain('Committed');
      expect(stored).not.toContain('LEN(');
      await typeShowing(client, ')', '=LEN(A1)', from);
      await entered(client);
      client.close();
      expect(await documentsClosed(daemon!.server, 90_000)).toBe(true);
      expect(xlsxText(host!.files.get('idle3')!.bytes)).toContain('LEN(A1)');
    });
  });
});
