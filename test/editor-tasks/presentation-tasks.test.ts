import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postConvert } from '../helpers/convert-client.ts';
import { escapeSlideshow } from '../helpers/slideshow.ts';
import { corpus, openAgain, poll, useTaskEnv, zipText, type OpenedTask } from './task-env.ts';

/**
 * Presentation tasks (issue 16) in Chromium through a host page, on the corpus deck Presentation1.odp (slide size
 * 27.991 x 21.006 cm in styles.xml; the first slide's title "This is the test documents / / for ODF toolkit",
 * read by hand from content.xml), each checked in the odp the WOPI host stores or in the view.
 */
const env = useTaskEnv();
const DECK = 'presentations/Presentation1.odp';
const SLIDE_TWIPS = { width: Math.round(27.991 * 567), height: Math.round(21.006 * 567) };

/** The text of the first draw:page's title frame in an odp (content.xml), line breaks as '/'. */
function firstTitle(bytes: Buffer): string {
  const xml = zipText(bytes)('content.xml');
  const page = /<draw:page\b[\s\S]*?<\/draw:page>/.exec(xml)![0];
  const frame = /<draw:frame\b[^>]*presentation:class="title"[\s\S]*?<\/draw:frame>/.exec(page)![0];
  return frame
    .replace(/<text:line-break\/>/g, '/')
    .replace(/<text:s\/>/g, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/\s*\n\s*/g, '');
}

/**
 * Where LibreOffice lays out `word` on slide 1, in twips from the slide's top-left: the deck converted to PDF by
 * the daemon, the word's box read by poppler's pdftotext -bbox (1 pt = 20 twips).
 */
async function wordBox(url: string, word: string): Promise<{ x: number; y: number; w: number; h: number }> {
  const pdf = await postConvert(url, '/ode/convert-to/pdf', { bytes: corpus(DECK), filename: 'deck.odp' });
  expect(pdf.status).toBe(200);
  const dir = mkdtempSync(join(tmpdir(), 'ode-deck-'));
  try {
    writeFileSync(join(dir, 'deck.pdf'), pdf.body);
    const html = execFileSync('pdftotext', ['-bbox', '-f', '1', '-l', '1', join(dir, 'deck.pdf'), '-'], { encoding: 'utf8' });
    const m = new RegExp(`<word xMin="([\\d.]+)" yMin="([\\d.]+)" xMax="([\\d.]+)" yMax="([\\d.]+)">${word}</word>`).exec(html);
    if (!m) throw new Error(`no ${word} on page 1 of the pdf`);
    const [x0, y0, x1, y1] = m.slice(1).map(Number);
    return { x: x0 * 20, y: y0 * 20, w: (x1 - x0) * 20, h: (y1 - y0) * 20 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Page function: the client point of slide twips (x, y) in the editor frame (the sizer's style width is the slide at the current zoom). */
const clientPoint = (_: unknown, [x, y, slideWidth]: [number, number, number]) => {
  const g = globalThis as unknown as {
    document: {
      querySelector(s: string): {
        getBoundingClientRect(): { left: number; top: number };
        clientWidth: number;
        scrollLeft: number;
        scrollTop: number;
        style: { width: string };
      };
    };
  };
  const doc = g.document.querySelector('.ode-doc');
  const sizer = g.document.querySelector('.ode-sizer');
  const scale = slideWidth / Number.parseFloat(sizer.style.width); // twips per CSS px (the sizer is the slide's width at the zoom)
  const r = doc.getBoundingClientRect();
  const offsetX = Math.max(0, (doc.clientWidth - slideWidth / scale) / 2);
  return { x: r.left - doc.scrollLeft + offsetX + x / scale, y: r.top - doc.scrollTop + y / scale };
};

describe('presentation: open fitted, one click into a title types there', () => {
  let doc: OpenedTask;
  const zoomText = () => doc.frame.locator('.ode-status').getByRole('button', { name: /^Zoom/ }).textContent();

  beforeAll(async () => {
    doc = await env.open('deck.odp', corpus(DECK), { viewport: { width: 1280, height: 800 } });
  }, 120_000);

  it('opens with the whole slide in the window (fitted, below 100 %), and the zoom still changes', async () => {
    /** The slide at the zoom shown (twips / 15 px at 100 %) is inside the document area, and not tiny. */
    const fits = async () => {
      const box = await doc.frame.locator('.ode-doc').evaluate((d: { clientWidth: number; clientHeight: number }) => [d.clientWidth, d.clientHeight]);
      const zoom = Number.parseInt((await zoomText()) ?? '', 10) / 100;
      const [w, h] = [(SLIDE_TWIPS.width / 15) * zoom, (SLIDE_TWIPS.height / 15) * zoom];
      return w <= box[0] && h <= box[1] && (w > box[0] * 0.6 || h > box[1] * 0.6);
    };
    await poll(fits, 30_000)
      .toBe(true)
      .catch(async (e: Error) => {
        const d = await doc.frame.locator('.ode-doc').evaluate((x: { clientWidth: number; clientHeight: number }) => [x.clientWidth, x.clientHeight]);
        throw new Error(`${e.message}: view ${d.join('x')}, zoom ${await zoomText()}`);
      });
    const fitted = Number.parseInt((await zoomText()) ?? '', 10);
    expect(fitted).toBeLessThan(100);
    expect(fitted).toBeGreaterThan(25);
    // Zoom in from the status bar's menu: 100 % is there and the slide gets wider than the window.
    await doc.frame.locator('.ode-status').getByRole('button', { name: /^Zoom/ }).click();
    await doc.frame.getByRole('menuitemradio', { name: '100%' }).click();
    await poll(zoomText).toBe('100%');
    await poll(fits).toBe(false);
  }, 120_000);

  it('a single click on the second line of the title ("for ODF toolkit") and typing types there', async () => {
    // Back to the fitted zoom the deck opened with.
    await doc.page.reload();
    await doc.host.waitFor('App_LoadingStatus', (m) => m.Values.Status === 'Document_Loaded', 90_000, doc.host.messages().length);
    const odf = await wordBox(env.daemon.url, 'ODF');
    await poll(async () => (await doc.frame.locator('.ode-sizer').boundingBox())?.width ?? 0).toBeGreaterThan(100);
    const p = await doc.frame.locator('.ode-doc').evaluate(clientPoint, [odf.x + odf.w / 2, odf.y + odf.h / 2, SLIDE_TWIPS.width] as [number, number, number]);
    await doc.page.mouse.click(p.x, p.y);
    await doc.page.keyboard.type('QQ', { delay: 30 });
    await poll(() => doc.frame.locator('.ode-state').textContent()).toBe('Unsaved changes');
    await doc.page.keyboard.press('Escape');
    await doc.page.keyboard.press('Escape');
    // The same at 100 % (the slide wider than the window): one click into "toolkit".
    await doc.frame.locator('.ode-status').getByRole('button', { name: /^Zoom/ }).click();
    await doc.frame.getByRole('menuitemradio', { name: '100%' }).click();
    await poll(zoomText).toBe('100%');
    const toolkit = await wordBox(env.daemon.url, 'toolkit');
    const q = await doc.frame
      .locator('.ode-doc')
      .evaluate(clientPoint, [toolkit.x + toolkit.w / 2, toolkit.y + toolkit.h / 2, SLIDE_TWIPS.width] as [number, number, number]);
    await doc.page.mouse.click(q.x, q.y);
    await doc.page.keyboard.type('WW', { delay: 30 });
    await doc.page.keyboard.press('Escape');
    await doc.page.keyboard.press('Control+s');
    await poll(() => firstTitle(doc.stored()), 30_000).toMatch(/QQ[\s\S]*WW/);
    const title = firstTitle(doc.stored()).replace(/\s+/g, '');
    // Typed inside "ODF" and inside "toolkit" (clicks at the words' middles), on the title's last line.
    expect(title.replace('QQ', '').replace('WW', '')).toBe('Thisisthetestdocuments//forODFtoolkit');
    expect(title.split('/').at(-1)).toMatch(/^forO?D?QQD?F?t[a-z]*WW[a-z]*$/);
  }, 300_000);
});

/** The slides of a pptx in presentation order (ppt/presentation.xml p:sldId -> rels -> slide part): the a:t runs of each joined with '|'. */
function slideTexts(bytes: Buffer): string[] {
  const read = zipText(bytes);
  const rels = read('ppt/_rels/presentation.xml.rels');
  return [...read('ppt/presentation.xml').matchAll(/<p:sldId [^>]*r:id="([^"]+)"/g)].map((m) => {
    const rel = new RegExp(`<Relationship [^>]*Id="${m[1]}"[^>]*>`).exec(rels)![0];
    const target = /Target="([^"]+)"/.exec(rel)![1].replace(/^\/?(ppt\/)?/, '');
    return [...read(`ppt/${target}`).matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((r) => r[1].replace(/&amp;/g, '&')).join('|');
  });
}

/**
 * layouts.pptx (corpus; ppt/presentation.xml lists 10 p:sldId, read by hand; slide 2's first text "Title"): a
 * slide duplicated from the Slide menu is in the stored pptx after its original; the slideshow moves with
 * ArrowRight and Space and is left with Escape.
 */
describe('presentation: duplicate a slide, move through the slideshow', () => {
  let doc: OpenedTask;
  const slides = () => doc.frame.getByRole('listbox', { name: 'Slides' }).getByRole('option');

  beforeAll(async () => {
    doc = await env.open('layouts.pptx', corpus('presentations/layouts.pptx'));
  }, 120_000);

  it('Slide > Duplicate slide puts a copy after the slide, in the stored pptx', async () => {
    const original = slideTexts(corpus('presentations/layouts.pptx'));
    expect(original).toHaveLength(10);
    await poll(() => slides().count(), 30_000).toBe(10);
    await slides().nth(1).click();
    await poll(() => slides().nth(1).getAttribute('aria-selected')).toBe('true');
    await doc.frame.getByRole('menubar').getByRole('menuitem', { name: 'Slide', exact: true }).click();
    await doc.frame.getByRole('menuitem', { name: 'Duplicate slide', exact: true }).click();
    await poll(() => slides().count(), 30_000).toBe(11);
    await doc.frame.locator('.ode-input').focus();
    await doc.page.keyboard.press('Control+s');
    await poll(() => slideTexts(doc.stored()).length, 30_000).toBe(11);
    const saved = slideTexts(doc.stored());
    expect(saved[2]).toBe(saved[1]);
    // The slides' first texts in order: the copy of slide 2 after it (LibreOffice's round trip splits some runs
    // and renumbers the slide number field, so whole texts are not compared).
    const first = (texts: string[]) => texts.map((t) => t.split('|')[0]);
    expect(first(saved)).toEqual(first([original[0], original[1], original[1], ...original.slice(2)]));
    await doc.page.screenshot({ path: 'test/artifacts/editor-tasks-presentation.png' });
  }, 120_000);

  it('F5 starts the slideshow; ArrowRight and Space move on, ArrowLeft back; Escape leaves it', async () => {
    await slides().nth(0).click();
    await poll(() => slides().nth(0).getAttribute('aria-selected')).toBe('true');
    await doc.page.keyboard.press('F5');
    const show = doc.frame.getByRole('dialog', { name: 'Slideshow' });
    await show.waitFor({ state: 'visible', timeout: 60_000 });
    const player = doc.frame.frameLocator('.ode-slideshow-frame');
    await player.locator('g.Slide').first().waitFor({ state: 'attached', timeout: 60_000 });
    // The slide on screen: the exported slides are g.Slide id1..idN, the player shows one of them.
    const shown = () =>
      player.locator('g.Slide').evaluateAll((gs) => {
        const style = globalThis as unknown as { getComputedStyle(e: unknown): { visibility: string } };
        return (gs as unknown as Array<{ id: string }>)
          .filter((g) => g.id !== 'dummy-slide' && style.getComputedStyle(g).visibility === 'visible')
          .map((g) => g.id)
          .join(',');
      });
    await poll(shown).toBe('id1');
    await doc.page.keyboard.press('ArrowRight');
    await poll(shown).toBe('id2');
    await doc.page.keyboard.press('Space');
    await poll(shown).toBe('id3');
    await doc.page.keyboard.press('ArrowLeft');
    await poll(shown).toBe('id2');
    await escapeSlideshow(doc.page, doc.frame);
  }, 180_000);
});

/**
 * The first draw:page of an odp (content.xml): its layout (presentation-page-layout-name), that layout's placeholder
 * objects (styles.xml style:presentation-page-layout), the presentation classes of its frames and the embedded
 * objects (draw:object xlink:href) on it.
 */
function firstPageOf(bytes: Buffer): { layout: string; placeholders: string[]; classes: string[]; objects: string[]; images: string[] } {
  const read = zipText(bytes);
  const page = /<draw:page\b[\s\S]*?<\/draw:page>/.exec(read('content.xml'))![0];
  const layout = /presentation:presentation-page-layout-name="([^"]*)"/.exec(page)?.[1] ?? '';
  const def =
    new RegExp(`<style:presentation-page-layout style:name="${layout}"[^>]*>([\\s\\S]*?)</style:presentation-page-layout>`).exec(read('styles.xml'))?.[1] ?? '';
  return {
    layout,
    placeholders: [...def.matchAll(/presentation:object="([^"]+)"/g)].map((m) => m[1]),
    classes: [...page.matchAll(/<draw:frame\b[^>]*presentation:class="([^"]+)"/g)].map((m) => m[1]),
    objects: [...page.matchAll(/<draw:object\b[^>]*xlink:href="([^"]+)"/g)].map((m) => m[1]),
    // Pictures of the page (a chart's replacement image lives in ObjectReplacements/, not Pictures/).
    images: [...page.matchAll(/<draw:image\b[^>]*xlink:href="([^"]+)"/g)].map((m) => m[1]).filter((h) => /^(?:\.\/)?Pictures\//.test(h)),
  };
}

/**
 * LibreOfficeImpress_odp_1.3.odp (corpus; slide 1 "Title Slide": layout AL1T0 with a title and a subtitle, read by
 * hand from content.xml and styles.xml): a layout chosen in Slide > Layout and a chart from Insert > Chart are in
 * the stored odp.
 */
describe('presentation: a slide layout from the Slide menu, a chart from the Insert menu', () => {
  let doc: OpenedTask;
  const menu = async (title: string, item: string) => {
    await doc.frame.getByRole('menubar').getByRole('menuitem', { name: title, exact: true }).click();
    const open = doc.frame.getByRole('menubar').locator('[role=menu]').last();
    await open
      .getByRole('menuitemcheckbox', { name: item, exact: true })
      .or(open.getByRole('menuitem', { name: item, exact: true }))
      .first()
      .click();
  };
  const save = () =>
    doc.frame
      .locator('.ode-input')
      .focus()
      .then(() => doc.page.keyboard.press('Control+s'));

  beforeAll(async () => {
    doc = await env.open('layout.odp', corpus('presentations/LibreOfficeImpress_odp_1.3.odp'));
  }, 120_000);

  it("Slide > Layout > Title and 2 Content on slide 1: the stored odp's page has that layout", async () => {
    const before = firstPageOf(corpus('presentations/LibreOfficeImpress_odp_1.3.odp'));
    expect(before.placeholders).toEqual(['title', 'subtitle']);
    // LibreOffice 25.2's sidebar sends its Layouts panel as a picture (a ValueSet, not an icon view): the Slide
    // menu's Layout submenu (.uno:AssignLayout, as Collabora's Change Layout) is the way to choose one.
    await doc.frame.getByRole('menubar').getByRole('menuitem', { name: 'Slide', exact: true }).click();
    for (const name of ['Layout', 'Title and 2 Content']) {
      const open = doc.frame.getByRole('menubar').locator('[role=menu]').last();
      await open
        .locator(':scope > li > [role^=menuitem]')
        .filter({ has: doc.frame.locator('.ode-menu-label', { hasText: new RegExp(`^${name}$`) }) })
        .click({ timeout: 30_000 });
    }
    await save();
    await poll(() => firstPageOf(doc.stored()).placeholders.join(','), 30_000).toBe('title,outline,outline');
    const after = firstPageOf(doc.stored());
    expect(after.layout).not.toBe(before.layout);
    // The title and the two content placeholders are on the page (empty placeholders are saved too).
    expect(after.classes).toContain('title');
    expect(after.classes.filter((c) => c === 'outline')).toHaveLength(2);
  }, 180_000);

  it('Insert > Chart puts a chart on the slide: the stored odp has an embedded chart object on page 1', async () => {
    await menu('Insert', 'Chart');
    // LibreOffice inserts a default chart and edits it in place; Escape leaves the chart, then the selection.
    await poll(() => doc.frame.locator('.ode-state').textContent(), 30_000).toBe('Unsaved changes');
    await doc.page.keyboard.press('Escape');
    await doc.page.keyboard.press('Escape');
    await save();
    await poll(() => firstPageOf(doc.stored()).objects.length, 30_000).toBeGreaterThan(0);
    const read = zipText(doc.stored());
    const charts = firstPageOf(doc.stored())
      .objects.map((href) => read(`${href.replace(/^\.\//, '')}/content.xml`))
      .filter((x) => /<chart:chart\b/.test(x));
    expect(charts.length).toBe(1);
    await doc.page.screenshot({ path: 'test/artifacts/editor-tasks-presentation-chart.png' });
  }, 180_000);

  it("the toolbar's Image from the computer puts the picture on the slide: the stored odp's page 1 has a draw:image of the PNG", async () => {
    // A 4 x 4 red PNG, as a file chosen in the browser's file dialog.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEklEQVR4nGP4z8CAB+GTG8HSALfKY52fTcuYAAAAAElFTkSuQmCC', 'base64');
    // Counted, not assumed none: a retry finds the picture of a failed try in the stored file.
    const before = firstPageOf(doc.stored()).images.length;
    const [chooser] = await Promise.all([
      doc.page.waitForEvent('filechooser', { timeout: 30_000 }),
      doc.frame.getByRole('toolbar').getByRole('button', { name: 'Image', exact: true }).click(),
    ]);
    await chooser.setFiles({ name: 'red.png', mimeType: 'image/png', buffer: png });
    // LibreOffice puts the picture on the slide and selects it (its frame shows).
    await doc.frame.locator('.ode-graphic-frame').waitFor({ state: 'visible', timeout: 60_000 });
    await doc.page.keyboard.press('Escape');
    await save();
    await poll(() => firstPageOf(doc.stored()).images.length, 60_000).toBeGreaterThan(before);
    // The new picture is the chosen PNG: a 4 x 4 red PNG part in the package.
    const files = unzipSync(new Uint8Array(doc.stored()));
    const pictures = firstPageOf(doc.stored()).images.map((href) => {
      const part = files[href.replace(/^\.\//, '')];
      if (!part || !href.endsWith('.png')) return href;
      const p = PNG.sync.read(Buffer.from(part));
      return `${p.width}x${p.height} ${[...p.data.subarray(0, 4)].join(',')}`;
    });
    expect(pictures).toContain('4x4 255,0,0,255');
  }, 180_000);
});

/**
 * The speaker notes of the first slide of a pptx (ECMA-376 part 1, PresentationML: presentation.xml's first p:sldId
 * -> its slide part; the notesSlide part whose relationships name that slide): the a:t runs joined with '|', or
 * undefined when the slide has no notes part.
 */
function firstSlideNotes(bytes: Buffer): string | undefined {
  const read = zipText(bytes);
  const files = Object.keys(unzipSync(new Uint8Array(bytes)));
  const rels = read('ppt/_rels/presentation.xml.rels');
  const rid = /<p:sldId [^>]*r:id="([^"]+)"/.exec(read('ppt/presentation.xml'))![1];
  const rel = new RegExp(`<Relationship [^>]*Id="${rid}"[^>]*>`).exec(rels)![0];
  const slide = /Target="([^"]+)"/.exec(rel)![1].split('/').at(-1)!;
  for (const f of files.filter((f) => /^ppt\/notesSlides\/_rels\/notesSlide\d+\.xml\.rels$/.test(f))) {
    if (!new RegExp(`Target="[^"]*/slides/${slide}"`).test(read(f))) continue;
    const notes = read(f.replace('_rels/', '').replace(/\.rels$/, ''));
    return [...notes.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((m) => m[1]).join('|');
  }
  return undefined;
}

/** The notes page of a pptx in twips (presentation.xml p:notesSz, EMU: 635 EMU a twip). */
function notesPageTwips(bytes: Buffer): { width: number; height: number } {
  const sz = /<p:notesSz cx="(\d+)" cy="(\d+)"/.exec(zipText(bytes)('ppt/presentation.xml'))!;
  return { width: Math.round(Number(sz[1]) / 635), height: Math.round(Number(sz[2]) / 635) };
}

/**
 * The share of non-white pixels in a page region given in fractions of the document's page (`.ode-sizer`, the page
 * at the zoom), from a screenshot of the browser page (pngjs): what the tiles painted there.
 */
async function inkIn(
  doc: OpenedTask,
  region: { x0: number; y0: number; x1: number; y1: number },
  pageTwips: { width: number; height: number },
): Promise<number> {
  const [a, b] = await Promise.all(
    [
      [region.x0, region.y0],
      [region.x1, region.y1],
    ].map(([fx, fy]) =>
      doc.frame.locator('.ode-doc').evaluate(clientPoint, [fx * pageTwips.width, fy * pageTwips.height, pageTwips.width] as [number, number, number]),
    ),
  );
  const shot = PNG.sync.read(await doc.page.screenshot({ clip: { x: a.x, y: a.y, width: Math.max(1, b.x - a.x), height: Math.max(1, b.y - a.y) } }));
  let ink = 0;
  for (let i = 0; i < shot.data.length; i += 4) if (shot.data[i] < 200 || shot.data[i + 1] < 200 || shot.data[i + 2] < 200) ink++;
  return ink / (shot.width * shot.height);
}

/**
 * layouts.pptx (corpus; its notes page is 6858000 x 9144000 EMU, portrait, and notesMaster1.xml's body placeholder
 * spans 10-90 % of its width and 47.5-92.5 % of its height, read by hand; slide 1 has no notes): View > Notes shows
 * the notes page, a click into its notes placeholder and typing puts the text into the stored pptx's notes of slide
 * 1, while a second user's normal view keeps showing the slide.
 */
describe('presentation: speaker notes in View > Notes', () => {
  let doc: OpenedTask;
  let other: OpenedTask | undefined;
  const PPTX = corpus('presentations/layouts.pptx');
  const NOTES = notesPageTwips(PPTX);
  const menu = async (d: OpenedTask, title: string, item: string) => {
    await d.frame.getByRole('menubar').getByRole('menuitem', { name: title, exact: true }).click();
    const open = d.frame.getByRole('menubar').locator('[role=menu]').last();
    await open
      .getByRole('menuitemcheckbox', { name: item, exact: true })
      .or(open.getByRole('menuitem', { name: item, exact: true }))
      .first()
      .click();
  };
  /** The page's shape in the view: the sizer is the page at the zoom (plus a 40 px margin below). */
  const portrait = (d: OpenedTask) =>
    d.frame
      .locator('.ode-sizer')
      .evaluate((s: { style: { width: string; height: string } }) => Number.parseFloat(s.style.height) - 40 > Number.parseFloat(s.style.width));

  beforeAll(async () => {
    expect(firstSlideNotes(PPTX)).toBeUndefined();
    doc = await env.open('notes.pptx', PPTX, { viewport: { width: 1280, height: 800 } });
  }, 120_000);
  afterAll(async () => {
    await other?.close();
  });

  it('View > Notes paints the notes page; a click into the notes and typing is in the stored notes of slide 1; a normal view beside it keeps the slide', async () => {
    // Starting point (a retry finds the view as the failed try left it): slide 1, normal view.
    await doc.page.keyboard.press('Escape');
    if (await portrait(doc)) await menu(doc, 'View', 'Normal');
    await poll(() => portrait(doc), 30_000).toBe(false);
    const slides = doc.frame.getByRole('listbox', { name: 'Slides' }).getByRole('option');
    await slides.nth(0).click();
    await poll(() => slides.nth(0).getAttribute('aria-selected')).toBe('true');
    // A second user on the same document, in the normal view.
    other ??= await openAgain(env, doc, { userId: 'bob', userName: 'Bob' });
    await poll(() => portrait(other!), 30_000).toBe(false);
    // Bob's page opened in front: the keys of this test go to the first user's page.
    await doc.page.bringToFront();

    await menu(doc, 'View', 'Notes');
    await poll(() => portrait(doc), 30_000).toBe(true);
    // The whole notes page is fitted into the window, as the slide was (the user did not zoom).
    const fitted = async () => {
      const [h, box] = await doc.frame
        .locator('.ode-doc')
        .evaluate((d: { clientHeight: number; querySelector(s: string): { style: { height: string } } }) => [
          Number.parseFloat(d.querySelector('.ode-sizer').style.height) - 40,
          d.clientHeight,
        ]);
      return h <= box;
    };
    await poll(fitted, 30_000).toBe(true);
    // The empty notes placeholder (from 47.5 % of the page's height) is painted: LibreOffice's "Click to add Notes"
    // at its top. Tiles of the slide view at the notes page's coordinates (the earlier defect) leave that white: the
    // 4:3 slide ends at 56 % of the portrait page, and slide 1 has nothing in its lowest third.
    await poll(() => inkIn(doc, { x0: 0.1, y0: 0.47, x1: 0.6, y1: 0.56 }, NOTES), 60_000)
      .toBeGreaterThan(0.005)
      .catch(async (e: Error) => {
        await doc.page.screenshot({ path: 'test/artifacts/editor-tasks-presentation-notes-failed.png' });
        throw e;
      });
    // The slide's picture is above it (its frame and title), inside 5-45 % of the height.
    expect(await inkIn(doc, { x0: 0.1, y0: 0.05, x1: 0.9, y1: 0.45 }, NOTES)).toBeGreaterThan(0.002);
    const otherSlide = await other.frame.locator('.ode-sizer').evaluate((s: { style: { width: string } }) => s.style.width);

    const marker = `Speaker ${Date.now() % 100_000}`;
    const p = await doc.frame.locator('.ode-doc').evaluate(clientPoint, [NOTES.width * 0.5, NOTES.height * 0.6, NOTES.width] as [number, number, number]);
    await doc.page.mouse.click(p.x, p.y);
    await doc.page.keyboard.type(marker, { delay: 40 });
    // Impress marks the document modified when the text edit ends (Escape), not while typing.
    await doc.page.keyboard.press('Escape');
    await poll(() => doc.frame.locator('.ode-state').textContent(), 30_000)
      .toBe('Unsaved changes')
      .catch(async (e: Error) => {
        await doc.page.screenshot({ path: 'test/artifacts/editor-tasks-presentation-notes-failed.png' });
        throw e;
      });
    await doc.page.keyboard.press('Escape');
    await doc.page.keyboard.press('Control+s');
    await poll(() => firstSlideNotes(doc.stored()) ?? '', 60_000).toContain(marker);
    // The slide itself did not get the text.
    expect(slideTexts(doc.stored())[0]).not.toContain(marker);
    await doc.page.screenshot({ path: 'test/artifacts/editor-tasks-presentation-notes.png' });

    // The other user's view stayed on the landscape slide, same size, its slide painted (the title in the middle).
    expect(await portrait(other)).toBe(false);
    expect(await other.frame.locator('.ode-sizer').evaluate((s: { style: { width: string } }) => s.style.width)).toBe(otherSlide);
    const SLIDE = { width: 9144000 / 635, height: 6858000 / 635 };
    await poll(() => inkIn(other!, { x0: 0.1, y0: 0.3, x1: 0.9, y1: 0.7 }, SLIDE), 30_000).toBeGreaterThan(0.002);
    // And the notes user goes back to the slide.
    await menu(doc, 'View', 'Normal');
    await poll(() => portrait(doc), 30_000).toBe(false);
    await poll(() => inkIn(doc, { x0: 0.1, y0: 0.3, x1: 0.9, y1: 0.7 }, SLIDE), 30_000).toBeGreaterThan(0.002);
  }, 300_000);
});
