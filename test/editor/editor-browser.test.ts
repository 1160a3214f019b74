import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';

const docxText = (bytes: Buffer) => [...new TextDecoder().decode(unzipSync(new Uint8Array(bytes))['word/document.xml']).matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');
const fileId = (name: string) => Buffer.from(name).toString('base64url');
/**
 * The few page objects the functions run in Chromium touch. This project is type-checked for Node, not the DOM,
 * and the editor page's CSP (no 'unsafe-eval') rules out page code given as strings.
 */
interface PageElement {
  textContent: string | null;
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
  dispatchEvent(event: unknown): boolean;
}
interface PageGlobal {
  document: { querySelector(selector: string): PageElement | null };
  CompositionEvent: new (type: string, init: { data: string }) => unknown;
}
/** Page function (self-contained: it runs in Chromium): the editor's status bar says `text`. */
const stateIs = (text: string) => (globalThis as unknown as PageGlobal).document.querySelector('.ode-state')?.textContent === text;

/**
 * The browser editor in Debian's Chromium (driven by playwright-core), against a real daemon and its built-in demo
 * host serving a temp folder: the start page opens the document in the editor, the canvas shows it, typing and an
 * IME composition reach LibreOffice, Save stores the file.
 */
describe('the browser editor in Chromium', () => {
  let daemon: TestDaemon;
  let browser: Browser;
  let page: Page;
  const folder = mkdtempSync(join(tmpdir(), 'ode-editor-docs-'));
  beforeAll(async () => {
    copyFileSync(join(CORPUS, 'properties/documentProperties.docx'), join(folder, 'letter.docx'));
    daemon = await startDaemon({ demo_host: { folder }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } });
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('opens from the start page, paints the document, types (keys and IME) and saves to the folder', async () => {
    await page.goto(`${daemon.url}/?open=${fileId('letter.docx')}`);
    await page.waitForFunction(stateIs, 'Ready', { timeout: 30_000 });
    expect(await page.textContent('.ode-title')).toBe('letter.docx');
    // The canvas shows the page: some pixels are not the background.
    await page.waitForFunction(
      () => {
        const c = (globalThis as unknown as PageGlobal).document.querySelector('.ode-canvas')!;
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let painted = 0;
        for (let i = 0; i < d.length; i += 16) if (d[i + 3] > 0) painted++;
        return painted > 1000;
      },
      null,
      { timeout: 15_000 },
    );
    await page.keyboard.type('Typed in Chromium ');
    await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobal;
      const input = g.document.querySelector('.ode-input')!;
      input.dispatchEvent(new g.CompositionEvent('compositionstart', { data: '' }));
      input.dispatchEvent(new g.CompositionEvent('compositionupdate', { data: 'かん' }));
      input.dispatchEvent(new g.CompositionEvent('compositionupdate', { data: 'かんじ' }));
      input.dispatchEvent(new g.CompositionEvent('compositionend', { data: '漢字' }));
    });
    await page.waitForFunction(stateIs, 'Unsaved changes', { timeout: 10_000 });
    await page.waitForTimeout(500);
    await page.click('[role=toolbar] button[data-command="file.save"]');
    await page.waitForFunction(stateIs, 'All changes saved', { timeout: 30_000 });
    const text = docxText(readFileSync(join(folder, 'letter.docx')));
    expect(text).toContain('Typed in Chromium 漢字');
    expect(text).not.toContain('かん');
  });
});
