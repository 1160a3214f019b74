import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { chooseMenu, openDemoDocument, useDemoBrowser } from '../helpers/demo-browser.ts';
import { twoPageDrawing } from '../helpers/drawing.ts';

/** Screenshots land here (ignored by git: products of the run). */
const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;
/** Every part of a saved package, as text (the oracle: the file LibreOffice stored, read back with fflate). */
const parts = (path: string): Record<string, string> =>
  Object.fromEntries(Object.entries(unzipSync(new Uint8Array(readFileSync(path)))).map(([k, v]) => [k, new TextDecoder().decode(v)]));
/** The text of the w:t / a:t elements of `xml`, joined. */
const textOf = (xml: string) => [...xml.matchAll(/<[wa]:t(?: [^>]*)?>([^<]*)<\/[wa]:t>/g)].map((m) => m[1]).join('');

/**
 * The menus at Collabora Online's compact-mode level and the sidebar (issue 23, item 1) in Debian's Chromium
 * against a real daemon and LibreOffice 25.2 (demo host folder): each new menu entry is chosen once and either
 * opens what it should (a LibreOffice dialog, the sidebar deck) or changes the document, checked in the file
 * LibreOffice saved (read back with fflate, not through the editor); the sidebar shows the properties of the
 * selection and a property changed there lands in the saved file.
 */
describe('menus and sidebar in the browser editor', () => {
  const env = useDemoBrowser('ode-menus-', (folder) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    copyFileSync(join(CORPUS, 'properties/documentProperties.docx'), join(folder, 'menus.docx'));
    copyFileSync(join(CORPUS, 'properties/documentProperties.docx'), join(folder, 'merge.docx'));
    copyFileSync(join(CORPUS, 'spreadsheets/SampleSS.xlsx'), join(folder, 'menus.xlsx'));
    copyFileSync(join(CORPUS, 'presentations/layouts.pptx'), join(folder, 'menus.pptx'));
    writeFileSync(join(folder, 'menus.odg'), twoPageDrawing('A drawing'));
  });
  let page: Page;
  /**
   * The state of each UNO command as the daemon last sent it to the page (`stateChanged` frames on the editor's
   * socket: LibreOffice's STATE_CHANGED), read independently of the editor's own handling; emptied on each open.
   */
  const unoStates = new Map<string, string>();
  /** The graphic selection the daemon last sent (LibreOffice's GRAPHIC_SELECTION: a shape or box selected; null: none). */
  let graphic: unknown = null;

  const open = async (name: string) => {
    unoStates.clear();
    graphic = null;
    await openDemoDocument(page, env, name);
  };
  const choose = (title: string, ...path: string[]) => chooseMenu(page, title, ...path);

  /** The aria-checked of a menu entry (LibreOffice's state of its command), read with the menu open, then closed. */
  async function checked(title: string, ...path: string[]): Promise<string | null> {
    await page.getByRole('menubar').getByRole('menuitem', { name: title, exact: true }).click();
    for (const name of path.slice(0, -1)) await page.getByRole('menuitem', { name, exact: true }).click();
    const value = await page.getByRole('menuitemcheckbox', { name: path.at(-1), exact: true }).getAttribute('aria-checked');
    // Escape only while a menu is open: one Escape more reaches the document, and LibreOffice's Escape there drops
    // the text selection (seen: the sidebar's Bold then applied to the caret only).
    for (let i = 0; i < 3 && (await page.getByRole('menubar').locator('[role=menu]:visible').count()) > 0; i++) await page.keyboard.press('Escape');
    // From a submenu the Escapes leave the focus on the menu's title (the menubar pattern): one more, taken by the
    // menu bar, gives it back to the document (typed keys went to the menu bar's type-ahead otherwise).
    if ((await page.locator('[role=menubar] :focus').count()) > 0) await page.keyboard.press('Escape');
    return value;
  }

  /** The runs of the saved document.xml's paragraph holding "Hello World" that hold "Hello" (the first line of the document). */
  function helloRuns(xml: string): { para: string; runs: string[] } {
    const para = [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((m) => m[0]).find((p) => textOf(p).includes('Hello World')) ?? '';
    return { para, runs: [...para.matchAll(/<w:r[ >][\s\S]*?<\/w:r>/g)].map((m) => m[0]).filter((r) => textOf(r).includes('Hello')) };
  }

  /** Ctrl+S (or File > Save) and waits until the folder's file changed and reads as a whole zip; returns its parts. */
  async function save(name: string, byMenu = false): Promise<Record<string, string>> {
    const path = join(env.folder, name);
    const before = statSync(path).mtimeMs;
    // File > Save when the focus is in a sidebar field (a field keeps its keys: Ctrl+S is not the editor's there).
    if (byMenu) await choose('File', 'Save');
    else await page.keyboard.press('Control+s');
    const whole = () => {
      try {
        return statSync(path).mtimeMs !== before && Object.keys(parts(path)).length > 0;
      } catch {
        return false;
      }
    };
    await expect.poll(whole, { timeout: 30_000, interval: 200 }).toBe(true);
    return parts(path);
  }

  /** Waits for an HTML dialog built from LibreOffice's JSDialog (or its painted window) and cancels it with Escape. */
  async function dialogOpensAndCancels(): Promise<string> {
    const dialog = page.locator('[role=dialog][aria-modal=true]').first();
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    const label = (await dialog.getAttribute('aria-label')) ?? (await dialog.locator('h2').first().textContent()) ?? '';
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    return label;
  }

  /** Clicks into the body of the first page (below its text), so the caret is in the body again. */
  async function clickBody(): Promise<void> {
    const box = (await page.locator('.ode-doc').boundingBox())!;
    await page.locator('.ode-doc').click({ position: { x: box.width / 2, y: Math.min(360, box.height / 2) } });
  }

  /**
   * A click below the text at the bottom of the view: the caret goes to the end of the paragraph shown last (the
   * last one when the view shows the end of the document), outside an index even when the caret was in one.
   */
  async function toLastParagraph(): Promise<void> {
    const box = (await page.locator('.ode-doc').boundingBox())!;
    await page.locator('.ode-doc').click({ position: { x: box.width / 2, y: box.height - 40 } });
  }

  /**
   * A test that failed with a dialog open leaves the page inert (the modal's rule): the next test starts by closing
   * what is still open, with Escape as a user would.
   */
  async function closeLeftDialogs(): Promise<void> {
    for (let i = 0; i < 3 && (await page.locator('.ode-jsd, .ode-modal-backdrop, .ode-jsd-popup').count()) > 0; i++) {
      await page.keyboard.press('Escape');
      await page.waitForTimeout(500);
    }
  }

  /**
   * Chooses the entry at the end of `path` under menu `title` once it is enabled (LibreOffice enables Merge cells
   * for a cell selection, Accept change for a change at the caret): closes the menus and tries again until then.
   */
  async function chooseEnabled(title: string, ...path: string[]): Promise<void> {
    await expect
      .poll(
        async () => {
          await page.getByRole('menubar').getByRole('menuitem', { name: title, exact: true }).click();
          for (const name of path.slice(0, -1)) await page.getByRole('menubar').getByRole('menuitem', { name, exact: true }).click();
          const item = page.getByRole('menubar').getByRole('menuitem', { name: path.at(-1), exact: true });
          if ((await item.getAttribute('aria-disabled')) === 'true') {
            for (let i = 0; i < 3 && (await page.getByRole('menubar').locator('[role=menu]:visible').count()) > 0; i++) await page.keyboard.press('Escape');
            return false;
          }
          await item.click();
          return true;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(true);
  }

  /** Every table of `xml` (nested ones too), outermost first: from each `<w:tbl>` to its own end tag. */
  function tables(xml: string): string[] {
    const out: string[] = [];
    const open: number[] = [];
    for (const m of xml.matchAll(/<w:tbl>|<\/w:tbl>/g)) {
      if (m[0] === '<w:tbl>') open.push(m.index);
      else {
        const start = open.pop();
        if (start !== undefined) out.push(xml.slice(start, m.index + m[0].length));
      }
    }
    return out.reverse();
  }

  /**
   * A new paragraph at the end of the document and a table there by Table > Table… with the dialog's defaults
   * (2 x 2, Enter accepts it); returns when the dialog is gone, with the caret in the table's first cell.
   */
  async function insertTable2x2(): Promise<void> {
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await choose('Table', 'Table…');
    const size = page.getByRole('dialog', { name: 'Insert table' });
    await size.waitFor();
    await page.keyboard.press('Enter'); // 2 x 2
    await size.waitFor({ state: 'detached' });
    // The dialog goes before LibreOffice has inserted the table (its OK runs after the dialog ends): keys typed at
    // once went into the paragraph at load 16-20 (Merge cells then never enabled). In a table LibreOffice enables
    // .uno:DeleteRows (its state arrives on the socket).
    await expect.poll(() => unoStates.get('.uno:DeleteRows'), { timeout: 30_000 }).toMatch(/^(?!disabled$)/);
  }

  beforeAll(async () => {
    page = await env.browser.newPage({ viewport: { width: 1280, height: 860 }, colorScheme: 'light' });
    page.on('websocket', (socket) =>
      socket.on('framereceived', (frame) => {
        if (typeof frame.payload !== 'string') return;
        try {
          const m = JSON.parse(frame.payload) as { type?: string; command?: string; value?: string; rect?: unknown };
          if (m.type === 'stateChanged' && m.command) unoStates.set(m.command, String(m.value));
          if (m.type === 'graphicSelection') graphic = m.rect ?? null;
        } catch {
          /* not a JSON message */
        }
      }),
    );
  }, 120_000);

  it('text: Edit > Track changes records changes and rejects them all; the saved docx has the tracked insertion, then not', async () => {
    await open('menus.docx');
    // Collabora Online's order for text documents (Control.Menubar.js `text`: File, Edit, View, Insert, Format,
    // References, Table, Form, Tools, Help).
    expect(await page.getByRole('menubar').locator(':scope > li > [role=menuitem]:visible').allTextContents()).toEqual([
      'File',
      'Edit',
      'View',
      'Insert',
      'Format',
      'References',
      'Table',
      'Form',
      'Tools',
      'Help',
    ]);
    await page.keyboard.press('Control+End');
    await choose('Edit', 'Track changes', 'Record changes');
    await expect.poll(() => checked('Edit', 'Track changes', 'Record changes'), { timeout: 30_000 }).toBe('true');
    await page.keyboard.type(' Tracked words');
    let saved = await save('menus.docx');
    expect(saved['word/document.xml']).toMatch(/<w:ins [^>]*>(?:(?!<\/w:ins>)[\s\S])*Tracked words/);
    await choose('Edit', 'Track changes', 'Reject all');
    await choose('Edit', 'Track changes', 'Record changes');
    await expect.poll(() => checked('Edit', 'Track changes', 'Record changes'), { timeout: 30_000 }).toBe('false');
    saved = await save('menus.docx');
    expect(textOf(saved['word/document.xml'])).not.toContain('Tracked words');
    expect(saved['word/document.xml']).not.toContain('<w:ins ');
    expect(textOf(saved['word/document.xml'])).toContain('Hello World');
  }, 180_000);

  it('text: Table inserts a table, a row below, deletes a column and the table; each step in the saved docx', async () => {
    await closeLeftDialogs();
    await insertTable2x2();
    await page.keyboard.type('cell');
    await choose('Table', 'Insert', 'Rows below');
    await choose('Table', 'Delete', 'Columns');
    let xml = (await save('menus.docx'))['word/document.xml'];
    const table = /<w:tbl>[\s\S]*<\/w:tbl>/.exec(xml)?.[0] ?? '';
    expect(table.match(/<w:tr[ >]/g)?.length).toBe(3);
    expect(table.match(/<w:gridCol /g)?.length).toBe(1);
    await choose('Table', 'Delete', 'Table');
    xml = (await save('menus.docx'))['word/document.xml'];
    expect(xml).not.toContain('<w:tbl>');
    expect(textOf(xml)).toContain('Hello World');
  }, 180_000);

  it('text: Insert page number, footnote, header, endnote and a shape; Tools > Word count opens its dialog', async () => {
    await closeLeftDialogs();
    await page.keyboard.press('Control+Home');
    await choose('Insert', 'Field', 'Page number');
    // Dialog entries open LibreOffice's dialog (as HTML from its JSDialog) and Escape closes it.
    await choose('Tools', 'Word count…');
    expect(await dialogOpensAndCancels()).toMatch(/\S/);
    await choose('Insert', 'Footnote');
    await page.keyboard.type('Foot text');
    await clickBody();
    await choose('Insert', 'Header and footer', 'Header');
    await page.keyboard.type('Head text');
    await clickBody();
    await choose('Insert', 'Endnote');
    await page.keyboard.type('End text');
    await choose('Insert', 'Shape', 'Rectangle');
    await page.keyboard.press('Escape');
    await page.screenshot({ path: join(ARTIFACTS, 'menus-text.png') });
    const saved = await save('menus.docx');
    expect(saved['word/document.xml']).toMatch(/<w:instrText[^>]*>\s*PAGE\b|w:fldSimple w:instr="\s*PAGE\b/);
    expect(textOf(saved['word/footnotes.xml'] ?? '')).toContain('Foot text');
    expect(textOf(saved['word/endnotes.xml'] ?? '')).toContain('End text');
    expect(saved['word/document.xml']).toMatch(/<w:headerReference /);
    const headers = Object.entries(saved).filter(([k]) => /^word\/header\d*\.xml$/.test(k));
    expect(headers.map(([, v]) => textOf(v)).join('|')).toContain('Head text');
    // The rectangle goes where the view is (the endnote's page): in the document or in the endnote's part.
    expect(
      Object.entries(saved)
        .filter(([k]) => /^word\/(document|endnotes)\.xml$/.test(k))
        .some(([, v]) => /<a:prstGeom prst="rect"|<v:rect /.test(v)),
    ).toBe(true);
    // The rectangle sits in the middle of the view, where the next test clicks to reach the text: undone again.
    await page.keyboard.press('Control+z');
  }, 180_000);

  it("text: View > Sidebar shows LibreOffice's Properties deck; the first line selected, Bold and Before Text Indent there change the saved docx", async () => {
    await closeLeftDialogs();
    await clickBody();
    await page.keyboard.press('Control+Home');
    await choose('View', 'Sidebar');
    const sidebar = page.getByRole('region', { name: 'Properties' });
    await sidebar.waitFor({ timeout: 30_000 });
    // LibreOffice's panels for text: Style, Character, Paragraph (the deck's JSDialog tree, as HTML).
    for (const panel of ['Character', 'Paragraph'])
      await expect.poll(() => sidebar.locator('summary').filter({ hasText: panel }).count(), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(await checked('View', 'Sidebar')).toBe('true');
    // The first line selected with the sidebar open (the status bar says so: LibreOffice has the selection).
    await page.locator('.ode-input').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await expect.poll(() => page.locator('.ode-status-words').textContent(), { timeout: 30_000 }).toMatch(/Selected/);
    await sidebar.getByRole('button', { name: 'Bold', exact: true }).first().click();
    // LibreOffice's state of .uno:Bold (Format > Bold follows it) and the sidebar's own button; the selection kept.
    await expect.poll(() => checked('Format', 'Bold'), { timeout: 30_000 }).toBe('true');
    await expect.poll(() => sidebar.getByRole('button', { name: 'Bold', exact: true }).first().getAttribute('aria-pressed'), { timeout: 30_000 }).toBe('true');
    expect(await page.locator('.ode-status-words').textContent()).toMatch(/Selected/);
    const indent = sidebar.getByRole('spinbutton', { name: 'Before Text Indent' });
    await indent.fill('1"');
    await indent.press('Tab');
    await expect
      .poll(() => sidebar.getByRole('spinbutton', { name: 'Before Text Indent' }).inputValue(), { timeout: 30_000 })
      .toMatch(/^1(\.00)?\s*(″|"|in)?$/);
    await page.screenshot({ path: join(ARTIFACTS, 'sidebar-text.png') });
    // The field shows what was typed at once; LibreOffice applies it a moment later: saved again until it is there
    // (File > Save: the focus is in a sidebar field, whose keys are its own).
    await expect
      .poll(async () => helloRuns((await save('menus.docx', true))['word/document.xml']).para, { timeout: 60_000, interval: 1_000 })
      .toMatch(/<w:ind [^>]*w:(left|start)="1440"/);
    const { para, runs } = helloRuns((await save('menus.docx', true))['word/document.xml']);
    expect(runs.length).toBeGreaterThan(0);
    expect(
      runs.every((r) => /<w:b\/>/.test(r)),
      para,
    ).toBe(true);
  }, 240_000);

  it("text: the sidebar's Underline drop-down opens LibreOffice's popup as HTML under its button; Escape closes it, Double there is in the saved docx", async () => {
    await closeLeftDialogs();
    const sidebar = page.getByRole('region', { name: 'Properties' });
    await sidebar.waitFor({ timeout: 30_000 });
    // Still the first line selected (the previous test's selection).
    await expect.poll(() => page.locator('.ode-status-words').textContent(), { timeout: 30_000 }).toMatch(/Selected/);
    const underline = sidebar.getByRole('button', { name: 'Underline', exact: true }).first();
    await expect.poll(() => underline.getAttribute('aria-haspopup'), { timeout: 30_000 }).toBe('dialog');
    // Escape closes the popup and changes nothing.
    await underline.click();
    const popup = page.locator('.ode-jsd-popup[role=dialog]');
    await popup.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await underline.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    await popup.waitFor({ state: 'detached', timeout: 30_000 });
    expect(await page.locator('.ode-status-words').textContent()).toMatch(/Selected/);
    // Chosen in the popup: LibreOffice applies it and closes its popup.
    await underline.click();
    await popup.waitFor({ state: 'visible', timeout: 30_000 });
    await page.screenshot({ path: join(ARTIFACTS, 'sidebar-popup.png') });
    await popup
      .getByRole('button', { name: /double/i })
      .first()
      .click();
    await popup.waitFor({ state: 'detached', timeout: 30_000 });
    // Saved again until LibreOffice's change is in the file.
    await expect
      .poll(async () => helloRuns((await save('menus.docx', true))['word/document.xml']).runs.join(''), { timeout: 60_000, interval: 1_000 })
      .toMatch(/<w:u w:val="double"\/>/);
    const { para, runs } = helloRuns((await save('menus.docx', true))['word/document.xml']);
    expect(runs.length).toBeGreaterThan(0);
    expect(
      runs.every((r) => /<w:u w:val="double"\/>/.test(r) && /<w:b\/>/.test(r)),
      para,
    ).toBe(true);
    // View > Sidebar again closes it.
    await choose('View', 'Sidebar');
    await sidebar.waitFor({ state: 'hidden', timeout: 30_000 });
  }, 240_000);

  it('text: Insert > Field > Date, Time and Page count, Header and footer > Footer and Text box: each in the saved docx', async () => {
    await closeLeftDialogs();
    await clickBody();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Fields: ');
    await choose('Insert', 'Field', 'Date');
    await page.keyboard.type(' and ');
    await choose('Insert', 'Field', 'Time');
    await page.keyboard.type(' of ');
    await choose('Insert', 'Field', 'Page count');
    await choose('Insert', 'Header and footer', 'Footer');
    await page.keyboard.type('Footer words');
    await clickBody();
    let saved = await save('menus.docx');
    // Word's field codes as LibreOffice writes them (a w:fldSimple or a w:instrText between w:fldChar).
    const field = (code: string) => new RegExp(`<w:instrText[^>]*>\\s*${code}\\b|w:fldSimple w:instr="\\s*${code}\\b`);
    const body = saved['word/document.xml'];
    expect(body).toMatch(field('DATE'));
    expect(body).toMatch(field('TIME'));
    expect(body).toMatch(field('NUMPAGES'));
    expect(body).toMatch(/<w:footerReference /);
    const footers = Object.entries(saved).filter(([k]) => /^word\/footer\d*\.xml$/.test(k));
    expect(footers.map(([, v]) => textOf(v)).join('|')).toContain('Footer words');
    // Insert > Text box: LibreOffice puts the box in the middle of the view at once, selected (its graphic selection
    // arrives); Enter starts editing its text (LibreOffice's key for a selected text object), typing fills it.
    await page.keyboard.press('Escape');
    await expect.poll(() => graphic, { timeout: 30_000 }).toBeNull();
    await choose('Insert', 'Text box');
    await expect.poll(() => graphic, { timeout: 30_000 }).not.toBeNull();
    await page.keyboard.press('Enter');
    await page.keyboard.type('Box words');
    await page.keyboard.press('Escape');
    saved = await save('menus.docx');
    const boxes = Object.entries(saved)
      .filter(([k]) => /^word\/(document|endnotes|footnotes)\.xml$/.test(k))
      .flatMap(([, v]) => [...v.matchAll(/<w:txbxContent>([\s\S]*?)<\/w:txbxContent>/g)].map((m) => textOf(m[1])));
    expect(boxes).toContain('Box words');
    await page.screenshot({ path: join(ARTIFACTS, 'menus-text-fields.png') });
    // The box sits in the middle of the view, where the next tests click: deleted (it is still selected).
    await page.keyboard.press('Delete');
    await page.keyboard.press('Escape');
  }, 180_000);

  it('text: Table > Merge cells joins two selected cells (gridSpan 2 in the saved docx); Split cells… splits a cell into 2 columns (its row has one w:tc more)', async () => {
    // A document of its own. In menus.docx the Insert table dialog closed with no table inserted on both tries of a
    // pre-check; most likely clickBody's click below the text put the caret in the endnote, by then the last text on
    // the page (a table cannot go into an endnote). menus.docx is opened again at the end.
    await closeLeftDialogs();
    await open('merge.docx');
    try {
      await mergeAndSplit();
    } finally {
      await open('menus.docx');
    }
  }, 180_000);

  /** The Merge cells / Split cells steps of the test above, in the document open (merge.docx). */
  async function mergeAndSplit(): Promise<void> {
    await clickBody();
    await insertTable2x2();
    // A mark of this try: the table is found by it in the saved file (a retry adds its own table).
    const mark = `mark${Date.now().toString(36)}`;
    await page.keyboard.type(mark);
    // Shift+Right at the end of A1 extends the selection over A1 and B1 (a cell selection).
    await page.keyboard.press('Shift+ArrowRight');
    await chooseEnabled('Table', 'Merge cells');
    /** The rows of the innermost table of the saved document.xml that holds this try's mark. */
    const marked = async () => tables((await save('merge.docx'))['word/document.xml']).findLast((t) => textOf(t).includes(mark)) ?? '';
    const rowsOf = (table: string) => [...table.matchAll(/<w:tr[ >][\s\S]*?<\/w:tr>/g)].map((m) => m[0]);
    await expect.poll(marked, { timeout: 60_000, interval: 1_000 }).toMatch(/<w:gridSpan w:val="2"\/>/);
    let rows = rowsOf(await marked());
    expect(rows.length).toBe(2);
    expect(rows[0].match(/<w:tc>/g)?.length).toBe(1);
    expect(rows[1].match(/<w:tc>/g)?.length).toBe(2);
    // Down to A2; Split cells… opens LibreOffice's Split Cells dialog as HTML, its fields named by LibreOffice's
    // labels; Vertically, 2 and OK split A2 into two columns. (OK had closed the dialog as cancelled when its click
    // went without the response code: docs/editing.md, "Events".)
    await page.keyboard.press('ArrowDown');
    await choose('Table', 'Split cells…');
    const dialog = page.getByRole('dialog', { name: 'Split Cells' });
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    await expect.poll(() => dialog.getByRole('spinbutton', { name: /Split cell into/ }).inputValue(), { timeout: 30_000 }).toBe('2');
    expect(await dialog.getByRole('radio', { name: 'Horizontally' }).count()).toBe(1);
    await dialog.getByRole('radio', { name: 'Vertically' }).check();
    await expect.poll(() => dialog.getByRole('radio', { name: 'Vertically' }).isChecked(), { timeout: 30_000 }).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'menus-split-cells.png') });
    await dialog.getByRole('button', { name: 'OK', exact: true }).click();
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    // Saved again until LibreOffice's split is in the file: the first row keeps its one (merged) cell.
    await expect.poll(async () => rowsOf(await marked())[1]?.match(/<w:tc>/g)?.length, { timeout: 60_000, interval: 1_000 }).toBe(3);
    rows = rowsOf(await marked());
    expect(rows.length).toBe(2);
    expect(rows[0].match(/<w:tc>/g)?.length).toBe(1);
  }

  it('text: Edit > Track changes > Next change selects a recorded insertion and Accept change accepts it: no w:ins in the saved docx, the text kept', async () => {
    await closeLeftDialogs();
    await clickBody();
    // The starting point: not recording, no change left from an earlier try.
    if ((await checked('Edit', 'Track changes', 'Record changes')) === 'true') await choose('Edit', 'Track changes', 'Record changes');
    await expect.poll(() => checked('Edit', 'Track changes', 'Record changes'), { timeout: 30_000 }).toBe('false');
    if ((await save('menus.docx'))['word/document.xml'].includes('<w:ins ')) await chooseEnabled('Edit', 'Track changes', 'Accept all');
    await page.keyboard.press('Control+End');
    await choose('Edit', 'Track changes', 'Record changes');
    await expect.poll(() => checked('Edit', 'Track changes', 'Record changes'), { timeout: 30_000 }).toBe('true');
    await page.keyboard.type(' Accepted words');
    await choose('Edit', 'Track changes', 'Record changes');
    await expect.poll(() => checked('Edit', 'Track changes', 'Record changes'), { timeout: 30_000 }).toBe('false');
    let xml = (await save('menus.docx'))['word/document.xml'];
    expect(xml).toMatch(/<w:ins [^>]*>(?:(?!<\/w:ins>)[\s\S])*Accepted words/);
    // From the start of the document, Next change selects the insertion (the status bar says so).
    await page.keyboard.press('Control+Home');
    await expect.poll(() => page.locator('.ode-status-words').textContent(), { timeout: 30_000 }).not.toMatch(/Selected/);
    await choose('Edit', 'Track changes', 'Next change');
    await expect.poll(() => page.locator('.ode-status-words').textContent(), { timeout: 30_000 }).toMatch(/Selected/);
    await chooseEnabled('Edit', 'Track changes', 'Accept change');
    await expect.poll(async () => (await save('menus.docx'))['word/document.xml'].includes('<w:ins '), { timeout: 60_000, interval: 1_000 }).toBe(false);
    xml = (await save('menus.docx'))['word/document.xml'];
    expect(textOf(xml)).toContain('Accepted words');
    expect(xml).not.toContain('<w:del ');
  }, 180_000);

  it("text: Tools > Automatic spell checking and AutoCorrect > While typing switch LibreOffice's state; the menu's check follows it", async () => {
    await closeLeftDialogs();
    const toggles: Array<[uno: string, path: string[]]> = [
      ['.uno:SpellOnline', ['Automatic spell checking']],
      ['.uno:OnlineAutoFormat', ['AutoCorrect', 'While typing']],
    ];
    for (const [uno, path] of toggles) {
      // LibreOffice reported the state on load (STATE_CHANGED); the menu shows the same.
      await expect.poll(() => unoStates.get(uno), { timeout: 30_000 }).toMatch(/^(true|false)$/);
      const before = unoStates.get(uno)!;
      const other = before === 'true' ? 'false' : 'true';
      expect(await checked('Tools', ...path), uno).toBe(before);
      await choose('Tools', ...path);
      await expect.poll(() => unoStates.get(uno), { timeout: 30_000, message: uno }).toBe(other);
      await expect.poll(() => checked('Tools', ...path), { timeout: 30_000, message: uno }).toBe(other);
      // And back, so that the next tests (and a retry) find LibreOffice's setting as it was.
      await choose('Tools', ...path);
      await expect.poll(() => unoStates.get(uno), { timeout: 30_000, message: uno }).toBe(before);
      await expect.poll(() => checked('Tools', ...path), { timeout: 30_000, message: uno }).toBe(before);
    }
  }, 180_000);

  it('text: References > Table of contents… inserts an index, Update all indexes and Update index put later headings in it; Index entry…, Footnotes and endnotes…, Bookmark… and Cross-reference… open their dialogs', async () => {
    await closeLeftDialogs();
    await clickBody();
    for (const entry of ['Index entry…', 'Footnotes and endnotes…', 'Bookmark…', 'Cross-reference…']) {
      await choose('References', entry);
      expect(await dialogOpensAndCancels(), entry).toMatch(/\S/);
    }
    /** How often `word` is in the text of the saved document.xml (a heading listed in the index: twice). */
    const times = async (word: string) => textOf((await save('menus.docx'))['word/document.xml']).split(word).length - 1;
    /** A new Heading 1 paragraph (Ctrl+1: LibreOffice's Heading 1) holding `text` after the caret's paragraph. */
    const heading = async (text: string) => {
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Control+1');
      await page.keyboard.type(text);
      await expect.poll(() => times(text), { timeout: 60_000, interval: 1_000 }).toBe(1);
    };
    /** Whether the menu entry at `path` under `title` is enabled now (its menu opened and closed again). */
    const enabled = async (title: string, ...path: string[]) => {
      await page.getByRole('menubar').getByRole('menuitem', { name: title, exact: true }).click();
      const item = page.getByRole('menubar').getByRole('menuitem', { name: path.at(-1), exact: true });
      const on = (await item.getAttribute('aria-disabled')) !== 'true';
      for (let i = 0; i < 3 && (await page.getByRole('menubar').locator('[role=menu]:visible').count()) > 0; i++) await page.keyboard.press('Escape');
      if ((await page.locator('[role=menubar] :focus').count()) > 0) await page.keyboard.press('Escape');
      return on;
    };
    // This try's headings (a retry adds its own) at the end of the document, the index in an empty paragraph just
    // before them. LibreOffice protects an index: the caret is inside it after the insertion (and after an update),
    // where Ctrl+End and the arrow keys did not move it out in LibreOffice 25.2 (a click does), and typing there
    // answers "Read-Only Content" (checked below).
    const mark = `Head${Date.now().toString(36)}`;
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await heading(`${mark}A`);
    await page.keyboard.press('ArrowUp');
    await choose('References', 'Table of contents…');
    const dialog = page.locator('[role=dialog][aria-modal=true]').first();
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    await dialog.getByRole('button', { name: 'OK', exact: true }).click();
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    // The index lists the heading: its text twice in the document.
    await expect.poll(() => times(`${mark}A`), { timeout: 60_000, interval: 1_000 }).toBe(2);
    expect((await save('menus.docx'))['word/document.xml']).toMatch(/w:docPartGallery w:val="Table of Contents"/);
    // A key typed in the index (the caret is there): LibreOffice's "Read-Only Content" message box as HTML, with its
    // text and its OK, which closes it.
    await page.keyboard.type('x');
    const message = page.getByRole('dialog', { name: 'Read-Only Content' });
    await message.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await message.textContent()).toContain('Write-protected content cannot be changed.');
    await message.getByRole('button', { name: 'OK', exact: true }).click();
    await message.waitFor({ state: 'detached', timeout: 30_000 });
    // A heading more: in every index of the document once Update all indexes ran (which leaves the caret in the
    // index). A retry finds the failed try's index too, which also lists this try's headings then.
    await toLastParagraph();
    await heading(`${mark}B`);
    const indexes = ((await save('menus.docx'))['word/document.xml'].match(/w:docPartGallery w:val="Table of Contents"/g) ?? []).length;
    await choose('References', 'Update all indexes');
    await expect.poll(() => times(`${mark}B`), { timeout: 60_000, interval: 1_000 }).toBe(1 + indexes);
    // Update index updates the index at the caret: up from a new last heading until the caret is in this try's
    // index, then chosen. LibreOffice's state of .uno:UpdateCurIndex says where the caret is ("enabled" in an index,
    // "disabled" elsewhere; no state at all until the caret was first in one, when the menu shows it enabled).
    await toLastParagraph();
    await heading(`${mark}C`);
    await expect.poll(() => unoStates.get('.uno:UpdateCurIndex'), { timeout: 30_000 }).toBe('disabled');
    let inIndex = false;
    for (let i = 0; i < 8 && !inIndex; i++) {
      await page.keyboard.press('ArrowUp');
      inIndex = await expect
        .poll(() => unoStates.get('.uno:UpdateCurIndex'), { timeout: 5_000, interval: 250 })
        .toBe('enabled')
        .then(() => true)
        .catch(() => false);
    }
    expect(inIndex).toBe(true);
    expect(await enabled('References', 'Update index')).toBe(true);
    await choose('References', 'Update index');
    await expect.poll(() => times(`${mark}C`), { timeout: 60_000, interval: 1_000 }).toBe(2);
    await page.screenshot({ path: join(ARTIFACTS, 'menus-references.png') });
  }, 240_000);

  it("text: Form inserts rich text, check box, drop-down, picture and date content controls (w:sdt in the saved docx); Properties… opens the date control's dialog", async () => {
    await closeLeftDialogs();
    // Out of the index of the previous test (where the caret may be, and typing is refused).
    await toLastParagraph();
    const sdts = (xml: string) => xml.match(/<w:sdt>/g)?.length ?? 0;
    const before = sdts((await save('menus.docx'))['word/document.xml']);
    const entries = ['Insert rich text', 'Insert check box', 'Insert drop-down list', 'Insert picture', 'Insert date'];
    for (const entry of entries) {
      // Each in a paragraph of its own at the end of the document.
      await page.keyboard.press('Control+End');
      await page.keyboard.press('Enter');
      await choose('Form', entry);
    }
    // The caret is in the date control: its properties (LibreOffice enables the entry in a content control).
    await chooseEnabled('Form', 'Properties…');
    expect(await dialogOpensAndCancels()).toMatch(/\S/);
    const xml = (await save('menus.docx'))['word/document.xml'];
    expect(sdts(xml)).toBe(before + entries.length);
    // Word's content control kinds as LibreOffice writes them (the rich text one is a w:sdt without a kind).
    expect(xml).toMatch(/<w14:checkbox>/);
    expect(xml).toMatch(/<w:dropDownList[ >]/);
    expect(xml).toMatch(/<w:picture\/>/);
    expect(xml).toMatch(/<w:date[ >]/);
  }, 180_000);

  it('spreadsheet: Sheet inserts a row above, View freezes the first row, Format sets all borders; Data and Insert open their dialogs', async () => {
    await open('menus.xlsx');
    // Collabora Online's order for spreadsheets (Control.Menubar.js `spreadsheet`).
    expect(await page.getByRole('menubar').locator(':scope > li > [role=menuitem]:visible').allTextContents()).toEqual([
      'File',
      'Edit',
      'View',
      'Insert',
      'Format',
      'Sheet',
      'Data',
      'Tools',
      'Help',
    ]);
    const nameBox = page.getByRole('textbox', { name: 'Name Box' });
    const goTo = async (address: string) => {
      await nameBox.fill(address);
      await nameBox.press('Enter');
      await expect.poll(() => nameBox.inputValue(), { timeout: 30_000 }).toBe(address);
    };
    await expect.poll(() => page.getByRole('tab', { selected: true }).textContent(), { timeout: 30_000 }).toBe('First Sheet');
    await goTo('A1');
    await choose('Sheet', 'Rows', 'Insert rows above');
    await choose('View', 'Freeze first row');
    await goTo('B3');
    await choose('Format', 'Borders', 'All borders');
    const saved = await save('menus.xlsx');
    const strings = [...saved['xl/sharedStrings.xml'].matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
      textOf(m[1].replace(/<t([ >])/g, '<a:t$1').replace(/<\/t>/g, '</a:t>')),
    );
    const sheet = saved['xl/worksheets/sheet1.xml'];
    // "Test spreadsheet" (A1 of the corpus file, read by hand) moved down to A2; row 1 is empty.
    const a2 = /<c r="A2"[^>]*t="s"[^>]*><v>(\d+)<\/v>/.exec(sheet);
    expect(strings[Number(a2?.[1])]).toBe('Test spreadsheet');
    expect(sheet).not.toMatch(/<c r="A1"[^>]*t="s"/);
    expect(sheet).toMatch(/<pane [^>]*ySplit="1"/);
    expect(sheet).toMatch(/<pane [^>]*state="frozen"/);
    // B3 has a style whose border is thin on all four sides.
    const b3 = /<c r="B3" s="(\d+)"/.exec(sheet);
    const xfs = [...(/<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(saved['xl/styles.xml'])?.[1] ?? '').matchAll(/<xf [^>]*>/g)].map((m) => m[0]);
    const borderId = Number(/borderId="(\d+)"/.exec(xfs[Number(b3?.[1])] ?? '')?.[1]);
    const borders = [
      ...(/<borders[^>]*>([\s\S]*?)<\/borders>/.exec(saved['xl/styles.xml'])?.[1] ?? '').matchAll(
        /<border(?: [^>]*)?\/>|<border(?: [^>]*)?>[\s\S]*?<\/border>/g,
      ),
    ].map((m) => m[0]);
    for (const side of ['left', 'right', 'top', 'bottom']) expect(borders[borderId]).toMatch(new RegExp(`<${side} style="thin"`));
    await choose('Data', 'Sort…');
    expect(await dialogOpensAndCancels()).toBeDefined();
    await page.screenshot({ path: join(ARTIFACTS, 'menus-spreadsheet.png') });
  }, 180_000);

  it('presentation: Slide hides the slide, Insert adds a rectangle, View switches to the notes view and back', async () => {
    await open('menus.pptx');
    // Collabora Online's order for presentations (Control.Menubar.js `presentation`).
    expect(await page.getByRole('menubar').locator(':scope > li > [role=menuitem]:visible').allTextContents()).toEqual([
      'File',
      'Edit',
      'View',
      'Insert',
      'Format',
      'Table',
      'Slide',
      'Tools',
      'Help',
    ]);
    await choose('Slide', 'Hide slide');
    await choose('Insert', 'Shape', 'Rectangle');
    await page.keyboard.press('Escape');
    const saved = await save('menus.pptx');
    expect(saved['ppt/slides/slide1.xml']).toMatch(/<p:sld [^>]*show="0"/);
    expect(saved['ppt/slides/slide1.xml']).toMatch(/<a:prstGeom prst="rect"/);
    await choose('View', 'Notes');
    await expect.poll(() => checked('View', 'Notes'), { timeout: 30_000 }).toBe('true');
    await choose('View', 'Normal');
    await expect.poll(() => checked('View', 'Notes'), { timeout: 30_000 }).toBe('false');
  }, 180_000);

  it("presentation: Slide > Slide transition opens the sidebar's Slide Transition deck; a transition chosen there is in the saved pptx", async () => {
    await choose('Slide', 'Slide transition…');
    const sidebar = page.getByRole('region', { name: 'Properties' });
    await sidebar.waitFor({ timeout: 30_000 });
    await expect.poll(() => sidebar.locator('summary:visible').filter({ hasText: 'Slide Transition' }).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const transitions = sidebar.getByRole('listbox').first();
    await expect.poll(() => transitions.getByRole('option').count(), { timeout: 30_000 }).toBeGreaterThan(2);
    const option = transitions.getByRole('option').nth(2);
    const name = await option.getAttribute('aria-label');
    await option.click();
    await expect
      .poll(
        () =>
          transitions
            .getByRole('option', { name: name ?? '' })
            .first()
            .getAttribute('aria-selected'),
        { timeout: 30_000 },
      )
      .toBe('true');
    await page.screenshot({ path: join(ARTIFACTS, 'sidebar-transition.png') });
    await page.locator('.ode-doc').click({ position: { x: 5, y: 5 } });
    const slide = (await save('menus.pptx'))['ppt/slides/slide1.xml'];
    expect(slide).toMatch(/<p:transition[ >]/);
  }, 180_000);

  it("drawing: the menu is Page, as Collabora's for drawings: New page adds a page, Delete page removes it (the saved odg's pages)", async () => {
    await open('menus.odg');
    // Collabora Online's order for drawings (Control.Menubar.js `drawing`): Table, then Page; no Slide menu.
    expect(await page.getByRole('menubar').locator(':scope > li > [role=menuitem]:visible').allTextContents()).toEqual([
      'File',
      'Edit',
      'View',
      'Insert',
      'Format',
      'Table',
      'Page',
      'Tools',
      'Help',
    ]);
    const pages = async () => (await save('menus.odg'))['content.xml'].match(/<draw:page /g)?.length ?? 0;
    const before = await pages();
    expect(before).toBeGreaterThanOrEqual(2);
    await choose('Page', 'New page');
    await expect.poll(pages, { timeout: 60_000, interval: 1_000 }).toBe(before + 1);
    await choose('Page', 'Delete page');
    await expect.poll(pages, { timeout: 60_000, interval: 1_000 }).toBe(before);
  }, 180_000);
});
