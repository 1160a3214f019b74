/**
 * Fixture: init, getVersionInfo, getFilterTypes, load a docx, saveAs pdf, paintTile, a key event's
 * INVALIDATE_TILES callback, and the `destroyed` guards. Args: <corpus docx>.
 */
import { LOK_CALLBACK_INVALIDATE_TILES, LOK_KEYEVENT_KEYINPUT, LOK_KEYEVENT_KEYUP, Office } from '../index.ts';
import { copyToWork, emit, errorInfo, fixtureArgs, waitFor } from './fixture-env.ts';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { workDir, profileUrl, args } = fixtureArgs();
const t0 = performance.now();
const office = Office.init({ profileUrl });
const initMs = performance.now() - t0;
const version = office.getVersionInfo();
const filterTypes = office.getFilterTypes();
const officeEvents: number[] = [];
office.registerCallback((type) => officeEvents.push(type));

const doc = await office.documentLoad(copyToWork(workDir, args[0] ?? 'content-controls/ContentControls.docx', 'doc.docx'), {
  options: 'Language=en-US,Batch=true',
});
const docType = doc.getDocumentType();
const parts = doc.getParts();
const size = doc.getDocumentSize();

const pdfPath = join(workDir, 'out.pdf');
await doc.saveAs(pathToFileURL(pdfPath).href, 'pdf');

doc.initializeForRendering();
const events: Array<{ type: number; payload: string }> = [];
doc.registerCallback((type, payload) => events.push({ type, payload }));
// One tile showing the top-left 6 x 6 inches of the first page (1440 twips per inch).
const tile = await doc.paintTile({ canvasWidth: 256, canvasHeight: 256, tilePosX: 0, tilePosY: 0, tileWidth: 8640, tileHeight: 8640 });
let nonWhite = 0;
for (let i = 0; i < tile.length; i += 4) {
  if (tile[i] !== 255 || tile[i + 1] !== 255 || tile[i + 2] !== 255) nonWhite++;
}

events.length = 0;
const keyAt = performance.now();
doc.postKeyEvent(LOK_KEYEVENT_KEYINPUT, 'x'.charCodeAt(0), 0);
doc.postKeyEvent(LOK_KEYEVENT_KEYUP, 'x'.charCodeAt(0), 0);
await waitFor(() => events.some((e) => e.type === LOK_CALLBACK_INVALIDATE_TILES), 5000, 'INVALIDATE_TILES');
const invalidateMs = performance.now() - keyAt;
const invalidate = events.find((e) => e.type === LOK_CALLBACK_INVALIDATE_TILES);

const fontNames = doc.getCommandValues('.uno:CharFontName');
const missing = doc.getCommandValues('.uno:ExtractDocumentStructure');

doc.destroy();
doc.destroy(); // idempotent
let afterDocDestroy: ReturnType<typeof errorInfo> | undefined;
try {
  doc.getParts();
} catch (err) {
  afterDocDestroy = errorInfo(err);
}
let asyncAfterDestroy: ReturnType<typeof errorInfo> | undefined;
await doc.paintTile({ canvasWidth: 16, canvasHeight: 16, tilePosX: 0, tilePosY: 0, tileWidth: 100, tileHeight: 100 }).catch((err) => {
  asyncAfterDestroy = errorInfo(err);
});
let invalidArgument: ReturnType<typeof errorInfo> | undefined;
try {
  office.setOptionalFeatures(-1n);
} catch (err) {
  invalidArgument = errorInfo(err);
}

const destroyAt = performance.now();
office.destroy();
const destroyMs = performance.now() - destroyAt;
let afterOfficeDestroy: ReturnType<typeof errorInfo> | undefined;
try {
  office.getVersionInfo();
} catch (err) {
  afterOfficeDestroy = errorInfo(err);
}

emit({
  initMs,
  version,
  filterTypeCount: Object.keys(filterTypes).length,
  docxMediaType: filterTypes['writer_MS_Word_2007']?.MediaType,
  officeEvents,
  docType,
  parts,
  size,
  pdfPath,
  tileLength: tile.length,
  nonWhite,
  invalidateMs,
  invalidatePayload: invalidate?.payload,
  fontNamesIsJson: fontNames !== null && JSON.parse(fontNames) !== null,
  missing,
  afterDocDestroy,
  asyncAfterDestroy,
  invalidArgument,
  destroyMs,
  afterOfficeDestroy,
});
