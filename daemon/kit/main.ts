/**
 * The kit: a child process that initialises LibreOffice once through the native addon and then obeys the
 * IPC messages of `daemon/protocol/kit.md`, one job at a time. This is the only module that loads the addon,
 * so a LibreOffice crash can only take this process down.
 *
 * Environment (set by the daemon's pool): ODE_KIT_PROFILE_URL (file:/// URL of this kit's own profile),
 * ODE_LO_PATH (LibreOffice program directory), ODE_KIT_DIR (this kit's temp dir, for the warm-up files).
 */
import { tmpdir } from 'node:os';
import { isDaemonToKit, type DaemonToKit, type KitToDaemon } from '../protocol/kit.ts';
import { convertJob } from './convert-job.ts';
import { inspectJob } from './inspect-job.ts';
import { loadOffice, type OfficeHandle } from './office.ts';
import { warmUp } from './warm-up.ts';

/** Sends a message to the daemon; resolves once it is handed to the IPC channel. */
function send(msg: KitToDaemon): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(msg, undefined, undefined, () => resolve());
  });
}

let office: OfficeHandle | undefined;
let stopping = false;
let queue: Promise<void> = Promise.resolve();

/** Destroys LibreOffice and exits: process.exit with LibreOffice alive crashes (notes: Quirks). */
function shutdown(code: number): void {
  if (stopping) return;
  stopping = true;
  void queue.finally(() => (office ? office.exit(code) : process.exit(code)));
}

async function handle(msg: DaemonToKit): Promise<void> {
  if (msg.type === 'shutdown') return shutdown(0);
  if (!office) return;
  const started = performance.now();
  let dispose: (() => void) | undefined;
  if (msg.type === 'inspect') {
    try {
      const result = await inspectJob(office, msg);
      await send({ type: 'result', id: msg.id, ok: true, ms: performance.now() - started, ...result });
    } catch (e) {
      const err = e as Error & { code?: string };
      await send({ type: 'result', id: msg.id, ok: false, error: { code: err.code ?? 'internal', message: err.message } });
    }
    return;
  }
  try {
    const outcome = await convertJob(office, msg, () => void send({ type: 'progress', id: msg.id, stage: 'loaded' }), {
      loPath: process.env.ODE_LO_PATH || '/usr/lib/libreoffice/program',
      kitDir: process.env.ODE_KIT_DIR || tmpdir(),
    });
    dispose = outcome.dispose;
    await send({ type: 'result', id: msg.id, ok: true, ms: performance.now() - started, ...outcome.result });
  } catch (e) {
    const err = e as Error & { code?: string };
    await send({ type: 'result', id: msg.id, ok: false, error: { code: err.code ?? 'internal', message: err.message } });
  }
  // After the answer: the next job waits in the queue until the document is gone.
  try {
    dispose?.();
  } catch {
    // A document that cannot be destroyed is LibreOffice's leak, not the job's failure.
  }
}

process.on('message', (raw: unknown) => {
  if (!isDaemonToKit(raw) || stopping) return;
  // One job at a time: a kit serves one document at a time.
  queue = queue.then(() => handle(raw));
});
// The daemon went away: leave cleanly rather than linger as an orphan holding LibreOffice.
process.on('disconnect', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

try {
  const profileUrl = process.env.ODE_KIT_PROFILE_URL;
  if (!profileUrl) throw new Error('ODE_KIT_PROFILE_URL is not set');
  const started = performance.now();
  const loaded = await loadOffice(process.env.ODE_LO_PATH, profileUrl);
  const initMs = performance.now() - started;
  const warmMs = process.env.ODE_KIT_DIR ? await warmUp(loaded, process.env.ODE_KIT_DIR) : 0;
  office = loaded;
  void send({ type: 'ready', pid: process.pid, version: loaded.version, initMs: Math.round(initMs), warmMs: Math.round(warmMs) });
} catch (e) {
  void send({ type: 'fatal', message: (e as Error).message });
  // Nothing of LibreOffice is alive to destroy; give the IPC message time to flush.
  setTimeout(() => process.exit(1), 50);
}
