/**
 * WatermarkText on every tile, and LibreOffice's dialogs as JSDialogs (LibreOffice 25.2: `dialog` messages out,
 * `dialogEvent` in), over the real editor protocol:
 * a real daemon with real kits, real WebSocket clients (test/helpers/editor-client.ts), a fake WOPI host giving
 * each user's CheckFileInfo.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../daemon/protocol/editor.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { documentXml } from '../helpers/docx.ts';
import type { EditorClient } from '../helpers/editor-client.ts';
import { useEditing } from '../helpers/editing-setup.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
/** A tile of the page: 256 px for 3840 twips (100 %), inside the first page. */
const TILE = { part: 0, width: 256, height: 256, tileTwipWidth: 3840, tileTwipHeight: 3840 } as const;
const AT: [number, number] = [3840, 3840];
/** A JSDialog payload (editor.md `dialog`): a whole dialog or widget, an update, an action, a close. */
interface JsonDialog {
  id?: number | string;
  type?: string;
  action?: string;
  children?: JsonDialog[];
  [field: string]: unknown;
}
const jsd = (m: Extract<ServerMessage, { type: 'dialog' }>) => JSON.parse(m.json) as JsonDialog;
/** The widget with `id` in a JSDialog tree. */
const find = (w: JsonDialog, id: string): JsonDialog | undefined => (w.id === id ? w : (w.children ?? []).map((c) => find(c, id)).find(Boolean));

describe('WatermarkText and LibreOffice dialogs over the editor protocol', () => {
  // One kit per document: the watermark one and three dialog ones.
  const env = useEditing({ readyKits: 2, maxKits: 4 });

  const tile = async (c: EditorClient): Promise<PNG> => {
    const from = c.tiles.length;
    c.send({ type: 'tiles', ...TILE, positions: [AT], fresh: true });
    const deadline = Date.now() + 30_000;
    while (c.tiles.length === from) {
      if (Date.now() > deadline) throw new Error('no tile');
      await new Promise((r) => setTimeout(r, 20));
    }
    const t = c.tiles[from];
    expect(t.header.encoding).toBe('png');
    return PNG.sync.read(Buffer.from(t.payload));
  };

  it('paints WatermarkText into the tiles of the user who has it, and only theirs (cached tiles are kept apart)', async () => {
    const src = env.host.addFile('wm', 'wm.docx', DOCX);
    const plain = await env.open(src);
    expect(plain.status.fileInfo.WatermarkText || undefined).toBeUndefined();
    // The second user's CheckFileInfo (CheckFileInfo is per user): another user, with a watermark.
    const file = env.host.files.get('wm')!;
    env.host.answer('CheckFileInfo', {
      status: 200,
      body: JSON.stringify({
        BaseFileName: file.name,
        OwnerId: 'owner',
        UserId: 'u-wm',
        UserFriendlyName: 'Marked',
        Size: file.bytes.length,
        UserCanWrite: true,
        LastModifiedTime: file.lastModifiedTime,
        WatermarkText: 'CONFIDENTIAL Ode',
      }),
      headers: { 'Content-Type': 'application/json' },
    });
    const marked = await env.open(src);
    expect(marked.status.fileInfo.WatermarkText).toBe('CONFIDENTIAL Ode');

    // The clean view asks first: its tile is cached; the watermarked view must not be served that one.
    const clean = await tile(plain.client);
    const wm = await tile(marked.client);
    // And the other way round: the clean view asks again after the watermarked tile was cached.
    const cleanAgain = await tile(plain.client);

    expect(Buffer.compare(clean.data, wm.data)).not.toBe(0);
    expect(Buffer.compare(clean.data, cleanAgain.data)).toBe(0);
    let whiteToGrey = 0;
    let darkened = 0;
    let lightened = 0;
    for (let i = 0; i < clean.data.length; i += 4) {
      const [r, g, b, a] = [clean.data[i], clean.data[i + 1], clean.data[i + 2], clean.data[i + 3]];
      const [r2, g2, b2] = [wm.data[i], wm.data[i + 1], wm.data[i + 2]];
      if (r === 255 && g === 255 && b === 255 && a === 255 && r2 === g2 && g2 === b2 && r2 < 250 && r2 > 60) whiteToGrey++;
      if (r2 < r || g2 < g || b2 < b) darkened++;
      if (r2 > r + 2 || g2 > g + 2 || b2 > b + 2) lightened++;
    }
    // The text covers a band along the diagonal: hundreds of white page pixels turned grey, none turned lighter
    // (dark text under the watermark gets lighter grey only where the grey is lighter than the text).
    expect(whiteToGrey).toBeGreaterThan(500);
    expect(darkened).toBeGreaterThanOrEqual(whiteToGrey);
    expect(lightened).toBeLessThan(whiteToGrey / 4);
    // The clean view's tile has no such grey band: most of its pixels are white page.
    let cleanWhite = 0;
    for (let i = 0; i < clean.data.length; i += 4) if (clean.data[i] === 255 && clean.data[i + 1] === 255 && clean.data[i + 2] === 255) cleanWhite++;
    expect(cleanWhite).toBeGreaterThan(whiteToGrey);
  }, 120_000);

  /** Opens Format > Paragraph in `client`'s view and returns its JSDialog (the whole dialog, as LibreOffice 25.2 describes it). */
  const paragraphDialog = async (client: EditorClient): Promise<JsonDialog> => {
    const from = client.messages.length;
    client.send({ type: 'uno', command: '.uno:ParagraphDialog' });
    const full = await client.next('dialog', (m) => jsd(m).children !== undefined && jsd(m).title === 'Paragraph', 30_000, from);
    return jsd(full);
  };
  /** Resolves with the `close` of JSDialog `id` received after `from`. */
  const closed = (client: EditorClient, id: number, from: number, timeoutMs = 30_000) =>
    client.next('dialog', (m) => jsd(m).action === 'close' && Number(jsd(m).id) === id, timeoutMs, from);

  it('describes the Paragraph dialog as a JSDialog: its title, an indent spin field labelled "Before text", OK and Cancel; Cancel through dialogEvent closes it unchanged', async () => {
    const src = env.host.addFile('dlg1', 'dlg1.docx', DOCX);
    const { client } = await env.open(src);
    const dialog = await paragraphDialog(client);
    expect(dialog).toMatchObject({ jsontype: 'dialog', type: 'dialog', title: 'Paragraph', init_focus_id: 'spinED_LEFTINDENT' });
    const indent = find(dialog, 'spinED_LEFTINDENT')!;
    expect(['spinfield', 'formattedfield', 'metricfield']).toContain(indent.type);
    expect(indent.text).toMatch(/^0(\.00)?/);
    // Its label, which the editor turns into <label for>: "~Before text:" (LibreOffice's mnemonic marker).
    const label = find(dialog, String(indent.labelledBy))!;
    expect(label).toMatchObject({ type: 'fixedtext', labelFor: 'spinED_LEFTINDENT' });
    expect(String(label.text).replace('~', '')).toBe('Before text:');
    expect(find(dialog, 'ok')).toMatchObject({ type: 'pushbutton' });
    expect(dialog.responses).toEqual(
      expect.arrayContaining([
        { id: 'ok', response: 1 },
        { id: 'cancel', response: 0 },
      ]),
    );
    // On 25.2 the dialog does not come as a painted window.
    expect(client.messages.some((m) => m.type === 'window' && (m.json as { action?: string }).action === 'created')).toBe(false);

    const id = Number(dialog.id);
    const from = client.messages.length;
    client.send({ type: 'dialogEvent', windowId: id, event: { id: 'spinED_LEFTINDENT', cmd: 'change', data: '2', type: 'spinfield' } });
    client.send({ type: 'dialogEvent', windowId: id, event: { id: 'cancel', cmd: 'click', data: '0', type: 'responsebutton' } });
    await closed(client, id, from);
    const beforeSave = client.messages.length;
    client.send({ type: 'save', dontSaveIfUnmodified: false });
    expect(await client.next('saved', () => true, 60_000, beforeSave)).toMatchObject({ ok: true });
    const put = env.host
      .of('PutFile')
      .filter((r) => r.path.endsWith('/dlg1/contents'))
      .at(-1)!;
    expect(documentXml(put.body)).not.toMatch(/w:(left|start)="2880"/);
  }, 120_000);

  it('a dialogEvent sets "Before text" to 1" (LibreOffice answers with the field\'s new text) and clicks OK: the saved docx has the indent', async () => {
    const src = env.host.addFile('dlg2', 'dlg2.docx', DOCX);
    const { client } = await env.open(src);
    const dialog = await paragraphDialog(client);
    const id = Number(dialog.id);
    const from = client.messages.length;
    client.send({ type: 'dialogEvent', windowId: id, event: { id: 'spinED_LEFTINDENT', cmd: 'change', data: '1', type: 'spinfield' } });
    // (The field's earlier updates, from the dialog's own start, may come too: the one with the new text is awaited.)
    const update = await client.next(
      'dialog',
      (m) =>
        jsd(m).action === 'update' &&
        (jsd(m).control as JsonDialog | undefined)?.id === 'spinED_LEFTINDENT' &&
        /^1\.00/.test(String((jsd(m).control as JsonDialog).text)),
      30_000,
      from,
    );
    expect((jsd(update).control as JsonDialog).value).toBe(1);
    client.send({ type: 'dialogEvent', windowId: id, event: { id: 'ok', cmd: 'click', data: '1', type: 'responsebutton' } });
    await closed(client, id, from);
    await client.next('modified', (m) => m.modified, 30_000, from);
    const beforeSave = client.messages.length;
    client.send({ type: 'save' });
    expect(await client.next('saved', () => true, 60_000, beforeSave)).toMatchObject({ ok: true });
    const put = env.host
      .of('PutFile')
      .filter((r) => r.path.endsWith('/dlg2/contents'))
      .at(-1)!;
    // 1 inch = 1440 twips of left indent on the paragraph the cursor was in.
    expect(documentXml(put.body)).toMatch(/<w:ind w:(left|start)="1440"/);
  }, 120_000);

  it("refuses a read-only view's dialogEvent: an error, and the writer's open dialog is neither changed nor closed", async () => {
    const src = env.host.addFile('dlg3', 'dlg3.docx', DOCX);
    const writer = await env.open(src);
    const file = env.host.files.get('dlg3')!;
    env.host.answer('CheckFileInfo', {
      status: 200,
      body: JSON.stringify({
        BaseFileName: file.name,
        OwnerId: 'owner',
        UserId: 'u-ro',
        UserFriendlyName: 'Reader',
        Size: file.bytes.length,
        UserCanWrite: false,
        LastModifiedTime: file.lastModifiedTime,
      }),
      headers: { 'Content-Type': 'application/json' },
    });
    const reader = await env.open(src);
    expect(reader.status.readonly).toBe(true);
    const dialog = await paragraphDialog(writer.client);
    const id = Number(dialog.id);
    const from = writer.client.messages.length;
    const readerFrom = reader.client.messages.length;
    reader.client.send({ type: 'dialogEvent', windowId: id, event: { id: 'spinED_LEFTINDENT', cmd: 'change', data: '3', type: 'spinfield' } });
    reader.client.send({ type: 'dialogEvent', windowId: id, event: { id: 'ok', cmd: 'click', data: '1', type: 'responsebutton' } });
    expect(await reader.client.next('error', () => true, 10_000, readerFrom)).toMatchObject({ code: 'readonly' });
    // The writer's dialog stays open with its field as it was: no close, no new text for the field.
    await expect(closed(writer.client, id, from, 3000)).rejects.toThrow(/no dialog/);
    expect(writer.client.messages.slice(from).some((m) => m.type === 'dialog' && JSON.stringify(jsd(m)).includes('3.00'))).toBe(false);
    writer.client.send({ type: 'dialogEvent', windowId: id, event: { id: 'cancel', cmd: 'click', data: '0', type: 'responsebutton' } });
    await closed(writer.client, id, from);
  }, 120_000);
});
