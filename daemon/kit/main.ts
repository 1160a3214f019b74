/**
 * The kit: a child process that initialises LibreOffice once through the native addon and then obeys the
 * IPC messages of `daemon/protocol/kit.md`: conversions one job at a time, or, once leased for editing, the
 * editing messages of one open document (edit-session.ts). This is the only module that loads the addon, so a
 * LibreOffice crash can only take this process down.
 *
 * Environment (set by the daemon's pool): ODE_KIT_PROFILE_URL (file:/// URL of this kit's own profile),
 * ODE_LO_PATH (LibreOffice program directory), ODE_KIT_DIR (this kit's temp dir, for the warm-up files),
 * ODE_KIT_SETTINGS (optional: a settings manifest JSON installed into the profile before lok_init_2),
 * ODE_KIT_PROXY_SOCKET (optional: the daemon's fetch proxy for external data, fetch-bridge.ts),
 * ODE_KIT_TRIM_IDLE_MS (optional: idle time before LibreOffice trims its memory, idle-trim.ts; 0 = never),
 * ODE_KIT_TRIM_EDIT_IDLE_MS (optional: the same for a document open for editing, with no input or request),
 * ODE_KIT_WARM_MODULES (optional: the modules the warm-up loads, warm-up.ts; default writer,calc,impress).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isDaemonToKit, isEditRequest, type DaemonToKit, type EditRequest, type KitSettingsManifest } from '../protocol/kit.ts';
import { convertJob } from './convert-job.ts';
import { EditSession } from './edit-session.ts';
import { startFetchBridge } from './fetch-bridge.ts';
import { IdleTrim, trimEditIdleMs, trimIdleMs } from './idle-trim.ts';
import { inspectJob } from './inspect-job.ts';
import { loadOffice, type OfficeHandle } from './office.ts';
import { installSettings } from './settings-install.ts';
import { warmUp } from './warm-up.ts';
import { answer, send } from './ipc.ts';

let office: OfficeHandle | undefined;
let stopping = false;
let queue: Promise<void> = Promise.resolve();
/** The document open for editing (kit.md, "Editing"), from `open` until `closeDoc`. */
let session: EditSession | undefined;
let opening = false;
/** Trims LibreOffice's memory when the kit waits for work (no document open for editing). */
let idleTrim: IdleTrim | undefined;
/** Trims LibreOffice's memory when the document open for editing has had no input or request for a while. */
let editTrim: IdleTrim | undefined;
/** Conversion and inspection jobs queued or running. */
let jobs = 0;

function noDocument(): never {
  throw Object.assign(new Error('no document is open for editing in this kit'), { code: 'bad_request' });
}

/**
 * The editing messages (kit.md, "Editing"), handled as they arrive rather than through the job queue: events
 * must reach LibreOffice while a paint or a save is still running. Callbacks go out at once, unawaited, in order.
 */
function handleEdit(msg: EditRequest, loaded: OfficeHandle): void {
  switch (msg.type) {
    case 'open':
      void answer(msg, async () => {
        if (session || opening) throw Object.assign(new Error('this kit already has a document open'), { code: 'bad_request' });
        opening = true;
        try {
          const opened = await EditSession.open(loaded, msg, (viewId, callbackType, payload) => void send({ type: 'callback', viewId, callbackType, payload }));
          session = opened.session;
          return opened.result;
        } finally {
          opening = false;
        }
      });
      return;
    case 'event': {
      try {
        const dropped = session?.event(msg.viewId, msg.event);
        if (dropped) process.stderr.write(`kit: ${msg.event.type} event on view ${msg.viewId} dropped (${dropped})\n`);
      } catch (e) {
        process.stderr.write(`kit: ${msg.event.type} event on view ${msg.viewId} failed: ${(e as Error).message}\n`);
      }
      return;
    }
    case 'createView':
      void answer(msg, async () => ({ viewId: (session ?? noDocument()).createView(msg) }));
      return;
    case 'destroyView':
      void answer(msg, async () => {
        (session ?? noDocument()).destroyView(msg.viewId);
        return {};
      });
      return;
    case 'tile':
      void answer(msg, async () => ({ png: await (session ?? noDocument()).tile(msg) }));
      return;
    case 'commandValues':
      void answer(msg, async () => ({ value: (session ?? noDocument()).commandValues(msg.viewId, msg.command) }));
      return;
    case 'windowPaint':
      void answer(msg, async () => ({ png: await (session ?? noDocument()).windowPaint(msg) }));
      return;
    case 'clipboardGet':
      void answer(msg, async () => ({ items: await (session ?? noDocument()).clipboardGet(msg.viewId, msg.mimeTypes) }));
      return;
    case 'paste':
      void answer(msg, async () => ({ pasted: await (session ?? noDocument()).paste(msg.viewId, msg.mimeType, msg.data) }));
      return;
    case 'docInfo':
      void answer(msg, async () => (session ?? noDocument()).docInfo(msg.viewId));
      return;
    case 'saveDoc':
      void answer(msg, async () =>
        (session ?? noDocument()).saveDoc(msg.viewId, msg.dontSaveIfUnmodified, msg.dontTerminateEdit === true, msg.reenterCell === true),
      );
      return;
    case 'exportDoc':
      void answer(msg, async () => {
        await (session ?? noDocument()).exportDoc(msg.output, msg.format, msg.filterOptions, msg.inOrder === true);
        return {};
      });
      return;
    case 'signDoc':
      void answer(msg, async () => (session ?? noDocument()).signDoc(msg.viewId, msg.certificate, msg.privateKey, msg.ca));
      return;
    case 'signatureState':
      void answer(msg, async () => ({ signatureState: (session ?? noDocument()).signatureState(msg.viewId, msg.ca) }));
      return;
    case 'closeDoc':
      // The kit is replaced after a document: answer, then leave (shutdown destroys LibreOffice first).
      void answer(msg, async () => {
        await session?.close();
        session = undefined;
        return {};
      }).then(() => shutdown(0));
      return;
  }
}

/** Destroys LibreOffice and exits: process.exit with LibreOffice alive crashes (notes: Quirks). */
function shutdown(code: number): void {
  if (stopping) return;
  stopping = true;
  idleTrim?.stop();
  editTrim?.stop();
  const closing = session?.close().catch(() => undefined) ?? Promise.resolve();
  void queue.then(() => closing).finally(() => (office ? office.exit(code) : process.exit(code)));
}

async function handle(msg: Exclude<DaemonToKit, EditRequest>): Promise<void> {
  if (msg.type === 'shutdown') return shutdown(0);
  const loaded = office;
  if (!loaded) return;
  if (msg.type === 'inspect') return answer(msg, () => inspectJob(loaded, msg));
  let dispose: (() => void) | undefined;
  await answer(msg, async () => {
    const outcome = await convertJob(loaded, msg, () => void send({ type: 'progress', id: msg.id, stage: 'loaded' }));
    dispose = outcome.dispose;
    return outcome.result;
  });
  // After the answer: the next job waits in the queue until the document is gone.
  try {
    dispose?.();
  } catch {
    // A document that cannot be destroyed is LibreOffice's leak, not the job's failure.
  }
}

process.on('message', (raw: unknown) => {
  if (!isDaemonToKit(raw) || stopping) return;
  // A kit leased for editing leaves the pool kit's idle trim; its own (ODE_KIT_TRIM_EDIT_IDLE_MS) waits for a
  // longer quiet spell of the document, every message restarting it.
  if (isEditRequest(raw)) {
    idleTrim?.stop();
    editTrim?.touch();
    if (office) handleEdit(raw, office);
    return;
  }
  // One job at a time: a kit serves one document at a time.
  jobs++;
  queue = queue
    .then(() => handle(raw))
    .finally(() => {
      jobs--;
      if (!session && !opening) idleTrim?.touch();
    });
});
// The daemon went away: leave cleanly rather than linger as an orphan holding LibreOffice.
process.on('disconnect', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

try {
  const profileUrl = process.env.ODE_KIT_PROFILE_URL;
  if (!profileUrl) throw new Error('ODE_KIT_PROFILE_URL is not set');
  // Settings go into the profile before LibreOffice reads it (kit.md, "Settings"); such a kit serves one
  // document, so it skips the warm-up of all three modules.
  const settings = process.env.ODE_KIT_SETTINGS
    ? installSettings(fileURLToPath(profileUrl), JSON.parse(readFileSync(process.env.ODE_KIT_SETTINGS, 'utf8')) as KitSettingsManifest)
    : undefined;
  // External data in documents goes through the daemon's allow-listed proxy (issue 18): LibreOffice's fetches
  // (libcurl) take the proxy from these variables, read when LibreOffice starts.
  if (process.env.ODE_KIT_PROXY_SOCKET) {
    const proxy = await startFetchBridge(process.env.ODE_KIT_PROXY_SOCKET);
    for (const name of ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY']) process.env[name] = proxy;
    for (const name of ['no_proxy', 'NO_PROXY']) delete process.env[name];
  }
  const started = performance.now();
  const loaded = await loadOffice(process.env.ODE_LO_PATH, profileUrl);
  const initMs = performance.now() - started;
  const warmMs = process.env.ODE_KIT_DIR && !settings ? await warmUp(loaded, process.env.ODE_KIT_DIR) : 0;
  office = loaded;
  idleTrim = new IdleTrim(
    loaded,
    trimIdleMs(process.env),
    (line) => process.stderr.write(`${line}\n`),
    () => jobs > 0 || session !== undefined || opening,
  );
  idleTrim.touch();
  editTrim = new IdleTrim(
    loaded,
    trimEditIdleMs(process.env),
    (line) => process.stderr.write(`editing ${line}\n`),
    () => opening,
  );
  void send({
    type: 'ready',
    pid: process.pid,
    version: loaded.version,
    initMs: Math.round(initMs),
    warmMs: Math.round(warmMs),
    ...(settings ? { settings } : {}),
  });
} catch (e) {
  void send({ type: 'fatal', message: (e as Error).message });
  // Nothing of LibreOffice is alive to destroy; give the IPC message time to flush.
  setTimeout(() => process.exit(1), 50);
}
