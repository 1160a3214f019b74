/**
 * One kit child process seen from the daemon.
 *
 * | state    | entered when                                       | the kit's temp dir        | leaves to                         |
 * |----------|----------------------------------------------------|---------------------------|-----------------------------------|
 * | starting | fork() (LibreOffice initialising)                   | profile being created     | ready, dead (fatal/exit)          |
 * | ready    | the kit sent `ready`                               | profile only              | busy, stopping, dead              |
 * | busy     | a job was sent, or `open` (held until the kit ends) | + jobs/<id>/ input,output | ready (jobs only), stopping, dead |
 * | stopping | stop() sent `shutdown` (SIGKILL after 5 s), or closeDoc() | -                   | dead                              |
 * | dead     | the process exited                                 | removed                   | -                                 |
 *
 * A conversion job has a time limit per stage (load, then convert, switched by the kit's `progress` message);
 * past it the process is SIGKILLed (a hung LibreOffice ignores SIGTERM) and the request fails with `timeout`.
 * Editing (kit.md, "Editing"): after `open` the kit holds one document for good and several requests may be in
 * flight at once (one Map entry per id). `open` has the load limit and kills on time-out like a conversion; the
 * other editing requests have a plain limit (60 s saveDoc/exportDoc, 10 s the rest) and fail with `timeout`
 * without killing: the document's owner decides whether to retire the kit. Every LibreOfficeKit callback of the
 * open document is emitted as `callback` (viewId, type, payload), in order.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { closeSync, copyFileSync, cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import {
  FAKE_KIT_CONTROL_ENV,
  isKitToDaemon,
  type KitSettingsManifest,
  type KitSettingsReport,
  type ClipboardItem,
  type ConvertRequest,
  type DocInfoResult,
  type InspectRequest,
  type KitEditEvent,
  type KitOk,
  type CreateViewRequest,
  type KitRequest,
  type KitRequestBody,
  type KitResult,
  type OpenRequest,
  type KitToDaemon,
  type OpenResult,
  type SignDocRequest,
  type SignDocResult,
  type TileRequestMessage,
  type WindowPaintRequest,
} from '../../protocol/kit.ts';
import { OdeError, isErrorCode } from '../errors.ts';
import { entryPoint } from '../install-paths.ts';
import type { KitCommand } from '../sandbox/command.ts';
import { PROXY_SOCKET_IN_SANDBOX } from '../sandbox/command.ts';
import { sandboxEnvironment, type KitSandbox } from '../sandbox/sandbox.ts';
import type { KitPidFiles } from './kit-pids.ts';
import { KitWatch, type KitLimits } from './kit-limits.ts';
import { KitOutputTail } from './kit-output.ts';

/** Lifecycle state of a kit (see the table above). */
export type KitState = 'starting' | 'ready' | 'busy' | 'stopping' | 'dead';

/** How to start kits: LibreOffice's program dir and the root under which each kit gets its temp dir. */
export interface KitSpawnOptions {
  loPath: string;
  tmpRoot: string;
  log: Logger;
  /**
   * Settings files for this kit's LibreOffice profile, installed by the kit before lok_init_2 (kit.md,
   * "Settings"); such a kit skips the warm-up and serves one editing document.
   */
  settings?: KitSettingsManifest;
  /**
   * A LibreOffice profile to start from (copied before the kit starts), so that lok_init_2 finds a profile instead
   * of creating one (measured: about 0.25 s instead of 1 s). Used for kits started with settings.
   */
  profileTemplate?: string;
  /** The sandbox to start the kit in (issue 18); undefined: the kit runs unconfined, with a parent-death signal. */
  sandbox?: KitSandbox;
  /** The fetch proxy's unix socket (sandbox/fetch-proxy.ts), handed to the kit's bridge; undefined: none. */
  proxySocket?: string;
  /** Wraps the final command (e.g. `prlimit ... --` for resource limits); rlimits pass through bwrap and exec. */
  wrap?: (cmd: KitCommand) => KitCommand;
  /** Where the kit's pid file goes (a starting daemon ends kits a dead one left). */
  pidFiles?: KitPidFiles;
  /** Tests only: start the fake kit instead of LibreOffice (kit.md, "The fake kit"). */
  fake?: FakeKitOptions;
  /** Memory and per-job CPU limits (kit-limits.ts), read at each poll; undefined: none. */
  limits?: () => KitLimits;
}

/**
 * Tests only: the pool starts the fake kit (daemon/kit/fake/main.ts, kit.md "The fake kit"), which speaks the
 * editing messages without LibreOffice. `controlFile`: the FakeKitControl JSON file handed to it (ODE_FAKE_KIT_CONTROL).
 */
export interface FakeKitOptions {
  controlFile?: string;
}

let setprivPdeathsig: boolean | undefined;
/** True when util-linux's `setpriv --pdeathsig` (2.33+) is there: how an unsandboxed kit dies with its daemon. */
function hasSetprivPdeathsig(): boolean {
  setprivPdeathsig ??= /--pdeathsig/.test(spawnSync('setpriv', ['--help'], { encoding: 'utf8' }).stdout ?? '');
  return setprivPdeathsig;
}

/**
 * Languages LibreOfficeKit keeps its spelling support for (LOK_ALLOWLIST_LANGUAGES): without the variable it turns
 * the language support off entirely ("No language allowlisted"), so nothing would be spell checked. Those with a
 * dictionary installed on the machine are checked (Debian: hunspell-en-us and the like). The environment's own
 * value wins.
 */
export const DEFAULT_ALLOWLIST_LANGUAGES = 'de_DE en_GB en_US es_ES fr_FR it nl pt_BR pt_PT ru';

/**
 * glibc malloc settings for a kit's processes (Node and LibreOffice): two malloc arenas instead of up to eight per
 * core for the kit's dozen threads, about 10 MB less per kit for the same conversion and typing times (measured
 * with test/bench/footprint/kit-memory.ts; docs/benchmarks.md, "Footprint"). The environment's own values win.
 */
export const KIT_MEMORY_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/**
 * V8 options of the kit's Node: its JavaScript is small (IPC, PNG encoding of tiles in LibreOffice's buffers), so
 * a 1 MB young generation semi-space (Node's default grows to 16 MB) keeps about 5 MB of V8 heap out of each kit.
 */
export const KIT_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=1'];

/** The daemon's variables a kit reads (main.ts), passed through even into a sandbox. */
const KIT_TUNING_ENV = ['ODE_KIT_TRIM_IDLE_MS', 'ODE_KIT_TRIM_EDIT_IDLE_MS', 'ODE_KIT_WARM_MODULES', 'ODE_KIT_INPUT_ORDER'] as const;

/** Time limits of one request, in ms. */
export interface StageLimits {
  loadMs: number;
  convertMs: number;
}

/** Plain time limits of the editing requests after `open` (ms): saves and exports write files, the rest is quick. */
export const EDIT_LIMITS_MS = { save: 60_000, other: 10_000 } as const;

/** A request without its id (distributed over the union, so each member keeps its own fields). */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** One request in flight: its answer's handlers, its timer, and how a time-out ends it. */
interface Pending {
  id: number;
  resolve: (r: KitResult) => void;
  reject: (e: Error) => void;
  timer?: NodeJS.Timeout;
  /** Staged limits of a conversion/inspect/open (the kit's `progress` switches to convertMs); undefined for a plain limit. */
  limits?: StageLimits;
  /** Conversions, inspections and `open` kill the kit on time-out; other editing requests only fail. */
  killOnTimeout: boolean;
  /** Counted in `jobs` and turns the kit ready again when answered (convert, inspect). */
  job: boolean;
}

/** The kit's entry: `dist/kit.js` in a compiled install, else daemon/kit/main.ts through tsx (install-paths.ts). */
const KIT_ENTRY = entryPoint('kit');
let nextKitId = 1;

/** A kit process; emits `ready`, `exit` (code, signal) and, while a document is open for editing, `callback` (viewId, type, payload). */
export class KitProcess extends EventEmitter {
  readonly id: number;
  readonly dir: string;
  state: KitState = 'starting';
  pid: number | undefined;
  version = '';
  /** Jobs completed (successfully or not) by this kit. */
  jobs = 0;
  readonly startedAt = Date.now();
  /** When the kit last became ready (ms epoch), for idle reaping. */
  idleSince = Date.now();
  private readonly child: ChildProcess;
  private readonly log: Logger;
  private readonly pidFiles: KitPidFiles | undefined;
  private nextRequestId = 1;
  private readonly pending = new Map<number, Pending>();
  /** True once `open` was sent: the kit holds a document for editing and takes no more conversions. */
  editing = false;
  /** True once stop() or closeDoc() asked the kit to end: its exit is not a crash. */
  exitRequested = false;
  /**
   * The nice value the pool gave this kit's tasks (kits.convert_nice, kit-priority.ts) when it first ran a
   * conversion; 0 for a kit at normal priority. Only goes up: a niced kit is never leased for editing.
   */
  nice = 0;
  /** What the kit made of its settings manifest (from `ready`); undefined for a kit started without one. */
  settingsReport: KitSettingsReport | undefined;
  /** Polls the kit's memory and job CPU time (kit-limits.ts). */
  private readonly watch: KitWatch | undefined;
  /** Set when the watch killed the kit: its requests fail with this instead of kit_crashed. */
  private limitError: OdeError | undefined;
  /** The last lines of the kit's stdout and stderr (kit-output.ts). */
  private readonly output = new KitOutputTail();

  constructor(opts: KitSpawnOptions) {
    super();
    this.id = nextKitId++;
    this.dir = join(opts.tmpRoot, `kit-${this.id}`);
    this.log = opts.log.child({ kit: this.id });
    mkdirSync(join(this.dir, 'profile'), { recursive: true });
    mkdirSync(join(this.dir, 'jobs'), { recursive: true });
    if (opts.profileTemplate && existsSync(opts.profileTemplate)) {
      try {
        cpSync(opts.profileTemplate, join(this.dir, 'profile'), { recursive: true, filter: (src) => !/(^|\/)\.lock$|\.tmp$/.test(src) });
      } catch (e) {
        // A partial copy is still a profile LibreOffice can complete; the kit only starts slower.
        this.log.warn({ err: (e as Error).message }, 'the profile template could not be copied');
      }
    }
    const settingsFile = join(this.dir, 'settings.json');
    if (opts.settings) writeFileSync(settingsFile, JSON.stringify(this.copySettings(opts.settings)));
    // The kit's command: node and its entry, inside bubblewrap (which kills it when the daemon dies:
    // --die-with-parent) or, unsandboxed, under `setpriv --pdeathsig KILL` (the kernel's parent-death signal,
    // which holds whatever LibreOffice is doing, unlike the IPC channel's 'disconnect').
    const entry = opts.fake ? entryPoint('fake-kit') : KIT_ENTRY;
    const inner: KitCommand = { command: process.execPath, args: [...KIT_NODE_OPTIONS, ...entry.execArgv, entry.file] };
    const launch = opts.sandbox?.launch({ kitDir: this.dir, inner, proxySocket: opts.proxySocket });
    let cmd: KitCommand =
      launch?.command ?? (hasSetprivPdeathsig() ? { command: 'setpriv', args: ['--pdeathsig', 'KILL', '--', inner.command, ...inner.args] } : inner);
    if (opts.wrap) cmd = opts.wrap(cmd);
    const proxyEnv = opts.proxySocket ? { ODE_KIT_PROXY_SOCKET: launch ? PROXY_SOCKET_IN_SANDBOX : opts.proxySocket } : {};
    this.child = spawn(cmd.command, cmd.args, {
      serialization: 'advanced',
      // fd 3: the IPC channel (Node's fork protocol, NODE_CHANNEL_FD, passes through bwrap); fd 4: the seccomp filter.
      stdio: ['ignore', 'pipe', 'pipe', 'ipc', ...(launch?.extraFds ?? [])],
      // Its own process group, so kill() also ends anything the kit started.
      detached: true,
      env: {
        // A sandboxed kit gets no daemon variables beyond the harmless ones (they may hold secrets).
        ...(launch ? sandboxEnvironment(process.env) : process.env),
        ...proxyEnv,
        ODE_KIT_PROFILE_URL: pathToFileURL(join(this.dir, 'profile')).href,
        ODE_LO_PATH: opts.loPath,
        ODE_KIT_DIR: this.dir,
        // How long an idle kit (an idle editing document) waits before LibreOffice trims its memory (idle-trim.ts),
        // and which modules the warm-up loads (warm-up.ts); the kit's defaults otherwise.
        ...Object.fromEntries(KIT_TUNING_ENV.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]])),
        ...(opts.settings ? { ODE_KIT_SETTINGS: settingsFile } : {}),
        ...(opts.fake?.controlFile ? { [FAKE_KIT_CONTROL_ENV]: opts.fake.controlFile } : {}),
        ...Object.fromEntries(Object.entries(KIT_MEMORY_ENV).map(([k, v]) => [k, process.env[k] ?? v])),
        LOK_ALLOWLIST_LANGUAGES: process.env.LOK_ALLOWLIST_LANGUAGES ?? DEFAULT_ALLOWLIST_LANGUAGES,
        // LibreOffice must not find a display or try Java (a kit is headless and has no JRE).
        DISPLAY: '',
        SAL_USE_VCLPLUGIN: 'svp',
      },
    });
    for (const fd of launch?.extraFds ?? []) closeSync(fd);
    this.pid = this.child.pid;
    this.pidFiles = opts.pidFiles;
    if (this.pid) this.pidFiles?.add(this.pid);
    if (this.pid && opts.limits) {
      this.watch = new KitWatch(this.pid, opts.limits, (error, usage) => {
        this.limitError = error;
        this.log.error({ ...usage, code: error.code }, 'kit crossed its resource limit; killing it');
        this.kill();
      });
    }
    // Logged at debug level as it comes; the last lines are kept for the log line of an unexpected exit (onExit).
    const relay = (stream: NodeJS.ReadableStream | null, name: 'out' | 'err') =>
      stream?.on('data', (chunk: Buffer) => {
        for (const line of this.output.add(name, chunk.toString())) this.log.debug({ out: line }, 'kit output');
      });
    relay(this.child.stdout, 'out');
    relay(this.child.stderr, 'err');
    this.child.on('message', (msg: unknown) => {
      if (isKitToDaemon(msg)) this.onMessage(msg);
    });
    this.child.on('exit', (code, signal) => this.onExit(code, signal));
    this.child.on('error', (err) => this.log.error({ err: err.message }, 'kit process error'));
  }

  /**
   * Copies the settings files into the kit's own folder (`settings/<n>-<name>`) and returns the manifest naming
   * the copies: a sandboxed kit sees no other folder of the daemon's (the host's files sit in the state dir's
   * settings cache). A file that cannot be copied keeps its path; the kit then reports it skipped.
   */
  private copySettings(manifest: KitSettingsManifest): KitSettingsManifest {
    const dir = join(this.dir, 'settings');
    mkdirSync(dir, { recursive: true });
    return {
      files: manifest.files.map((f, i) => {
        const copy = join(dir, `${i}-${basename(f.path)}`);
        try {
          copyFileSync(f.path, copy);
          return { ...f, path: copy };
        } catch {
          return f;
        }
      }),
    };
  }

  private onMessage(msg: KitToDaemon): void {
    switch (msg.type) {
      case 'ready':
        this.version = msg.version;
        this.state = 'ready';
        this.idleSince = Date.now();
        this.log.info({ pid: msg.pid, version: msg.version, initMs: msg.initMs, warmMs: msg.warmMs }, 'kit ready');
        if (msg.settings) {
          this.settingsReport = msg.settings;
          this.log.info({ installed: msg.settings.installed, ms: msg.settings.ms }, 'settings installed into the kit profile');
          for (const s of msg.settings.skipped) this.log.warn({ file: s.file, reason: s.reason }, 'a settings file was not installed');
        }
        this.emit('ready');
        return;
      case 'fatal':
        this.log.error({ message: msg.message }, 'kit could not start');
        this.emit('fatal', msg.message);
        return;
      case 'progress': {
        const p = this.pending.get(msg.id);
        if (p?.limits) this.arm(p, p.limits.convertMs, 'converting');
        return;
      }
      case 'result': {
        const p = this.pending.get(msg.id);
        // A request that timed out was answered already; its late result is dropped.
        if (!p) return;
        clearTimeout(p.timer);
        this.pending.delete(msg.id);
        if (p.killOnTimeout) this.watch?.jobEnded();
        if (p.job) {
          this.jobs++;
          if (this.state === 'busy') {
            this.state = 'ready';
            this.idleSince = Date.now();
          }
        }
        p.resolve(msg);
        return;
      }
      case 'callback':
        this.emit('callback', msg.viewId, msg.callbackType, msg.payload);
        return;
    }
  }

  /**
   * Removes the kit's folder after its exit, in the background, retried (5 x 200 ms): a process of the kit that is
   * still ending can write into it meanwhile (a SIGKILLed kit's sandbox child finishing a PDF export), which made a
   * synchronous rmSync throw ENOTEMPTY from the exit handler: an uncaught exception in the daemon (seen in a CI-like
   * run of test/kit-editing/crash.test.ts). A folder that still cannot be removed is logged, never thrown.
   */
  private removeDir(): void {
    void this.removeLogged(this.dir, 'kit folder not removed after the exit');
  }

  /** Removes `dir` with 5 retries 200 ms apart; a failure is logged at warn with `message`, never thrown. */
  private async removeLogged(dir: string, message: string): Promise<void> {
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }).catch((err: unknown) =>
      this.log.warn({ dir, err: (err as Error).message }, message),
    );
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    const was = this.state;
    this.state = 'dead';
    if (this.pid) this.pidFiles?.remove(this.pid);
    this.removeDir();
    this.watch?.stop();
    const pending = [...this.pending.values()];
    this.pending.clear();
    // A kit asked to stop (its document closed, the daemon stopping) ends the requests still waiting without a crash.
    const ended =
      this.limitError ??
      (was === 'stopping'
        ? new OdeError('no_kit', 'The LibreOffice process was stopped (its document closed, or the server is stopping) before it answered.')
        : new OdeError('kit_crashed', `The LibreOffice process stopped unexpectedly (${signal ?? `exit code ${code}`}).`));
    for (const p of pending) {
      clearTimeout(p.timer);
      p.reject(ended);
    }
    if (was !== 'stopping') this.reportExit(code, signal, was);
    else this.log.debug({ code, signal }, 'kit stopped');
    this.emit('exit', code, signal);
  }

  /**
   * An exit nobody asked for: logged at error level with the kit's last lines of output (LibreOffice's own messages,
   * an abort's), which tell why. Output still in the pipes when the process ended is read first: the line is written
   * when the pipes closed, at most 1 s after the exit.
   */
  private reportExit(code: number | null, signal: NodeJS.Signals | null, was: KitState): void {
    let done = false;
    const report = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      this.log.error({ code, signal, was, output: this.output.lines() }, 'kit exited unexpectedly');
    };
    const timer = setTimeout(report, 1000);
    timer.unref();
    this.child.once('close', report);
  }

  private arm(p: Pending, ms: number, stage: string): void {
    clearTimeout(p.timer);
    p.timer = setTimeout(() => {
      if (this.pending.get(p.id) !== p) return;
      this.pending.delete(p.id);
      p.reject(new OdeError('timeout', `LibreOffice took longer than ${Math.round(ms / 1000)} s while ${stage}.`));
      if (p.killOnTimeout) {
        this.log.error({ stage, limitMs: ms }, 'kit exceeded its time limit; killing it');
        this.kill();
      } else {
        this.log.warn({ stage, limitMs: ms }, 'kit request exceeded its time limit');
      }
    }, ms);
  }

  /** A fresh per-job directory inside this kit's temp dir (removed by the caller). */
  jobDir(): string {
    const dir = join(this.dir, 'jobs', String(this.nextRequestId));
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  /**
   * Removes a job folder made by jobDir once its job ended, retried (5 x 200 ms) as removeDir does: after a time-out
   * the killed kit's sandbox child can still be writing into it (ENOTEMPTY). Never rejects: a folder that still
   * cannot be removed is logged (warn 'job folder not removed'), so the job's own result or error stands.
   */
  removeJobDir(dir: string): Promise<void> {
    return this.removeLogged(dir, 'job folder not removed');
  }

  /**
   * Sends a convert request (kit.md) and resolves with the kit's result.
   * @throws OdeError timeout (the kit is killed), kit_crashed (the kit died), or the kit's own error code.
   */
  convert(req: Omit<ConvertRequest, 'type' | 'id'>, limits: StageLimits): Promise<KitOk<'convert'>> {
    return this.request({ type: 'convert', ...req }, limits);
  }

  /**
   * Sends an inspect request (kit.md): page or slide count, and an OOXML copy when `output`/`format` are given.
   * The whole job runs under the load time limit. Errors as for convert().
   */
  inspect(req: Omit<InspectRequest, 'type' | 'id'>, limits: StageLimits): Promise<KitOk<'inspect'>> {
    return this.request({ type: 'inspect', ...req }, { loadMs: limits.loadMs + limits.convertMs, convertMs: limits.convertMs });
  }

  private request<M extends Omit<ConvertRequest, 'id'> | Omit<InspectRequest, 'id'>>(msg: M, limits: StageLimits): Promise<KitOk<M['type']>> {
    if (this.state !== 'ready') return Promise.reject(new OdeError('internal', `kit ${this.id} is ${this.state}, not ready`));
    this.state = 'busy';
    return this.send(msg, { limits, killOnTimeout: true, job: true }, 'loading');
  }

  /**
   * Sends one request and settles with its result, the fields KitResultMap gives its type: `limits` (staged,
   * starting with loadMs) or `limitMs` (plain).
   * @throws OdeError timeout, kit_crashed, internal (the IPC channel is closed), or the kit's own error code.
   */
  private send<M extends WithoutId<KitRequest>>(
    msg: M,
    how: { limits?: StageLimits; limitMs?: number; killOnTimeout: boolean; job: boolean },
    stage: string,
  ): Promise<KitOk<M['type']>> {
    const id = this.nextRequestId++;
    return new Promise<KitResult>((resolve, reject) => {
      const p: Pending = { id, resolve, reject, limits: how.limits, killOnTimeout: how.killOnTimeout, job: how.job };
      this.pending.set(id, p);
      // Conversions, inspections and `open` are the jobs whose CPU time is limited (limits.kit_cpu_secs).
      if (how.killOnTimeout) this.watch?.jobStarted();
      this.arm(p, how.limits?.loadMs ?? how.limitMs ?? EDIT_LIMITS_MS.other, stage);
      try {
        this.child.send({ ...msg, id });
      } catch (e) {
        // The IPC channel is closed: the kit is exiting, and `exit` follows.
        clearTimeout(p.timer);
        this.pending.delete(id);
        reject(new OdeError('internal', `kit ${this.id}: ${(e as Error).message}`));
      }
    }).then((r) => {
      // The kit answers `id` with the result of this request's type (kit/ipc.ts answer(), typed by KitResultMap).
      if (r.ok) return r as KitOk<M['type']>;
      const code = isErrorCode(r.error.code) ? r.error.code : 'internal';
      throw new OdeError(code, r.error.message);
    });
  }

  /** An editing request on the open document (kit.md, "Editing"), with its plain time limit. */
  private edit<M extends WithoutId<Exclude<KitRequest, { type: 'open' | 'convert' | 'inspect' }>>>(
    msg: M,
    limitMs: number,
    stage: string,
  ): Promise<KitOk<M['type']>> {
    if (!this.editing || (this.state !== 'busy' && this.state !== 'stopping') || !this.alive) {
      return Promise.reject(new OdeError('internal', `kit ${this.id} has no document open for editing (${this.state})`));
    }
    return this.send(msg, { limitMs, killOnTimeout: false, job: false }, stage);
  }

  /**
   * `open` (kit.md, Editing): loads `input` (a path in this kit's dir; saveDoc writes back to it) for editing;
   * the kit then serves only this document. `userName` (optional) is the first view's author. Time limit:
   * `limits.loadMs`, past which the kit is killed. After a failed open the kit stays out of conversion use (its
   * process-wide LibreOffice options changed): retire it.
   * @throws OdeError load_failed, password_required, password_invalid, timeout, kit_crashed; internal when the
   * kit is not ready.
   */
  async open(req: KitRequestBody<OpenRequest>, limits: StageLimits): Promise<OpenResult> {
    if (this.state !== 'ready' || this.editing)
      throw new OdeError('internal', `kit ${this.id} is ${this.state}${this.editing ? ' and editing' : ''}, not ready`);
    this.state = 'busy';
    this.editing = true;
    const r = await this.send(
      { type: 'open', ...req },
      { limits: { loadMs: limits.loadMs, convertMs: limits.loadMs }, killOnTimeout: true, job: false },
      'loading',
    );
    return { docType: r.docType, parts: r.parts, partNames: r.partNames, width: r.width, height: r.height, viewId: r.viewId };
  }

  /**
   * `createView`: a new LibreOfficeKit view for one user, `userName` its author, its rights and `timezone` given
   * to LibreOffice (kit.md). `color` stays with the daemon. @throws OdeError timeout, kit_crashed, bad_request, internal.
   */
  async createView(req: KitRequestBody<CreateViewRequest>): Promise<{ viewId: number }> {
    const r = await this.edit({ type: 'createView', ...req }, EDIT_LIMITS_MS.other, 'creating a view');
    return { viewId: r.viewId };
  }

  /**
   * `windowPaint`: an area (px of the window) of a LibreOffice dialog window of a view as a PNG with straight
   * alpha. @throws OdeError timeout (10 s), kit_crashed, bad_request.
   */
  async paintWindow(req: KitRequestBody<WindowPaintRequest>): Promise<Uint8Array> {
    return (await this.edit({ type: 'windowPaint', ...req }, EDIT_LIMITS_MS.other, 'painting a dialog')).png;
  }

  /** `destroyView`: the view leaves. @throws OdeError bad_request (unknown view), timeout, kit_crashed. */
  async destroyView(viewId: number): Promise<void> {
    await this.edit({ type: 'destroyView', viewId }, EDIT_LIMITS_MS.other, 'destroying a view');
  }

  /**
   * `event`: input on a view (the editor's message, fields as in editor.md); no answer, nothing is thrown. Events
   * for a read-only view that could change the document are dropped by the kit; so is anything sent when no
   * document is open or the kit is gone.
   */
  sendEvent(viewId: number, event: KitEditEvent): void {
    if (!this.editing || this.state !== 'busy') return;
    try {
      this.child.send({ type: 'event', viewId, event });
    } catch {
      // The channel closed: the kit is exiting and `exit` follows.
    }
  }

  /**
   * `tile`: paints `tileTwipWidth` x `tileTwipHeight` twips at (`x`, `y`) of `part` (`mode` a LOK_PARTMODE_*) as a
   * `width` x `height` px PNG with straight alpha. @throws OdeError timeout (10 s), kit_crashed, bad_request.
   */
  async paintTile(req: KitRequestBody<TileRequestMessage>): Promise<Uint8Array> {
    return (await this.edit({ type: 'tile', ...req }, EDIT_LIMITS_MS.other, 'painting a tile')).png;
  }

  /** `clipboardGet`: the view's selection as clipboard flavours (bytes). @throws OdeError timeout, kit_crashed, bad_request. */
  async clipboardGet(viewId: number, mimeTypes: string[]): Promise<ClipboardItem[]> {
    return (await this.edit({ type: 'clipboardGet', viewId, mimeTypes }, EDIT_LIMITS_MS.other, 'reading the clipboard')).items;
  }

  /** `paste`: pastes bytes of a mime type at the view's cursor; false when LibreOffice refused. @throws OdeError timeout, kit_crashed, bad_request. */
  async paste(viewId: number, mimeType: string, data: Uint8Array): Promise<boolean> {
    return (await this.edit({ type: 'paste', viewId, mimeType, data }, EDIT_LIMITS_MS.other, 'pasting')).pasted;
  }

  /** `commandValues`: LOK getCommandValues in a view: its JSON string, or null for a command LibreOffice has no values for. */
  async commandValues(viewId: number, command: string): Promise<string | null> {
    return (await this.edit({ type: 'commandValues', viewId, command }, EDIT_LIMITS_MS.other, 'reading command values')).value;
  }

  /**
   * `docInfo`: the parts, part names and size as they are now, the view's current part and edit mode (presentations).
   * @throws OdeError timeout, kit_crashed, bad_request.
   */
  async docInfo(viewId: number): Promise<DocInfoResult> {
    const r = await this.edit({ type: 'docInfo', viewId }, EDIT_LIMITS_MS.other, 'reading the parts');
    return { parts: r.parts, partNames: r.partNames, width: r.width, height: r.height, part: r.part, mode: r.mode };
  }

  /**
   * `saveDoc`: `.uno:Save` in place, to open()'s `input`, from view `viewId`; `{saved: false}` when
   * `dontSaveIfUnmodified` and LibreOffice skipped an unmodified document; `dontTerminateEdit` keeps a cell being
   * edited in edit mode (its text is then not saved); `reenterCell` enters it and puts the view back into edit mode,
   * `editKept` true when it could not (kit.md `saveDoc`). The daemon then reads `input`.
   * @throws OdeError save_failed, timeout (60 s), kit_crashed, bad_request.
   */
  async saveDoc(
    viewId: number,
    dontSaveIfUnmodified: boolean,
    dontTerminateEdit = false,
    reenterCell = false,
  ): Promise<{ saved: boolean; editKept?: boolean }> {
    const r = await this.edit(
      { type: 'saveDoc', viewId, dontSaveIfUnmodified, dontTerminateEdit, ...(reenterCell ? { reenterCell } : {}) },
      EDIT_LIMITS_MS.save,
      'saving',
    );
    return r.editKept ? { saved: r.saved, editKept: true } : { saved: r.saved };
  }

  /**
   * `signDoc`: trusts `ca`, then signs the document file in place (open()'s `input`) with a view's certificate and
   * PKCS#8 key (DER); the daemon then reads and uploads `input`. @throws OdeError sign_failed, timeout (60 s),
   * kit_crashed, bad_request.
   */
  async signDoc(req: KitRequestBody<SignDocRequest>): Promise<SignDocResult> {
    const r = await this.edit({ type: 'signDoc', ...req }, EDIT_LIMITS_MS.save, 'signing');
    return { signed: r.signed, signatureState: r.signatureState };
  }

  /** `signatureState`: trusts `ca` (DER, may be empty), then LibreOffice's SignatureState number. @throws OdeError timeout, kit_crashed, bad_request. */
  async signatureState(viewId: number, ca: Uint8Array[]): Promise<number> {
    return (await this.edit({ type: 'signatureState', viewId, ca }, EDIT_LIMITS_MS.other, 'reading the signature state')).signatureState;
  }

  /**
   * `exportDoc`: saveAs a copy to `output` (a path in this kit's dir) in `format` with `filterOptions` (as for
   * convert); the document keeps its location and modified state. `inOrder`: a journal snapshot, written in input
   * order with later input waiting for it (ExportDocRequest). @throws OdeError save_failed, timeout (60 s),
   * kit_crashed, bad_request.
   */
  async exportDoc(output: string, format: string, filterOptions?: string, opts?: { inOrder?: boolean }): Promise<void> {
    await this.edit({ type: 'exportDoc', output, format, filterOptions, ...(opts?.inOrder ? { inOrder: true } : {}) }, EDIT_LIMITS_MS.save, 'exporting');
  }

  /**
   * `closeDoc`: destroys the document; the kit then exits by itself (state `stopping`, then `exit` with code 0):
   * a kit is never reused after editing. @throws OdeError timeout, kit_crashed.
   */
  async closeDoc(): Promise<void> {
    const done = this.edit({ type: 'closeDoc' }, EDIT_LIMITS_MS.other, 'closing the document');
    this.state = 'stopping';
    this.exitRequested = true;
    await done;
  }

  /** Asks the kit to shut down cleanly; SIGKILL after `graceMs`. Resolves when it has exited. */
  stop(graceMs = 5000): Promise<void> {
    if (this.state === 'dead') return Promise.resolve();
    const exited = new Promise<void>((resolve) => this.once('exit', () => resolve()));
    this.state = 'stopping';
    this.exitRequested = true;
    try {
      this.child.send({ type: 'shutdown' });
    } catch {
      this.kill();
    }
    const timer = setTimeout(() => this.kill(), graceMs);
    return exited.finally(() => clearTimeout(timer));
  }

  /** Ends the kit and every process of its group at once (SIGKILL: a hung LibreOffice ignores SIGTERM). */
  kill(): void {
    if (this.child.exitCode !== null || this.child.signalCode !== null || !this.pid) return;
    try {
      process.kill(-this.pid, 'SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
  }

  /** False once the process has exited. */
  get alive(): boolean {
    return this.state !== 'dead';
  }
}
