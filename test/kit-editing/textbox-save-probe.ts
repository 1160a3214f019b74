/**
 * Probe (issue 16, "a text box being edited is part of the save"): does LibreOffice 25.2 under LibreOfficeKit put
 * the text of a text box still being edited into the file that `.uno:Save` (DontTerminateEdit false) writes? Not a
 * test: run it by hand, `npx tsx test/kit-editing/textbox-save-probe.ts [docx|odp] [--escape]`, and read what it
 * prints. Writer: `.uno:DrawText` (LibreOffice puts the box in at once under LOK), Enter starts its text edit,
 * typing; Impress: `.uno:Text` CreateDirectly. Then `.uno:Save` in place; the stored file's box text is printed, and
 * whether the view is still in text edit (graphic selection / cursor callbacks). `--escape` presses Escape first.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LOK_KEYEVENT_KEYINPUT, LOK_KEYEVENT_KEYUP, Office } from '../../daemon/native/index.ts';

const kind = process.argv[2] === 'odp' ? 'odp' : 'docx';
const SRC = kind === 'odp' ? '/work/shared/corpus/presentations/Presentation1.odp' : '/work/shared/corpus/properties/documentProperties.docx';
const work = mkdtempSync(join(tmpdir(), 'ode-textbox-probe-'));
const office = Office.init({ profileUrl: pathToFileURL(join(work, 'profile')).href });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const keepAlive = setInterval(() => undefined, 1000);
const T0 = Date.now();
const log = (...a: unknown[]) => console.log(`${String(Date.now() - T0).padStart(6)} ms`, ...a);

async function main(): Promise<void> {
  const input = join(work, `in.${kind}`);
  copyFileSync(SRC, input);
  const doc = await office.documentLoad(pathToFileURL(input).href, { options: 'Language=en-US,Batch=true' });
  doc.initializeForRendering('{}');
  doc.setClientVisibleArea(0, 0, 20000, 12000);
  let saved: (v: string) => void = () => undefined;
  const done = new Promise<string>((r) => (saved = r));
  doc.registerCallback((type, payload) => {
    if (type === 6) log('graphic selection', payload.slice(0, 80));
    if (type === 5) log('cursor visible', payload);
    if (type === 16 && payload.includes('.uno:Save')) saved(payload);
  });
  await sleep(1000);
  if (kind === 'odp') doc.postUnoCommand('.uno:Text', JSON.stringify({ CreateDirectly: { type: 'boolean', value: true } }));
  else doc.postUnoCommand('.uno:DrawText');
  await sleep(1500);
  if (kind === 'docx') {
    doc.postKeyEvent(LOK_KEYEVENT_KEYINPUT, 13, 1280);
    doc.postKeyEvent(LOK_KEYEVENT_KEYUP, 13, 1280);
    await sleep(800);
  }
  for (const ch of 'Boxed words') {
    doc.postKeyEvent(LOK_KEYEVENT_KEYINPUT, ch.charCodeAt(0), ch === ' ' ? 1284 : 0);
    doc.postKeyEvent(LOK_KEYEVENT_KEYUP, ch.charCodeAt(0), ch === ' ' ? 1284 : 0);
  }
  await sleep(1500);
  if (process.argv.includes('--escape')) {
    doc.postKeyEvent(LOK_KEYEVENT_KEYINPUT, 0, 1281);
    doc.postKeyEvent(LOK_KEYEVENT_KEYUP, 0, 1281);
    await sleep(800);
  }
  log('--- .uno:Save DontTerminateEdit=false');
  const args = { DontTerminateEdit: { type: 'boolean', value: 'false' }, DontSaveIfUnmodified: { type: 'boolean', value: 'false' } };
  doc.postUnoCommand('.uno:Save', JSON.stringify(args), true);
  log('save result', await done);
  await sleep(500);
  const part = kind === 'odp' ? 'content.xml' : 'word/document.xml';
  const xml = execFileSync('unzip', ['-p', input, part]).toString();
  log('stored file has "Boxed words":', xml.includes('Boxed words'));
  // Typing more: still in the box?
  for (const ch of 'X') {
    doc.postKeyEvent(LOK_KEYEVENT_KEYINPUT, ch.charCodeAt(0), 0);
    doc.postKeyEvent(LOK_KEYEVENT_KEYUP, ch.charCodeAt(0), 0);
  }
  await sleep(1000);
  const out = join(work, `out.${kind}`);
  await doc.saveAs(pathToFileURL(out).href, kind);
  const xml2 = execFileSync('unzip', ['-p', out, part]).toString();
  log('after one more key: "Boxed wordsX" in a later copy:', xml2.includes('Boxed wordsX'));
  doc.destroy();
  office.destroy();
  clearInterval(keepAlive);
  console.log('folder', work);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
