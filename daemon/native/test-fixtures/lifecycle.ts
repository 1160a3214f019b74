/**
 * Fixture: state guards and shutdown. Args: <scenario>:
 *   busy        destroy() while saveAs / documentLoad / paintTile is in flight -> `busy`; then clean shutdown
 *   second-init Office.init twice -> `already_initialized`
 *   exit-alive  process.exit(0) with a document and the office still open (the exit hook destroys them)
 *   exit-process office.exitProcess(3) with a document open
 *   bad-json    postUnoCommand / initializeForRendering with invalid JSON -> `invalid_argument`
 *   views       createView / setView / getViewsCount / destroyView, per-view callbacks
 *   throwing    a callback listener that throws surfaces as an uncaught exception; LibreOffice carries on
 *   editing     selection, clipboard, paste, parts, page rectangles, paintPartTile
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { LOK_CALLBACK_INVALIDATE_TILES, LOK_KEYEVENT_KEYINPUT, Office } from '../index.ts';
import { codeOf, codeOfAsync, copyToWork, emit, errorInfo, fixtureArgs, waitFor } from './fixture-env.ts';

const { workDir, profileUrl, args } = fixtureArgs();
const scenario = args[0];
const office = Office.init({ profileUrl });
const docx = 'content-controls/ContentControls.docx';

if (scenario === 'busy') {
  const doc = await office.documentLoad(copyToWork(workDir, docx, 'a.docx'), { options: 'Batch=true' });
  const saving = doc.saveAs(pathToFileURL(join(workDir, 'a.pdf')).href, 'pdf');
  const duringSave = codeOf(() => doc.destroy());
  const officeDuringSave = codeOf(() => office.destroy());
  const callDuringSave = codeOf(() => doc.getParts());
  await saving;
  const painting = doc.paintTile({ canvasWidth: 64, canvasHeight: 64, tilePosX: 0, tilePosY: 0, tileWidth: 1440, tileHeight: 1440 });
  const duringPaint = codeOf(() => doc.destroy());
  await painting;
  const afterAwait = codeOf(() => doc.destroy());
  const loading = office.documentLoad(copyToWork(workDir, docx, 'b.docx'), { options: 'Batch=true' });
  const officeDuringLoad = codeOf(() => office.destroy());
  const sameUrl = await office.documentLoad(pathToFileURL(join(workDir, 'b.docx')).href).then(
    (d) => {
      d.destroy();
      return 'loaded';
    },
    (err) => errorInfo(err).code,
  );
  const second = await loading;
  office.destroy(); // destroys `second` too
  const secondAfterOfficeDestroy = codeOf(() => second.getParts());
  emit({ duringSave, officeDuringSave, callDuringSave, duringPaint, afterAwait, officeDuringLoad, sameUrl, secondAfterOfficeDestroy });
} else if (scenario === 'second-init') {
  const again = codeOf(() => Office.init({ profileUrl }));
  office.destroy();
  const afterDestroy = codeOf(() => Office.init({ profileUrl }));
  emit({ again, afterDestroy });
} else if (scenario === 'exit-alive') {
  await office.documentLoad(copyToWork(workDir, docx, 'c.docx'), { options: 'Batch=true' });
  emit({ exiting: true });
  process.exit(0);
} else if (scenario === 'exit-process') {
  await office.documentLoad(copyToWork(workDir, docx, 'c2.docx'), { options: 'Batch=true' });
  emit({ exiting: true });
  office.exitProcess(3);
} else if (scenario === 'bad-json') {
  const doc = await office.documentLoad(copyToWork(workDir, docx, 'd.docx'), { options: 'Batch=true' });
  const uno = codeOf(() => doc.postUnoCommand('.uno:Bold', '{not json'));
  const render = codeOf(() => doc.initializeForRendering('nope'));
  const paint = await codeOfAsync(doc.paintTile({ canvasWidth: 0, canvasHeight: 10, tilePosX: 0, tilePosY: 0, tileWidth: 10, tileHeight: 10 }));
  const url = await codeOfAsync(office.documentLoad('/not/a/url'));
  doc.destroy();
  office.destroy();
  emit({ uno, render, paint, url });
} else if (scenario === 'views') {
  const doc = await office.documentLoad(copyToWork(workDir, docx, 'e.docx'), { options: 'Batch=true' });
  doc.initializeForRendering();
  const first = doc.getView();
  const firstEvents: number[] = [];
  doc.registerCallback((type) => firstEvents.push(type));
  const second = doc.createView();
  const secondEvents: number[] = [];
  doc.registerCallback((type) => secondEvents.push(type));
  const count = doc.getViewsCount();
  doc.setView(second);
  const current = doc.getView();
  secondEvents.length = 0;
  doc.postKeyEvent(LOK_KEYEVENT_KEYINPUT, 'y'.charCodeAt(0), 0);
  await waitFor(() => secondEvents.includes(LOK_CALLBACK_INVALIDATE_TILES), 5000, 'INVALIDATE_TILES on view 2');
  doc.destroyView(second);
  const countAfter = doc.getViewsCount();
  doc.destroy();
  office.destroy();
  emit({ first, second, count, current, countAfter, firstGotEvents: firstEvents.length > 0, secondGotInvalidate: true });
} else if (scenario === 'throwing') {
  const uncaught: string[] = [];
  process.on('uncaughtException', (err) => uncaught.push(err.message));
  const doc = await office.documentLoad(copyToWork(workDir, docx, 'f.docx'), { options: 'Batch=true' });
  doc.initializeForRendering();
  let calls = 0;
  doc.registerCallback(() => {
    calls++;
    throw new Error('listener failed');
  });
  doc.postKeyEvent(LOK_KEYEVENT_KEYINPUT, 'z'.charCodeAt(0), 0);
  await waitFor(() => uncaught.length > 0, 5000, 'the uncaught listener error');
  await new Promise((r) => setTimeout(r, 100));
  const partsAfter = doc.getParts();
  doc.destroy();
  office.destroy();
  emit({ uncaughtFirst: uncaught[0], callsAtLeast: calls, partsAfter });
} else if (scenario === 'editing') {
  const doc = await office.documentLoad(copyToWork(workDir, docx, 'g.docx'), { options: 'Batch=true' });
  doc.initializeForRendering();
  const unoResults: string[] = [];
  doc.registerCallback((type, payload) => {
    if (type === 16) unoResults.push(payload); // LOK_CALLBACK_UNO_COMMAND_RESULT
  });
  doc.postUnoCommand('.uno:SelectAll', undefined, true);
  await waitFor(() => unoResults.some((p) => p.includes('.uno:SelectAll')), 5000, 'SelectAll result');
  const selection = doc.getTextSelection('text/plain;charset=utf-8');
  doc.postUnoCommand('.uno:Copy', undefined, true);
  await waitFor(() => unoResults.some((p) => p.includes('.uno:Copy')), 5000, 'Copy result');
  const copied = doc.getClipboard(['text/plain;charset=utf-8']);
  doc.setClipboard([{ mimeType: 'text/plain;charset=utf-8', data: Buffer.from('from the clipboard') }]);
  const roundTrip = doc.getClipboard(['text/plain;charset=utf-8']);
  doc.resetSelection();
  const pasted = doc.paste('text/plain;charset=utf-8', Buffer.from('PASTED-TEXT'));
  doc.postUnoCommand('.uno:SelectAll', undefined, true);
  unoResults.length = 0;
  await waitFor(() => unoResults.some((p) => p.includes('.uno:SelectAll')), 5000, 'second SelectAll');
  const after = doc.getTextSelection('text/plain;charset=utf-8').text;
  const partTile = await doc.paintPartTile({ part: 0, canvasWidth: 128, canvasHeight: 64, tilePosX: 0, tilePosY: 0, tileWidth: 2880, tileHeight: 1440 });
  emit({
    selection: { length: selection.text.length, usedMimeType: selection.usedMimeType },
    copiedText: copied.map((c) => ({ mimeType: c.mimeType, text: c.data.toString('utf8').slice(0, 40) })),
    roundTrip: roundTrip.map((c) => c.data.toString('utf8')),
    pasted,
    afterContainsPaste: after.includes('PASTED-TEXT'),
    partName: doc.getPartName(0),
    rectangles: doc.getPartPageRectangles(),
    partTileLength: partTile.length,
  });
  doc.destroy();
  office.destroy();
} else {
  office.destroy();
  throw new Error(`unknown scenario ${scenario}`);
}
