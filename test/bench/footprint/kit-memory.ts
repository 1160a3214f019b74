/**
 * test/bench/footprint/kit-memory.ts: where a kit's memory goes (issue 19), for one kit configuration at a time.
 * Starts the compiled kit (`dist/kit.js`, as an install runs it) directly over its IPC protocol (kit.md), with the
 * environment the pool gives it plus the variant's variables and Node options, and reports:
 *   - start-up: spawn to `ready` (wall ms), lok_init_2 and warm-up (the kit's own ms);
 *   - a warm idle kit's RSS before and after its idle trim, with a breakdown from /proc/<pid>/smaps (anonymous
 *     memory, the malloc heap, file mappings by library, fonts) and the kit's Node heap (process.memoryUsage,
 *     through mem-probe.mjs);
 *   - a conversion kit: median ms of N conversions of a small docx (BENCH_DOC: another corpus file) to PDF, RSS after 10 and after N;
 *   - an editing kit holding one small docx: open ms, first tiles ms, typing (text input to the first tile
 *     invalidation, median ms), RSS with the document open, and the breakdown.
 * Run: `node bin/run-ts.js test/bench/footprint/kit-memory.ts [NAME=VALUE ...] [--node=--v8-option ...]`, e.g.
 * `... kit-memory.ts MALLOC_ARENA_MAX=2 --node=--max-semi-space-size=1`. Needs `dist/` (node scripts/setup.mjs).
 * BENCH_POOL_DEFAULTS=0 leaves out the pool's malloc variables and V8 options (kit-process.ts), as before issue 19.
 * Prints one JSON object.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_ALLOWLIST_LANGUAGES, KIT_MEMORY_ENV, KIT_NODE_OPTIONS } from '../../../daemon/server/pool/kit-process.ts';
import { median } from '../stats.ts';
import { type Breakdown, breakdown } from './smaps.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;
/** The document converted and edited: BENCH_DOC (a path under the corpus), else a small docx. */
const DOC = join(ROOT, '../shared/corpus', process.env.BENCH_DOC ?? 'tracked-changes/delins.docx');
const EXT = DOC.slice(DOC.lastIndexOf('.'));
const CONVERSIONS = Number(process.env.BENCH_CONVERSIONS ?? 30);
const TRIM_IDLE_MS = Number(process.env.BENCH_TRIM_IDLE_MS ?? 2000);
const MB = 2 ** 20;
/** BENCH_POOL_DEFAULTS=0: without the pool's malloc variables and V8 options (kit-process.ts), as before issue 19. */
const POOL_DEFAULTS = process.env.BENCH_POOL_DEFAULTS !== '0';

const variantEnv: Record<string, string> = {};
const nodeOptions: string[] = [];
for (const arg of process.argv.slice(2)) {
  if (arg.startsWith('--node=')) nodeOptions.push(arg.slice('--node='.length));
  else if (arg.includes('=')) variantEnv[arg.slice(0, arg.indexOf('='))] = arg.slice(arg.indexOf('=') + 1);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The pool's environment for a kit (kit-process.ts), unsandboxed, plus the variant's. */
function kitEnv(dir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...(POOL_DEFAULTS ? KIT_MEMORY_ENV : {}),
    ODE_KIT_PROFILE_URL: pathToFileURL(join(dir, 'profile')).href,
    ODE_LO_PATH: '/usr/lib/libreoffice/program',
    ODE_KIT_DIR: dir,
    ODE_KIT_TRIM_IDLE_MS: String(TRIM_IDLE_MS),
    LOK_ALLOWLIST_LANGUAGES: DEFAULT_ALLOWLIST_LANGUAGES,
    DISPLAY: '',
    SAL_USE_VCLPLUGIN: 'svp',
    ...variantEnv,
  };
}

/** One kit under the harness's control. */
class Kit {
  readonly child: ChildProcess;
  readonly spawnedAt = performance.now();
  ready: Promise<{ initMs: number; warmMs: number; wallMs: number }>;
  private nextId = 1;
  private readonly waiting = new Map<number, (msg: Record<string, unknown>) => void>();
  private memWaiter: ((m: Record<string, unknown>) => void) | undefined;
  /** Called with each LOK callback type the kit forwards. */
  onCallback: ((type: number) => void) | undefined;

  constructor(readonly dir: string) {
    mkdirSync(join(dir, 'profile'), { recursive: true });
    this.child = fork(join(ROOT, 'dist/kit.js'), [], {
      execArgv: [...(POOL_DEFAULTS ? KIT_NODE_OPTIONS : []), '--import', pathToFileURL(join(ROOT, 'test/bench/footprint/mem-probe.mjs')).href, ...nodeOptions],
      serialization: 'advanced',
      env: kitEnv(dir),
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child.stderr!.on('data', (c: Buffer) => process.env.BENCH_VERBOSE && process.stderr.write(c));
    this.ready = new Promise((resolve, reject) => {
      this.child.on('message', (raw) => {
        const msg = raw as Record<string, unknown>;
        if (msg.type === 'ready') resolve({ initMs: msg.initMs as number, warmMs: msg.warmMs as number, wallMs: performance.now() - this.spawnedAt });
        else if (msg.type === 'fatal') reject(new Error(String(msg.message)));
        else if (msg.type === 'result') this.waiting.get(msg.id as number)?.(msg);
        else if (msg.type === '__mem') this.memWaiter?.(msg);
        else if (msg.type === 'callback') this.onCallback?.(msg.callbackType as number);
      });
      this.child.on('exit', (code) => reject(new Error(`kit exited ${code}`)));
    });
  }

  request(msg: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (r) => (this.waiting.delete(id), r.ok ? resolve(r) : reject(new Error(JSON.stringify(r.error)))));
      this.child.send({ ...msg, id });
    });
  }

  /** The kit's Node memory (process.memoryUsage, MB) through mem-probe.mjs. */
  async nodeMemory(): Promise<Record<string, number>> {
    const m = await new Promise<Record<string, unknown>>((resolve) => {
      this.memWaiter = resolve;
      this.child.send({ type: '__memprobe' });
    });
    const usage = m.usage as Record<string, number>;
    return Object.fromEntries(Object.entries(usage).map(([k, v]) => [k, Math.round((v / MB) * 10) / 10]));
  }

  async stop(): Promise<void> {
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.send({ type: 'shutdown' });
    const t = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(t);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const mb = (kb: number) => Math.round(kb / 1024);

function summary(b: Breakdown): Record<string, number> {
  const top = Object.entries(b.byFile).sort((x, y) => y[1] - x[1]);
  const lo = top.filter(([n]) => /lo\.so$|^lib.*lo\.so|\.rdb$|liblocaledata/.test(n)).reduce((s, [, kb]) => s + kb, 0);
  return {
    rssMb: mb(b.rss),
    pssMb: mb(b.pss),
    anonMb: mb(b.anon),
    mallocHeapMb: mb(b.heap),
    fileMb: mb(b.file),
    nodeBinaryMb: mb(b.byFile.node ?? 0),
    libmergedloMb: mb(b.byFile['libmergedlo.so'] ?? 0),
    otherLibreOfficeLibsMb: mb(lo - (b.byFile['libmergedlo.so'] ?? 0)),
    fontsMb: mb(b.fonts),
  };
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'ode-kit-memory-'));
  const result: Record<string, unknown> = {
    variant: { env: variantEnv, node: nodeOptions },
    load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
  };
  try {
    // A warm idle kit, then conversions in it.
    const conv = new Kit(join(root, 'conv'));
    result.startup = await conv.ready;
    await sleep(500);
    result.idleBeforeTrim = summary(breakdown(conv.child.pid!));
    await sleep(TRIM_IDLE_MS + 1500);
    result.idle = summary(breakdown(conv.child.pid!));
    result.idleNode = await conv.nodeMemory();
    const top = Object.entries(breakdown(conv.child.pid!).byFile)
      .sort((x, y) => y[1] - x[1])
      .slice(0, 12);
    result.idleTopFilesMb = Object.fromEntries(top.map(([n, kb]) => [n, mb(kb)]));
    const times: number[] = [];
    for (let i = 1; i <= CONVERSIONS; i++) {
      const jobDir = join(conv.dir, 'jobs', String(i));
      mkdirSync(jobDir, { recursive: true });
      copyFileSync(DOC, join(jobDir, `in${EXT}`));
      const t = performance.now();
      await conv.request({ type: 'convert', input: join(jobDir, `in${EXT}`), output: join(jobDir, 'out.pdf'), format: 'pdf' });
      times.push(performance.now() - t);
      rmSync(jobDir, { recursive: true, force: true });
      if (i === 10) result.after10Mb = mb(breakdown(conv.child.pid!).rss);
    }
    result.firstConversionMs = Math.round(times[0]);
    result.conversionMedianMs = Math.round(median(times.slice(1)));
    result[`after${CONVERSIONS}Mb`] = mb(breakdown(conv.child.pid!).rss);
    await conv.stop();

    // An editing kit with one small document, one view, tiles painted and a few characters typed.
    const ed = new Kit(join(root, 'edit'));
    await ed.ready;
    copyFileSync(DOC, join(ed.dir, `doc${EXT}`));
    let t = performance.now();
    const opened = await ed.request({ type: 'open', input: join(ed.dir, `doc${EXT}`), userName: 'bench' });
    result.openMs = Math.round(performance.now() - t);
    const viewId = opened.viewId as number;
    const tile = (x: number, y: number) =>
      ed.request({ type: 'tile', viewId, part: 0, mode: 0, width: 256, height: 256, x, y, tileTwipWidth: 3840, tileTwipHeight: 3840 });
    t = performance.now();
    for (let y = 0; y < 3; y++) for (let x = 0; x < 3; x++) await tile(x * 3840, y * 3840);
    result.nineTilesMs = Math.round(performance.now() - t);
    /** Types `text` a character at a time: for each, ms from the input to its tile invalidation (2 s at most), then the first tile painted again. */
    const typeTimed = async (text: string) => {
      const times: number[] = [];
      for (const ch of text) {
        const invalidated = new Promise<void>((resolve) => {
          ed.onCallback = (type) => type === 0 && resolve();
        });
        const start = performance.now();
        ed.child.send({ type: 'event', viewId, event: { type: 'textInput', text: ch } });
        await Promise.race([invalidated, sleep(2000)]);
        times.push(performance.now() - start);
        await tile(0, 0);
      }
      return times;
    };
    const typing = await typeTimed('typing here');
    result.typingMedianMs = Math.round(median(typing) * 10) / 10;
    await sleep(3000);
    result.editing = summary(breakdown(ed.child.pid!));
    result.editingNode = await ed.nodeMemory();
    if (process.env.BENCH_EDIT_IDLE_MS) {
      // What an idle editing document keeps after waiting (the kit's own idle behaviour, if any).
      await sleep(Number(process.env.BENCH_EDIT_IDLE_MS));
      result.editingIdle = summary(breakdown(ed.child.pid!));
      const after = await typeTimed('more');
      result.typingAfterIdleMs = after.map((x) => Math.round(x));
    }
    await ed.stop();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  console.log(JSON.stringify(result, null, 1));
}

await main();
