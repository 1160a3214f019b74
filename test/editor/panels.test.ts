import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fileId, stateIs } from '../helpers/browser.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { useDemoBrowser } from '../helpers/demo-browser.ts';

const part = (bytes: Buffer, name: string) => new TextDecoder().decode(unzipSync(new Uint8Array(bytes))[name]);
const texts = (xml: string) => [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');

/**
 * The panels around the document in Chromium against a real daemon (demo host folder): the status bar, the comments
 * panel (listing, reply reaching the saved file), find and replace (reaching the saved file), the users list with
 * two browser contexts.
 */
describe('editor panels: status bar, comments, find and replace, users', () => {
  const env = useDemoBrowser('ode-panels-', (folder) => {
    // The page serves the built bundle: rebuild it when the editor's sources changed.
    execFileSync(process.execPath, ['daemon/editor/build.mjs']);
    copyFileSync(join(CORPUS, 'tracked-changes/RA001-Tracked-Revisions-01.docx'), join(folder, 'long.docx'));
    copyFileSync(join(CORPUS, 'tracked-changes/comments.docx'), join(folder, 'comments.docx'));
    copyFileSync(join(CORPUS, 'properties/documentProperties.docx'), join(folder, 'hello.docx'));
    copyFileSync(join(CORPUS, 'properties/documentProperties.docx'), join(folder, 'shared.docx'));
  });
  const open = async (name: string, user = 'Demo user'): Promise<Page> => {
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(`${env.daemon.url}/?user=${encodeURIComponent(user)}&open=${fileId(name)}`);
    await page.waitForFunction(stateIs, 'Ready', { timeout: 40_000 });
    return page;
  };
  const save = async (page: Page) => {
    await page.waitForFunction(stateIs, 'Unsaved changes', { timeout: 30_000 });
    await page.keyboard.press('Control+s');
    await page.waitForFunction(stateIs, 'All changes saved', { timeout: 30_000 });
  };

  it('shows page, word count, language and zoom of a multi-page docx in the status bar', async () => {
    // RA001's docProps/app.xml: 5 pages, 387 words (Word's count, deleted text included).
    const page = await open('long.docx');
    const position = page.locator('.ode-status-position');
    await expect.poll(() => position.textContent(), { timeout: 30_000 }).toMatch(/^Page 1 of \d+$/);
    const pages = Number(/of (\d+)/.exec((await position.textContent())!)![1]);
    expect(pages).toBeGreaterThanOrEqual(4);
    const words = page.locator('.ode-status-words');
    await expect.poll(() => words.textContent(), { timeout: 30_000 }).toMatch(/^[\d,]+ words, [\d,]+ characters$/);
    const count = Number(/^([\d,]+)/.exec((await words.textContent())!)![1].replace(/,/g, ''));
    expect(count).toBeGreaterThan(250);
    expect(count).toBeLessThanOrEqual(387);
    expect(await page.locator('.ode-status-language').textContent()).not.toBe('');
    // The zoom button opens the zoom menu; 150 % changes the view's zoom and the button.
    const zoom = page.getByRole('button', { name: 'Zoom: 100%' });
    await zoom.click();
    await page.getByRole('menuitemradio', { name: '150%' }).click();
    await expect.poll(() => page.locator('.ode-status-zoom').textContent()).toBe('150%');
    await page.close();
  });

  it('lists the comments of comments.docx, and a reply reaches the saved file', async () => {
    // word/comments.xml (read by hand): w:id 0 by Michael Williamson "A tachyon walks into a bar.", w:id 2 by him "Fin.".
    const page = await open('comments.docx');
    await page.getByRole('menuitem', { name: 'View', exact: true }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Comments' }).click();
    const panel = page.getByRole('region', { name: 'Comments' });
    await expect.poll(() => panel.locator('.ode-comment').count(), { timeout: 30_000 }).toBe(2);
    const first = panel.locator('.ode-comment').first();
    expect(await first.locator('.ode-comment-author').textContent()).toBe('Michael Williamson');
    expect(await first.locator('.ode-comment-text').textContent()).toBe('A tachyon walks into a bar.');
    expect(await panel.locator('.ode-comment').nth(1).locator('.ode-comment-text').textContent()).toBe('Fin.');
    expect(await first.locator('time').textContent()).toContain('2016');

    await first.getByRole('button', { name: 'Reply to Michael Williamson' }).click();
    await page.getByRole('textbox', { name: 'Reply to Michael Williamson' }).fill('Faster than light, reply');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => panel.locator('.ode-comment').count(), { timeout: 30_000 }).toBe(3);
    expect(await panel.locator('.ode-comment-reply .ode-comment-text').textContent()).toContain('Faster than light, reply');
    await save(page);
    const comments = part(readFileSync(join(env.folder, 'comments.docx')), 'word/comments.xml');
    expect(texts(comments)).toContain('Faster than light, reply');
    expect(texts(comments)).toContain('A tachyon walks into a bar.');
    await page.close();
  });

  it('finds and replaces a word with Ctrl+H; the saved file has the replacement', async () => {
    // hello.docx's word/document.xml: "Hello World !".
    const page = await open('hello.docx');
    await page.keyboard.press('Control+h');
    const bar = page.getByRole('search', { name: 'Find and replace' });
    await bar.getByRole('searchbox', { name: 'Find' }).fill('Nowhere');
    await bar.getByRole('button', { name: 'Find next' }).click();
    await expect.poll(() => bar.locator('[role=status]').textContent(), { timeout: 30_000 }).toBe('Not found: “Nowhere”');
    await bar.getByRole('searchbox', { name: 'Find' }).fill('World');
    await bar.getByRole('button', { name: 'Find all' }).click();
    await expect.poll(() => bar.locator('[role=status]').textContent(), { timeout: 30_000 }).toBe('1 match');
    await bar.getByRole('textbox', { name: 'Replace with' }).fill('Planet');
    await bar.getByRole('button', { name: 'Replace all' }).click();
    await save(page);
    const text = texts(part(readFileSync(join(env.folder, 'hello.docx')), 'word/document.xml'));
    expect(text).toContain('Planet');
    expect(text).not.toContain('World');
    await page.close();
  });

  it('shows each of two users the other in the users list', async () => {
    const alice = await open('shared.docx', 'Alice Martin');
    const bob = await open('shared.docx', 'Bob Stone');
    for (const [page, self, other] of [
      [alice, 'Alice Martin', 'Bob Stone'],
      [bob, 'Bob Stone', 'Alice Martin'],
    ] as const) {
      const avatars = page.locator('.ode-users');
      await expect.poll(() => avatars.getAttribute('aria-label'), { timeout: 30_000 }).toBe('Users editing: 2: Alice Martin, Bob Stone');
      await avatars.click();
      const panel = page.getByRole('region', { name: 'Users (2)' });
      await expect.poll(() => panel.getByRole('button').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining(other)]));
      expect(await panel.getByRole('button', { name: `${self} (you)` }).count()).toBe(1);
      // The initials are drawn by CSS (a picture: the button's name names the user): what the page shows.
      const drawn = await panel
        .getByRole('button', { name: other })
        .locator('.ode-avatar')
        .evaluate(
          (e) => (globalThis as unknown as { getComputedStyle(e: unknown, pseudo: string): { content: string } }).getComputedStyle(e, '::before').content,
        );
      expect(drawn).toBe(other === 'Bob Stone' ? '"BS"' : '"AM"');
    }
    await alice.close();
    await bob.close();
  });
});
