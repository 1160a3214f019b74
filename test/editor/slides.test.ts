import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileId } from '../helpers/browser.ts';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { useDemoBrowser } from '../helpers/demo-browser.ts';
import { escapeSlideshow } from '../helpers/slideshow.ts';

/**
 * layouts.pptx: ppt/presentation.xml lists 10 p:sldId (read by hand); the first text of each slide, in order
 * (read by hand from ppt/slides/slideN.xml).
 */
const SLIDES = 10;
const FIRST_TEXTS = [
  'Centered Title',
  'Title',
  'Section Title',
  'Title',
  'Title',
  'Title Only',
  'Blank with Default Title',
  'Caption',
  'Picture with Caption',
  'Headers & Footers',
];

/** The slides of a saved pptx in presentation order: the text runs of each, joined with '|'. */
function slideTexts(bytes: Buffer): string[] {
  const zip = unzipSync(new Uint8Array(bytes));
  const text = (p: string) => new TextDecoder().decode(zip[p]);
  const rels = text('ppt/_rels/presentation.xml.rels');
  return [...text('ppt/presentation.xml').matchAll(/<p:sldId [^>]*r:id="([^"]+)"/g)].map((m) => {
    const rel = new RegExp(`<Relationship [^>]*Id="${m[1]}"[^>]*>`).exec(rels)![0];
    const target = /Target="([^"]+)"/.exec(rel)![1].replace(/^\/?(ppt\/)?/, '');
    return [...text(`ppt/${target}`).matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((r) => r[1].replace(/&amp;/g, '&')).join('|');
  });
}

/** Page objects touched by functions run in Chromium (the tests are type-checked for Node, not the DOM). */
interface Canvas {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
}
interface PageGlobal {
  document: {
    querySelector(s: string): (Canvas & { textContent: string | null }) | null;
    querySelectorAll(s: string): ArrayLike<{ getAttribute(n: string): string | null; querySelector(s: string): Canvas | null }>;
  };
}

/** Page function: how many options of the listbox have a thumbnail with painted (non-white, opaque) pixels. */
const paintedThumbnails = () => {
  const options = (globalThis as unknown as PageGlobal).document.querySelectorAll('[role="listbox"] [role="option"]');
  let n = 0;
  for (let i = 0; i < options.length; i++) {
    const c = options[i].querySelector('canvas');
    if (!c || !c.width) continue;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    for (let k = 0; k < d.length; k += 4) if (d[k + 3] > 0 && (d[k] < 235 || d[k + 1] < 235 || d[k + 2] < 235)) ink++;
    if (ink > 50) n++;
  }
  return n;
};

/** Page function: a fingerprint of the main canvas (sum of sampled pixels), to see it change. */
const canvasPrint = () => {
  const c = (globalThis as unknown as PageGlobal).document.querySelector('.ode-canvas')!;
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let sum = 0;
  for (let k = 0; k < d.length; k += 97) sum = (sum * 31 + d[k]) % 1_000_000_007;
  return sum;
};

describe('presentations in Chromium: slide sorter, slide commands, slideshow; pdf pages', () => {
  const env = useDemoBrowser('ode-slides-', (folder) => {
    copyFileSync(join(CORPUS, 'presentations/layouts.pptx'), join(folder, 'deck.pptx'));
    copyFileSync(join(CORPUS, 'presentations/layouts.pptx'), join(folder, 'show.ppsx'));
  });
  let page: Page;
  const deck = join(env.folder, 'deck.pptx');

  beforeAll(async () => {
    const pdf = await postConvert(env.daemon.url, '/ode/convert-to/pdf', join(CORPUS, 'presentations/layouts.pptx'));
    expect(pdf.status).toBe(200);
    writeFileSync(join(env.folder, 'handout.pdf'), pdf.body);
    page = await env.browser.newPage({ viewport: { width: 1100, height: 760 } });
  }, 120_000);

  const slides = () => page.getByRole('listbox', { name: 'Slides' }).getByRole('option');
  /** A button of the slide panel's own toolbar (the chrome's toolbar may show the same commands). */
  const panelButton = (name: string) => page.getByRole('toolbar', { name: 'Slides' }).getByRole('button', { name });
  const save = async () => {
    const before = statSync(deck).mtimeMs;
    await page.keyboard.press('Control+s');
    await expect.poll(() => statSync(deck).mtimeMs, { timeout: 60_000 }).not.toBe(before);
  };
  /** Waits until LibreOffice says slide `n` (1-based) of `count` is current (the status bar shows its answer). */
  const atSlide = (n: number, count: number) =>
    page.locator('.ode-status-position', { hasText: new RegExp(`^Slide ${n} of ${count}$`) }).waitFor({ timeout: 60_000 });
  /**
   * The starting point of a test that changes the deck: the live deck saved (a retry finds the document as the
   * failed try left it, maybe with a change that landed late) and read back. Returns the saved first texts and the
   * thumbnail count, which must agree.
   */
  const savedStart = async (): Promise<string[]> => {
    await save();
    const firsts = slideTexts(readFileSync(deck)).map((s) => s.split('|')[0]);
    await expect.poll(() => slides().count(), { timeout: 60_000 }).toBe(firsts.length);
    return firsts;
  };

  it('shows one painted thumbnail per slide; clicking one changes the main view', async () => {
    await page.goto(`${env.daemon.url}/?open=${fileId('deck.pptx')}`);
    await expect.poll(() => slides().count(), { timeout: 60_000 }).toBe(SLIDES);
    await expect(slides().nth(0).getAttribute('aria-label')).resolves.toMatch(/^Slide 1: /);
    expect(await slides().nth(0).getAttribute('aria-selected')).toBe('true');
    // Thumbnails are asked for as they scroll into view: visit each.
    for (let i = 0; i < SLIDES; i++) await slides().nth(i).scrollIntoViewIfNeeded();
    await expect.poll(() => page.evaluate(paintedThumbnails), { timeout: 30_000 }).toBe(SLIDES);
    await page.screenshot({ path: 'test/artifacts/slides-sorter.png' });

    const before = await page.evaluate(canvasPrint);
    await slides().nth(2).click();
    await expect.poll(() => slides().nth(2).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.evaluate(canvasPrint), { timeout: 30_000 }).not.toBe(before);
    // Keyboard: Down selects the next slide.
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => slides().nth(3).getAttribute('aria-selected')).toBe('true');
  }, 120_000);

  it('New slide adds a thumbnail and the saved pptx has one more slide', async () => {
    const start = await savedStart();
    await slides().nth(0).click();
    await atSlide(1, start.length);
    await panelButton('New slide').click();
    await expect.poll(() => slides().count(), { timeout: 60_000 }).toBe(start.length + 1);
    await save();
    const firsts = slideTexts(readFileSync(deck)).map((s) => s.split('|')[0]);
    // The new slide comes after the first (the current one); the others keep their order.
    expect(firsts).toHaveLength(start.length + 1);
    expect([firsts[0], ...firsts.slice(2)]).toEqual(start);
    // On the untouched deck (not a retry): the slides read by hand.
    if (start.length === SLIDES) expect([firsts[0], ...firsts.slice(2)]).toEqual(FIRST_TEXTS);
  }, 180_000);

  it('Delete and Move down change the saved order', async () => {
    // Delete the second slide (the new one after the test above), then move the first one down one place.
    const start = await savedStart();
    const n = start.length;
    await slides().nth(1).click();
    await atSlide(2, n);
    await panelButton('Delete slide').click();
    await expect.poll(() => slides().count(), { timeout: 60_000 }).toBe(n - 1);
    await slides().nth(0).click();
    await atSlide(1, n - 1);
    await panelButton('Move slide down').click();
    await atSlide(2, n - 1);
    await expect.poll(() => slides().nth(1).getAttribute('aria-selected'), { timeout: 60_000 }).toBe('true');
    await save();
    const firsts = slideTexts(readFileSync(deck)).map((s) => s.split('|')[0]);
    expect(firsts).toEqual([start[2], start[0], ...start.slice(3)]);
    // After the test above on the untouched deck: the slides read by hand, the first two swapped.
    if (n === SLIDES + 1) expect(firsts).toEqual([FIRST_TEXTS[1], FIRST_TEXTS[0], ...FIRST_TEXTS.slice(2)]);
  }, 180_000);

  const escapeShow = () => escapeSlideshow(page);
  /** A slideshow a failed try left open is closed first (a retry starts from the deck). */
  const noShow = async () => {
    if (await page.getByRole('dialog', { name: 'Slideshow' }).isVisible()) await escapeShow();
  };
  /** Page function run in the player's frame: the ids of the exported slides (g.Slide) it shows, comma-separated. */
  const shownSlides = () => {
    const d = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ id: string }> } }).document;
    const style = globalThis as unknown as { getComputedStyle(e: unknown): { visibility: string } };
    return Array.from(d.querySelectorAll('g.Slide'))
      .filter((g) => g.id !== 'dummy-slide' && style.getComputedStyle(g).visibility === 'visible')
      .map((g) => g.id)
      .join(',');
  };

  it('F5 shows the slideshow layer with LibreOffice’s player; Escape leaves it', async () => {
    await noShow();
    await slides().nth(0).click();
    await page.keyboard.press('F5');
    const show = page.getByRole('dialog', { name: 'Slideshow' });
    await show.waitFor({ state: 'visible', timeout: 60_000 });
    const player = page.frameLocator('.ode-slideshow-frame');
    await player.locator('svg').first().waitFor({ state: 'attached', timeout: 30_000 });
    // The player shows the first slide (for the screenshot).
    const frame = page.frames().find((f) => f.parentFrame() === page.mainFrame())!;
    await expect.poll(() => frame.evaluate(shownSlides), { timeout: 30_000 }).toBe('id1');
    await page.screenshot({ path: 'test/artifacts/slides-slideshow.png' });
    await escapeShow();
  }, 120_000);

  it('the slideshow takes the keyboard when it opens: ArrowRight, Space, Page Down and Enter advance it before any click, Left and Backspace go back', async () => {
    await noShow();
    await slides().nth(0).click();
    await expect.poll(() => slides().nth(0).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('F5');
    const show = page.getByRole('dialog', { name: 'Slideshow' });
    await show.waitFor({ state: 'visible', timeout: 60_000 });
    await page.frameLocator('.ode-slideshow-frame').locator('g.Slide').first().waitFor({ state: 'attached', timeout: 30_000 });
    const player = page.frames().find((f) => f.parentFrame() === page.mainFrame())!;
    // The slide on screen: the exported slides are g.Slide elements id1..idN (in show order), the player hides all
    // but the one shown (its dummy-slide aside); what the eye sees, read from the rendered document.
    const shown = () => player.evaluate(shownSlides);
    await expect.poll(shown, { timeout: 30_000 }).toBe('id1');
    // No click anywhere: the keys a presenter's clicker sends go to the player from the first one.
    await page.keyboard.press('ArrowRight');
    await expect.poll(shown, { timeout: 30_000 }).toBe('id2');
    await page.keyboard.press('Space');
    await expect.poll(shown, { timeout: 30_000 }).toBe('id3');
    await page.keyboard.press('PageDown');
    await expect.poll(shown, { timeout: 30_000 }).toBe('id4');
    await page.keyboard.press('Enter');
    await expect.poll(shown, { timeout: 30_000 }).toBe('id5');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(shown, { timeout: 30_000 }).toBe('id4');
    await page.keyboard.press('Backspace');
    await expect.poll(shown, { timeout: 30_000 }).toBe('id3');
    await escapeShow();
  }, 120_000);

  it('a .ppsx opens in its slideshow', async () => {
    await page.goto(`${env.daemon.url}/?open=${fileId('show.ppsx')}`);
    await page.getByRole('dialog', { name: 'Slideshow' }).waitFor({ state: 'visible', timeout: 90_000 });
    await page.getByRole('button', { name: 'Exit slideshow (Esc)' }).click();
    await page.getByRole('dialog', { name: 'Slideshow' }).waitFor({ state: 'detached', timeout: 30_000 });
  }, 120_000);

  it('a pdf (view_comment) shows its pages in the pages panel', async () => {
    await page.goto(`${env.daemon.url}/?open=${fileId('handout.pdf')}`);
    const pages = page.getByRole('listbox', { name: 'Pages' }).getByRole('option');
    await expect.poll(() => pages.count(), { timeout: 60_000 }).toBe(SLIDES);
    expect(await pages.nth(0).getAttribute('aria-label')).toMatch(/^Page 1: /);
    await expect.poll(() => page.evaluate(paintedThumbnails), { timeout: 30_000 }).toBeGreaterThan(2);
    expect(await page.getByRole('toolbar', { name: 'Pages' }).isVisible()).toBe(false);
    await page.screenshot({ path: 'test/artifacts/slides-pdf-pages.png' });
  }, 120_000);
});
