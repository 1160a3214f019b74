/**
 * Probe (issue 16, speaker notes): what LibreOffice 25.2 does under LibreOfficeKit after `.uno:NotesMode`: the
 * view's edit mode (getEditMode), the invalidations it sends, what paintTile and paintPartTile paint with each
 * mode, and whether a click into the notes placeholder and typing edit the notes. Not a test: run it by hand,
 * `npx tsx test/kit-editing/notes-probe.ts [--e] [--ext] [--thumb | --same | --paintTile]`, and read what it prints; tiles
 * are written as PNG to the printed folder. Between the two halves of the typing ("Probe", " notes") it paints:
 * `--thumb` another slide in mode 0 (a thumbnail), `--same` this slide in mode 0, `--paintTile` the notes page with
 * paintTile; `--e` paints this slide in mode 0 before the click; `--ext` types as committed text input of window 0
 * (postWindowExtTextInputEvent) instead of keys.
 *
 * Seen with LibreOffice 25.2.3 (26 Nov, layouts.pptx): after `.uno:NotesMode` getEditMode() is 2, getPartInfo says
 * `"mode": "2"`, the size is the notes page (10801 x 14401 twips), INVALIDATE_TILES payloads end in `, 2`. paintTile
 * in the view paints the notes page; paintPartTile(part, 0) paints the slide. The click and "Probe" edit the notes;
 * after a `--thumb` or `--same` paint " notes" is lost (notesSlide1.xml has "Probe"), after `--paintTile` it is kept
 * ("Probe notes"). With `--ext` nothing reaches the notes (the slide's notes part is not even written).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';
import {
  LOK_EXT_TEXTINPUT,
  LOK_EXT_TEXTINPUT_END,
  LOK_FEATURE_NO_TILED_ANNOTATIONS,
  LOK_FEATURE_PART_IN_INVALIDATION_CALLBACK,
  LOK_KEYEVENT_KEYINPUT,
  LOK_KEYEVENT_KEYUP,
  LOK_MOUSEEVENT_MOUSEBUTTONDOWN,
  LOK_MOUSEEVENT_MOUSEBUTTONUP,
  Office,
  type LokDocument,
} from '../../daemon/native/index.ts';

const PPTX = '/work/shared/corpus/presentations/layouts.pptx';
const work = mkdtempSync(join(tmpdir(), 'ode-notes-probe-'));
const office = Office.init({ profileUrl: pathToFileURL(join(work, 'profile')).href });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const keepAlive = setInterval(() => undefined, 1000);
const T0 = Date.now();
const log = (...a: unknown[]) => console.log(`${String(Date.now() - T0).padStart(6)} ms`, ...a);

async function png(doc: LokDocument, name: string, paint: () => Promise<Buffer>, w: number, h: number): Promise<string> {
  const bgra = await paint();
  const p = new PNG({ width: w, height: h });
  for (let i = 0; i < w * h; i++) {
    p.data[i * 4] = bgra[i * 4 + 2];
    p.data[i * 4 + 1] = bgra[i * 4 + 1];
    p.data[i * 4 + 2] = bgra[i * 4];
    p.data[i * 4 + 3] = bgra[i * 4 + 3];
  }
  const file = join(work, `${name}.png`);
  writeFileSync(file, PNG.sync.write(p));
  let sum = 0;
  for (let i = 0; i < bgra.length; i += 97) sum = (sum * 31 + bgra[i]) >>> 0;
  void doc;
  return `${file} hash ${sum}`;
}

async function main(): Promise<void> {
  const input = join(work, 'deck.pptx');
  copyFileSync(PPTX, input);
  office.setOptionalFeatures(LOK_FEATURE_PART_IN_INVALIDATION_CALLBACK | LOK_FEATURE_NO_TILED_ANNOTATIONS);
  const doc = await office.documentLoad(pathToFileURL(input).href, { options: 'Language=en-US,Batch=true' });
  doc.initializeForRendering('{}');
  const v0 = doc.getView();
  const watched = new Set([0, 1, 6, 8, 13, 14]);
  doc.registerCallback((type, payload) => {
    if (!watched.has(type)) return;
    if (type === 8 && !/NotesMode|ModifiedStatus|NormalMultiPane|PageMode|EditMode/i.test(payload)) return;
    log('cb', type, payload.slice(0, 160));
  });
  const size = () => JSON.stringify(doc.getDocumentSize());
  log('view', v0, 'part', doc.getPart(), 'size', size(), 'editMode', doc.getEditMode());
  const slide = doc.getDocumentSize();
  await sleep(800);
  log('--- .uno:NotesMode');
  doc.postUnoCommand('.uno:NotesMode', undefined, true);
  await sleep(2500);
  const notes = doc.getDocumentSize();
  log('after NotesMode: part', doc.getPart(), 'size', size(), 'editMode', doc.getEditMode(), 'partInfo', doc.getPartInfo(0));
  const W = 256;
  const H = Math.round((W * notes.height) / notes.width);
  const whole = { canvasWidth: W, canvasHeight: H, tilePosX: 0, tilePosY: 0, tileWidth: notes.width, tileHeight: notes.height };
  log('paintTile (current view)', await png(doc, 'paintTile', () => doc.paintTile(whole), W, H));
  log('editMode now', doc.getEditMode());
  const editMode = 0;
  if (process.argv.includes('--e'))
    log(
      `paintPartTile(part 0, editMode ${editMode})`,
      await png(doc, `paintPartTile-e${editMode}`, () => doc.paintPartTile({ ...whole, part: 0, editMode }), W, H),
    );
  log('editMode now', doc.getEditMode(), 'size', size());
  log('paintTile again', await png(doc, 'paintTile-again', () => doc.paintTile(whole), W, H));
  void slide;
  // Click into the notes placeholder (50 %, 70 % of the page) and type.
  const x = Math.round(notes.width * 0.5);
  const y = Math.round(notes.height * 0.7);
  log('--- click', x, y);
  doc.postMouseEvent(LOK_MOUSEEVENT_MOUSEBUTTONDOWN, x, y, 1, 1, 0);
  doc.postMouseEvent(LOK_MOUSEEVENT_MOUSEBUTTONUP, x, y, 1, 1, 0);
  await sleep(1000);
  const type = async (text: string) => {
    if (process.argv.includes('--ext')) {
      doc.postWindowExtTextInputEvent(0, LOK_EXT_TEXTINPUT, text);
      doc.postWindowExtTextInputEvent(0, LOK_EXT_TEXTINPUT_END, text);
      await sleep(1000);
      return;
    }
    for (const ch of text) {
      doc.postKeyEvent(LOK_KEYEVENT_KEYINPUT, ch.charCodeAt(0), 0);
      doc.postKeyEvent(LOK_KEYEVENT_KEYUP, ch.charCodeAt(0), 0);
    }
    await sleep(1000);
  };
  await type('Probe');
  // What a thumbnail (another slide, mode 0) and a slide-mode tile of this slide, painted meanwhile, do to the edit.
  const thumb = { canvasWidth: 64, canvasHeight: 48, tilePosX: 0, tilePosY: 0, tileWidth: slide.width, tileHeight: slide.height };
  if (process.argv.includes('--thumb'))
    log('thumbnail of part 1', await png(doc, 'thumb1', () => doc.paintPartTile({ ...thumb, part: 1, editMode: 0 }), 64, 48));
  if (process.argv.includes('--same'))
    log('slide tile of part 0', await png(doc, 'thumb0', () => doc.paintPartTile({ ...thumb, part: 0, editMode: 0 }), 64, 48));
  if (process.argv.includes('--paintTile')) log('paintTile in notes edit', await png(doc, 'pt', () => doc.paintTile(whole), W, H));
  log('editMode now', doc.getEditMode());
  await type(' notes');
  log('editMode now', doc.getEditMode());
  log('paintTile after typing', await png(doc, 'paintTile-typed', () => doc.paintTile(whole), W, H));
  doc.postKeyEvent(LOK_KEYEVENT_KEYINPUT, 0, 1281); // Escape
  doc.postKeyEvent(LOK_KEYEVENT_KEYUP, 0, 1281);
  await sleep(800);
  const out = join(work, 'out.pptx');
  await doc.saveAs(pathToFileURL(out).href, 'pptx');
  const list = execFileSync('unzip', ['-l', out])
    .toString()
    .split('\n')
    .filter((l) => /notesSlide\d/.test(l));
  log('notesSlides', list.length);
  for (const l of list.slice(0, 3)) {
    const name = l.trim().split(/\s+/).pop() ?? '';
    const xml = execFileSync('unzip', ['-p', out, name]).toString();
    log(name, [...xml.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((m) => m[1]).join('|'));
  }
  doc.destroy();
  office.destroy();
  clearInterval(keepAlive);
  console.log('folder', work);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
