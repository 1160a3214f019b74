import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileId, painted, stateIs } from '../helpers/browser.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { copyForTry, useDemoBrowser } from '../helpers/demo-browser.ts';
import { documentXml } from '../helpers/docx.ts';

/** Screenshots land here (ignored by git: products of the run). */
const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;
/** The w:r elements of document.xml whose text contains `text`. */
const runsWith = (xml: string, text: string) =>
  [...xml.matchAll(/<w:r[ >][\s\S]*?<\/w:r>/g)]
    .map((m) => m[0])
    .filter((r) =>
      [...r.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)]
        .map((m) => m[1])
        .join('')
        .includes(text),
    );

/** The page objects the page functions touch (the tests are type-checked for Node, not the DOM). */
interface PageGlobal {
  document: { documentElement: { dataset: Record<string, string | undefined> }; body: unknown };
  getComputedStyle(e: unknown): { backgroundColor: string };
}

/**
 * The chrome in Debian's Chromium against a real daemon (demo host folder): the menu bar by keyboard (F10 and
 * Alt, arrows, Enter) makes text bold in the saved docx, the toolbar's font size changes the saved docx, the theme
 * toggle, the menus of each document type, accessible names of every menu item and toolbar button, the French UI.
 * Each test, and each CI retry of one, opens its own copies of the documents in a page of its own.
 */
describe('the editor chrome: menus, toolbar, themes, keyboard', () => {
  const env = useDemoBrowser('ode-chrome-', () => mkdirSync(ARTIFACTS, { recursive: true }));
  let page: Page;
  /** The corpus file each document of the tests is a copy of. */
  const SOURCES = {
    'chrome.docx': 'properties/documentProperties.docx',
    'sheet.xlsx': 'spreadsheets/SampleSS.xlsx',
    'slides.pptx': 'presentations/AllSlidesConverterSC.pptx',
    'title.pptx': 'presentations/AllSlidesConverterSC.pptx',
  };
  /** This try's copy of chrome.docx (the last one openCopy opened): its name in the demo host's folder and its path. */
  let text = { name: '', path: '' };
  const docx = () => text.path;

  beforeEach(async () => {
    page = await env.browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  });
  afterEach(() => page?.close());

  /** Opens a new copy of `name` (optionally with iframe parameters) and waits for its canvas; returns the copy's path. */
  async function openCopy(name: keyof typeof SOURCES, params = ''): Promise<string> {
    const copy = await copyForTry(env, join(CORPUS, SOURCES[name]), name);
    if (name === 'chrome.docx') text = copy;
    await open(copy.name, params);
    return copy.path;
  }

  /**
   * Opens `name` from the demo host's start page (`/?open=<id>` submits the file's form), with iframe parameters
   * `params` (`&permission=readonly`) added to the form's action as a host adds them, and waits for its canvas. The
   * start page reloads itself a moment after the folder changed (a copy made or a document saved just before): a
   * form changed by a script in the page was lost with it, or the script's context (the read-only view's first try
   * failed so in CI); the reloaded `/?open=` page submits again, and the parameters are added to the POST itself.
   */
  async function open(name: string, params = ''): Promise<void> {
    const editor = /\/ode\.html\?/;
    if (params) await page.route(editor, (route) => route.continue({ url: route.request().url() + params }));
    try {
      await page.goto(`${env.daemon.url}/?open=${fileId(name)}`);
      await page.waitForURL(editor, { waitUntil: 'commit', timeout: 60_000 });
    } finally {
      if (params) await page.unroute(editor);
    }
    // Each copy is a new document: it waits for a kit of its own (a kit is not reused), slow at CI load.
    await page.getByRole('menubar').waitFor({ timeout: 90_000 });
    await page.waitForFunction(painted, null, { timeout: 60_000 });
  }

  /** Clicks Save and waits until the folder's file changed; returns its document.xml. */
  async function save(): Promise<string> {
    const before = statSync(docx()).mtimeMs;
    await page.getByRole('toolbar').getByRole('button', { name: 'Save', exact: true }).click();
    await savedAfter(docx(), before);
    return documentXml(readFileSync(docx()));
  }

  /** Waits until `path` changed after `before` (mtime) and reads as a whole zip (the host may still be writing). */
  async function savedAfter(path: string, before: number): Promise<void> {
    const whole = () => {
      try {
        return statSync(path).mtimeMs !== before && Object.keys(unzipSync(new Uint8Array(readFileSync(path)))).length > 0;
      } catch {
        return false;
      }
    };
    await expect.poll(whole, { timeout: 30_000, interval: 200 }).toBe(true);
  }

  /** A paragraph of its own at the top, typed and selected with the keyboard (its selection handles shown). */
  const selectedLine = async (line: string) => {
    await page.keyboard.press('Control+Home');
    await page.keyboard.type(line);
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    // A UNO command was seen to reach LibreOffice before keys sent just before it: the selection is there first.
    await page.locator('.ode-handle-start').waitFor({ state: 'visible', timeout: 30_000 });
  };

  it('makes a selection bold through the menu bar by keyboard only; the saved docx has <w:b/> on that run', async () => {
    await openCopy('chrome.docx');
    // The toolbar shows the states LibreOffice announced while loading (docDefaults: 12 pt, theme minor font Cambria).
    const toolbar = page.getByRole('toolbar');
    await expect.poll(() => toolbar.getByRole('combobox', { name: 'Font size' }).inputValue(), { timeout: 30_000 }).toBe('12');
    await expect.poll(() => toolbar.getByRole('combobox', { name: 'Font name' }).inputValue(), { timeout: 30_000 }).toBe('Cambria');
    expect(await toolbar.getByRole('button', { name: 'Bold', exact: true }).getAttribute('aria-pressed')).toBe('false');
    await selectedLine('Menu bold text');

    await page.keyboard.press('F10');
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document.activeElement.textContent), {
        timeout: 30_000,
      })
      .toBe('File');
    // File, Edit, View, Insert, Format (Collabora Online's order): four to the right.
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    const format = page.getByRole('menubar').getByRole('menuitem', { name: 'Format', exact: true });
    await expect
      .poll(() => format.evaluate((e) => e === (e as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement), {
        timeout: 30_000,
      })
      .toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => format.getAttribute('aria-expanded'), { timeout: 30_000 }).toBe('true');
    const bold = page.getByRole('menuitemcheckbox', { name: 'Bold', exact: true });
    await expect
      .poll(() => bold.evaluate((e) => e === (e as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement), { timeout: 30_000 })
      .toBe(true);
    expect(await bold.getAttribute('aria-checked')).toBe('false');
    await page.keyboard.press('Enter');
    await expect.poll(() => format.getAttribute('aria-expanded'), { timeout: 30_000 }).toBe('false');

    // The state comes back from LibreOffice: the toolbar's Bold is pressed, and the menu item is checked.
    await expect
      .poll(() => page.getByRole('toolbar').getByRole('button', { name: 'Bold', exact: true }).getAttribute('aria-pressed'), { timeout: 30_000 })
      .toBe('true');
    await page.keyboard.press('Alt');
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    expect(await bold.getAttribute('aria-checked')).toBe('true');
    await page.screenshot({ path: join(ARTIFACTS, 'chrome-text-format-menu.png') });
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');

    const runs = runsWith(await save(), 'Menu bold text');
    expect(runs.length).toBeGreaterThan(0);
    for (const r of runs) expect(r).toMatch(/<w:rPr>(?:(?!<\/w:rPr>)[\s\S])*<w:b\/>/);
  });

  it('sets the font size of the selection from the toolbar; the saved docx has it', async () => {
    await openCopy('chrome.docx');
    await selectedLine('Menu bold text');
    const size = page.getByRole('combobox', { name: 'Font size' });
    await size.selectOption('20');
    await expect.poll(() => size.inputValue()).toBe('20');
    const runs = runsWith(await save(), 'Menu bold text');
    expect(runs.length).toBeGreaterThan(0);
    for (const r of runs) expect(r).toContain('<w:sz w:val="40"/>');
  });

  it('gives every menu item and toolbar button an accessible name', async () => {
    await openCopy('chrome.docx');
    const menus = page.getByRole('menubar').locator(':scope > li > [role=menuitem]:visible');
    const tops = await menus.count();
    expect(tops).toBeGreaterThanOrEqual(6);
    let seen = 0;
    for (let i = 0; i < tops; i++) {
      await menus.nth(i).click();
      const all = page.locator('[role=menu]:visible > li > [role^=menuitem]');
      const items = await all.count();
      expect(items).toBeGreaterThan(0);
      const named = (await page.getByRole('menuitem', { name: /\S/ }).count()) + (await page.getByRole('menuitemcheckbox', { name: /\S/ }).count());
      // Named: the menu bar's titles plus every item of the open menu.
      expect(named).toBe(tops + items);
      seen += items;
      await page.keyboard.press('Escape');
    }
    expect(seen).toBeGreaterThan(30);
    const buttons = await page.locator('[role=toolbar] button:visible').count();
    expect(buttons).toBeGreaterThan(15);
    expect(await page.getByRole('toolbar').getByRole('button', { name: /\S/ }).count()).toBe(buttons);
    const selects = await page.locator('[role=toolbar] select:visible').count();
    expect(await page.getByRole('toolbar').getByRole('combobox', { name: /\S/ }).count()).toBe(selects);
  });

  it('switches between the light and dark themes from the View menu, and remembers the choice', async () => {
    const look = () =>
      page.evaluate(() => {
        const w = globalThis as unknown as PageGlobal;
        return { theme: w.document.documentElement.dataset.theme, background: w.getComputedStyle(w.document.body).backgroundColor };
      });
    await openCopy('chrome.docx');
    const before = await look();
    expect(before.theme).toBe('light');
    await page.getByRole('menubar').getByRole('menuitem', { name: 'View', exact: true }).click();
    const toggle = page.getByRole('menuitemcheckbox', { name: 'Dark theme' });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    const after = await look();
    expect(after.theme).toBe('dark');
    expect(after.background).not.toBe(before.background);
    expect(after.background).toBe('rgb(28, 31, 36)'); // editor.css: --bg of the dark theme, #1c1f24
    await page.keyboard.press('F10');
    await page.keyboard.press('Enter');
    await page.keyboard.press('d'); // type-ahead: Download as
    await page.keyboard.press('ArrowRight');
    const pdf = page.getByRole('menuitem', { name: 'PDF document (.pdf)' });
    await expect
      .poll(() => pdf.evaluate((e) => e === (e as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement), { timeout: 30_000 })
      .toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'chrome-text-dark-file-menu.png') });
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await open(text.name);
    expect((await look()).theme).toBe('dark');
    await page.getByRole('menubar').getByRole('menuitem', { name: 'View', exact: true }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Dark theme' }).click();
    expect((await look()).theme).toBe('light');
    // The first paragraph 20 pt bold (the toolbar's states at the second view below are then not the defaults).
    await page.locator('.ode-input').focus();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+End');
    await page.locator('.ode-handle-start').waitFor({ state: 'visible', timeout: 30_000 });
    const bar = page.getByRole('toolbar');
    await bar.getByRole('combobox', { name: 'Font size' }).selectOption('20');
    await bar.getByRole('button', { name: 'Bold', exact: true }).click();
    await expect.poll(() => bar.getByRole('button', { name: 'Bold', exact: true }).getAttribute('aria-pressed'), { timeout: 30_000 }).toBe('true');
    await expect.poll(() => bar.getByRole('combobox', { name: 'Font size' }).inputValue(), { timeout: 30_000 }).toBe('20');

    // Without a remembered choice the system's scheme decides.
    const context = await env.browser.newContext({ viewport: { width: 1000, height: 700 }, colorScheme: 'dark' });
    const other = await context.newPage();
    await other.goto(`${env.daemon.url}/?open=${fileId(text.name)}`);
    await other.getByRole('menubar').waitFor({ timeout: 60_000 });
    expect(await other.evaluate(() => (globalThis as unknown as PageGlobal).document.documentElement.dataset.theme)).toBe('dark');
    // A second view of an open document: its toolbar shows the states LibreOffice gave while creating the view
    // (the cursor starts in the first paragraph, made 20 pt bold above).
    const toolbar = other.getByRole('toolbar');
    await expect.poll(() => toolbar.getByRole('combobox', { name: 'Font size' }).inputValue(), { timeout: 30_000 }).toBe('20');
    expect(await toolbar.getByRole('button', { name: 'Bold', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await context.close();
  });

  it('zooms from the View menu, the toolbar showing the zoom', async () => {
    const zoom = page.getByRole('toolbar').getByRole('combobox', { name: 'Zoom' });
    const view = async (item: string) => {
      await page.getByRole('menubar').getByRole('menuitem', { name: 'View', exact: true }).click();
      await page.getByRole('menuitem', { name: item }).click();
    };
    await openCopy('chrome.docx');
    await expect.poll(() => zoom.inputValue()).toBe('1');
    await view('Zoom in');
    await expect.poll(() => zoom.inputValue()).toBe('1.25');
    await view('Zoom in');
    await expect.poll(() => zoom.inputValue()).toBe('1.5');
    await view('Zoom out');
    await expect.poll(() => zoom.inputValue()).toBe('1.25');
    await view('Zoom 100 %');
    await expect.poll(() => zoom.inputValue()).toBe('1');
  });

  it('shows the menus of each document type: Sheet for a spreadsheet, Slide for a presentation', async () => {
    const titles = () => page.getByRole('menubar').locator(':scope > li > [role=menuitem]:visible').allTextContents();
    await openCopy('chrome.docx');
    expect(await titles()).not.toContain('Sheet');
    expect(await titles()).not.toContain('Slide');
    await openCopy('sheet.xlsx');
    expect(await titles()).toContain('Sheet');
    expect(await titles()).not.toContain('Slide');
    await page.getByRole('menubar').getByRole('menuitem', { name: 'Insert', exact: true }).click();
    expect(await page.getByRole('menuitem', { name: 'Page break' }).count()).toBe(0);
    expect(await page.getByRole('menuitem', { name: 'Sum', exact: true }).count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'chrome-spreadsheet-insert-menu.png') });
    await page.keyboard.press('Escape');
    await openCopy('slides.pptx');
    expect(await titles()).toContain('Slide');
    expect(await titles()).not.toContain('Sheet');
    await page.getByRole('menubar').getByRole('menuitem', { name: 'Slide', exact: true }).click();
    expect(await page.getByRole('menuitem', { name: /New slide/ }).count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'chrome-presentation-slide-menu.png') });
    await page.keyboard.press('Escape');
  });

  it('inserts a table, a link and a comment through keyboard-driven dialogs; Save as writes a new file', async () => {
    await openCopy('chrome.docx');
    const active = () =>
      page.evaluate(() => {
        const a = (
          globalThis as unknown as {
            document: {
              activeElement: { className: string; getAttribute(n: string): string | null; closest(s: string): { textContent: string } | null } | null;
            };
          }
        ).document.activeElement;
        return {
          className: a?.className ?? '',
          label: a?.getAttribute('aria-label') ?? a?.closest('label')?.textContent ?? '',
          inDialog: !!a?.closest('[role=dialog]'),
        };
      });
    const menu = async (title: string, letter: string) => {
      await page.keyboard.press('F10');
      await page.keyboard.press(title); // type-ahead on the menu bar
      await page.keyboard.press('Enter');
      await page.keyboard.press(letter);
      await page.keyboard.press('Enter');
    };
    await page.keyboard.press('Control+End');

    await menu('i', 't'); // Insert > Table…
    const table = page.getByRole('dialog', { name: 'Insert table' });
    await table.waitFor();
    expect(await active()).toMatchObject({ label: 'Rows', inDialog: true });
    await page.keyboard.press('Control+A');
    await page.keyboard.type('3');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('4');
    await page.keyboard.press('Enter');
    await table.waitFor({ state: 'detached' });
    expect((await active()).className).toContain('ode-input'); // the focus is back in the document
    await page.keyboard.press('Control+End');

    await menu('i', 'l'); // Insert > Link…
    const link = page.getByRole('dialog', { name: 'Insert link' });
    await link.waitFor();
    expect(await active()).toMatchObject({ label: 'Address (URL)', inDialog: true });
    await page.keyboard.type('example.org/ode');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.type('Ode link');
    await page.keyboard.press('Enter');
    await link.waitFor({ state: 'detached' });

    // Insert > Comment… by mouse.
    await page.getByRole('menubar').getByRole('menuitem', { name: 'Insert', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Comment…' }).click();
    const comment = page.getByRole('dialog', { name: 'Insert comment' });
    await comment.waitFor();
    await page.keyboard.type('A chrome comment');
    // Tab stays inside the dialog (focus trap).
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect((await active()).inDialog).toBe(true);
    }
    await comment.getByRole('button', { name: 'OK' }).click();
    await comment.waitFor({ state: 'detached' });

    const xml = await save();
    const tbl = /<w:tbl>[\s\S]*?<\/w:tbl>/.exec(xml)?.[0] ?? '';
    expect(tbl.match(/<w:tr[ >]/g)?.length).toBe(3);
    expect(/<w:tr[ >][\s\S]*?<\/w:tr>/.exec(tbl)![0].match(/<w:tc>/g)?.length).toBe(4);
    const files = unzipSync(new Uint8Array(readFileSync(docx())));
    const hyperlink = /<w:hyperlink [^>]*r:id="([^"]+)"[^>]*>([\s\S]*?)<\/w:hyperlink>/.exec(xml);
    expect(hyperlink?.[2]).toContain('Ode link');
    const rels = new TextDecoder().decode(files['word/_rels/document.xml.rels']);
    expect(rels).toMatch(new RegExp(`Id="${hyperlink![1]}"[^>]*Target="https://example.org/ode"|Target="https://example.org/ode"[^>]*Id="${hyperlink![1]}"`));
    expect(new TextDecoder().decode(files['word/comments.xml'])).toContain('A chrome comment');

    // Help > Keyboard shortcuts: a modal; Escape closes it and gives the focus back to the document.
    await page.keyboard.press('F10');
    await page.keyboard.press('h');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await shortcuts.waitFor();
    expect(await shortcuts.getAttribute('aria-modal')).toBe('true');
    expect(await shortcuts.getByRole('row').count()).toBeGreaterThan(10);
    await page.keyboard.press('Escape');
    await shortcuts.waitFor({ state: 'detached' });
    expect((await active()).className).toContain('ode-input');

    // File > Save as…: a new file in the host's folder.
    await page.keyboard.press('F10');
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Save as…' }).click();
    const saveAs = page.getByRole('dialog', { name: 'Save as' });
    await saveAs.waitFor();
    await page.keyboard.press('Control+A');
    const saveAsName = text.name.replace(/\.docx$/, '-copy.docx'); // this try's
    await page.keyboard.type(saveAsName);
    await page.keyboard.press('Enter');
    await expect.poll(() => existsSync(join(env.folder, saveAsName)), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => documentXml(readFileSync(join(env.folder, saveAsName))).includes('Ode link'), { timeout: 30_000 }).toBe(true);
  });

  it('applies a paragraph style, font and highlighting colours and centring from the toolbar, which is navigable with arrow keys', async () => {
    await openCopy('chrome.docx');
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Styled line');
    await page.keyboard.press('Shift+Home');
    const toolbar = page.getByRole('toolbar');
    await toolbar.getByRole('combobox', { name: 'Paragraph style' }).selectOption({ label: 'Heading 1' });
    await toolbar.getByRole('button', { name: 'Font colour' }).click();
    const palette = page.getByRole('dialog', { name: 'Font colour' });
    await palette.getByRole('button', { name: 'Red' }).click();
    await palette.waitFor({ state: 'detached' });
    await toolbar.getByRole('button', { name: 'Highlighting colour' }).click();
    const highlight = page.getByRole('dialog', { name: 'Highlighting colour' });
    await highlight.getByRole('button', { name: 'Yellow' }).click();
    await highlight.waitFor({ state: 'detached' });
    const centre = toolbar.getByRole('button', { name: 'Centre' });
    await centre.click();
    await expect.poll(() => centre.getAttribute('aria-pressed'), { timeout: 30_000 }).toBe('true');
    await expect.poll(() => toolbar.getByRole('combobox', { name: 'Paragraph style' }).inputValue(), { timeout: 30_000 }).toBe('Heading 1');
    // Insert > Link… offers the selected text as the link's text (Escape: nothing inserted).
    await toolbar.getByRole('button', { name: 'Link' }).click();
    const link = page.getByRole('dialog', { name: 'Insert link' });
    await link.waitFor();
    expect(await link.getByRole('textbox', { name: 'Text' }).inputValue()).toBe('Styled line');
    await page.keyboard.press('Escape');
    await link.waitFor({ state: 'detached' });

    const xml = await save();
    const paragraph = [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((m) => m[0]).find((p) => p.includes('Styled line'))!;
    expect(paragraph).toMatch(/<w:pStyle w:val="Heading1"\/>/);
    expect(paragraph).toMatch(/<w:jc w:val="center"\/>/);
    for (const r of runsWith(paragraph, 'Styled line')) {
      expect(r).toContain('<w:color w:val="C9211E"/>');
      expect(r).toMatch(/<w:highlight w:val="yellow"\/>|<w:shd [^>]*w:fill="FFFF00"/);
    }

    // Ctrl+Alt+T goes to the toolbar; one control is in the tab order; arrows, Home and End move.
    await page.keyboard.press('Control+Alt+T');
    const focused = () =>
      page.evaluate(() => {
        const d = (
          globalThis as unknown as {
            document: { activeElement: { getAttribute(n: string): string | null } | null; querySelectorAll(s: string): { length: number } };
          }
        ).document;
        return { name: d.activeElement?.getAttribute('aria-label'), inTabOrder: d.querySelectorAll('[role=toolbar] [tabindex="0"]').length };
      });
    await page.keyboard.press('Home');
    expect(await focused()).toEqual({ name: 'Save', inTabOrder: 1 });
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toEqual({ name: 'Undo', inTabOrder: 1 });
    await page.keyboard.press('End');
    expect(await focused()).toEqual({ name: 'Zoom', inTabOrder: 1 });
    await page.keyboard.press('ArrowLeft');
    expect((await focused()).name).toBe('Comment');
    // F6 cycles toolbar -> document -> menu bar -> toolbar; Shift+F6 goes back.
    const where = () =>
      page.evaluate(() => {
        const a = (
          globalThis as unknown as {
            document: { activeElement: { className: string; textContent: string | null; getAttribute(n: string): string | null } | null };
          }
        ).document.activeElement;
        return a?.className.includes('ode-input')
          ? 'document'
          : a?.getAttribute('role') === 'menuitem'
            ? `menu ${a.textContent}`
            : (a?.getAttribute('aria-label') ?? '');
      });
    await page.keyboard.press('F6');
    expect(await where()).toBe('document');
    await page.keyboard.press('F6');
    expect(await where()).toBe('menu File');
    await page.keyboard.press('F6');
    expect(await where()).toBe('Comment');
    await page.keyboard.press('Shift+F6');
    expect(await where()).toBe('menu File');
  });

  it('inserts a local image and a special character, repairs by undoing back to a chosen change, shows the ruler', async () => {
    await openCopy('chrome.docx');
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    // A 4×4 red PNG.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEklEQVR4nGP4z8CAB+GTG8HSALfKY52fTcuYAAAAAElFTkSuQmCC', 'base64');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('toolbar').getByRole('button', { name: 'Image' }).click()]);
    await chooser.setFiles({ name: 'red.png', mimeType: 'image/png', buffer: png });
    // The editor reads the file and pastes it; LibreOffice then selects the new image (its frame shows).
    await page.locator('.ode-graphic-frame').waitFor({ state: 'visible', timeout: 30_000 });
    await page.keyboard.press('Escape'); // leave the image selection
    await page.keyboard.press('Control+End');

    await page.getByRole('menubar').getByRole('menuitem', { name: 'Insert', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Special character…' }).click();
    const special = page.getByRole('dialog', { name: 'Special character' });
    await special.waitFor();
    await special.getByRole('button', { name: '© U+00A9' }).click();
    await special.waitFor({ state: 'detached' });
    await page.keyboard.type(' Repair me');

    let xml = await save();
    const files = unzipSync(new Uint8Array(readFileSync(docx())));
    expect(Object.keys(files).some((f) => f.startsWith('word/media/'))).toBe(true);
    expect(xml).toMatch(/<w:drawing>/);
    expect(xml).toContain('© Repair me');

    // File > Repair…: the newest change first; going back one step undoes the typing.
    await page.keyboard.press('F10');
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Repair…' }).click();
    const repair = page.getByRole('dialog', { name: /Repair/ });
    await repair.waitFor();
    const choices = repair.getByRole('radio');
    expect(await choices.count()).toBeGreaterThan(1);
    expect(await choices.first().isChecked()).toBe(true);
    await repair.getByRole('button', { name: 'Go back' }).click();
    await repair.waitFor({ state: 'detached' });
    // The undo reaches the kit before the save that follows it on the same socket.
    xml = await save();
    expect(xml).toContain('©');
    expect(xml).not.toContain('Repair me');

    // View > Ruler: a ruler canvas above the document; the choice is a checkbox item.
    await page.getByRole('menubar').getByRole('menuitem', { name: 'View', exact: true }).click();
    const rulerItem = page.getByRole('menuitemcheckbox', { name: 'Ruler' });
    expect(await rulerItem.getAttribute('aria-checked')).toBe('false');
    await rulerItem.click();
    await page.locator('.ode-ruler').waitFor({ state: 'visible' });
    await page.screenshot({ path: join(ARTIFACTS, 'chrome-text-ruler.png') });
    await page.getByRole('menubar').getByRole('menuitem', { name: 'View', exact: true }).click();
    expect(await page.getByRole('menuitemcheckbox', { name: 'Ruler' }).getAttribute('aria-checked')).toBe('true');
    await page.getByRole('menuitemcheckbox', { name: 'Ruler' }).click();
    await page.locator('.ode-ruler').waitFor({ state: 'hidden' });
  });

  it('renames the document from its title (a button when renaming is allowed): the title follows and the host has the new name', async () => {
    const { name } = await copyForTry(env, join(CORPUS, 'properties/documentProperties.docx'), 'rename-me.docx');
    const stem = name.replace(/\.docx$/, '');
    const renamed = stem.replace('rename-me', 'renamed by chrome'); // this try's: 'renamed by chrome-<n>'
    await open(name);
    await page.keyboard.press('F10');
    await page.keyboard.press('Enter');
    expect(await page.getByRole('menuitem', { name: 'Rename…' }).count()).toBe(1);
    await page.keyboard.press('Escape');
    // The title is a button that renames.
    await page.getByRole('button', { name: `Rename: ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename' });
    await dialog.waitFor();
    expect(await dialog.getByRole('textbox').inputValue()).toBe(stem);
    await page.keyboard.press('Control+A');
    await page.keyboard.type(renamed);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.ode-title').textContent(), { timeout: 30_000 }).toBe(`${renamed}.docx`);
    expect(existsSync(join(env.folder, `${renamed}.docx`))).toBe(true);
  });

  it('spreadsheet toolbar: Sum, Currency, colours and Merge cells reach the saved xlsx', async () => {
    const path = await openCopy('sheet.xlsx');
    const toolbar = page.getByRole('toolbar');
    const keys = async (...k: string[]) => {
      for (const key of k) await page.keyboard.press(key);
    };
    await keys('Control+Home', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight'); // G1
    await page.keyboard.type('5');
    await keys('Enter');
    await page.keyboard.type('7');
    await keys('Enter'); // G3
    await toolbar.getByRole('button', { name: 'Sum', exact: true }).click();
    await keys('Enter'); // accepts =SUM(G1:G2)
    await keys('ArrowUp', 'ArrowUp', 'ArrowUp'); // G1
    await toolbar.getByRole('button', { name: 'Currency', exact: true }).click();
    await toolbar.getByRole('button', { name: 'Font colour' }).click();
    await page.getByRole('dialog', { name: 'Font colour' }).getByRole('button', { name: 'Red' }).click();
    await toolbar.getByRole('button', { name: 'Highlighting colour' }).click();
    await page.getByRole('dialog', { name: 'Highlighting colour' }).getByRole('button', { name: 'Yellow' }).click();
    await keys('ArrowRight', 'Shift+ArrowRight'); // H1:I1
    const merge = toolbar.getByRole('button', { name: 'Merge cells', exact: true });
    await merge.click();
    await expect.poll(() => merge.getAttribute('aria-pressed'), { timeout: 30_000 }).toBe('true');

    const before = statSync(path).mtimeMs;
    await toolbar.getByRole('button', { name: 'Save', exact: true }).click();
    await savedAfter(path, before);
    const files = unzipSync(new Uint8Array(readFileSync(path)));
    const text = (name: string) => new TextDecoder().decode(files[name]);
    const sheet = text('xl/worksheets/sheet1.xml');
    expect(sheet).toMatch(/<c r="G3"[^>]*>\s*<f[^>]*>SUM\(G1:G2\)<\/f>/);
    expect(sheet).toContain('<mergeCell ref="H1:I1"/>');
    // G1's cell format has a currency number format.
    const style = Number(/<c r="G1"[^>]*\bs="(\d+)"/.exec(sheet)?.[1] ?? 0);
    const styles = text('xl/styles.xml');
    const xf = [...(/<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? '').matchAll(/<xf [^>]*>/g)][style][0];
    const numFmtId = /numFmtId="(\d+)"/.exec(xf)![1];
    const code = new RegExp(`<numFmt numFmtId="${numFmtId}" formatCode="([^"]*)"`).exec(styles)?.[1] ?? '';
    expect(code).toMatch(/\[\$.+-[0-9a-f]+\]#,##0\.00/i); // a currency format: [$<symbol>-<locale>]#,##0.00
    // ... a red font and a yellow cell background.
    const fonts = [...(/<fonts[^>]*>([\s\S]*?)<\/fonts>/.exec(styles)?.[1] ?? '').matchAll(/<font(?:\/>|[ >][\s\S]*?<\/font>)/g)].map((f) => f[0]);
    const fills = [...(/<fills[^>]*>([\s\S]*?)<\/fills>/.exec(styles)?.[1] ?? '').matchAll(/<fill>[\s\S]*?<\/fill>/g)].map((f) => f[0]);
    expect(fonts[Number(/fontId="(\d+)"/.exec(xf)![1])]).toMatch(/<color rgb="FFC9211E"\/>/i);
    expect(fills[Number(/fillId="(\d+)"/.exec(xf)![1])]).toMatch(/<fgColor rgb="FFFFFF00"\/>/i);
  });

  it('presentation: inserts a table from the toolbar into the current slide of the saved pptx', async () => {
    const path = await openCopy('slides.pptx');
    await page.getByRole('toolbar').getByRole('button', { name: 'Table' }).click();
    const dialog = page.getByRole('dialog', { name: 'Insert table' });
    await dialog.waitFor();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('5');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    // LibreOffice runs the dispatched .uno:InsertTable in its main loop: the document is modified once it ran.
    await page.waitForFunction(stateIs, 'Unsaved changes', { timeout: 30_000 });
    const before = statSync(path).mtimeMs;
    await page.getByRole('toolbar').getByRole('button', { name: 'Save', exact: true }).click();
    await savedAfter(path, before);
    const slide = new TextDecoder().decode(unzipSync(new Uint8Array(readFileSync(path)))['ppt/slides/slide1.xml']);
    const tbl = /<a:tbl>[\s\S]*?<\/a:tbl>/.exec(slide)?.[0] ?? '';
    expect(tbl, `no a:tbl in slide1.xml: ${slide.slice(0, 2000)}`).not.toBe('');
    expect(tbl.match(/<a:tr /g)?.length).toBe(2);
    expect(tbl.match(/<a:gridCol /g)?.length).toBe(5);
  });

  it('presentation: bold, font colour and highlighting of a title text reach the saved pptx', async () => {
    const path = await openCopy('title.pptx');
    // The title placeholder sits at about 44 % of the slide's height (AllSlidesConverterSC.pptx, slide 1).
    const box = (await page.locator('.ode-doc').boundingBox())!;
    await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height * 0.44);
    await page.keyboard.press('Control+A');
    const toolbar = page.getByRole('toolbar');
    await page.getByRole('menubar').getByRole('menuitem', { name: 'Format', exact: true }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Bold', exact: true }).click();
    await toolbar.getByRole('button', { name: 'Font colour' }).click();
    await page.getByRole('dialog', { name: 'Font colour' }).getByRole('button', { name: 'Red' }).click();
    await toolbar.getByRole('button', { name: 'Highlighting colour' }).click();
    await page.getByRole('dialog', { name: 'Highlighting colour' }).getByRole('button', { name: 'Yellow' }).click();
    await expect.poll(() => toolbar.getByRole('button', { name: 'Bold', exact: true }).getAttribute('aria-pressed'), { timeout: 30_000 }).toBe('true');
    await page.keyboard.press('Escape'); // leave the text edit: the change is in the shape
    const before = statSync(path).mtimeMs;
    await toolbar.getByRole('button', { name: 'Save', exact: true }).click();
    await savedAfter(path, before);
    const slide = new TextDecoder().decode(unzipSync(new Uint8Array(readFileSync(path)))['ppt/slides/slide1.xml']);
    const rPr = [...slide.matchAll(/<a:rPr [^>]*?(?:\/>|>[\s\S]*?<\/a:rPr>)/g)].map((m) => m[0]).filter((r) => /\bb="1"/.test(r));
    expect(rPr.length).toBeGreaterThan(0);
    expect(rPr.some((r) => /<a:solidFill><a:srgbClr val="C9211E"\/><\/a:solidFill>/i.test(r))).toBe(true);
    expect(rPr.some((r) => /<a:highlight><a:srgbClr val="FFFF00"\/><\/a:highlight>/i.test(r))).toBe(true);
  });

  it('leaves the editing commands out of the menus and the toolbar of a read-only view (permission=readonly)', async () => {
    await openCopy('chrome.docx', '&permission=readonly');
    const toolbar = page.getByRole('toolbar');
    const titles = await page.getByRole('menubar').locator(':scope > li > [role=menuitem]:visible').allTextContents();
    expect(titles).toContain('File');
    expect(titles).toContain('View');
    expect(titles).not.toContain('Format'); // every item of it edits
    expect(await toolbar.getByRole('button', { name: 'Bold', exact: true }).count()).toBe(0);
    expect(await toolbar.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    expect(await toolbar.getByRole('combobox', { name: 'Font size' }).count()).toBe(0);
    expect(await toolbar.getByRole('combobox', { name: 'Zoom' }).count()).toBe(1);
    await page.getByRole('menubar').getByRole('menuitem', { name: 'File', exact: true }).click();
    expect(await page.getByRole('menuitem', { name: 'Download as' }).count()).toBe(1);
    expect(await page.getByRole('menuitem', { name: 'Repair…' }).count()).toBe(0);
    await page.keyboard.press('Escape');
  });

  it('speaks French with lang=fr', async () => {
    await openCopy('chrome.docx', '&lang=fr');
    const titles = await page.getByRole('menubar').locator(':scope > li > [role=menuitem]:visible').allTextContents();
    expect(titles.slice(0, 4)).toEqual(['Fichier', 'Édition', 'Affichage', 'Insertion']);
    expect(await page.getByRole('toolbar').getByRole('button', { name: 'Gras', exact: true }).count()).toBe(1);
    await page.setViewportSize({ width: 900, height: 640 }); // a narrow window: the toolbar wraps
    await page.getByRole('menubar').getByRole('menuitem', { name: 'Fichier' }).click();
    expect(await page.getByRole('menuitem', { name: 'Enregistrer', exact: true }).count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'chrome-text-fr-narrow.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Escape');
  });
});
