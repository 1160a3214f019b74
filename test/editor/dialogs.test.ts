import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileId, painted } from '../helpers/browser.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { useDemoBrowser } from '../helpers/demo-browser.ts';

const documentXml = (bytes: Buffer) => new TextDecoder().decode(unzipSync(new Uint8Array(bytes))['word/document.xml']);
const ARTIFACTS = join(import.meta.dirname, '..', 'artifacts');

/** The few page objects the page functions touch (this project is type-checked for Node, not the DOM). */
interface PageCanvas {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
}
interface PageGlobal {
  document: {
    querySelector(selector: string): (PageCanvas & { closest(s: string): unknown }) | null;
    activeElement: { closest(s: string): unknown; className: string } | null;
  };
}

/** Page function: the LibreOffice dialog's canvas has LibreOffice's painting (opaque, with dark text pixels). */
const dialogPainted = () => {
  const c = (globalThis as unknown as PageGlobal).document.querySelector('.ode-lod .ode-lod-canvas');
  if (!c || c.width < 100) return false;
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let opaque = 0;
  let dark = 0;
  for (let i = 0; i < d.length; i += 16) {
    if (d[i + 3] === 255) opaque++;
    if (d[i + 3] === 255 && d[i] < 100) dark++;
  }
  return opaque > (d.length / 16) * 0.9 && dark > 200;
};
/** Page function: the focus is inside a LibreOffice dialog. */
const focusInDialog = () => Boolean((globalThis as unknown as PageGlobal).document.activeElement?.closest('[role=dialog].ode-lod'));

/**
 * LibreOffice's own dialogs in the browser editor (Debian Chromium, real daemon and LibreOffice, the demo host over
 * a temp folder): Format > Paragraph opens LibreOffice's Paragraph dialog as a modal dialog painted by LibreOffice,
 * the keyboard goes to it, OK changes the document, Escape cancels.
 */
describe('LibreOffice dialogs in the browser editor', () => {
  const env = useDemoBrowser('ode-dialogs-', (folder) => copyFileSync(join(CORPUS, 'properties/documentProperties.docx'), join(folder, 'para.docx')));
  let page: Page;
  const file = join(env.folder, 'para.docx');

  const openParagraphDialog = async () => {
    await page.getByRole('menuitem', { name: 'Format', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Paragraph…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Paragraph' });
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForFunction(dialogPainted, null, { timeout: 30_000 });
    return dialog;
  };

  beforeAll(async () => {
    page = await env.browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(`${env.daemon.url}/?open=${fileId('para.docx')}`);
    await page.waitForFunction(painted, null, { timeout: 60_000 });
  }, 120_000);

  it('Escape cancels the Paragraph dialog through its own Cancel: the dialog goes, the document is unchanged', async () => {
    const dialog = await openParagraphDialog();
    expect(await page.waitForFunction(focusInDialog, null, { timeout: 5000 })).toBeTruthy();
    await page.keyboard.press('Shift+End');
    await page.keyboard.type('2"');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    expect(await page.evaluate(focusInDialog)).toBe(false);
    // Nothing was applied (the next test's save shows it: no 2" indent).
  });

  it('Format > Paragraph: a modal dialog with LibreOffice\'s title and painting; typing an indent and OK changes the document, and the saved docx has it', async () => {
    const dialog = await openParagraphDialog();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await page.getByRole('application', { name: /^Paragraph/ }).count()).toBe(1);
    await page.waitForFunction(focusInDialog, null, { timeout: 5000 });
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'dialogs-paragraph.png') });
    // The focus starts in "Before text" (Indents & Spacing): select its value, type 1 inch, leave the field, OK.
    await page.keyboard.press('Shift+End');
    await page.keyboard.type('1"');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    await page.keyboard.press('Control+s');
    // The save reaches the demo host's folder: the paragraph has 1440 twips of left indent.
    const deadline = Date.now() + 30_000;
    let xml = '';
    while (Date.now() < deadline) {
      xml = documentXml(readFileSync(file));
      if (/<w:ind w:(left|start)="1440"/.test(xml)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(xml).toMatch(/<w:ind w:(left|start)="1440"/);
    // The 2" typed into the cancelled dialog never reached the document.
    expect(xml).not.toMatch(/w:(left|start)="2880"/);
  });
});
