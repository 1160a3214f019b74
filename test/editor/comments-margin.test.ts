import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { fileId, stateIs } from '../helpers/browser.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { copyForTry, useDemoBrowser } from '../helpers/demo-browser.ts';

const parts = (bytes: Buffer) => unzipSync(new Uint8Array(bytes));
const decode = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : '');
const texts = (xml: string) => [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');

/** The comments of a saved docx's word/comments.xml: author and text of each w:comment, in order. */
function savedComments(bytes: Buffer): { author: string; text: string }[] {
  const xml = decode(parts(bytes)['word/comments.xml']);
  return [...xml.matchAll(/<w:comment [^>]*>[\s\S]*?<\/w:comment>/g)].map((m) => ({ author: /w:author="([^"]*)"/.exec(m[0])?.[1] ?? '', text: texts(m[0]) }));
}

/**
 * Issue 23, item 3, in Chromium: a comment inserted from the editor shows with the user's name (the host's
 * UserFriendlyName) and its time, keys typed afterwards go to the document body, reply and resolve work; the
 * saved docx (word/comments.xml, commentsExtended.xml, document.xml) is the oracle.
 */
describe('comments inserted in the editor: author, shown, body keeps the keys', () => {
  const env = useDemoBrowser('ode-comments-');
  const USER = 'Ada Lovelace';
  let page: Page;
  /** This try's copy of the document: each test, and each CI retry of one, starts from the corpus file. */
  let path = '';
  const file = () => path;
  afterEach(() => page?.close());

  /**
   * Opens a fresh copy of documentProperties.docx (word/document.xml: one paragraph "Hello World!", read by hand,
   * no comments) as USER, with the caret at its start.
   */
  const openCopy = async () => {
    // Listed by the demo host before the page asks for it (its folder watcher sees a new file a moment later).
    const copy = await copyForTry(env, join(CORPUS, 'properties/documentProperties.docx'), 'note.docx');
    path = copy.path;
    const name = copy.name;
    page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${env.daemon.url}/?user=${encodeURIComponent(USER)}&open=${fileId(name)}`);
    // Each copy is a new document: it waits for a kit of its own (a kit is not reused), slow at CI load.
    await page.waitForFunction(stateIs, 'Ready', { timeout: 90_000 });
    await page.keyboard.press('Control+Home');
  };

  /** Insert > Comment…, `text` typed into its dialog and OK; the comment as the panel beside the document shows it. */
  const insertComment = async (text: string) => {
    await page.getByRole('menubar').getByRole('menuitem', { name: 'Insert', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Comment…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Insert comment' });
    await dialog.waitFor();
    await page.keyboard.type(text);
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'detached' });
    const note = page.getByRole('region', { name: 'Comments' }).locator('.ode-comment').filter({ hasText: text });
    await note.waitFor({ state: 'visible', timeout: 30_000 });
    return note;
  };

  const save = async () => {
    await page.waitForFunction(stateIs, 'Unsaved changes', { timeout: 30_000 });
    await page.keyboard.press('Control+s');
    await page.waitForFunction(stateIs, 'All changes saved', { timeout: 30_000 });
  };

  it('Insert > Comment shows the comment with the user as author and its time; typing goes on in the body', async () => {
    await openCopy();
    // Shown without asking: the comments beside the document hold it, with the author and a time.
    const note = await insertComment('Margin note');
    expect(await note.locator('.ode-comment-author').textContent()).toBe(USER);
    expect(await note.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d/);
    expect(await note.locator('time').textContent()).not.toBe('');
    await page.screenshot({ path: 'test/artifacts/comments-margin.png' });

    // Keys typed now go to the document body, not into the comment.
    await page.keyboard.type('Typed after ');
    await save();
    const saved = readFileSync(file());
    expect(texts(decode(parts(saved)['word/document.xml']))).toContain('Typed after ');
    expect(savedComments(saved)).toEqual([{ author: USER, text: 'Margin note' }]);
  }, 180_000);

  it('reply and resolve reach the saved file', async () => {
    await openCopy();
    const note = await insertComment('Margin note');
    const panel = page.getByRole('region', { name: 'Comments' });
    await note.getByRole('button', { name: `Reply to ${USER}` }).click();
    await page.getByRole('textbox', { name: `Reply to ${USER}` }).fill('A reply');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => panel.locator('.ode-comment-reply').count(), { timeout: 30_000 }).toBe(1);
    expect(await panel.locator('.ode-comment-reply .ode-comment-author').textContent()).toBe(USER);
    await note.getByRole('button', { name: `Resolve: ${USER}` }).click();
    await expect.poll(() => note.getAttribute('class'), { timeout: 30_000 }).toContain('ode-comment-resolved');
    await save();
    const saved = readFileSync(file());
    expect(savedComments(saved)).toEqual([
      { author: USER, text: 'Margin note' },
      { author: USER, text: 'A reply' },
    ]);
    // The resolved thread: w15:done="1" on the first comment's paragraph (word/commentsExtended.xml).
    const extended = decode(parts(saved)['word/commentsExtended.xml']);
    expect(extended.match(/w15:done="1"/g)?.length).toBe(1);
  }, 180_000);
});
