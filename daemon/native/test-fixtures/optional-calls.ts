/**
 * Fixture: the LibreOfficeKit calls newer than 7.4 (optional calls, found by class size). Args: <scenario>:
 *   office    optionalCalls, extractRequest, extractDocumentStructureRequest, trimMemory, setOption
 *   views     two views of a text document: setViewReadOnly, setAllowChangeComments, setViewTimezone,
 *             setViewOption, sendContentControlEvent
 *   slides    a presentation: paintPartTile with editMode 0/1, getEditMode, the slide renderer
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { LOK_CALLBACK_COMMENT, LOK_KEYEVENT_KEYINPUT, LOK_KEYEVENT_KEYUP, Office, type LokDocument } from '../index.ts';
import { codeOf, codeOfAsync, copyToWork, emit, fixtureArgs, settle, waitFor } from './fixture-env.ts';

const { workDir, profileUrl, args } = fixtureArgs();
const scenario = args[0];
const office = Office.init({ profileUrl });

/** The document's text, through LibreOffice's own plain-text export. */
async function textOf(doc: LokDocument, name: string): Promise<string> {
  const path = join(workDir, `${name}.txt`);
  await doc.saveAs(pathToFileURL(path).href, 'txt');
  return readFileSync(path, 'utf8');
}

function typeText(doc: LokDocument, text: string): void {
  for (const ch of text) {
    doc.postKeyEvent(LOK_KEYEVENT_KEYINPUT, ch.charCodeAt(0), 0);
    doc.postKeyEvent(LOK_KEYEVENT_KEYUP, ch.charCodeAt(0), 0);
  }
}

function commentCount(doc: LokDocument): number {
  const json = doc.getCommandValues('.uno:ViewAnnotations');
  if (json === null) return -1;
  return (JSON.parse(json) as { comments: unknown[] }).comments.length;
}

if (scenario === 'office') {
  const officeCalls = office.optionalCalls();
  const t0 = performance.now();
  const targets = await office.extractRequest(copyToWork(workDir, 'legacy/testWORD_various.doc'));
  const extractMs = performance.now() - t0;
  const t1 = performance.now();
  const controls = await office.extractDocumentStructureRequest(copyToWork(workDir, 'content-controls/ContentControls.docx'), 'contentcontrol');
  const structureMs = performance.now() - t1;
  const charts = await office.extractDocumentStructureRequest(copyToWork(workDir, 'charts/61745.docx'), 'charts');
  const all = await office.extractDocumentStructureRequest(copyToWork(workDir, 'properties/testWORD_custom_props.docx'), '');
  const encrypted = await codeOfAsync(office.extractRequest(copyToWork(workDir, 'broken/encrypted-with-pwd_hello.odt')));
  const missing = await codeOfAsync(office.extractRequest(pathToFileURL(join(workDir, 'missing.docx')).href));
  const notUrl = await codeOfAsync(office.extractRequest('/tmp/x.docx'));
  const trim = codeOf(() => {
    office.trimMemory(0);
    office.trimMemory(4000);
  });
  const trimBad = codeOf(() => office.trimMemory(-1));
  const setOption = codeOf(() => office.setOption('profilezonerecording', 'false'));
  // The office still loads and converts after all of that.
  const doc = await office.documentLoad(copyToWork(workDir, 'content-controls/ContentControls.docx', 'after.docx'), { options: 'Batch=true' });
  const textAfter = await textOf(doc, 'after');
  doc.destroy();
  office.destroy();
  emit({ officeCalls, targets, extractMs, controls, structureMs, charts, all, encrypted, missing, notUrl, trim, trimBad, setOption, textAfter });
} else if (scenario === 'views') {
  const doc = await office.documentLoad(copyToWork(workDir, 'broken/empty.docx', 'views.docx'), { options: 'Batch=true' });
  const documentCalls = doc.optionalCalls();
  doc.initializeForRendering();
  const writer = doc.getView();
  const reader = doc.createView();
  const commenter = doc.createView();
  const comments: Record<number, string[]> = { [writer]: [], [reader]: [], [commenter]: [] };
  for (const view of [writer, reader, commenter]) {
    doc.setView(view);
    doc.registerCallback((type, payload) => {
      if (type === LOK_CALLBACK_COMMENT) comments[view].push(payload);
    });
  }
  doc.setViewReadOnly(reader, true);
  doc.setViewReadOnly(commenter, true);
  doc.setAllowChangeComments(commenter, true);

  doc.setView(writer);
  typeText(doc, 'W1');
  await settle(doc);
  doc.setView(reader);
  typeText(doc, 'R2');
  await settle(doc);
  doc.setView(commenter);
  typeText(doc, 'C3');
  await settle(doc);
  const textAfterTyping = (await textOf(doc, 'typed')).trim();

  const insertComment = (view: number, text: string) => {
    doc.setView(view);
    doc.postUnoCommand('.uno:InsertAnnotation', JSON.stringify({ Text: { type: 'string', value: text } }));
  };
  insertComment(reader, 'from the reader');
  await settle(doc);
  insertComment(commenter, 'from the commenter');
  await settle(doc);
  insertComment(writer, 'from the writer');
  await settle(doc);
  const commentsInDocument = commentCount(doc);
  const annotations = doc.getCommandValues('.uno:ViewAnnotations');

  // Read-only lifted again: the reader types.
  doc.setViewReadOnly(reader, false);
  doc.setView(reader);
  typeText(doc, 'R4');
  await settle(doc);
  const textAfterLift = (await textOf(doc, 'lifted')).trim();

  const timezone = codeOf(() => doc.setViewTimezone(writer, 'Pacific/Kiritimati'));
  const timezoneBad = codeOf(() => doc.setViewTimezone(writer, 'Europe/Paris; rm -rf'));
  const viewOption = codeOf(() => doc.setViewOption('ColorSchemeName', 'Dark'));
  const contentControlBad = codeOf(() => doc.sendContentControlEvent('{not json'));
  doc.setView(writer);
  const contentControl = codeOf(() => doc.sendContentControlEvent(JSON.stringify({ type: 'drop-down', selected: '0' })));
  const editMode = doc.getEditMode();
  doc.destroy();
  office.destroy();
  emit({
    documentCalls,
    textAfterTyping,
    textAfterLift,
    commentsInDocument,
    annotations,
    commentCallbacks: Object.fromEntries(Object.entries(comments).map(([k, v]) => [k, v.length])),
    views: { writer, reader, commenter },
    timezone,
    timezoneBad,
    viewOption,
    contentControlBad,
    contentControl,
    editMode,
  });
} else if (scenario === 'slides') {
  const doc = await office.documentLoad(copyToWork(workDir, 'presentations/layouts.pptx'), { options: 'Batch=true' });
  doc.initializeForRendering();
  const size = doc.getDocumentSize();
  const tile = { part: 0, canvasWidth: 128, canvasHeight: 72, tilePosX: 0, tilePosY: 0, tileWidth: size.width, tileHeight: size.height };
  const normal = await doc.paintPartTile({ ...tile, editMode: 0 });
  const master = await doc.paintPartTile({ ...tile, editMode: 1 });
  const normalAgain = await doc.paintPartTile(tile);
  const editMode = doc.getEditMode();
  const info = JSON.parse(doc.getPresentationInfo()) as Record<string, unknown>;
  const rendererSize = doc.createSlideRenderer(0, 640, 640, true, true);
  const layers: Array<{ done: boolean; isBitmapLayer: boolean; message: string | null; pixelBytes: number; painted: number }> = [];
  for (let i = 0; i < 50; i++) {
    const layer = doc.renderNextSlideLayer();
    let painted = 0;
    if (layer.pixels) for (let p = 3; p < layer.pixels.length; p += 4) if (layer.pixels[p] !== 0) painted++;
    layers.push({ done: layer.done, isBitmapLayer: layer.isBitmapLayer, message: layer.message, pixelBytes: layer.pixels?.length ?? 0, painted });
    if (layer.done) break;
  }
  doc.postSlideshowCleanup();
  const afterCleanup = codeOf(() => doc.renderNextSlideLayer());
  const badSlide = codeOf(() => doc.createSlideRenderer(999, 640, 480));
  doc.destroy();
  office.destroy();
  emit({
    normalEqualsDefault: normal.equals(normalAgain),
    masterDiffers: !normal.equals(master),
    tileBytes: normal.length,
    editMode,
    infoKeys: Object.keys(info),
    slideCount: Array.isArray(info.slides) ? info.slides.length : -1,
    rendererSize,
    layers,
    afterCleanup,
    badSlide,
  });
} else {
  office.destroy();
  throw new Error(`unknown scenario ${scenario}`);
}
await waitFor(() => true, 1, 'nothing');
