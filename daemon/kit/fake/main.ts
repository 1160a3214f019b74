/**
 * The fake kit (kit.md, "The fake kit"), as Collabora Online's DummyLibreOfficeKit: a kit process that speaks the
 * editing messages of kit.md without LibreOffice, so the daemon's document lifecycle (download, load, typing,
 * saves and uploads, conflicts, reloads, crashes, the edit journal, drain) is tested in milliseconds. Tests only:
 * the pool starts it instead of daemon/kit/main.ts when createOdeServer is given `fakeKits` (no configuration key
 * or command line reaches it, and the compiled bundle has no fake kit).
 *
 * What it does: `open` keeps the file's bytes (fake-document.ts); typed keys, text input and pastes append to a
 * plain text and call back LOK_CALLBACK_INVALIDATE_TILES and, on the first change, STATE_CHANGED
 * `.uno:ModifiedStatus=true` to every view; `saveDoc` writes the package with the text in FAKE_KIT_TEXT_PART, calls
 * back `.uno:ModifiedStatus=false` and UNO_COMMAND_RESULT; `exportDoc` writes the same bytes whatever the format;
 * tiles are white PNGs of the asked size. Conversions and dialogs are refused. A test steers it through the
 * FakeKitControl file named by ODE_FAKE_KIT_CONTROL (slow open, slow or failing save, crash on save); to crash it
 * at any other moment a test kills its pid.
 */
import { readFileSync, writeFileSync, writeSync } from 'node:fs';
import { PNG } from 'pngjs';
import { FAKE_KIT_CONTROL_ENV, isDaemonToKit, type DaemonToKit, type FakeKitControl } from '../../protocol/kit.ts';
import { LOK_CALLBACK_INVALIDATE_TILES, LOK_CALLBACK_STATE_CHANGED, LOK_CALLBACK_UNO_COMMAND_RESULT } from '../../protocol/lok-enums.ts';
import { FAKE_PAGE_TWIPS, FakeDocument } from './fake-document.ts';
import { answer, send } from '../ipc.ts';

/** The `version` a fake kit reports in `ready` (a real kit reports LibreOffice's ProductVersion). */
const FAKE_VERSION = '25.2.3.0 (fake kit)';

/** The test's wishes (FakeKitControl), read now; nothing when the file is missing or not JSON. */
function control(): FakeKitControl {
  const file = process.env[FAKE_KIT_CONTROL_ENV];
  if (!file) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as FakeKitControl;
  } catch {
    return {};
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An error the daemon turns into an OdeError of this code (kit.md: result `ok: false`). */
function fail(code: string, message: string): never {
  throw Object.assign(new Error(message), { code });
}

let doc: FakeDocument | undefined;
/** Bumped by every change, so a save knows whether input arrived while it was writing. */
let generation = 0;
let stopping = false;

function openDoc(): FakeDocument {
  return doc ?? fail('bad_request', 'no document is open for editing in this kit');
}

/** One callback to every view, as LibreOffice sends document-wide state to each view. */
function toAllViews(callbackType: number, payload: string): void {
  for (const viewId of openDoc().views.keys()) void send({ type: 'callback', viewId, callbackType, payload });
}

/** The document changed: its tiles are stale, and the first change makes it modified. */
function changed(wasModified: boolean): void {
  generation++;
  toAllViews(LOK_CALLBACK_INVALIDATE_TILES, `0, 0, ${FAKE_PAGE_TWIPS.width}, ${FAKE_PAGE_TWIPS.height}, 0, 0`);
  if (!wasModified) toAllViews(LOK_CALLBACK_STATE_CHANGED, '.uno:ModifiedStatus=true');
}

/** A white PNG of `width` x `height` px (a tile). */
function whitePng(width: number, height: number): Uint8Array {
  const png = new PNG({ width: Math.max(1, width), height: Math.max(1, height) });
  png.data.fill(255);
  return new Uint8Array(PNG.sync.write(png));
}

/** `saveDoc`: what was sent before it is written (after the control file's delay), then the views hear "not modified". */
async function save(viewId: number, dontSaveIfUnmodified: boolean): Promise<{ saved: boolean }> {
  const d = openDoc();
  const ctl = control();
  if (ctl.crashOnSave || ctl.crashOnSavePid === process.pid) {
    if (ctl.crashMessage) writeSync(2, `${ctl.crashMessage}\n`);
    process.kill(process.pid, 'SIGKILL');
  }
  if (dontSaveIfUnmodified && !d.modified) return { saved: false };
  const bytes = d.bytes();
  const at = generation;
  if (ctl.saveDelayMs) await sleep(ctl.saveDelayMs);
  if (ctl.failSave || ctl.failSavePid === process.pid) fail('save_failed', 'the fake kit was told to fail saves');
  writeFileSync(d.path, bytes);
  if (generation === at && d.modified) {
    d.modified = false;
    toAllViews(LOK_CALLBACK_STATE_CHANGED, '.uno:ModifiedStatus=false');
  }
  void send({ type: 'callback', viewId, callbackType: LOK_CALLBACK_UNO_COMMAND_RESULT, payload: JSON.stringify({ commandName: '.uno:Save', success: true }) });
  return { saved: true };
}

function handle(msg: DaemonToKit): void {
  switch (msg.type) {
    case 'shutdown':
      stopping = true;
      process.exit(0);
      return;
    case 'convert':
    case 'inspect':
      void answer(msg, async () => fail('unsupported_format', 'the fake kit (tests only) does not convert or inspect documents'));
      return;
    case 'open':
      void answer(msg, async () => {
        if (doc) fail('bad_request', 'this kit already has a document open');
        const delay = control().openDelayMs;
        if (delay) await sleep(delay);
        let opened: FakeDocument;
        try {
          opened = new FakeDocument(msg.input);
        } catch (e) {
          return fail('load_failed', `the fake kit could not read ${msg.input}: ${(e as Error).message}`);
        }
        doc = opened;
        const viewId = opened.addView(msg.userName ?? '', msg.readOnly === true);
        return { docType: opened.docType, parts: 1, partNames: ['Page 1'], ...FAKE_PAGE_TWIPS, viewId };
      });
      return;
    case 'createView':
      void answer(msg, async () => ({ viewId: openDoc().addView(msg.userName, msg.readOnly === true) }));
      return;
    case 'destroyView':
      void answer(msg, async () => {
        if (!openDoc().views.delete(msg.viewId)) fail('bad_request', `no view ${msg.viewId}`);
        return {};
      });
      return;
    case 'event': {
      const d = doc;
      if (!d) return;
      const was = d.modified;
      if (d.input(msg.viewId, msg.event)) changed(was);
      return;
    }
    case 'tile':
      void answer(msg, async () => (openDoc(), { png: whitePng(msg.width, msg.height) }));
      return;
    case 'windowPaint':
      void answer(msg, async () => fail('bad_request', 'the fake kit has no dialog windows'));
      return;
    case 'commandValues':
      void answer(msg, async () => (openDoc(), { value: null }));
      return;
    case 'clipboardGet':
      void answer(msg, async () => {
        const text = new TextEncoder().encode(openDoc().text);
        return { items: msg.mimeTypes.filter((m) => m.startsWith('text/plain')).map((mimeType) => ({ mimeType, data: text })) };
      });
      return;
    case 'paste':
      void answer(msg, async () => {
        const d = openDoc();
        const was = d.modified;
        const pasted = d.paste(msg.viewId, msg.mimeType, msg.data);
        if (pasted) changed(was);
        return { pasted };
      });
      return;
    case 'docInfo':
      void answer(msg, async () => (openDoc(), { parts: 1, partNames: ['Page 1'], ...FAKE_PAGE_TWIPS, part: 0, mode: 0 }));
      return;
    case 'saveDoc':
      void answer(msg, () => save(msg.viewId, msg.dontSaveIfUnmodified));
      return;
    case 'exportDoc':
      void answer(msg, async () => {
        writeFileSync(msg.output, openDoc().bytes());
        return {};
      });
      return;
    case 'signDoc':
      void answer(msg, async () => (openDoc(), { signed: false, signatureState: 0 }));
      return;
    case 'signatureState':
      void answer(msg, async () => (openDoc(), { signatureState: 0 }));
      return;
    case 'closeDoc':
      void answer(msg, async () => {
        doc = undefined;
        return {};
      }).then(() => {
        stopping = true;
        process.exit(0);
      });
      return;
  }
}

process.on('message', (raw: unknown) => {
  if (isDaemonToKit(raw) && !stopping) handle(raw);
});
// The daemon went away: leave rather than linger as an orphan.
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
void send({ type: 'ready', pid: process.pid, version: FAKE_VERSION, initMs: 0, warmMs: 0 });
