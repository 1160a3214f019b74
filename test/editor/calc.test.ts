import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileId, stateIs } from '../helpers/browser.ts';
import { calcSteps, sheetNames, sheetXml } from '../helpers/calc-page.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { copyForTry, useDemoBrowser } from '../helpers/demo-browser.ts';

/** The few page objects the page functions touch (the tests are type-checked for Node, not the DOM). */
interface PageGlobal {
  document: { querySelector(selector: string): { textContent: string | null; dispatchEvent(e: unknown): boolean } | null };
  navigator: { clipboard: { read(): Promise<Array<{ types: string[]; getType(type: string): Promise<{ text(): Promise<string> }> }>> } };
  DataTransfer: new () => { setData(type: string, value: string): void };
  ClipboardEvent: new (type: string, init: { clipboardData: unknown; bubbles: boolean; cancelable: boolean }) => unknown;
}
/** expect.poll with room for a loaded 2-core machine (LibreOffice answers in milliseconds when idle). */
const poll = <T>(fn: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(fn, { timeout: 30_000, ...options });

/**
 * Spreadsheets in the browser editor (issue 5 "Spreadsheets"), in Debian's Chromium against a real daemon and
 * LibreOffice, on the corpus workbook SampleSS.xlsx (sheets "First Sheet", "Sheet Number 2", "Sheet3"; A1 "Test
 * spreadsheet"): cell cursor and name box, formula bar to the saved file, headers, sheet tabs and inserting a
 * sheet, and the spec's clipboard extensions (data-sheets-* on copy, the span form on paste). Each test, and each CI
 * retry of one, opens its own copy of the workbook in a page of its own.
 */
describe('spreadsheets in the browser editor', () => {
  const env = useDemoBrowser('ode-calc-');
  let page: Page;
  /** This try's copy of the workbook: its name in the demo host's folder and its path. */
  let book = { name: '', path: '' };
  const { nameBox, formula, goTo, enter, save, stored } = calcSteps(
    () => page,
    () => book.path,
    poll,
  );

  beforeEach(async () => {
    book = await copyForTry(env, join(CORPUS, 'spreadsheets/SampleSS.xlsx'), 'book.xlsx');
    const context = await env.browser.newContext({ viewport: { width: 1200, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.daemon.url });
    page = await context.newPage();
    await page.goto(`${env.daemon.url}/?open=${fileId(book.name)}`);
    // Each copy is a new document: it waits for a kit of its own (a kit is not reused), slow at CI load.
    await page.waitForFunction(stateIs, 'Ready', { timeout: 90_000 });
    await poll(() => page.getByRole('tab').count(), { timeout: 60_000 }).toBe(3);
    // The tests start on the first sheet (the workbook's saved active tab is the second: workbook.xml activeTab="1").
    await page.getByRole('tab', { name: 'First Sheet' }).click();
    await poll(() => page.getByRole('tab', { selected: true }).textContent()).toBe('First Sheet');
  }, 150_000);
  afterEach(() => page?.context().close());

  /** Inserts a sheet after the first (the current one), Sheet4 (selected). */
  const insertSheet4 = async () => {
    await page.getByRole('button', { name: 'Insert sheet' }).click();
    await poll(() => page.getByRole('tab').allTextContents()).toEqual(['First Sheet', 'Sheet4', 'Sheet Number 2', 'Sheet3']);
    await poll(() => page.getByRole('tab', { selected: true }).textContent()).toBe('Sheet4');
  };

  it('lists the workbook sheets as tabs and shows another sheet on click', async () => {
    const names = ['First Sheet', 'Sheet Number 2', 'Sheet3']; // xl/workbook.xml of the corpus file, read by hand
    await poll(() => page.getByRole('tab').allTextContents()).toEqual(names);
    await page.getByRole('tab', { name: 'Sheet3' }).click();
    await poll(() => page.getByRole('tab', { selected: true }).textContent()).toBe('Sheet3');
    await poll(() => page.locator('.ode-status').textContent(), { timeout: 30_000 }).toContain('Sheet 3 of 3');
  });

  it('shows the cell cursor, moves it with the arrow keys and the name box follows', async () => {
    await goTo('A1');
    const cursor = page.locator('.ode-cell-cursor:not(.ode-cell-cursor-other)');
    await poll(() => cursor.isVisible()).toBe(true);
    await poll(() => formula().inputValue()).toBe('Test spreadsheet');
    const a1 = (await cursor.boundingBox())!;
    await page.keyboard.press('ArrowRight');
    await poll(() => nameBox().inputValue()).toBe('B1');
    await poll(async () => (await cursor.boundingBox())!.x).toBeGreaterThan(a1.x + a1.width / 2);
    await page.keyboard.press('ArrowDown');
    await poll(() => nameBox().inputValue()).toBe('B2');
    await poll(() => formula().inputValue()).toBe('2nd row 2nd column');
    const b2 = (await cursor.boundingBox())!;
    expect(b2.y).toBeGreaterThan(a1.y + a1.height / 2);
  });

  it('shows column letters and row numbers, highlights the cursor and selects a column from its header', async () => {
    await goTo('B2');
    await poll(() => page.locator('.ode-calc-colhead .ode-calc-header').allTextContents()).toEqual(expect.arrayContaining(['A', 'B', 'C', 'D', 'E']));
    const columns = await page.locator('.ode-calc-colhead .ode-calc-header').allTextContents();
    expect(columns.slice(0, 5)).toEqual(['A', 'B', 'C', 'D', 'E']);
    const rows = await page.locator('.ode-calc-rowhead .ode-calc-header').allTextContents();
    expect(rows.slice(0, 5)).toEqual(['1', '2', '3', '4', '5']);
    await poll(() => page.locator('.ode-calc-header.ode-current').allTextContents()).toEqual(['B', '2']);
    // Column A's header spans the cursor's column A: header cell and cell cursor line up.
    await goTo('A1');
    const header = (await page.getByRole('button', { name: 'Select column A' }).boundingBox())!;
    const cursor = (await page.locator('.ode-cell-cursor:not(.ode-cell-cursor-other)').boundingBox())!;
    expect(Math.abs(header.x - cursor.x)).toBeLessThan(4);
    expect(Math.abs(header.width - cursor.width)).toBeLessThan(4);
    await page.getByRole('button', { name: 'Select column C' }).click();
    await poll(() => nameBox().inputValue()).toBe('C1:C1048576');
    await page.getByRole('button', { name: 'Select row 3' }).click();
    await poll(() => nameBox().inputValue()).toBe('A3:XFD3');
  });

  it('puts a formula typed in the formula bar into the cell, and the saved xlsx has it', async () => {
    await enter('C2', '=LEN(A1)*2');
    await save();
    await stored((f) => sheetXml(f, 'First Sheet')).toMatch(/<c r="C2"[^>]*><f[^>]*>LEN\(A1\)\*2<\/f><v>32<\/v><\/c>/);
  });

  it('Escape in the formula bar puts the cell content back', async () => {
    await goTo('A2');
    await formula().fill('not entered');
    await formula().press('Escape');
    await poll(() => formula().inputValue()).toBe('2nd row');
  });

  it('inserts a sheet after the current one: a new selected tab, and a sheet in the saved file', async () => {
    await insertSheet4();
    await poll(() => page.locator('.ode-status').textContent(), { timeout: 30_000 }).toContain('Sheet 2 of 4');
    await save();
    await stored(sheetNames).toEqual(['First Sheet', 'Sheet4', 'Sheet Number 2', 'Sheet3']);
  });

  it('copies cells with data-sheets-value, -numberformat and -formula (R1C1) and the Google Sheets marker', async () => {
    await insertSheet4(); // empty cells
    await enter('D1', '2');
    await enter('E1', '12.5%');
    await enter('F1', '=D1+E1');
    await enter('G1', 'text');
    await goTo('D1:G1');
    await page.keyboard.press('Control+c');
    const read = async () =>
      page.evaluate(async () => {
        for (const item of await (globalThis as unknown as PageGlobal).navigator.clipboard.read())
          if (item.types.includes('text/html')) return (await item.getType('text/html')).text();
        return '';
      });
    await poll(read, { timeout: 30_000 }).toContain('data-sheets-formula');
    const html = await read();
    expect(html).toMatch(/<div id="meta-origin"[^>]*><\/div><google-sheets-html-origin[ >]/);
    const cells = [...html.matchAll(/<td[^>]*>/g)].map((m) => m[0].replace(/&quot;/g, '"'));
    expect(cells).toHaveLength(4);
    expect(cells[0]).toContain('data-sheets-value="{"1":3,"3":2}"');
    expect(cells[1]).toContain('data-sheets-value="{"1":3,"3":0.125}"');
    expect(cells[1]).toContain('data-sheets-numberformat="{"1":2,"2":"0.00%","3":1}"');
    expect(cells[2]).toContain('data-sheets-formula="=R[0]C[-2]+R[0]C[-1]"');
    expect(cells[2]).toContain('data-sheets-value="{"1":3,"3":2.125}"');
    expect(cells[3]).toContain('data-sheets-value="{"1":2,"2":"text"}"');
    expect(cells[3]).not.toContain('data-sheets-formula');
    // The selection is back where it was.
    await poll(() => nameBox().inputValue()).toBe('D1:G1');
  });

  it('pastes the one-cell span form: a formula (R1C1 -> A1 at the target) and a value', async () => {
    // On a new sheet, with D1 = 2 (what the formula below refers to).
    await insertSheet4();
    await enter('D1', '2');
    const paste = (html: string) =>
      page.evaluate((h) => {
        const g = globalThis as unknown as PageGlobal;
        const data = new g.DataTransfer();
        data.setData('text/html', h);
        data.setData('text/plain', 'x');
        g.document.querySelector('.ode-input')!.dispatchEvent(new g.ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }, html);
    await goTo('A5');
    await paste(`<html><body><span data-sheets-value='{"1":3,"3":4}' data-sheets-formula="=R[-4]C[3]*2">4</span></body></html>`);
    await poll(() => formula().inputValue()).toBe('=D1*2');
    await goTo('A6');
    await paste(`<html><body><span data-sheets-value='{"1":3,"3":42.5}'>42.5</span></body></html>`);
    await poll(() => formula().inputValue()).toBe('42.5');
    await save();
    await stored((f) => sheetXml(f, 'Sheet4')).toMatch(/<c r="A5"[^>]*><f[^>]*>D1\*2<\/f><v>4<\/v><\/c>/);
    await stored((f) => sheetXml(f, 'Sheet4')).toMatch(/<c r="A6"[^>]*><v>42.5<\/v><\/c>/);
  });

  it('renames a sheet in place, moves it right and left, goes through tabs with the arrow keys and deletes it', async () => {
    const tabs = () => page.getByRole('tab').allTextContents();
    const selected = () => page.getByRole('tab', { selected: true }).textContent();
    await insertSheet4();
    await enter('A1', 'On Sheet4');
    await page.getByRole('tab', { name: 'Sheet4' }).dblclick();
    const name = page.getByRole('textbox', { name: 'Sheet name' });
    await name.fill('Renamed');
    await name.press('Enter');
    await poll(tabs).toEqual(['First Sheet', 'Renamed', 'Sheet Number 2', 'Sheet3']);
    await page.getByRole('button', { name: 'Sheet actions' }).click();
    await page.getByRole('menuitem', { name: 'Move sheet right' }).click();
    await poll(tabs).toEqual(['First Sheet', 'Sheet Number 2', 'Renamed', 'Sheet3']);
    await poll(selected).toBe('Renamed');
    await page.getByRole('tab', { name: 'Renamed' }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Move sheet left' }).click();
    await poll(tabs).toEqual(['First Sheet', 'Renamed', 'Sheet Number 2', 'Sheet3']);
    await poll(selected).toBe('Renamed');
    await page.getByRole('tab', { name: 'Renamed' }).focus();
    await page.keyboard.press('ArrowRight');
    await poll(selected).toBe('Sheet Number 2');
    await poll(() => formula().inputValue()).not.toBe('On Sheet4');
    await page.keyboard.press('ArrowLeft');
    await poll(selected).toBe('Renamed');
    await page.keyboard.press('Shift+F10');
    await page.getByRole('menuitem', { name: 'Delete sheet' }).press('Enter');
    await poll(tabs).toEqual(['First Sheet', 'Sheet Number 2', 'Sheet3']);
    await poll(selected).toBe('First Sheet');
    await save();
    await stored(sheetNames).toEqual(['First Sheet', 'Sheet Number 2', 'Sheet3']);
  });

  it("shows another user's cell cursor in their colour with their name", async () => {
    const other = await page.context().newPage();
    try {
      await other.goto(`${env.daemon.url}/?user=${encodeURIComponent('Other user')}&open=${fileId(book.name)}`);
      await other.waitForFunction(stateIs, 'Ready', { timeout: 60_000 });
      await other.getByRole('tab', { name: 'First Sheet' }).click();
      await other.getByRole('textbox', { name: 'Name Box' }).fill('D3');
      await other.getByRole('textbox', { name: 'Name Box' }).press('Enter');
      const theirs = page.locator('.ode-cell-cursor-other');
      await poll(() => theirs.isVisible(), { timeout: 30_000 }).toBe(true);
      expect(await theirs.textContent()).toBe('Other user');
      // It comes to D3 (the column D and row 3 headers' positions); it may show first where the other user was
      // before the Name Box moved them.
      const offset = async () => {
        const box = (await theirs.boundingBox())!;
        const d = (await page.getByRole('button', { name: 'Select column D' }).boundingBox())!;
        const row3 = (await page.getByRole('button', { name: 'Select row 3' }).boundingBox())!;
        return Math.max(Math.abs(box.x - d.x), Math.abs(box.y - row3.y));
      };
      await poll(offset, { timeout: 30_000 }).toBeLessThan(4);
    } finally {
      await other.close();
    }
  });

  it('resizes a column by dragging the border of its header, and the saved xlsx has the width', async () => {
    const c = page.getByRole('button', { name: 'Select column C' });
    const before = (await c.boundingBox())!;
    const b = (await page.getByRole('button', { name: 'Select column B' }).boundingBox())!;
    await page.mouse.move(before.x + before.width - 2, before.y + before.height / 2);
    await page.mouse.down();
    await page.mouse.move(before.x + before.width + 30, before.y + before.height / 2, { steps: 4 });
    await page.mouse.move(before.x + before.width + 58, before.y + before.height / 2, { steps: 4 });
    await page.mouse.up();
    // LibreOffice's answer: the headers are asked again and column C is 60 px wider (column B unchanged).
    await poll(async () => Math.round((await c.boundingBox())!.width - before.width)).toBeGreaterThanOrEqual(57);
    expect(Math.abs((await c.boundingBox())!.width - before.width - 60)).toBeLessThan(4);
    expect((await page.getByRole('button', { name: 'Select column B' }).boundingBox())!.width).toBeCloseTo(b.width, 0);
    await save();
    const widthOfC = (f: (name: string) => string) => {
      const col = [...sheetXml(f, 'First Sheet').matchAll(/<col [^>]*>/g)]
        .map((m) => m[0])
        .find((e) => Number(/min="(\d+)"/.exec(e)?.[1]) <= 3 && 3 <= Number(/max="(\d+)"/.exec(e)?.[1]));
      return col && /customWidth="true"/.test(col) ? Number(/width="([\d.]+)"/.exec(col)?.[1]) : 0;
    };
    // SampleSS's columns are 8.43 characters wide (64 px); 124 px is about 17 characters.
    await stored(widthOfC).toBeGreaterThan(14);
  });

  it('pastes the table form cell by cell from the current cell, formulas moved to their new place', async () => {
    await goTo('B10');
    await page.evaluate((h) => {
      const g = globalThis as unknown as PageGlobal;
      const data = new g.DataTransfer();
      data.setData('text/html', h);
      g.document.querySelector('.ode-input')!.dispatchEvent(new g.ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, `<html><body><google-sheets-html-origin></google-sheets-html-origin><table><tr><td data-sheets-value='{"1":3,"3":1}'>1</td><td data-sheets-value='{"1":3,"3":2}'>2</td><td data-sheets-value='{"1":3,"3":3}' data-sheets-formula="=R[0]C[-2]+R[0]C[-1]">3</td></tr><tr><td data-sheets-value='{"1":2,"2":"hello"}'>hello</td><td data-sheets-value='{"1":4,"4":1}'>TRUE</td></tr></table></body></html>`);
    // The cursor comes back to where the paste started.
    await poll(() => nameBox().inputValue()).toBe('B10');
    await goTo('D10');
    await poll(() => formula().inputValue()).toBe('=B10+C10');
    await goTo('B11');
    await poll(() => formula().inputValue()).toBe('hello');
    await save();
    await stored((f) => sheetXml(f, 'First Sheet')).toMatch(/<c r="D10"[^>]*><f[^>]*>B10\+C10<\/f><v>3<\/v><\/c>/);
  });

  it('scrolls a cell reached from the name box into view, headers following', async () => {
    await goTo('A300');
    await poll(() => page.getByRole('button', { name: 'Select row 300' }).isVisible()).toBe(true);
    const cursor = (await page.locator('.ode-cell-cursor:not(.ode-cell-cursor-other)').boundingBox())!;
    const row = (await page.getByRole('button', { name: 'Select row 300' }).boundingBox())!;
    expect(cursor.y).toBeGreaterThan(0);
    expect(cursor.y + cursor.height).toBeLessThan(800);
    expect(Math.abs(cursor.y - row.y)).toBeLessThan(4);
  });
});
