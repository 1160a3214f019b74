/**
 * test/helpers/calc-page.ts: what the spreadsheet browser tests share: reading the stored xlsx, and the steps a user
 * takes in the editor's name box and formula bar (Chromium through playwright-core).
 */
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import type { Locator, Page } from 'playwright-core';
import type { expect } from 'vitest';

/** A reader of an OOXML package on disk: part name -> its text (UTF-8). @throws Error when the file is not a zip. */
export function unzip(path: string): (name: string) => string {
  const files = unzipSync(new Uint8Array(readFileSync(path)));
  return (name) => new TextDecoder().decode(files[name]);
}

/** The sheet names of an xlsx, in order (xl/workbook.xml). */
export const sheetNames = (read: (name: string) => string): string[] => [...read('xl/workbook.xml').matchAll(/<sheet [^>]*name="([^"]*)"/g)].map((m) => m[1]);

/**
 * The worksheet part of the sheet called `name` (workbook.xml r:id -> workbook.xml.rels target, ECMA-376 Part 1 §18.2).
 * @throws TypeError when the workbook has no such sheet.
 */
export function sheetXml(read: (name: string) => string, name: string): string {
  const id = new RegExp(`<sheet [^>]*name="${name}"[^>]*r:id="([^"]+)"`).exec(read('xl/workbook.xml'))![1];
  const rels = read('xl/_rels/workbook.xml.rels');
  const target =
    new RegExp(`<Relationship [^>]*Id="${id}"[^>]*Target="([^"]+)"`).exec(rels)?.[1] ?? new RegExp(`Target="([^"]+)"[^>]*Id="${id}"`).exec(rels)![1];
  return read(`xl/${target.replace(/^\/?xl\//, '')}`);
}

/** The test file's expect.poll with its own time limit. */
type Poll = <T>(fn: () => T | Promise<T>, options?: { timeout?: number }) => ReturnType<typeof expect.poll<T>>;

/** The name box and formula bar steps of a spreadsheet page, and the stored file's reading once an upload landed. */
export interface CalcSteps {
  nameBox(): Locator;
  formula(): Locator;
  /** Jumps with the name box (focus goes back to the document); `shown` is what the box shows afterwards. */
  goTo(address: string, shown?: string): Promise<void>;
  /** Types content into the cell at `address` through the formula bar, and waits for the bar to show it. */
  enter(address: string, content: string): Promise<void>;
  /** Ctrl+S in the document: an explicit save always uploads; `stored` then waits for the file to show the change. */
  save(): Promise<void>;
  /** What `read` finds in the stored file (polled for up to 30 s: the upload may not have landed). */
  stored<T>(read: (file: (name: string) => string) => T): ReturnType<typeof expect.poll<T | undefined>>;
}

/**
 * The steps on the page `page()` returns (a getter: the page is made in a hook), for the stored xlsx `file` (a path, or
 * a getter of the path when each test opens its own copy).
 */
export function calcSteps(page: () => Page, file: string | (() => string), poll: Poll): CalcSteps {
  const path = typeof file === 'string' ? () => file : file;
  const nameBox = () => page().getByRole('textbox', { name: 'Name Box' });
  const formula = () => page().getByRole('textbox', { name: 'Formula', exact: true });
  const goTo = async (address: string, shown = address) => {
    await nameBox().fill(address);
    await nameBox().press('Enter');
    await poll(() => nameBox().inputValue()).toBe(shown);
  };
  return {
    nameBox,
    formula,
    goTo,
    async enter(address, content) {
      await goTo(address);
      await formula().fill(content);
      await formula().press('Enter');
      await poll(() => formula().inputValue()).toBe(content);
    },
    async save() {
      await page().locator('.ode-input').focus();
      await page().keyboard.press('Control+s');
    },
    stored: (read) =>
      poll(
        () => {
          try {
            return read(unzip(path()));
          } catch {
            return undefined; // not written yet
          }
        },
        { timeout: 30_000 },
      ),
  };
}
