/**
 * Probe (issues 16 and 17): which LibreOfficeKit calls of LibreOffice 25.2 run at once on the calling thread and
 * which are posted to LibreOffice's main loop, and when the callbacks of posted input arrive. Not a test: run it by
 * hand, `npx tsx test/kit-editing/input-order-probe.ts [--burn]`, and read what it prints (docs/editing.md, "Input
 * order", quotes the numbers). `--burn` runs two busy child processes beside it for its whole run (bounded by
 * BURN_MS).
 *
 * Each experiment loads a fresh Writer document holding "abcdefghij" (a .txt import), puts the cursor at its end,
 * then in ONE JavaScript tick posts 7 Left arrows and makes the call under test, waits, saves the document as text
 * and reads the file back (the oracle). A call that LibreOffice posts runs after the arrows (FIFO with them) and
 * acts at offset 3; a call that runs at once acts at the end, before LibreOffice's main loop ran the arrows.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  LOK_CALLBACK_INVALIDATE_VISIBLE_CURSOR,
  LOK_EXT_TEXTINPUT,
  LOK_EXT_TEXTINPUT_END,
  LOK_KEYEVENT_KEYINPUT,
  LOK_KEYEVENT_KEYUP,
  Office,
  type LokDocument,
} from '../../daemon/native/index.ts';
import { VclKeyCode, VclKeyModifier } from '../../daemon/protocol/lok-enums.ts';

/** The longest a burner child runs (ms), whatever happens to the probe. */
const BURN_MS = 120_000;

if (process.argv[2] === '--burner') {
  const end = Date.now() + BURN_MS;
  while (Date.now() < end) {
    // busy
  }
  process.exit(0);
}

const burn = process.argv.includes('--burn');
const burners = burn
  ? [fork(process.argv[1], ['--burner'], { execArgv: ['--import', 'tsx'] }), fork(process.argv[1], ['--burner'], { execArgv: ['--import', 'tsx'] })]
  : [];
const work = mkdtempSync(join(tmpdir(), 'ode-input-probe-'));
const office = Office.init({ profileUrl: pathToFileURL(join(work, 'profile')).href });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// LibreOffice's callbacks and fences do not keep Node's event loop alive (as in a kit, whose IPC channel does).
const keepAlive = setInterval(() => undefined, 1000);

function key(doc: LokDocument, keyCode: number, charCode = 0): void {
  doc.postKeyEvent(LOK_KEYEVENT_KEYINPUT, charCode, keyCode);
  doc.postKeyEvent(LOK_KEYEVENT_KEYUP, charCode, keyCode);
}

interface Logged {
  at: number;
  type: number;
  payload: string;
}

/** Loads "abcdefghij", cursor at the end, callbacks logged from `t0` (set by the experiment). */
async function fresh(name: string): Promise<{ doc: LokDocument; log: Logged[]; t0: { v: number } }> {
  const file = join(work, `${name}.txt`);
  writeFileSync(file, 'abcdefghij\n');
  const doc = await office.documentLoad(pathToFileURL(file).href, { options: 'Language=en-US,Batch=true' });
  doc.initializeForRendering('{}');
  const log: Logged[] = [];
  const t0 = { v: performance.now() };
  doc.registerCallback((type, payload) => log.push({ at: performance.now() - t0.v, type, payload: payload.slice(0, 60) }));
  key(doc, VclKeyCode.KEY_END | VclKeyModifier.KEY_MOD1);
  await sleep(800);
  log.length = 0;
  return { doc, log, t0 };
}

/** Saves `doc` as text and returns its first line. */
async function text(doc: LokDocument, name: string): Promise<string> {
  const out = join(work, `${name}-out.txt`);
  await doc.saveAs(pathToFileURL(out).href, 'txt');
  return readFileSync(out, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)[0];
}

type Step = (doc: LokDocument) => void;
const experiments: Array<[string, Step]> = [
  [
    'ext text "X"',
    (doc) => {
      doc.postWindowExtTextInputEvent(0, LOK_EXT_TEXTINPUT, 'X');
      doc.postWindowExtTextInputEvent(0, LOK_EXT_TEXTINPUT_END, '');
    },
  ],
  ['postUnoCommand .uno:SwBackspace', (doc) => doc.postUnoCommand('.uno:SwBackspace')],
  ['postUnoCommand .uno:InsertText X', (doc) => doc.postUnoCommand('.uno:InsertText', JSON.stringify({ Text: { type: 'string', value: 'X' } }))],
  ['paste text/plain "X"', (doc) => void doc.paste('text/plain;charset=utf-8', Buffer.from('X'))],
  ['typed key "X"', (doc) => key(doc, 0, 'X'.charCodeAt(0))],
];

const results: Record<string, unknown> = { burn, load: await import('node:os').then((os) => os.loadavg()) };
for (const [name, step] of experiments) {
  writeSync(2, `probe: ${name}\n`);
  const outcomes: string[] = [];
  for (let run = 0; run < 3; run++) {
    const { doc, log, t0 } = await fresh(`e${outcomes.length}`);
    t0.v = performance.now();
    for (let i = 0; i < 7; i++) key(doc, VclKeyCode.KEY_LEFT);
    const beforeCall = performance.now() - t0.v;
    step(doc);
    const callMs = performance.now() - t0.v - beforeCall;
    await sleep(1000);
    const got = await text(doc, `e${run}`);
    const cursors = log.filter((l) => l.type === LOK_CALLBACK_INVALIDATE_VISIBLE_CURSOR).map((l) => Math.round(l.at));
    outcomes.push(
      `${JSON.stringify(got)} call ${callMs.toFixed(1)} ms; ${log.length} callbacks, first at ${log[0] ? Math.round(log[0].at) : '-'} ms, cursor callbacks at [${cursors.join(', ')}] ms`,
    );
    doc.destroy();
  }
  results[name] = outcomes;
}

// The fence (daemon/native/src/input-fence.cc): 7 posted arrows, then a synchronous paste once the fence ran.
// Also after 3 Backspaces (Writer runs them through a posted accelerator): hops 0 and 2.
{
  const fenced: string[] = [];
  for (const [label, hops, before] of [
    [
      'arrows, hops 0',
      0,
      (doc: LokDocument) => {
        for (let i = 0; i < 7; i++) key(doc, VclKeyCode.KEY_LEFT);
      },
    ],
    [
      'arrows, hops 2',
      2,
      (doc: LokDocument) => {
        for (let i = 0; i < 7; i++) key(doc, VclKeyCode.KEY_LEFT);
      },
    ],
    [
      '3 backspaces, hops 0',
      0,
      (doc: LokDocument) => {
        for (let i = 0; i < 3; i++) key(doc, VclKeyCode.KEY_BACKSPACE, 8);
      },
    ],
    [
      '3 backspaces, hops 2',
      2,
      (doc: LokDocument) => {
        for (let i = 0; i < 3; i++) key(doc, VclKeyCode.KEY_BACKSPACE, 8);
      },
    ],
  ] as const) {
    for (let run = 0; run < 3; run++) {
      const { doc, t0 } = await fresh(`fence${run}`);
      t0.v = performance.now();
      before(doc);
      const fenceMs = await new Promise<number>((resolve, reject) => {
        if (!doc.postInputFence(() => resolve(performance.now() - t0.v), hops)) reject(new Error('no fence'));
      });
      doc.paste('text/plain;charset=utf-8', Buffer.from('X'));
      await sleep(300);
      fenced.push(`${label}: ${JSON.stringify(await text(doc, `fence${run}`))} fence after ${fenceMs.toFixed(1)} ms`);
      doc.destroy();
    }
  }
  results['fence then paste'] = fenced;
}

// When do the cursor callbacks of 7 posted arrows arrive, and how many (one per arrow, or coalesced)?
{
  const timings: string[] = [];
  for (let run = 0; run < 3; run++) {
    const { doc, log, t0 } = await fresh(`arrows${run}`);
    t0.v = performance.now();
    for (let i = 0; i < 7; i++) key(doc, VclKeyCode.KEY_LEFT);
    await sleep(600);
    timings.push(log.map((l) => `${Math.round(l.at)}:${l.type}`).join(' '));
    doc.destroy();
  }
  results['7 arrows: callbacks (ms:type)'] = timings;
}

// Written synchronously: exitProcess ends the process at once, before an asynchronous pipe write.
writeSync(1, `${JSON.stringify(results, null, 2)}\n`);
clearInterval(keepAlive);
for (const b of burners) b.kill();
rmSync(work, { recursive: true, force: true });
office.exitProcess(0);
