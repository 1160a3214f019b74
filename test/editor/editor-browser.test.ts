import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileId, painted, stateIs } from '../helpers/browser.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { useDemoBrowser } from '../helpers/demo-browser.ts';
import { docxText } from '../helpers/docx.ts';

/**
 * The few page objects the functions run in Chromium touch. This project is type-checked for Node, not the DOM,
 * and the editor page's CSP (no 'unsafe-eval') rules out page code given as strings.
 */
interface PageElement {
  dispatchEvent(event: unknown): boolean;
}
interface PageGlobal {
  document: { querySelector(selector: string): PageElement | null };
  CompositionEvent: new (type: string, init: { data: string }) => unknown;
}

/**
 * The browser editor in Debian's Chromium (driven by playwright-core), against a real daemon and its built-in demo
 * host serving a temp folder: the start page opens the document in the editor, the canvas shows it, typing and an
 * IME composition reach LibreOffice, Save stores the file.
 */
describe('the browser editor in Chromium', () => {
  const env = useDemoBrowser('ode-editor-docs-', (folder) => copyFileSync(join(CORPUS, 'properties/documentProperties.docx'), join(folder, 'letter.docx')));
  let page: Page;
  beforeAll(async () => {
    page = await env.browser.newPage({ viewport: { width: 1000, height: 700 } });
  });

  it('opens from the start page, paints the document, types (keys and IME) and saves to the folder', async () => {
    await page.goto(`${env.daemon.url}/?open=${fileId('letter.docx')}`);
    await page.waitForFunction(stateIs, 'Ready', { timeout: 30_000 });
    expect(await page.textContent('.ode-title')).toBe('letter.docx');
    // The canvas shows the page: some pixels are not the background.
    await page.waitForFunction(painted, null, { timeout: 30_000 });
    // The caret shows at once, before any click or key.
    await page.locator('.ode-caret').waitFor({ state: 'visible', timeout: 30_000 });
    await page.keyboard.type('Typed in Chromium ');
    await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobal;
      const input = g.document.querySelector('.ode-input')!;
      input.dispatchEvent(new g.CompositionEvent('compositionstart', { data: '' }));
      input.dispatchEvent(new g.CompositionEvent('compositionupdate', { data: 'かん' }));
      input.dispatchEvent(new g.CompositionEvent('compositionupdate', { data: 'かんじ' }));
      input.dispatchEvent(new g.CompositionEvent('compositionend', { data: '漢字' }));
    });
    await page.waitForFunction(stateIs, 'Unsaved changes', { timeout: 60_000 });
    // No wait for the last text to land: the kit runs a save after the input sent before it (daemon/kit/input-order.ts).
    await page.click('[role=toolbar] button[data-command="file.save"]');
    await page.waitForFunction(stateIs, 'All changes saved', { timeout: 60_000 });
    const text = docxText(readFileSync(join(env.folder, 'letter.docx')));
    expect(text).toContain('Typed in Chromium 漢字');
    expect(text).not.toContain('かん');
  });
});
