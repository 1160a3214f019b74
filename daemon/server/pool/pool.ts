/**
 * The kit pool: keeps `kits.prespawn` warm kits ready, leases kits to conversions (at most
 * `kits.convert_concurrency` at once; the rest wait in a FIFO queue bounded by `limits.queue`), leases kits to
 * editing documents for their whole life (leaseEditingKit/retireKit; they count towards `kits.max` and wait in
 * the same queue, without the conversion limit), recycles a kit after `kits.max_jobs` jobs, replaces kits that
 * die, and stops idle extra kits after `kits.idle_secs`.
 *
 * | kit in the pool | meaning                                   | next                                     |
 * |-----------------|-------------------------------------------|------------------------------------------|
 * | starting        | spawned, LibreOffice initialising          | ready (pump waiters) or gone (back-off)  |
 * | ready, free     | warm, not leased                          | leased to the first waiter               |
 * | leased          | running one job for one caller            | free again, or recycled after max_jobs   |
 * | editing         | holds one document for its whole life      | retired (stopped or killed), never reused |
 * | stopping/gone   | recycled, reaped, crashed or killed       | a replacement is spawned if below target |
 *
 * Priorities (issue 17, `kits.convert_nice`): a kit that runs a conversion is first reniced (kit-priority.ts), so
 * that editing kits and the daemon, at nice 0, win the CPU over batch conversions. The nice value cannot be lowered
 * again without CAP_SYS_NICE, so a niced kit stays a conversion kit: it is never leased for editing, conversions
 * take a free niced kit before a normal one, and the `prespawn` warm kits the pool keeps are normal ones (so up to
 * `convert_concurrency` niced kits live beside them, within `kits.max`; idle niced kits are stopped after
 * `kits.idle_secs`). An editing document that finds only niced free kits at `kits.max` gets one of them stopped
 * and a normal kit started in its place.
 */
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { OdeConfig } from '../config/schema.ts';
import { OdeError } from '../errors.ts';
import type { KitSettingsManifest } from '../../protocol/kit.ts';
import { ConfigError } from '../config/load.ts';
import { assertEngineSupported } from './engine-check.ts';
import type { KitCommand } from '../sandbox/command.ts';
import { FetchProxy } from '../sandbox/fetch-proxy.ts';
import { resolveSandbox, SANDBOX_FIX, type KitSandbox } from '../sandbox/sandbox.ts';
import { KitPidFiles } from './kit-pids.ts';
import { setKitNice } from './kit-priority.ts';
import { KitProcess, type FakeKitOptions } from './kit-process.ts';

/** Counts for /health and the admin API. */
export interface PoolStatus {
  ready: number;
  busy: number;
  starting: number;
  queue: number;
  /**
   * `leased`: running a conversion; `editing`: leased to an editing document; `nice`: the nice value the kit runs
   * at (kits.convert_nice once it ran a conversion, else 0).
   */
  kits: Array<{ id: number; pid: number | undefined; state: string; jobs: number; leased: boolean; editing: boolean; nice: number }>;
}

interface Waiter {
  resolve: (kit: KitProcess) => void;
  reject: (err: Error) => void;
  /** A conversion waits for kits.convert_concurrency too; an editing document only for a free kit. */
  kind: 'convert' | 'edit';
}

/** Options of the pool; `config` is read on every decision so live config edits apply at once. */
export interface KitPoolOptions {
  config: () => OdeConfig;
  log: Logger;
  /** Root of the kits' temp dirs; default a fresh folder under the OS temp dir, removed by stop(). */
  tmpRoot?: string;
  /** Wraps each kit's command (resource limits: `prlimit ... --`); see KitSpawnOptions.wrap. */
  wrapKitCommand?: (cmd: KitCommand) => KitCommand;
  /** Tests only: every kit is the fake kit (kit.md, "The fake kit"; KitSpawnOptions.fake). */
  fakeKits?: FakeKitOptions;
}

/** What start() decided about the sandbox (issue 18), for /health, the admin API and tests. */
export interface SandboxStatus {
  /** `security.sandbox` at start. */
  mode: 'required' | 'auto' | 'off';
  /** True when kits start in bubblewrap. */
  active: boolean;
  /** What the probe saw (bwrap's version and the filter, or why it cannot run). */
  detail: string;
}

/** See the module docstring for the state table. */
export class KitPool {
  private readonly kits = new Set<KitProcess>();
  private readonly leased = new Set<KitProcess>();
  /** Kits leased to editing documents (never returned; retired when the document closes). */
  private readonly editing = new Set<KitProcess>();
  private readonly waiters: Waiter[] = [];
  private activeConversions = 0;
  private readonly log: Logger;
  private readonly tmpRoot: string;
  private readonly config: () => OdeConfig;
  private spawnFailures = 0;
  private backoffUntil = 0;
  private backoffTimer: NodeJS.Timeout | undefined;
  private reaper: NodeJS.Timeout | undefined;
  private stopped = false;
  /** A copy of the first warm kit's profile, for kits started with settings (KitSpawnOptions.profileTemplate). */
  private profileTemplate: string | undefined;
  /** Incremented for every kit that dies unexpectedly (crash, kill, time-out); for metrics. */
  crashes = 0;
  private readonly wrapKitCommand: ((cmd: KitCommand) => KitCommand) | undefined;
  private readonly fakeKits: FakeKitOptions | undefined;
  private sandbox: KitSandbox | undefined;
  /** The sandbox as decided by start(); undefined before. */
  sandboxStatus: SandboxStatus | undefined;
  /** The fetch proxy for external data in documents (net.lok_allow); started by start(). */
  fetchProxy: FetchProxy | undefined;
  private pidFiles: KitPidFiles | undefined;

  constructor(opts: KitPoolOptions) {
    this.config = opts.config;
    this.log = opts.log.child({ component: 'pool' });
    this.tmpRoot = opts.tmpRoot ?? join(tmpdir(), `ode-${process.pid}-${Date.now().toString(36)}`);
    this.wrapKitCommand = opts.wrapKitCommand;
    this.fakeKits = opts.fakeKits;
    mkdirSync(this.tmpRoot, { recursive: true });
  }

  /**
   * Ends kits a previous daemon left (pid files under `<state_dir>/kits`), decides the sandbox
   * (`security.sandbox`, logged), starts the fetch proxy, spawns the warm kits and starts the idle reaper. Does not
   * wait for LibreOffice to start.
   * @throws ConfigError when `security.sandbox` is `required` and bubblewrap cannot run here.
   */
  start(): void {
    const cfg = this.config();
    // LibreOffice older than 25.2 is refused before any kit starts (ConfigError naming the version and the fix).
    assertEngineSupported(cfg.lo_path);
    this.pidFiles = new KitPidFiles(cfg.state_dir, this.log);
    this.pidFiles.endLeftovers();
    const { sandbox, probe, mode } = resolveSandbox(this.config, this.tmpRoot);
    this.sandbox = sandbox;
    this.sandboxStatus = { mode, active: sandbox !== undefined, detail: probe?.detail ?? 'security.sandbox is off' };
    if (sandbox) this.log.info({ sandbox: probe?.detail }, 'kits run in a bubblewrap sandbox (no network, no state directory)');
    else if (mode === 'required')
      throw new ConfigError('security.sandbox', [`security.sandbox: required: ${probe?.detail ?? 'bubblewrap cannot run'}; fix: ${SANDBOX_FIX}`]);
    else if (mode === 'auto')
      this.log.error(
        { reason: probe?.detail, fix: SANDBOX_FIX },
        'kits run WITHOUT a sandbox: bubblewrap cannot run here, so a document can reach the network and every file Ode can read',
      );
    else this.log.warn('security.sandbox is off: kits run without a sandbox (a document can reach the network and every file Ode can read)');
    this.fetchProxy = new FetchProxy({
      socketPath: join(this.tmpRoot, 'fetch-proxy.sock'),
      policy: () => {
        const c = this.config();
        return {
          hosts: c.net.lok_allow.host,
          timeoutMs: c.security.external_data.timeout_secs * 1000,
          maxBytes: c.security.external_data.max_mb * 1024 * 1024,
        };
      },
      log: this.log,
    });
    this.fetchProxy.start().catch((e: Error) => this.log.error({ err: e.message }, 'the fetch proxy could not start: external data stays blocked'));
    this.ensureWarm();
    this.reaper = setInterval(() => this.reapIdle(), 5000);
    this.reaper.unref();
  }

  /** Resolves when at least `n` kits are ready (for tests, benchmarks and `ode convert`). */
  async waitReady(n = 1, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.status().ready < n) {
      if (Date.now() > deadline) throw new OdeError('no_kit', `fewer than ${n} kits became ready within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /**
   * Runs `fn` with a leased kit for one conversion, then returns the kit to the pool (or recycles it). The kit runs
   * at `kits.convert_nice` from before `fn` on (see the module docstring).
   * @throws OdeError queue_full when `limits.queue` callers are already waiting; no_kit when kits cannot start.
   */
  async withConversionKit<T>(fn: (kit: KitProcess) => Promise<T>): Promise<T> {
    const kit = await this.acquire();
    try {
      await this.lowerPriority(kit);
      return await fn(kit);
    } finally {
      this.release(kit);
    }
  }

  /**
   * Renices a kit leased for a conversion to `kits.convert_nice` (0: left alone). `kit.nice` is set at once, so the
   * kit is never leased for editing afterwards even if renicing fails (which is logged, not thrown).
   */
  private async lowerPriority(kit: KitProcess): Promise<void> {
    const nice = this.config().kits.convert_nice;
    if (!nice || kit.nice >= nice || !kit.pid) return;
    kit.nice = nice;
    await setKitNice(kit.pid, nice, this.log.child({ kit: kit.id }));
  }

  private acquire(kind: Waiter['kind'] = 'convert'): Promise<KitProcess> {
    if (this.stopped) return Promise.reject(new OdeError('no_kit', 'the server is shutting down'));
    const cfg = this.config();
    const free = this.freeKit(kind);
    if (free && this.waiters.length === 0 && (kind === 'edit' || this.activeConversions < cfg.kits.convert_concurrency)) {
      this.lease(free, kind);
      this.ensureWarm();
      return Promise.resolve(free);
    }
    if (this.waiters.length >= cfg.limits.queue) {
      return Promise.reject(
        new OdeError(
          'queue_full',
          `${this.waiters.length} ${kind === 'edit' ? 'requests are already waiting for a kit' : 'conversions are already waiting'} (limits.queue); try again later.`,
        ),
      );
    }
    return new Promise<KitProcess>((resolve, reject) => {
      this.waiters.push({ resolve, reject, kind });
      this.pump();
    });
  }

  private lease(kit: KitProcess, kind: Waiter['kind']): void {
    if (kind === 'edit') {
      this.editing.add(kit);
      return;
    }
    this.leased.add(kit);
    this.activeConversions++;
  }

  /**
   * A ready kit taken out of conversion use for an editing document's whole life (kit.md, "Editing"): the caller
   * sends it `open` and then the editing requests, and hands it back with retireKit when the document closes. It
   * counts towards `kits.max`; without a free kit the caller waits in the queue like a conversion (but not for
   * `kits.convert_concurrency`), and a replacement warm kit is spawned when room allows. A kit that dies while
   * leased emits `exit` as usual (and is replaced). With `settings` (files for the LibreOffice profile), the kit is
   * one started for this lease with them installed before LibreOffice starts (about a kit's start-up later).
   * @throws OdeError queue_full when `limits.queue` requests already wait; no_kit when kits cannot start or the
   * server is stopping.
   */
  async leaseEditingKit(opts: { settings?: KitSettingsManifest } = {}): Promise<KitProcess> {
    const kit = await this.acquire('edit');
    if (!opts.settings?.files.length) return kit;
    // Settings must be in the profile before lok_init_2 (kit.md, "Settings"), and a warm kit's LibreOffice has
    // read its profile already: the lease's place goes to a kit started for this document with the settings (the
    // warm kit is stopped and topped up as after any lease). Waiting in the queue first keeps kits.max.
    this.editing.delete(kit);
    void kit.stop();
    const fresh = this.spawn(opts.settings);
    this.editing.add(fresh);
    await new Promise<void>((resolve, reject) => {
      const onReady = () => (fresh.off('exit', onExit), resolve());
      const onExit = () => (
        fresh.off('ready', onReady), reject(new OdeError('no_kit', 'the LibreOffice process for the settings could not start; see the server log.'))
      );
      fresh.once('ready', onReady);
      fresh.once('exit', onExit);
    });
    return fresh;
  }

  /**
   * Ends an editing kit's lease: a live kit is stopped (`shutdown`, which destroys its document; SIGKILL after the
   * grace period) and never reused; the pool spawns a replacement as usual. Safe on a kit that already exited
   * (e.g. after closeDoc) or was never leased.
   */
  retireKit(kit: KitProcess): void {
    this.editing.delete(kit);
    if (kit.alive) void kit.stop();
    this.pump();
  }

  private release(kit: KitProcess): void {
    if (this.leased.delete(kit)) this.activeConversions--;
    if (kit.alive && kit.jobs >= this.config().kits.max_jobs) {
      this.log.info({ kit: kit.id, jobs: kit.jobs }, 'recycling kit after kits.max_jobs jobs');
      void kit.stop();
    }
    this.pump();
  }

  /**
   * A free kit for `kind`: for editing only a kit at normal priority; for a conversion a niced kit first, else a
   * normal one (`allowNormal: false` forbids the fallback, for a conversion queued behind an editing document that
   * is waiting for a normal kit).
   */
  private freeKit(kind: Waiter['kind'], allowNormal = true): KitProcess | undefined {
    let normal: KitProcess | undefined;
    for (const kit of this.kits) {
      if (!this.isFree(kit)) continue;
      if (kit.nice === 0) normal ??= kit;
      else if (kind === 'convert') return kit;
    }
    return allowNormal ? normal : undefined;
  }

  private isFree(kit: KitProcess): boolean {
    return kit.state === 'ready' && !kit.editing && !this.leased.has(kit) && !this.editing.has(kit);
  }

  /** Hands free kits to waiters in FIFO order, then tops up warm kits. */
  private pump(): void {
    const cfg = this.config();
    // FIFO, except that conversions held back by kits.convert_concurrency do not hold back editing documents, and
    // an editing document waiting for a normal kit does not hold back conversions that can take a niced one.
    let normalWanted = false;
    for (let i = 0; i < this.waiters.length; ) {
      const waiter = this.waiters[i];
      if (waiter.kind === 'convert' && this.activeConversions >= cfg.kits.convert_concurrency) {
        i++;
        continue;
      }
      const kit = this.freeKit(waiter.kind, !normalWanted);
      if (!kit) {
        if (waiter.kind === 'convert') break;
        normalWanted = true;
        i++;
        continue;
      }
      this.waiters.splice(i, 1);
      this.lease(kit, waiter.kind);
      waiter.resolve(kit);
    }
    this.ensureWarm();
  }

  /**
   * Spawns kits until normal (un-niced) free+starting kits cover max(prespawn, waiters that could run now and
   * cannot take a free niced kit), within kits.max; at kits.max, free niced kits are stopped to make room for
   * editing documents waiting for a normal kit. A kit leased away is topped up by the next call (after every
   * lease), so `prespawn` normal kits stay free.
   */
  private ensureWarm(): void {
    if (this.stopped) return;
    const cfg = this.config();
    if (Date.now() < this.backoffUntil) {
      if (!this.backoffTimer) {
        this.backoffTimer = setTimeout(() => {
          this.backoffTimer = undefined;
          this.ensureWarm();
        }, this.backoffUntil - Date.now());
      }
      return;
    }
    const convertWaiters = this.waiters.filter((w) => w.kind === 'convert').length;
    const editWaiters = this.waiters.length - convertWaiters;
    const runnableConverts = Math.min(convertWaiters, Math.max(0, cfg.kits.convert_concurrency - this.activeConversions));
    let have = 0;
    const nicedFree: KitProcess[] = [];
    for (const kit of this.kits) {
      if (kit.state === 'starting' || (this.isFree(kit) && kit.nice === 0)) have++;
      else if (this.isFree(kit)) nicedFree.push(kit);
    }
    const want = Math.max(cfg.kits.prespawn, editWaiters + Math.max(0, runnableConverts - nicedFree.length));
    while (have < want) {
      if (this.liveCount() >= cfg.kits.max) {
        // Room for an editing document only: a niced kit can never serve it.
        const victim = have < editWaiters ? nicedFree.pop() : undefined;
        if (!victim) break;
        this.log.info({ kit: victim.id }, 'stopping a free conversion kit (niced) to start a kit for editing within kits.max');
        void victim.stop();
      }
      this.spawn();
      have++;
    }
  }

  private liveCount(): number {
    let n = 0;
    for (const kit of this.kits) if (kit.state !== 'stopping' && kit.state !== 'dead') n++;
    return n;
  }

  private spawn(settings?: KitSettingsManifest): KitProcess {
    const kit = new KitProcess({
      loPath: this.config().lo_path,
      tmpRoot: this.tmpRoot,
      log: this.log,
      settings,
      profileTemplate: settings ? this.profileTemplate : undefined,
      sandbox: this.sandbox,
      proxySocket: this.fetchProxy?.socketPath,
      wrap: this.wrapKitCommand,
      pidFiles: this.pidFiles,
      fake: this.fakeKits,
      limits: () => ({ memoryMb: this.config().limits.kit_memory_mb, cpuSecs: this.config().limits.kit_cpu_secs }),
    });
    this.kits.add(kit);
    kit.once('ready', () => {
      this.spawnFailures = 0;
      if (!this.profileTemplate && !settings) this.keepProfileTemplate(kit);
      this.pump();
    });
    kit.once('exit', () => {
      const failedStart = kit.version === '';
      this.kits.delete(kit);
      // A kit leased for editing dies unexpectedly unless it was closed (closeDoc) or retired first.
      const editingDied = this.editing.delete(kit) && !kit.exitRequested;
      if (this.leased.has(kit) || editingDied || failedStart) this.crashes++;
      if (failedStart && !this.stopped) {
        this.spawnFailures++;
        const delay = Math.min(30_000, 250 * 2 ** Math.min(this.spawnFailures, 7));
        this.backoffUntil = Date.now() + delay;
        this.log.error({ failures: this.spawnFailures, retryInMs: delay }, 'a kit failed to start');
        if (this.spawnFailures >= 3 && this.liveReadyOrStarting() === 0) {
          for (const w of this.waiters.splice(0)) w.reject(new OdeError('no_kit', 'LibreOffice could not be started; see the server log.'));
        }
      }
      this.pump();
    });
    return kit;
  }

  /** Copies a warm kit's profile (created by LibreOffice at its start) once, as the template of settings kits. */
  private keepProfileTemplate(kit: KitProcess): void {
    const dir = join(this.tmpRoot, 'profile-template');
    try {
      cpSync(join(kit.dir, 'profile'), dir, { recursive: true, filter: (src) => !/(^|\/)\.lock$|\.tmp$/.test(src) });
      this.profileTemplate = dir;
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      this.log.warn({ err: (e as Error).message }, 'no profile template: kits with settings create their profile');
    }
  }

  private liveReadyOrStarting(): number {
    let n = 0;
    for (const kit of this.kits) if (kit.state === 'ready' || kit.state === 'starting') n++;
    return n;
  }

  /** Stops free kits idle for kits.idle_secs: niced ones all, normal ones down to `prespawn`. */
  private reapIdle(): void {
    const cfg = this.config();
    const idleMs = cfg.kits.idle_secs * 1000;
    let free = 0;
    for (const kit of this.kits) if (this.isFree(kit) && kit.nice === 0) free++;
    for (const kit of this.kits) {
      if (!this.isFree(kit) || Date.now() - kit.idleSince <= idleMs) continue;
      if (kit.nice === 0) {
        if (free <= cfg.kits.prespawn) continue;
        free--;
      }
      this.log.info({ kit: kit.id, nice: kit.nice }, 'stopping idle kit');
      void kit.stop();
    }
  }

  /** Counts and per-kit states. */
  status(): PoolStatus {
    const kits = [...this.kits].map((k) => ({
      id: k.id,
      pid: k.pid,
      state: k.state,
      jobs: k.jobs,
      leased: this.leased.has(k),
      editing: this.editing.has(k),
      nice: k.nice,
    }));
    return {
      ready: kits.filter((k) => k.state === 'ready' && !k.leased && !k.editing).length,
      busy: kits.filter((k) => k.leased || k.editing || k.state === 'busy').length,
      starting: kits.filter((k) => k.state === 'starting').length,
      queue: this.waiters.length,
      kits,
    };
  }

  /**
   * Each live kit as the admin API shows it (read-only): pid, what it does now (`editing` when leased to a
   * document, `busy` when leased to a conversion), jobs so far and when it was spawned (ms since the epoch).
   */
  kitsInfo(): Array<{ pid: number; state: 'starting' | 'ready' | 'busy' | 'editing' | 'stopping'; jobs: number; startedAt: number }> {
    return [...this.kits].flatMap((k) => {
      if (!k.pid || k.state === 'dead') return [];
      const state =
        k.state === 'stopping' ? 'stopping' : this.editing.has(k) || k.editing ? 'editing' : this.leased.has(k) || k.state === 'busy' ? 'busy' : k.state;
      return [{ pid: k.pid, state, jobs: k.jobs, startedAt: k.startedAt }];
    });
  }

  /** Pids of live kits (for tests that kill one). */
  kitPids(): number[] {
    return [...this.kits].flatMap((k) => (k.pid && k.alive ? [k.pid] : []));
  }

  /** Stops every kit (clean shutdown, SIGKILL after the grace period) and removes the temp root. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.reaper);
    clearTimeout(this.backoffTimer);
    for (const w of this.waiters.splice(0)) w.reject(new OdeError('no_kit', 'the server is shutting down'));
    await Promise.all([...this.kits].map((k) => k.stop()));
    await this.fetchProxy?.stop();
    rmSync(this.tmpRoot, { recursive: true, force: true });
  }
}
