import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileId, painted } from '../helpers/browser.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { copyForTry, useDemoBrowser } from '../helpers/demo-browser.ts';
import { documentXml } from '../helpers/docx.ts';

const ARTIFACTS = join(import.meta.dirname, '..', 'artifacts');

/** The few page objects the page functions touch (this project is type-checked for Node, not the DOM). */
interface PageGlobal {
  document: { activeElement: { closest(s: string): unknown } | null };
}
/** Page function: the focus is inside an open LibreOffice dialog. */
const focusInDialog = () => Boolean((globalThis as unknown as PageGlobal).document.activeElement?.closest('[role=dialog][aria-modal=true]'));

/**
 * LibreOffice's own dialogs in the browser editor (Debian Chromium, real daemon and LibreOffice 25.2, the demo host
 * over a temp folder): Format > Paragraph opens LibreOffice's Paragraph dialog as an HTML dialog built from its
 * JSDialog description, whose fields are found by their accessible names; OK changes the document (the saved docx
 * read back is the oracle), Escape cancels.
 */
describe('LibreOffice dialogs in the browser editor', () => {
  const env = useDemoBrowser('ode-dialogs-');
  let page: Page;
  /** This try's copy of the document (each test, and each CI retry of one, starts from the corpus file). */
  let file = '';

  const openParagraphDialog = async () => {
    await page.getByRole('menuitem', { name: 'Format', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Paragraph…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Paragraph' });
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    return dialog;
  };

  /**
   * Saves with Ctrl+S and reads the saved docx's document.xml in the demo host's folder until it matches `re` (the
   * save reached it); after 30 s, as it is then.
   */
  const saved = async (re: RegExp) => {
    await page.keyboard.press('Control+s');
    const deadline = Date.now() + 30_000;
    let xml = documentXml(readFileSync(file));
    while (!re.test(xml) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      xml = documentXml(readFileSync(file));
    }
    return xml;
  };

  beforeEach(async () => {
    // Listed by the demo host before the page asks for it (its folder watcher sees a new file a moment later).
    const { name, path } = await copyForTry(env, join(CORPUS, 'properties/documentProperties.docx'), 'para.docx');
    file = path;
    page = await env.browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(`${env.daemon.url}/?open=${fileId(name)}`);
    // Each copy is a new document: it waits for a kit of its own (a kit is not reused), slow at CI load.
    await page.waitForFunction(painted, null, { timeout: 90_000 });
  }, 120_000);
  afterEach(() => page.close());

  it('Escape cancels the Paragraph dialog: the dialog goes, the focus is back in the document, the document is unchanged', async () => {
    const dialog = await openParagraphDialog();
    expect(await page.waitForFunction(focusInDialog, null, { timeout: 30_000 })).toBeTruthy();
    const before = dialog.getByLabel('Before text');
    await before.fill('2"');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    expect(await page.evaluate(focusInDialog)).toBe(false);
    // Nothing was applied: a change made after it is saved without a 2" indent (the Escape reached LibreOffice first).
    await page.keyboard.type('Typed after the dialog ');
    const xml = await saved(/Typed after the dialog/);
    expect(xml).toMatch(/Typed after the dialog/);
    expect(xml).not.toMatch(/w:(left|start)="2880"/);
  });

  it('Format > Paragraph: an HTML modal dialog with LibreOffice\'s title, tabs and labelled fields; "Before text" filled by its name and OK change the document, and the saved docx has it', async () => {
    const dialog = await openParagraphDialog();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    // LibreOffice's tabs and its preview, as HTML.
    expect(await dialog.getByRole('tab', { name: 'Indents & Spacing' }).getAttribute('aria-selected')).toBe('true');
    expect(await dialog.getByRole('tab', { name: 'Alignment' }).count()).toBe(1);
    expect(await dialog.getByRole('img', { name: 'Example' }).count()).toBeGreaterThan(0);
    // The focus starts where LibreOffice says: "Before text" (init_focus_id), a spin button named by its label.
    await page.waitForFunction(focusInDialog, null, { timeout: 30_000 });
    const before = dialog.getByLabel('Before text');
    expect(await before.getAttribute('role')).toBe('spinbutton');
    expect(await before.evaluate((e) => e === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)).toBe(true);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'dialogs-paragraph.png') });
    await before.fill('1"');
    await before.press('Tab');
    // LibreOffice takes the value and answers with its own formatting of it.
    await expect.poll(() => before.inputValue(), { timeout: 30_000 }).toMatch(/^1(\.00)?\s*(″|"|in)/);
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    // The save reaches the demo host's folder: the paragraph has 1440 twips of left indent.
    const xml = await saved(/<w:ind w:(left|start)="1440"/);
    expect(xml).toMatch(/<w:ind w:(left|start)="1440"/);
    // The 2" typed into the cancelled dialog never reached the document.
    expect(xml).not.toMatch(/w:(left|start)="2880"/);
  });

  it('Enter in a field is OK: Format > Paragraph, "After text" 0.5" and Enter apply it', async () => {
    const dialog = await openParagraphDialog();
    await dialog.getByLabel('After text').fill('0.5"');
    await dialog.getByLabel('After text').press('Enter');
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    const xml = await saved(/w:(right|end)="720"/);
    expect(xml).toMatch(/<w:ind [^>]*w:(right|end)="720"/);
  });
});
