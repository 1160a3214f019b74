import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileId, launchChromium, painted } from '../helpers/browser.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { documentXml } from '../helpers/docx.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';
import { caretBox, settledCaret } from '../helpers/caret.ts';

const SOURCE = join(CORPUS, 'properties/documentProperties.docx'); // one paragraph: "Hello World!"
const textOf = (xml: string) => [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');
/** The text of the bold runs of a document.xml (a run is bold with <w:b/> or <w:b w:val="true|1|on"/>). */
const boldText = (xml: string) =>
  [...xml.matchAll(/<w:r(?: [^>]*)?>(.*?)<\/w:r>/gs)]
    .filter((m) => /<w:b(?: w:val="(?:true|1|on)")?\/>/.test(/<w:rPr>(.*?)<\/w:rPr>/s.exec(m[1])?.[1] ?? ''))
    .map((m) => textOf(m[1]))
    .join('');

/** The page objects the functions run in Chromium touch (this project is type-checked for Node, not the DOM). */
interface Canvas {
  width: number;
  height: number;
  getBoundingClientRect(): { left: number; top: number };
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
}
interface ClipboardItemLike {
  types: string[];
  getType(type: string): Promise<{ text(): Promise<string> }>;
}
interface PageGlobal {
  document: { querySelector(selector: string): Canvas | null };
  devicePixelRatio: number;
  navigator: { clipboard: { read(): Promise<ClipboardItemLike[]>; write(items: unknown[]): Promise<void>; writeText(text: string): Promise<void> } };
  ClipboardItem: new (items: Record<string, unknown>) => unknown;
  Blob: new (parts: string[], opts: { type: string }) => unknown;
}

/** Page function: every flavour on the system clipboard, as text. */
const readClipboard = async () => {
  const out: Record<string, string> = {};
  for (const item of await (globalThis as unknown as PageGlobal).navigator.clipboard.read())
    for (const type of item.types) out[type] = await (await item.getType(type)).text();
  return out;
};

/** Page function: how many canvas pixels (device px) inside the CSS-px box are close to `rgb`. */
const pixelsNear = ({ box, rgb, tolerance }: { box: { x: number; y: number; width: number; height: number }; rgb: number[]; tolerance: number }) => {
  const w = globalThis as unknown as PageGlobal;
  const c = w.document.querySelector('.ode-canvas')!;
  const r = c.getBoundingClientRect();
  const dpr = w.devicePixelRatio;
  const x = Math.max(0, Math.round((box.x - r.left) * dpr));
  const y = Math.max(0, Math.round((box.y - r.top) * dpr));
  const d = c.getContext('2d').getImageData(x, y, Math.max(1, Math.round(box.width * dpr)), Math.max(1, Math.round(box.height * dpr))).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4)
    if (d[i + 3] > 0 && Math.abs(d[i] - rgb[0]) <= tolerance && Math.abs(d[i + 1] - rgb[1]) <= tolerance && Math.abs(d[i + 2] - rgb[2]) <= tolerance) n++;
  return n;
};

/** `#rrggbb` or `rgb(r, g, b)` to numbers. */
const parseColor = (c: string): [number, number, number] => {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(c.trim());
  if (hex) return [parseInt(hex[1], 16), parseInt(hex[2], 16), parseInt(hex[3], 16)];
  const m = /(\d+)\D+(\d+)\D+(\d+)/.exec(c)!;
  return [Number(m[1]), Number(m[2]), Number(m[3])];
};

/**
 * The document view in Debian's Chromium against a real daemon and LibreOffice (issue 5 "Document view"):
 * drag-select and Ctrl+B, double click, LibreOffice's context menu, Ctrl+wheel zoom, copy and paste with the HTML
 * clipboard extension, DisableCopy, and another user's selection in their colour.
 */
describe('the document view in Chromium', { timeout: 180_000 }, () => {
  let daemon: TestDaemon;
  let host: FakeWopiHost;
  let browser: Browser;
  let context: BrowserContext;
  const folder = mkdtempSync(join(tmpdir(), 'ode-view-docs-'));
  let copies = 0;
  /**
   * A fresh copy of the one-paragraph letter in the folder, named after `base`: each try of a test edits its own
   * document (a CI retry must not find the text a failed try typed; the demo host serves files added later too).
   */
  const fresh = (base: string): string => {
    const name = `${base}-${++copies}.docx`;
    copyFileSync(SOURCE, join(folder, name));
    return name;
  };

  beforeAll(async () => {
    host = await FakeWopiHost.start();
    daemon = await startDaemon({ demo_host: { folder }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: daemon.url });
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await host?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  /** Opens a file of the folder from the demo host's start page; resolves when the page is painted and the caret shows. */
  async function open(name: string, user = 'Ann', ctx = context, before?: (page: Page) => void): Promise<Page> {
    const page = await ctx.newPage();
    before?.(page);
    await page.goto(`${daemon.url}/?open=${fileId(name)}&user=${encodeURIComponent(user)}`);
    await ready(page);
    return page;
  }
  async function ready(page: Page): Promise<void> {
    await page.bringToFront();
    await page.waitForFunction(painted, null, { timeout: 30_000 });
    // LibreOffice tells where the caret is once it moves (a new page may take the focus a moment after it paints):
    // a click in the page, then back to the start.
    for (let i = 0; i < 5 && !(await page.locator('.ode-caret').isVisible()); i++) {
      await page.mouse.click(500, 400);
      await page.keyboard.press('End');
      await page.keyboard.press('Control+Home');
      await page
        .locator('.ode-caret')
        .waitFor({ state: 'visible', timeout: 3000 })
        .catch(() => undefined);
    }
    await page.locator('.ode-caret').waitFor({ state: 'visible', timeout: 1000 });
  }
  const caret = async (page: Page) => (await caretBox(page))!;
  /**
   * Types `text` and waits until the caret moved right by about its width and stays put (under load LibreOffice may
   * still be laying out the last characters).
   */
  async function typeAndWait(page: Page, text: string): Promise<{ x: number; y: number; height: number }> {
    const before = await settledCaret(page);
    await page.keyboard.type(text);
    return settledCaret(page, (c) => c.docX - before.docX > text.length * 3);
  }
  /** Waits until this view's selection shows (LibreOffice sent it: the handles of its ends are placed). */
  const selectionShown = (page: Page) => page.locator('.ode-handle-end').waitFor({ state: 'visible', timeout: 60_000 });
  /**
   * Saves with Ctrl+S until the folder's file has `want` in its text, or its text is `want` exactly when `exact` (a
   * save may start before LibreOffice applied the last input; 60 s in all).
   */
  async function saved(
    page: Page,
    name: string,
    want: string,
    read: () => Uint8Array = () => readFileSync(join(folder, name)),
    exact = false,
  ): Promise<string> {
    const ok = (xml: string) => (exact ? textOf(xml) === want : textOf(xml).includes(want));
    let xml = '';
    for (const until = Date.now() + 60_000; !ok(xml) && Date.now() < until; ) {
      await page.keyboard.press('Control+s');
      const next = Date.now() + 3000;
      while (Date.now() < next && !ok(xml)) {
        await new Promise((r) => setTimeout(r, 250));
        xml = documentXml(read());
      }
    }
    expect(textOf(xml)).toContain(want);
    return xml;
  }

  it('drag-select then Ctrl+B bolds exactly the selected word; double click selects a word (painted selection, copied text)', async () => {
    const name = fresh('drag');
    const page = await open(name);
    await page.keyboard.press('Control+Home');
    await typeAndWait(page, 'Alpha ');
    const start = await caret(page);
    const end = await typeAndWait(page, 'Beta');
    await typeAndWait(page, ' Gamma ');
    const y = start.y + start.height / 2;
    await page.mouse.move(start.x + 1, y);
    await page.mouse.down();
    await page.mouse.move((start.x + end.x) / 2, y, { steps: 4 });
    await page.mouse.move(end.x - 1, y, { steps: 4 });
    await page.mouse.up();
    await selectionShown(page);
    await page.keyboard.press('Control+b');
    // LibreOffice says the selection is bold now (the toolbar's Bold is pressed).
    await expect
      .poll(() => page.getByRole('toolbar').getByRole('button', { name: 'Bold', exact: true }).getAttribute('aria-pressed'), { timeout: 60_000 })
      .toBe('true');
    const xml = await saved(page, name, 'Alpha Beta Gamma Hello World!');
    expect(boldText(xml)).toBe('Beta');

    // Double click in "Gamma": LibreOffice selects the word; the selection is painted in the accent colour.
    const gammaX = end.x + (end.x - start.x) * 0.8;
    await page.mouse.dblclick(gammaX, y);
    await expect
      .poll(() => page.evaluate(pixelsNear, { box: { x: gammaX - 10, y: start.y, width: 20, height: start.height }, rgb: [186, 208, 242], tolerance: 40 }), {
        timeout: 30_000,
      })
      .toBeGreaterThan(20);
    await page.keyboard.press('Control+c');
    await expect.poll(async () => (await page.evaluate(readClipboard))['text/plain'], { timeout: 30_000 }).toBe('Gamma');
    await page.close();
  });

  it("right click shows LibreOffice's context menu (keyboard-navigable); choosing an item runs it", async () => {
    const name = fresh('menu');
    const page = await open(name);
    await page.keyboard.press('Control+Home');
    await typeAndWait(page, 'Some words ');
    const c = await caret(page);
    // Select "Some words " with Shift+Home, then right click inside the selection.
    await page.keyboard.press('Shift+Home');
    await selectionShown(page);
    await page.mouse.click(c.x - 30, c.y + c.height / 2, { button: 'right' });
    const menu = page.getByRole('menu', { name: 'Context menu' });
    await menu.waitFor({ timeout: 30_000 });
    const items = await menu.getByRole('menuitem').allTextContents();
    expect(items.length).toBeGreaterThan(3);
    // LibreOffice's own entries (mnemonics stripped): Writer's text context menu has Paragraph and Character.
    expect(items.some((i) => /Paragraph/.test(i))).toBe(true);
    // Keyboard: the first item has the focus; Escape closes the menu.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    // Right click again and choose "Cut" (LibreOffice's label; the editor runs its own edit.cut): the words go.
    await page.mouse.click(c.x - 30, c.y + c.height / 2, { button: 'right' });
    await menu.waitFor({ timeout: 30_000 });
    await menu.getByRole('menuitem', { name: /^Cut$/ }).click();
    await expect.poll(() => menu.count()).toBe(0);
    // Saved until the file has the cut in it (the words were there before).
    const xml = await saved(page, name, 'Hello World!', undefined, true);
    expect(textOf(xml)).toBe('Hello World!');
    await page.close();
  });

  it('Ctrl+wheel zooms around the pointer: tiles are asked at a new tileTwip size, clientZoom is sent, the canvas is painted', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const page = await open(fresh('zoom'), 'Ann', context, (p) =>
      p.on('websocket', (socket) =>
        socket.on('framesent', (f) => typeof f.payload === 'string' && sent.push(JSON.parse(f.payload) as Record<string, unknown>)),
      ),
    );
    const tileSizes = () => new Set(sent.filter((m) => m.type === 'tiles').map((m) => m.tileTwipWidth));
    await expect.poll(() => tileSizes().size, { timeout: 30_000 }).toBe(1);
    const [first] = [...tileSizes()];
    await page.mouse.move(500, 300);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -300);
    await page.keyboard.up('Control');
    await expect.poll(() => tileSizes().size, { timeout: 30_000 }).toBe(2);
    const next = [...tileSizes()].find((t) => t !== first) as number;
    expect(next).toBeLessThan(first as number); // zoomed in: a tile covers fewer twips
    const zoom = sent.filter((m) => m.type === 'clientZoom').at(-1)!;
    expect(zoom.tileTwipWidth).toBe(next);
    await page.waitForFunction(painted, null, { timeout: 30_000 });
    // Tiles of the new zoom arrive and are painted (no request for the old size after the zoom settled).
    const count = sent.length;
    // A check that nothing happens: no request of the old size within 800 ms (a fixed wait on purpose).
    await page.waitForTimeout(800);
    expect(sent.slice(count).filter((m) => m.type === 'tiles' && m.tileTwipWidth === first)).toHaveLength(0);
    await page.close();
  });

  it('copy puts text/html with the meta-origin marker on the clipboard; pasting HTML from elsewhere inserts it', async () => {
    const name = fresh('clip');
    const page = await open(name);
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+End');
    await selectionShown(page);
    // The context's clipboard still holds an earlier test's copy with its own marker (logged: the menu test's cut,
    // 'Some words '), which passed the wait below before a slow copy landed: a sentinel first, so the wait sees this copy.
    await page.evaluate(() => (globalThis as unknown as PageGlobal).navigator.clipboard.writeText('sentinel'));
    await page.keyboard.press('Control+c');
    // The marker names this document (its WOPISrc on the demo host).
    const wopiSrc = encodeURIComponent(`${daemon.url}/demo/wopi/files/${fileId(name)}`);
    await expect.poll(async () => (await page.evaluate(readClipboard))['text/html'] ?? '', { timeout: 30_000 }).toContain(`WOPISrc=${wopiSrc}&amp;`);
    const clip = await page.evaluate(readClipboard);
    expect(clip['text/html']).toMatch(/<div id="meta-origin" data-odeorigin="http:\/\/127\.0\.0\.1:\d+\/ode\/clipboard\?WOPISrc=[^"]+"/);
    expect(clip['text/html']).toContain('Hello');
    expect(clip['text/plain']).toBe('Hello World!');
    // HTML from another application: pasted as HTML (the bold survives).
    await page.keyboard.press('Control+End');
    await page.evaluate(async () => {
      const w = globalThis as unknown as PageGlobal;
      await w.navigator.clipboard.write([
        new w.ClipboardItem({
          'text/html': new w.Blob(['<html><body><p>Pasted <b>strong</b> words</p></body></html>'], { type: 'text/html' }),
          'text/plain': new w.Blob(['Pasted strong words'], { type: 'text/plain' }),
        }),
      ]);
    });
    await page.keyboard.press('Control+v');
    const xml = await saved(page, name, 'strong');
    expect(textOf(xml)).toContain('Pasted strong words');
    expect(boldText(xml)).toContain('strong');
    await page.close();
  });

  it('with DisableCopy the clipboard gets nothing of the document, and copy and paste inside the document still work', async () => {
    // A fresh file for each try (a CI retry must not join the document the failed try pasted into).
    const fileKey = `dc-${++copies}`;
    const id = host.addFile(fileKey, 'nocopy.docx', readFileSync(SOURCE), { DisableCopy: true });
    const xml = await (await fetch(`${daemon.url}/hosting/discovery`)).text();
    const urlsrc = /<action [^>]*ext="docx"[^>]*urlsrc="([^"]+)"/.exec(xml)![1];
    const page = await context.newPage();
    await page.setContent(
      `<form method="post" action="${urlsrc}WOPISrc=${encodeURIComponent(id)}"><input name="access_token" value="${host.token}"><button>go</button></form>`,
    );
    await page.click('button');
    await ready(page);
    await page.evaluate(() => (globalThis as unknown as PageGlobal).navigator.clipboard.writeText('sentinel'));
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+End');
    await selectionShown(page);
    await page.keyboard.press('Control+c');
    // The copy wrote the clipboard (the marker only): the sentinel is gone.
    await expect.poll(async () => (await page.evaluate(readClipboard))['text/plain'] ?? '', { timeout: 30_000 }).not.toBe('sentinel');
    const clip = await page.evaluate(readClipboard);
    expect(Object.values(clip).join(' ')).not.toContain('Hello');
    expect(clip['text/plain'] ?? '').not.toBe('sentinel'); // the copy did write (the marker only)
    // Inside the document: LibreOffice's own clipboard.
    await page.keyboard.press('End');
    await page.keyboard.press('Control+v');
    const saved2 = await saved(page, 'nocopy.docx', 'Hello World!Hello World!', () => host.files.get(fileKey)!.bytes);
    expect(textOf(saved2)).toBe('Hello World!Hello World!');
    await page.close();
  });

  it("another user's selection shows in their colour", async () => {
    const other = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    try {
      const name = fresh('shared');
      const ann = await open(name, 'Ann');
      const bob = await open(name, 'Bob', other);
      // Bob selects the paragraph; Ann sees Bob's caret (his colour) and his selection painted in it.
      await bob.keyboard.press('Control+Home');
      await bob.keyboard.press('Shift+End');
      const bobCaret = ann.locator('.ode-other-caret').filter({ hasText: 'Bob' });
      await bobCaret.waitFor({ state: 'visible', timeout: 30_000 });
      const color = parseColor(
        await bobCaret.evaluate((el) => (el as unknown as { style: { getPropertyValue(n: string): string } }).style.getPropertyValue('--c')),
      );
      const blend = color.map((c) => Math.round(255 * 0.75 + c * 0.25)) as [number, number, number];
      const line = await caret(ann);
      await expect
        .poll(() => ann.evaluate(pixelsNear, { box: { x: line.x, y: line.y, width: 60, height: line.height }, rgb: blend, tolerance: 16 }), { timeout: 30_000 })
        .toBeGreaterThan(50);
    } finally {
      await other.close();
    }
  });
});
