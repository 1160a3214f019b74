import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ClientMessage } from '../../daemon/protocol/editor.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { startDaemon, documentsClosed, type TestDaemon } from '../helpers/daemon.ts';
import { docxText } from '../helpers/docx.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';

const XLSX = readFileSync(join(CORPUS, 'spreadsheets/SampleSS.xlsx'));
const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const click = (x: number, y: number): ClientMessage[] => [
  { type: 'mouse', event: 'buttondown', x, y, count: 1, buttons: 1, modifier: 0 },
  { type: 'mouse', event: 'buttonup', x, y, count: 1, buttons: 1, modifier: 0 },
];
/** An arrow key (vcl KEY_DOWN 1024, KEY_RIGHT 1027) pressed and released. */
const arrow = (keyCode: number): ClientMessage[] => [
  { type: 'key', event: 'input', charCode: 0, keyCode },
  { type: 'key', event: 'up', charCode: 0, keyCode },
];

/** The journal folders under `stateDir` (none when the folder is absent). */
const journals = (stateDir: string): string[] => (existsSync(join(stateDir, 'journal')) ? readdirSync(join(stateDir, 'journal')) : []);

/**
 * Writes an edit journal as a daemon leaves it when it is killed (journal-store.ts): the stored file as its first
 * snapshot (marked `stored`, unless `stored` is false: a journal of an older version), one view, and `events`.
 */
function writeJournal(
  stateDir: string,
  id: string,
  meta: { wopiSrc: string; fileName: string; token: string; lastModifiedTime: string },
  bytes: Buffer,
  events: unknown[],
  stored = true,
): void {
  const dir = join(stateDir, 'journal', id);
  const format = meta.fileName.split('.').pop()!;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `snapshot-0.${format}`), bytes);
  writeFileSync(join(dir, 'snapshot.json'), JSON.stringify({ seq: 0, file: `snapshot-0.${format}`, cursors: {}, ...(stored ? { stored: true } : {}) }));
  writeFileSync(
    join(dir, 'meta.json'),
    JSON.stringify({ version: 1, ...meta, format, views: [{ key: 1, userName: 'U', userId: 'u' }], createdAt: Date.now() - 60_000 }),
  );
  writeFileSync(join(dir, 'events.jsonl'), events.map((e, i) => `${JSON.stringify({ s: i + 1, v: 1, e })}\n`).join(''));
}

/**
 * Issue 17 (new-user try): a spreadsheet opened, its sheets switched and cells clicked, then closed, left an edit
 * journal (a sheet switch started it), and the next start "recovered" it: the unchanged file uploaded as a new
 * version. Now input that changes nothing waits in memory and a journal starts only at a change (docs/reliability.md,
 * "Edit journal"); a start rebuilding a journal whose input changed nothing uploads nothing. Real kits, a fake WOPI
 * host counting PutFile.
 */
describe('fault: a document only looked at leaves no journal and no upload', () => {
  let daemon: TestDaemon | undefined;
  let host: FakeWopiHost | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'ode-view-only-'));
  const stateDir = join(dir, 'state');
  const overrides = {
    state_dir: stateDir,
    kits: { prespawn: 2, max: 3 },
    documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600, journal_snapshot_secs: 1 },
  };
  afterAll(async () => {
    await daemon?.stop();
    await host?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("sheets switched, cells clicked, a text document's cursor moved: no journal, no PutFile at close or after a restart", { timeout: 300_000 }, async () => {
    host = await FakeWopiHost.start();
    daemon = await startDaemon(overrides, 1);
    const sheet = (await EditorClient.open(daemon.url, host.addFile('vo1', 'vo1.xlsx', XLSX), { token: host.token }, 90_000)).client;
    const text = (await EditorClient.open(daemon.url, host.addFile('vo2', 'vo2.docx', DOCX), { token: host.token }, 90_000)).client;
    // Spreadsheet: the second and third sheets, cells clicked on each (twips), an arrow, back to the first.
    for (const part of [1, 2, 0]) {
      sheet.send({ type: 'setPart', part });
      for (const m of [...click(1500 + part * 1000, 600), ...click(3000, 1200 + part * 300), ...arrow(1024)]) sheet.send(m);
      await sleep(300);
    }
    // Text: clicks and arrows only.
    for (const m of [...click(2000, 2000), ...arrow(1024), ...arrow(1027), ...click(3000, 3500), ...arrow(1024)]) text.send(m);
    // The kit has the input (each client's cell cursor or caret came after it), past the snapshot time.
    const from = sheet.messages.length;
    sheet.send({ type: 'setPart', part: 1 });
    await sheet.next('cellCursor', () => true, 30_000, from).catch(() => undefined);
    await sleep(2000);
    expect(journals(stateDir)).toEqual([]);
    expect(sheet.messages.some((m) => m.type === 'modified' && m.modified === true)).toBe(false);

    sheet.close();
    text.close();
    expect(await documentsClosed(daemon.server, 60_000)).toBe(true);
    expect(journals(stateDir)).toEqual([]);
    expect(host.of('PutFile')).toHaveLength(0);

    // A start after it finds nothing to recover.
    await daemon.stop();
    daemon = await startDaemon(overrides, 1);
    await sleep(3000);
    expect(host.of('PutFile')).toHaveLength(0);
    expect(daemon.logBuffer.recent(2000, 'info').some((l) => /edit journal/.test(l.msg))).toBe(false);
  });

  it('journals of clicks and sheet switches a previous daemon left (marked stored, or older: the host has the snapshot) are deleted without an upload; one with typing is uploaded', {
    timeout: 300_000,
  }, async () => {
    host ??= await FakeWopiHost.start();
    await daemon?.stop();
    daemon = undefined;
    const looked = host.addFile('vo3', 'vo3.xlsx', XLSX);
    const typed = host.addFile('vo4', 'vo4.docx', DOCX);
    const older = host.addFile('vo5', 'vo5.docx', DOCX);
    writeJournal(
      stateDir,
      'looked',
      { wopiSrc: looked, fileName: 'vo3.xlsx', token: host.token, lastModifiedTime: host.files.get('vo3')!.lastModifiedTime },
      XLSX,
      [{ type: 'setPart', part: 1 }, ...click(2000, 600), ...arrow(1024), { type: 'setPart', part: 2 }, ...click(3000, 900), { type: 'setPart', part: 0 }],
    );
    writeJournal(
      stateDir,
      'typed',
      { wopiSrc: typed, fileName: 'vo4.docx', token: host.token, lastModifiedTime: host.files.get('vo4')!.lastModifiedTime },
      DOCX,
      [...arrow(1024), ...[...'journaled'].flatMap((ch) => [{ type: 'key', event: 'input', charCode: ch.charCodeAt(0), keyCode: 0 }])],
    );
    writeJournal(
      stateDir,
      'older',
      { wopiSrc: older, fileName: 'vo5.docx', token: host.token, lastModifiedTime: host.files.get('vo5')!.lastModifiedTime },
      DOCX,
      [...click(2000, 2000), ...arrow(1024), ...arrow(1027)],
      false,
    );
    daemon = await startDaemon(overrides, 1);
    const deadline = Date.now() + 180_000;
    while (journals(stateDir).length > 0 && Date.now() < deadline) await sleep(200);
    while (host.of('PutFile').length < 1 && Date.now() < deadline) await sleep(200);
    await sleep(1000);
    expect(journals(stateDir)).toEqual([]);
    expect(host.of('PutFile').map((p) => p.path)).toEqual(['/wopi/files/vo4/contents']);
    expect(docxText(host.files.get('vo4')!.bytes)).toContain('journaled');
    expect(Buffer.from(host.files.get('vo3')!.bytes).equals(XLSX)).toBe(true);
    expect(Buffer.from(host.files.get('vo5')!.bytes).equals(DOCX)).toBe(true);
    expect(daemon.logBuffer.recent(2000, 'info').filter((l) => l.msg.startsWith('an edit journal a previous daemon left changed nothing'))).toHaveLength(2);
  });
});
