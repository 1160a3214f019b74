/**
 * WatermarkText on every tile, and LibreOffice's dialogs through the window channel, over the real editor protocol:
 * a real daemon with real kits, real WebSocket clients (test/helpers/editor-client.ts), a fake WOPI host giving
 * each user's CheckFileInfo.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../daemon/protocol/editor.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import type { EditorClient } from '../helpers/editor-client.ts';
import { useEditing } from '../helpers/editing-setup.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
/** A tile of the page: 256 px for 3840 twips (100 %), inside the first page. */
const TILE = { part: 0, width: 256, height: 256, tileTwipWidth: 3840, tileTwipHeight: 3840 } as const;
const AT: [number, number] = [3840, 3840];
/** vcl KEY_ESCAPE, KEY_RETURN, KEY_END, KEY_SHIFT. */
const KEY_ESCAPE = 1281;
const KEY_RETURN = 1280;
const KEY_END = 1029;
const KEY_SHIFT = 0x1000;

type WindowMsg = Extract<ServerMessage, { type: 'window' }>;
const win = (m: WindowMsg) => m.json as { id: string; action: string; title?: string; size?: string };

describe('WatermarkText and LibreOffice dialogs over the editor protocol', () => {
  const env = useEditing({ readyKits: 2, maxKits: 3 });

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
      body: JSON.stringify({ BaseFileName: file.name, OwnerId: 'owner', UserId: 'u-wm', UserFriendlyName: 'Marked', Size: file.bytes.length, UserCanWrite: true, LastModifiedTime: file.lastModifiedTime, WatermarkText: 'CONFIDENTIAL Ode' }),
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

  it('opens the Paragraph dialog as a LibreOffice window: created with its title, painted, closed by Escape', async () => {
    const src = env.host.addFile('dlg1', 'dlg1.docx', DOCX);
    const { client } = await env.open(src);
    const from = client.messages.length;
    client.send({ type: 'uno', command: '.uno:ParagraphDialog' });
    const created = win(await client.next('window', (m) => win(m).action === 'created', 30_000, from));
    expect(created.title).toBe('Paragraph');
    const [w, h] = created.size!.split(',').map((n) => Number(n.trim()));
    expect(w).toBeGreaterThan(300);
    expect(h).toBeGreaterThan(200);
    const windowId = Number(created.id);

    const painted = await (async () => {
      client.send({ type: 'windowPaint', windowId, x: 0, y: 0, width: w, height: h });
      return client.next('windowPaint', (m) => m.windowId === windowId, 30_000, from);
    })();
    expect(painted).toMatchObject({ x: 0, y: 0, width: w, height: h });
    const png = PNG.sync.read(Buffer.from(painted.png, 'base64'));
    expect([png.width, png.height]).toEqual([w, h]);
    let dark = 0;
    let opaque = 0;
    for (let i = 0; i < png.data.length; i += 4) {
      if (png.data[i + 3] === 255) opaque++;
      if (png.data[i] < 100 && png.data[i + 3] === 255) dark++;
    }
    // A real dialog: opaque background, and text (labels, tab names, buttons) in dark pixels.
    expect(opaque).toBeGreaterThan(w * h * 0.9);
    expect(dark).toBeGreaterThan(2000);

    const beforeEscape = client.messages.length;
    client.send({ type: 'windowKey', windowId, event: 'input', charCode: 27, keyCode: KEY_ESCAPE });
    client.send({ type: 'windowKey', windowId, event: 'up', charCode: 27, keyCode: KEY_ESCAPE });
    expect(win(await client.next('window', (m) => win(m).action === 'close' && Number(win(m).id) === windowId, 30_000, beforeEscape))).toBeTruthy();
  }, 120_000);

  it('typing into the Paragraph dialog and OK changes the document: the saved docx has the indent', async () => {
    const src = env.host.addFile('dlg2', 'dlg2.docx', DOCX);
    const { client } = await env.open(src);
    const from = client.messages.length;
    client.send({ type: 'uno', command: '.uno:ParagraphDialog' });
    const created = win(await client.next('window', (m) => win(m).action === 'created', 30_000, from));
    const windowId = Number(created.id);
    // Focus starts in "Before text" (Indents & Spacing): select its value, type 1", OK with Return.
    const key = (charCode: number, keyCode: number) => {
      client.send({ type: 'windowKey', windowId, event: 'input', charCode, keyCode });
      client.send({ type: 'windowKey', windowId, event: 'up', charCode, keyCode });
    };
    key(0, KEY_END | KEY_SHIFT);
    for (const ch of '1"') key(ch.charCodeAt(0), 0);
    key(9, 1282); // Tab: leave the field, so the value is taken
    key(13, KEY_RETURN);
    await client.next('window', (m) => win(m).action === 'close' && Number(win(m).id) === windowId, 30_000, from);
    await client.next('modified', (m) => m.modified, 30_000, from);
    const beforeSave = client.messages.length;
    client.send({ type: 'save' });
    expect(await client.next('saved', () => true, 60_000, beforeSave)).toMatchObject({ ok: true });
    const put = env.host.of('PutFile').filter((r) => r.path.endsWith('/dlg2/contents')).at(-1)!;
    const xml = new TextDecoder().decode(unzipSync(new Uint8Array(put.body))['word/document.xml']);
    // 1 inch = 1440 twips of left indent on the paragraph the cursor was in.
    expect(xml).toMatch(/<w:ind w:(left|start)="1440"/);
  }, 120_000);
});
