import type { FrameLocator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpus, poll, useTaskEnv, xlsxCells, type OpenedTask } from './task-env.ts';

/**
 * Spreadsheet tasks (issue 16) in Chromium through a host page, on the corpus workbook SampleSS.xlsx (sheets
 * "First Sheet", "Sheet Number 2", "Sheet3"; A1 "Test spreadsheet"), each checked in the xlsx the WOPI host stores
 * (read by task-env's xlsxCells: unzip and XML, not LibreOffice).
 */
const env = useTaskEnv();

describe('spreadsheet: what is typed into a cell is in every save', () => {
  let doc: OpenedTask;
  let f: FrameLocator;
  const nameBox = () => f.getByRole('textbox', { name: 'Name Box' });
  const formula = () => f.getByRole('textbox', { name: 'Formula', exact: true });
  const goTo = async (address: string) => {
    await nameBox().fill(address);
    await nameBox().press('Enter');
    await poll(() => nameBox().inputValue()).toBe(address);
  };
  /** Types `text` into the current cell (keys into the document, no Enter): the cell is in edit mode. */
  const typeInCell = async (text: string) => {
    await f.locator('.ode-input').focus();
    await doc.page.keyboard.type(text, { delay: 20 });
    // The formula bar shows what LibreOffice has in the cell being edited.
    await poll(() => formula().inputValue()).toBe(text);
  };
  const state = () => f.locator('.ode-state').textContent();
  /** Waits for one more PutFile than `before`, then the stored cells. */
  const storedAfter = async (before: number) => {
    await poll(() => doc.putFiles(), 30_000).toBeGreaterThan(before);
    return xlsxCells(doc.stored(), 'First Sheet').values;
  };
  /** Polls the stored cell `ref` (a later PutFile may be the one that has it). */
  const storedCell = (ref: string) => poll(() => xlsxCells(doc.stored(), 'First Sheet').values[ref], 30_000);

  beforeAll(async () => {
    doc = await env.open('book.xlsx', corpus('spreadsheets/SampleSS.xlsx'));
    f = doc.frame;
  }, 120_000);

  it("keeps the cell's text on the host's Action_Save (before Enter), and the status bar says saved only then", async () => {
    await goTo('D5');
    await typeInCell('typed before save');
    const before = doc.putFiles();
    await doc.host.post({ MessageId: 'Action_Save', SendTime: Date.now(), Values: { DontSaveIfUnmodified: false } });
    expect((await storedAfter(before)).D5).toBe('typed before save');
    await poll(state).toBe('All changes saved');
  });

  it("keeps the cell's text on Ctrl+S", async () => {
    await goTo('D6');
    await typeInCell('ctrl s text');
    await doc.page.keyboard.press('Control+s');
    await storedCell('D6').toBe('ctrl s text');
  });

  it("keeps the cell's text on the Save button", async () => {
    await goTo('D7');
    await typeInCell('button text');
    await f.getByRole('toolbar').getByRole('button', { name: 'Save', exact: true }).click();
    await storedCell('D7').toBe('button text');
  });

  it("keeps the formula bar's text not yet entered on Ctrl+S", async () => {
    await goTo('D8');
    await formula().click();
    await formula().fill('from the formula bar');
    // Still in the formula bar with the text (leaving it without Enter would cancel, as in LibreOffice).
    await poll(() => formula().evaluate((e: { ownerDocument: { activeElement: unknown } }) => e.ownerDocument.activeElement === e)).toBe(true);
    expect(await formula().inputValue()).toBe('from the formula bar');
    await formula().press('Control+s');
    await storedCell('D8').toBe('from the formula bar');
  });

  it('types and moves with Tab and Enter (Enter goes back to the column the Tabs started from), and Ctrl+S stores the cells', async () => {
    await goTo('A20');
    await f.locator('.ode-input').focus();
    await doc.page.keyboard.type('north', { delay: 20 });
    await doc.page.keyboard.press('Tab');
    await doc.page.keyboard.type('east', { delay: 20 });
    await doc.page.keyboard.press('Enter');
    await poll(() => nameBox().inputValue()).toBe('A21');
    await doc.page.keyboard.type('south', { delay: 20 });
    await doc.page.keyboard.press('ArrowRight');
    await poll(() => nameBox().inputValue()).toBe('B21');
    await doc.page.keyboard.press('Control+s');
    await storedCell('A21').toBe('south');
    const cells = xlsxCells(doc.stored(), 'First Sheet').values;
    expect([cells.A20, cells.B20]).toEqual(['north', 'east']);
  });

  it('Action_Save with DontTerminateEdit keeps the cell in edit mode: the text is not saved, and the status bar does not say saved', async () => {
    await goTo('D9');
    await typeInCell('still editing');
    const before = doc.putFiles();
    await doc.host.post({ MessageId: 'Action_Save', Values: { DontTerminateEdit: true, DontSaveIfUnmodified: false } });
    const cells = await storedAfter(before);
    expect(cells.D9).toBeUndefined();
    await poll(state).toBe('Unsaved changes');
    // Still in edit mode: more typing goes on in the same cell.
    await doc.page.keyboard.type(' more', { delay: 20 });
    await poll(() => formula().inputValue()).toBe('still editing more');
    await doc.page.keyboard.press('Enter');
    await doc.page.keyboard.press('Control+s');
    await storedCell('D9').toBe('still editing more');
  });
});

// Last in the file: the daemon saves by itself from here on (documents.idle_save_secs applies to documents opened after).
describe('spreadsheet: the idle save and the exit save keep a cell being edited', () => {
  beforeAll(() => env.daemon.reconfigure({ documents: { check_secs: 0, idle_save_secs: 2, autosave_secs: 3600, idle_unload_secs: 3600 } }));

  const typeAt = async (doc: OpenedTask, address: string, text: string) => {
    const f = doc.frame;
    await f.getByRole('textbox', { name: 'Name Box' }).fill(address);
    await f.getByRole('textbox', { name: 'Name Box' }).press('Enter');
    await poll(() => f.getByRole('textbox', { name: 'Name Box' }).inputValue()).toBe(address);
    await f.locator('.ode-input').focus();
    await doc.page.keyboard.type(text, { delay: 20 });
    await poll(() => f.getByRole('textbox', { name: 'Formula', exact: true }).inputValue()).toBe(text);
  };

  it('the idle save after typing (no Enter) stores the text', async () => {
    const doc = await env.open('idle.xlsx', corpus('spreadsheets/SampleSS.xlsx'));
    await typeAt(doc, 'E3', 'left to idle');
    await poll(() => xlsxCells(doc.stored(), 'First Sheet').values.E3, 30_000).toBe('left to idle');
    await poll(() => doc.frame.locator('.ode-state').textContent()).toBe('All changes saved');
    await doc.close();
  }, 180_000);

  it('closing the page while a cell is being edited stores the text (exit save)', async () => {
    const doc = await env.open('exit.xlsx', corpus('spreadsheets/SampleSS.xlsx'));
    await typeAt(doc, 'E4', 'typed then closed');
    await doc.page.close();
    await poll(() => xlsxCells(doc.stored(), 'First Sheet').values.E4, 30_000).toBe('typed then closed');
    await doc.close();
  }, 180_000);
});
