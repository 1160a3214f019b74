/**
 * test/bench/editor/breakdown.ts: where the editor's load and keystroke time goes (issue 15, the 25.2 editor
 * regression), phase by phase, for the same set-up as bench:editor (run.ts: Debian's Chromium through a host page on
 * another origin, a daemon with a warm pool of 2 kits, tracked-changes/RA001-Tracked-Revisions-01.docx, viewport
 * 1240x800).
 *
 * Two sides are recorded, on one clock (ms since the epoch, one machine):
 *   - in the editor frame, by a script Chromium runs before the page's own (addInitScript): every WebSocket frame
 *     in and out (its message type, bytes; tile headers; the command of `uno` and `commandValues`), the socket's
 *     creation and open, the `ode:*` performance marks, long tasks, the frame's navigation and editor.js timings;
 *   - in the daemon (in this process): each leased kit's calls (`open`, `paintTile`, `commandValues`, `exportDoc`,
 *     events) with their start and end, and every LibreOfficeKit callback by type.
 * Printed: the median of each load phase over the documents, the WebSocket messages and bytes of a load by type
 * (up to Document_Loaded, and in the 3 s after it), the kit's work during the load, then per keystroke the phases
 * (ode:key -> input sent -> LibreOffice's invalidation -> `invalidate` in the browser -> `tiles` asked -> painted by
 * the kit -> tile frame -> ode:painted) and the messages per key.
 *
 * Run: `node bin/run-ts.js test/bench/editor/breakdown.ts` (about a minute). BENCH_RUNS documents (default 6, the
 * first a warm-up), BENCH_KEYS keys (default 30, after 5 warm-up keys, 60 ms apart as in run.ts), BENCH_DOC a corpus
 * path. BENCH_TRACE=1 also prints each document's timeline.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { LibreOfficeKitCallbackType } from '../../../daemon/protocol/lok-enums.ts';
import type { EditingKit } from '../../../daemon/server/documents/editing-kit.ts';
import { launchChromium } from '../../helpers/browser.ts';
import { documentsClosed, startDaemon } from '../../helpers/daemon.ts';
import { FakeWopiHost } from '../../helpers/fake-wopi-host.ts';
import { startHostPage } from '../../helpers/host-page.ts';
import { median, percentile } from '../stats.ts';

const CORPUS = new URL('../../../../shared/corpus/', import.meta.url).pathname;
const DOC = process.env.BENCH_DOC ?? 'tracked-changes/RA001-Tracked-Revisions-01.docx';
const RUNS = Number(process.env.BENCH_RUNS ?? 6);
const KEYS = Number(process.env.BENCH_KEYS ?? 30);
const TRACE = process.env.BENCH_TRACE === '1';
const WARMUPS = 1;
/** BENCH_PROFILE=<dir>: a CPU profile of the editor frame from Frame_Ready to Document_Loaded per document, written there. */
const PROFILE_DIR = process.env.BENCH_PROFILE;
/** BENCH_CHROME_TRACE=<file>: a Chromium trace (DevTools timeline) of the first measured document's load. */
const TRACE_FILE = process.env.BENCH_CHROME_TRACE;
const AFTER_LOAD_MS = 3000;

/** One recorded event: when (ms since the epoch), where, what, its size in bytes, and details. */
interface Ev {
  t: number;
  /** `in`/`out`: WebSocket frames in the browser; `ws`: the socket; `mark`, `longtask`: the frame; `kit`, `cb`: the daemon. */
  side: 'in' | 'out' | 'ws' | 'mark' | 'longtask' | 'canvas' | 'kit' | 'kit-end' | 'cb';
  what: string;
  bytes: number;
  detail?: string;
  /** kit-end: the call's duration (ms). */
  ms?: number;
}

/**
 * Runs in every frame before its own scripts (plain JS: the tests are type-checked without the DOM). Wraps
 * WebSocket so that each frame in and out is logged with its time before the editor handles it, and observes the
 * `ode:*` marks and long tasks. The log is `globalThis.__odeTrace` (Ev without side-specific fields).
 */
const TRACE_SCRIPT = `(() => {
  if (globalThis.__odeTrace) return;
  const log = [];
  globalThis.__odeTrace = log;
  const now = () => performance.timeOrigin + performance.now();
  const Native = globalThis.WebSocket;
  const describeOut = (data) => {
    try {
      const m = JSON.parse(data);
      let detail;
      if (m.type === 'uno' || m.type === 'commandValues') detail = m.command;
      else if (m.type === 'tiles') detail = m.positions.length + (m.fresh ? ' fresh' : ' refresh');
      else if (m.type === 'key' || m.type === 'textInput') detail = m.text ?? m.event;
      return { what: m.type, detail };
    } catch { return { what: '?' }; }
  };
  class Traced extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      log.push({ t: now(), side: 'ws', what: 'create', bytes: 0 });
      this.addEventListener('open', () => log.push({ t: now(), side: 'ws', what: 'open', bytes: 0 }));
      this.addEventListener('close', () => log.push({ t: now(), side: 'ws', what: 'close', bytes: 0 }));
      this.addEventListener('message', (e) => {
        const t = now();
        if (typeof e.data === 'string') {
          let what = '?', detail;
          try {
            const m = JSON.parse(e.data);
            what = m.type;
            if (m.type === 'loading') detail = m.stage;
            else if (m.type === 'stateChanged') detail = m.command;
            else if (m.type === 'invalidate') detail = m.all ? 'all' : [m.x, m.y, m.width, m.height].join(',');
            else if (m.type === 'commandValues') detail = m.command;
            else if (m.type === 'jsdialog' || m.type === 'window') detail = m.kind ?? m.action ?? m.jsontype;
          } catch {}
          log.push({ t, side: 'in', what, bytes: e.data.length, detail });
        } else {
          const b = new Uint8Array(e.data);
          let detail;
          try {
            const len = new DataView(b.buffer).getUint32(0);
            const h = JSON.parse(new TextDecoder().decode(b.subarray(4, 4 + len)));
            detail = h.x + ',' + h.y + ' ' + h.encoding;
          } catch {}
          log.push({ t, side: 'in', what: 'tile', bytes: b.length, detail });
        }
      });
    }
    send(data) {
      const d = describeOut(data);
      log.push({ t: now(), side: 'out', what: d.what, bytes: data.length, detail: d.detail });
      return super.send(data);
    }
  }
  globalThis.WebSocket = Traced;
  // Canvas calls that take long (a canvas resize, a copy-on-write of the last frame) are logged with their duration.
  const C = globalThis.CanvasRenderingContext2D && CanvasRenderingContext2D.prototype;
  if (C) for (const name of ['setTransform', 'clearRect', 'drawImage', 'fillRect']) {
    const orig = C[name];
    C[name] = function (...args) {
      const t = now();
      const r = orig.apply(this, args);
      const ms = now() - t;
      if (ms > 2) log.push({ t, side: 'canvas', what: name, bytes: 0, ms, detail: this.canvas.width + 'x' + this.canvas.height });
      return r;
    };
  }
  // Each size the document canvas is given (a resize reallocates it and redraws it all), with the heights of the
  // chrome's rows at that moment: which one moved it.
  try {
    let lastSize = '';
    new MutationObserver((records) => {
      for (const r of records) {
        const c = r.target;
        if (!(c instanceof HTMLCanvasElement) || !c.classList.contains('ode-canvas') || c.width + 'x' + c.height === lastSize) continue;
        lastSize = c.width + 'x' + c.height;
        const h = (sel) => { const e = document.querySelector(sel); return e ? Math.round(e.getBoundingClientRect().height) : '-'; };
        log.push({ t: now(), side: 'canvas', what: 'resize', bytes: 0, detail: c.width + 'x' + c.height + ' menubar ' + h('.ode-menubar') + ' toolbar ' + h('.ode-toolbar') + ' ruler ' + h('.ode-ruler') + ' formula ' + h('.ode-formula-bar') + ' bottom ' + h('.ode-bottom-bar') + ' status ' + h('.ode-status') });
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['width', 'height'] });
  } catch {}
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name.startsWith('ode:')) log.push({ t: performance.timeOrigin + e.startTime, side: 'mark', what: e.name, bytes: 0 });
    }).observe({ type: 'mark', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) log.push({ t: performance.timeOrigin + e.startTime, side: 'longtask', what: 'longtask', bytes: 0, ms: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
})();`;

/** What readFrame returns: the trace, and the frame's navigation and editor.js timings (ms since the epoch). */
interface FrameRecord {
  log: Ev[];
  origin: number;
  nav: Record<string, number>;
  bundle: Record<string, number> | null;
}

/**
 * Evaluated in the editor frame (a string: tsx's helpers must not leak into the page function): the trace, and the
 * frame's navigation and editor.js timings (ms since the epoch).
 */
const READ_FRAME = `(() => {
  const p = performance;
  const abs = (e, keys) => (e ? Object.fromEntries(keys.map((k) => [k, p.timeOrigin + Number(e[k])])) : {});
  const nav = p.getEntriesByType('navigation')[0];
  const js = p.getEntriesByType('resource').find((e) => /\\/editor\\.js/.test(e.name));
  return {
    log: globalThis.__odeTrace || [],
    origin: p.timeOrigin,
    nav: abs(nav, ['startTime', 'requestStart', 'responseStart', 'responseEnd', 'domInteractive', 'domContentLoadedEventEnd', 'loadEventEnd']),
    bundle: js ? { ...abs(js, ['startTime', 'responseEnd']), transferSize: Number(js.transferSize), bodySize: Number(js.encodedBodySize) } : null,
  };
})()`;

/** The editor frame's record (READ_FRAME). */
const readFrame = (frame: Frame): Promise<FrameRecord> => frame.evaluate(READ_FRAME) as Promise<FrameRecord>;

const CALLBACK_NAMES = Object.fromEntries(Object.entries(LibreOfficeKitCallbackType).map(([k, v]) => [v, k.replace(/^LOK_CALLBACK_/, '')])) as Record<
  number,
  string
>;

/** Wraps a leased kit's calls and callbacks so that they land in `sink` (once per kit). */
function instrument(kit: EditingKit, sink: Ev[]): void {
  const k = kit as unknown as Record<string, unknown>;
  if (k.__traced) return;
  k.__traced = true;
  const now = () => performance.timeOrigin + performance.now();
  for (const name of ['open', 'createView', 'paintTile', 'commandValues', 'exportDoc', 'saveDoc', 'docInfo', 'clipboardGet'] as const) {
    const orig = (kit[name] as (...a: unknown[]) => Promise<unknown>).bind(kit);
    k[name] = async (...args: unknown[]) => {
      const t = now();
      const first = args[0] as Record<string, unknown> | undefined;
      const detail = name === 'paintTile' ? `${first?.x},${first?.y}` : name === 'commandValues' ? String(args[1]) : undefined;
      sink.push({ t, side: 'kit', what: name, bytes: 0, detail });
      try {
        return await orig(...args);
      } finally {
        sink.push({ t: now(), side: 'kit-end', what: name, bytes: 0, detail, ms: now() - t });
      }
    };
  }
  const send = kit.sendEvent.bind(kit);
  kit.sendEvent = (viewId, event) => {
    sink.push({ t: now(), side: 'kit', what: `event:${event.type}`, bytes: 0, detail: event.type === 'uno' ? event.command : undefined });
    send(viewId, event);
  };
  kit.on('callback', (_viewId, type, payload) => sink.push({ t: now(), side: 'cb', what: CALLBACK_NAMES[type] ?? String(type), bytes: payload.length }));
}

/** The first event at or after `from` matching `pred`. */
const firstAfter = (evs: Ev[], from: number, pred: (e: Ev) => boolean) => evs.find((e) => e.t >= from && pred(e));

/** Counts and bytes of events by key. */
function tally(evs: Ev[], key: (e: Ev) => string): Map<string, { n: number; bytes: number }> {
  const out = new Map<string, { n: number; bytes: number }>();
  for (const e of evs) {
    const k = key(e);
    const c = out.get(k) ?? { n: 0, bytes: 0 };
    c.n++;
    c.bytes += e.bytes;
    out.set(k, c);
  }
  return new Map([...out].sort((a, b) => b[1].n - a[1].n));
}

interface LoadSample {
  phases: Record<string, number>;
  /** Messages between socket open and Document_Loaded, and after it. */
  during: Ev[];
  after: Ev[];
  bundleTransfer: number;
}

async function main(): Promise<void> {
  const wopi = await FakeWopiHost.start();
  const daemon = await startDaemon({ kits: { prespawn: 2, max: 4 }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } }, 2);
  const kitLog: Ev[] = [];
  const pool = daemon.server.pool as unknown as { leaseEditingKit: (o?: unknown) => Promise<EditingKit> };
  const lease = pool.leaseEditingKit.bind(pool);
  pool.leaseEditingKit = async (o?: unknown) => {
    const kit = await lease(o);
    instrument(kit, kitLog);
    return kit;
  };
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1240, height: 800 } });
  await context.addInitScript({ content: TRACE_SCRIPT });
  const bytes = readFileSync(join(CORPUS, DOC));
  const loads: LoadSample[] = [];
  const keyRows: Array<Record<string, number>> = [];
  const keyMsgs: Ev[][] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      await daemon.server.pool.waitReady(2, 90_000);
      wopi.addFile(`bd${i}`, 'report.docx', bytes);
      const host = await startHostPage({ daemonUrl: daemon.url, wopiSrc: wopi.fileUrl(`bd${i}`), token: wopi.token });
      const page = await context.newPage();
      kitLog.length = 0;
      const tracing = TRACE_FILE && i === WARMUPS;
      if (tracing)
        await browser.startTracing(page, {
          categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink', 'cc', 'gpu', 'toplevel'],
        });
      const t0 = Date.now();
      await page.goto(host.url, { waitUntil: 'commit' });
      const profiling = PROFILE_DIR ? await startProfile(page, host) : undefined;
      const loaded = await host.waitFor('App_LoadingStatus', (m) => m.Values.Status === 'Document_Loaded', 60_000);
      if (profiling) await profiling(join(PROFILE_DIR!, `load-${i}.cpuprofile`));
      const ready = host.messages().find((m) => m.MessageId === 'App_LoadingStatus' && m.Values.Status === 'Frame_Ready');
      await page.waitForTimeout(AFTER_LOAD_MS);
      if (tracing) writeFileSync(TRACE_FILE, await browser.stopTracing());
      const frame = page.frame({ name: 'ode' }) as Frame;
      const f = await readFrame(frame);
      const evs = [...f.log, ...kitLog].sort((a, b) => a.t - b.t);
      const loadedAt = loaded.SendTime ?? loaded.receivedAt;
      const at = (pred: (e: Ev) => boolean, from = 0) => firstAfter(evs, from, pred)?.t ?? Number.NaN;
      const statusAt = at((e) => e.side === 'in' && e.what === 'status');
      const phases: Record<string, number> = {
        'editor page requested': f.nav.startTime,
        'editor page received (responseEnd)': f.nav.responseEnd,
        'editor.js received': f.bundle?.responseEnd ?? Number.NaN,
        'DOMContentLoaded end': f.nav.domContentLoadedEventEnd,
        'socket created': at((e) => e.side === 'ws' && e.what === 'create'),
        'socket open': at((e) => e.side === 'ws' && e.what === 'open'),
        'Frame_Ready (loading: download)': ready?.SendTime ?? Number.NaN,
        'loading: load (kit open starts)': at((e) => e.side === 'in' && e.what === 'loading' && e.detail === 'load'),
        'kit open returned': at((e) => e.side === 'kit-end' && e.what === 'open'),
        'status received': statusAt,
        'first tiles request sent': at((e) => e.side === 'out' && e.what === 'tiles'),
        'first paintTile starts (daemon)': at((e) => e.side === 'kit' && e.what === 'paintTile'),
        'first paintTile returned': at((e) => e.side === 'kit-end' && e.what === 'paintTile'),
        'first tile frame received': at((e) => e.side === 'in' && e.what === 'tile'),
        'first ode:painted': at((e) => e.side === 'mark' && e.what === 'ode:painted'),
        'Document_Loaded (SendTime)': loadedAt,
      };
      const rel = Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, v - t0]));
      const openAt = at((e) => e.side === 'ws' && e.what === 'open');
      if (i >= WARMUPS)
        loads.push({
          phases: rel,
          during: evs.filter((e) => e.t >= openAt && e.t <= loadedAt),
          after: evs.filter((e) => e.t > loadedAt && e.t <= loadedAt + AFTER_LOAD_MS),
          bundleTransfer: f.bundle?.transferSize ?? Number.NaN,
        });
      if (TRACE) {
        console.log(`\n--- document ${i} (t0 = navigation; ms) Frame_Ready -> Document_Loaded ${(loadedAt - (ready?.SendTime ?? 0)).toFixed(0)}`);
        for (const e of evs.filter((x) => x.t <= loadedAt + AFTER_LOAD_MS && x.side !== 'cb'))
          console.log(
            `${(e.t - t0).toFixed(1).padStart(8)} ${e.side.padEnd(8)} ${e.what}${e.detail ? ` ${e.detail}` : ''}${e.bytes ? ` ${e.bytes} B` : ''}${e.ms !== undefined ? ` ${e.ms.toFixed(1)} ms` : ''}`,
          );
      }
      if (i === RUNS - 1) await typeKeys(frame, page, kitLog, keyRows, keyMsgs);
      await page.close();
      await host.stop();
      await documentsClosed(daemon.server);
    }
  } finally {
    await browser.close();
    await daemon.stop();
    await wopi.stop();
  }
  report(loads, keyRows, keyMsgs);
}

/**
 * Starts Chromium's sampling profiler in the editor frame once it said Frame_Ready (the frame exists then); returns
 * the function that stops it and writes the profile (a .cpuprofile file, for Chromium's DevTools).
 */
async function startProfile(
  page: Page,
  host: { waitFor: (id: string, match: (m: { Values: Record<string, unknown> }) => boolean, ms: number) => Promise<unknown> },
): Promise<(file: string) => Promise<void>> {
  await host.waitFor('App_LoadingStatus', (m) => m.Values.Status === 'Frame_Ready', 60_000);
  const cdp = await page.context().newCDPSession(page.frame({ name: 'ode' }) as Frame);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
  await cdp.send('Profiler.start');
  return async (file) => {
    const { profile } = await cdp.send('Profiler.stop');
    mkdirSync(PROFILE_DIR!, { recursive: true });
    writeFileSync(file, JSON.stringify(profile));
    await cdp.detach();
  };
}

/** Types KEYS characters (after 5 warm-up keys) and records each key's phases (ms after its ode:key mark). */
async function typeKeys(
  frame: Frame,
  page: { waitForTimeout(ms: number): Promise<void> },
  kitLog: Ev[],
  rows: Array<Record<string, number>>,
  msgs: Ev[][],
): Promise<void> {
  await frame.focus('.ode-input');
  await page.waitForTimeout(500);
  for (let k = 0; k < KEYS + 5; k++) {
    const before = (await readFrame(frame)).log.length;
    kitLog.length = 0;
    await frame.press('.ode-input', String.fromCharCode(97 + (k % 26)));
    await page.waitForTimeout(300);
    const f = await readFrame(frame);
    if (k < 5) continue;
    const evs = [...f.log.slice(before), ...kitLog].sort((a, b) => a.t - b.t);
    const key = firstAfter(evs, 0, (e) => e.side === 'mark' && e.what === 'ode:key');
    if (!key) continue;
    const at = (pred: (e: Ev) => boolean, from = key.t) => (firstAfter(evs, from, pred)?.t ?? Number.NaN) - key.t;
    const inv = at((e) => e.side === 'in' && e.what === 'invalidate');
    const tilesOut = at((e) => e.side === 'out' && e.what === 'tiles', key.t + (Number.isNaN(inv) ? 0 : inv));
    rows.push({
      'input sent': at((e) => e.side === 'out' && (e.what === 'textInput' || e.what === 'key')),
      'kit event sent (daemon)': at((e) => e.side === 'kit' && e.what.startsWith('event:')),
      'INVALIDATE_TILES callback (daemon)': at((e) => e.side === 'cb' && e.what === 'INVALIDATE_TILES'),
      'invalidate received': inv,
      'tiles asked': tilesOut,
      'paintTile starts (daemon)': at((e) => e.side === 'kit' && e.what === 'paintTile'),
      'paintTile returned (daemon)': at((e) => e.side === 'kit-end' && e.what === 'paintTile'),
      'tile frame received': at((e) => e.side === 'in' && e.what === 'tile', key.t + (Number.isNaN(tilesOut) ? 0 : tilesOut)),
      'ode:painted': at((e) => e.side === 'mark' && e.what === 'ode:painted'),
    });
    msgs.push(evs.filter((e) => e.t >= key.t && e.t < key.t + 300));
  }
}

function report(loads: LoadSample[], keyRows: Array<Record<string, number>>, keyMsgs: Ev[][]): void {
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');
  const finite = (xs: number[]) => xs.filter(Number.isFinite);
  console.log(`\n${DOC}: ${loads.length} documents after ${WARMUPS} warm-up, ${keyRows.length} keys; Chromium through the host page; ms.`);
  console.log('\n## Load: each phase from the host page navigation (median, min-max)\n');
  console.log('| phase | median | min | max | step from the previous (median) |');
  console.log('|---|---|---|---|---|');
  const names = Object.keys(loads[0]?.phases ?? {});
  let prev = 0;
  for (const n of names) {
    const xs = finite(loads.map((l) => l.phases[n]));
    const m = median(xs);
    console.log(`| ${n} | ${f(m)} | ${f(Math.min(...xs))} | ${f(Math.max(...xs))} | ${f(m - prev)} |`);
    if (Number.isFinite(m)) prev = m;
  }
  console.log(`\neditor.js transfer size (0: from the browser cache): ${loads.map((l) => l.bundleTransfer).join(', ')}`);
  const perLoad = (pick: (l: LoadSample) => Ev[], title: string) => {
    console.log(`\n## ${title}: per document (mean of ${loads.length})\n`);
    console.log('| side | message | count | bytes |');
    console.log('|---|---|---|---|');
    const all = loads.flatMap(pick).filter((e) => e.side === 'in' || e.side === 'out' || e.side === 'cb' || e.side === 'kit');
    for (const [k, c] of tally(
      all,
      (e) =>
        `${e.side} | ${e.what}${e.side === 'out' && e.detail && e.what !== 'tiles' ? ` ${e.detail}` : ''}${e.side === 'kit' && e.what === 'commandValues' ? ` ${e.detail}` : ''}`,
    ))
      console.log(`| ${k} | ${(c.n / loads.length).toFixed(1)} | ${Math.round(c.bytes / loads.length)} |`);
    const kitMs = tally(
      loads.flatMap(pick).filter((e) => e.side === 'kit-end'),
      (e) => e.what,
    );
    for (const [k] of kitMs) {
      const ms = loads
        .flatMap(pick)
        .filter((e) => e.side === 'kit-end' && e.what === k)
        .map((e) => e.ms ?? 0);
      console.log(
        `| kit time | ${k} | ${(ms.length / loads.length).toFixed(1)} calls | ${f(ms.reduce((a, b) => a + b, 0) / loads.length)} ms in all, median ${f(median(ms))} ms |`,
      );
    }
    const resizes = loads.flatMap(pick).filter((e) => e.side === 'canvas' && e.what === 'resize');
    console.log(`| frame | canvas resizes | ${(resizes.length / loads.length).toFixed(1)} | ${[...new Set(resizes.map((e) => e.detail))].join('; ')} |`);
    const canvas = loads.flatMap(pick).filter((e) => e.side === 'canvas' && e.what !== 'resize');
    if (canvas.length)
      console.log(
        `| frame | canvas calls over 2 ms | ${(canvas.length / loads.length).toFixed(1)} | ${f(canvas.reduce((a, e) => a + (e.ms ?? 0), 0) / loads.length)} ms in all |`,
      );
    const long = loads.flatMap(pick).filter((e) => e.side === 'longtask');
    if (long.length)
      console.log(
        `| frame | long tasks | ${(long.length / loads.length).toFixed(1)} | ${f(long.reduce((a, e) => a + (e.ms ?? 0), 0) / loads.length)} ms in all |`,
      );
  };
  perLoad((l) => l.during, 'Socket open to Document_Loaded: messages');
  perLoad((l) => l.after, `The ${AFTER_LOAD_MS / 1000} s after Document_Loaded: messages`);
  if (keyRows.length === 0) return;
  console.log('\n## Keystroke: each phase after the ode:key mark (median, p95)\n');
  console.log('| phase | median | p95 | max |');
  console.log('|---|---|---|---|');
  for (const n of Object.keys(keyRows[0])) {
    const xs = finite(keyRows.map((r) => r[n]));
    console.log(`| ${n} | ${f(median(xs))} | ${f(percentile(xs, 95))} | ${f(Math.max(...xs))} |`);
  }
  console.log('\n## Keystroke: messages per key (300 ms after ode:key; mean)\n');
  console.log('| side | message | count | bytes |');
  console.log('|---|---|---|---|');
  for (const [k, c] of tally(
    keyMsgs.flat().filter((e) => e.side === 'in' || e.side === 'out' || e.side === 'cb' || e.side === 'kit'),
    (e) => `${e.side} | ${e.what}`,
  ))
    console.log(`| ${k} | ${(c.n / keyMsgs.length).toFixed(2)} | ${Math.round(c.bytes / keyMsgs.length)} |`);
}

await main();
process.exit(0);
