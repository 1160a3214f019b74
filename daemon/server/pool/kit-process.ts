/**
 * One kit child process seen from the daemon.
 *
 * | state    | entered when                              | the kit's temp dir        | leaves to                 |
 * |----------|-------------------------------------------|---------------------------|---------------------------|
 * | starting | fork() (LibreOffice initialising)          | profile being created     | ready, dead (fatal/exit)  |
 * | ready    | the kit sent `ready`                      | profile only              | busy, stopping, dead      |
 * | busy     | a request was sent                        | + jobs/<id>/ input,output | ready, dead (crash/kill)  |
 * | stopping | stop() sent `shutdown` (SIGKILL after 5 s) | -                         | dead                      |
 * | dead     | the process exited                        | removed                   | -                         |
 *
 * A request has a time limit per stage (load, then convert, switched by the kit's `progress` message); past it
 * the process is SIGKILLed (a hung LibreOffice ignores SIGTERM) and the request fails with `timeout`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import { isKitToDaemon, type ConvertRequest, type InspectRequest, type KitResult, type KitToDaemon } from '../../protocol/kit.ts';
import { OdeError, isErrorCode } from '../errors.ts';

/** Lifecycle state of a kit (see the table above). */
export type KitState = 'starting' | 'ready' | 'busy' | 'stopping' | 'dead';

/** How to start kits: LibreOffice's program dir and the root under which each kit gets its temp dir. */
export interface KitSpawnOptions {
  loPath: string;
  tmpRoot: string;
  log: Logger;
}

/** Time limits of one request, in ms. */
export interface StageLimits {
  loadMs: number;
  convertMs: number;
}

const KIT_MAIN = fileURLToPath(new URL('../../kit/main.ts', import.meta.url));
/** tsx's loader as an absolute URL: `--import tsx` would resolve from the working directory, which may be anywhere. */
const TSX_LOADER = import.meta.resolve('tsx');
let nextKitId = 1;

/** A kit process; emits `ready` and `exit` (code, signal). */
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
  private nextRequestId = 1;
  private pending: { id: number; resolve: (r: KitResult) => void; reject: (e: Error) => void; timer?: NodeJS.Timeout; limits: StageLimits } | undefined;

  constructor(opts: KitSpawnOptions) {
    super();
    this.id = nextKitId++;
    this.dir = join(opts.tmpRoot, `kit-${this.id}`);
    this.log = opts.log.child({ kit: this.id });
    mkdirSync(join(this.dir, 'profile'), { recursive: true });
    mkdirSync(join(this.dir, 'jobs'), { recursive: true });
    this.child = fork(KIT_MAIN, [], {
      execArgv: ['--import', TSX_LOADER],
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // Its own process group, so kill() also ends anything the kit started (the CSV import's soffice).
      detached: true,
      env: {
        ...process.env,
        ODE_KIT_PROFILE_URL: pathToFileURL(join(this.dir, 'profile')).href,
        ODE_LO_PATH: opts.loPath,
        ODE_KIT_DIR: this.dir,
        // LibreOffice must not find a display or try Java (a kit is headless and has no JRE).
        DISPLAY: '',
        SAL_USE_VCLPLUGIN: 'svp',
      },
    });
    this.pid = this.child.pid;
    const relay = (stream: NodeJS.ReadableStream | null, level: 'debug' | 'warn') =>
      stream?.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString().split('\n')) if (line.trim()) this.log[level]({ out: line }, 'kit output');
      });
    relay(this.child.stdout, 'debug');
    relay(this.child.stderr, 'debug');
    this.child.on('message', (msg: unknown) => {
      if (isKitToDaemon(msg)) this.onMessage(msg);
    });
    this.child.on('exit', (code, signal) => this.onExit(code, signal));
    this.child.on('error', (err) => this.log.error({ err: err.message }, 'kit process error'));
  }

  private onMessage(msg: KitToDaemon): void {
    switch (msg.type) {
      case 'ready':
        this.version = msg.version;
        this.state = 'ready';
        this.idleSince = Date.now();
        this.log.info({ pid: msg.pid, version: msg.version, initMs: msg.initMs, warmMs: msg.warmMs }, 'kit ready');
        this.emit('ready');
        return;
      case 'fatal':
        this.log.error({ message: msg.message }, 'kit could not start');
        this.emit('fatal', msg.message);
        return;
      case 'progress': {
        const p = this.pending;
        if (p && p.id === msg.id) this.arm(p.limits.convertMs, 'converting');
        return;
      }
      case 'result': {
        const p = this.pending;
        if (!p || p.id !== msg.id) return;
        clearTimeout(p.timer);
        this.pending = undefined;
        this.jobs++;
        if (this.state === 'busy') {
          this.state = 'ready';
          this.idleSince = Date.now();
        }
        p.resolve(msg);
        return;
      }
    }
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    const was = this.state;
    this.state = 'dead';
    rmSync(this.dir, { recursive: true, force: true });
    const p = this.pending;
    this.pending = undefined;
    if (p) {
      clearTimeout(p.timer);
      p.reject(new OdeError('kit_crashed', `The LibreOffice process stopped unexpectedly (${signal ?? `exit code ${code}`}).`));
    }
    if (was !== 'stopping') this.log.warn({ code, signal, was }, 'kit exited');
    else this.log.debug({ code, signal }, 'kit stopped');
    this.emit('exit', code, signal);
  }

  private arm(ms: number, stage: string): void {
    const p = this.pending;
    if (!p) return;
    clearTimeout(p.timer);
    p.timer = setTimeout(() => {
      this.log.error({ stage, limitMs: ms }, 'kit exceeded its time limit; killing it');
      const pending = this.pending;
      this.pending = undefined;
      pending?.reject(new OdeError('timeout', `LibreOffice took longer than ${Math.round(ms / 1000)} s while ${stage}.`));
      this.kill();
    }, ms);
  }

  /** A fresh per-job directory inside this kit's temp dir (removed by the caller). */
  jobDir(): string {
    const dir = join(this.dir, 'jobs', String(this.nextRequestId));
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  /**
   * Sends a convert request (kit.md) and resolves with the kit's result.
   * @throws OdeError timeout (the kit is killed), kit_crashed (the kit died), or the kit's own error code.
   */
  convert(req: Omit<ConvertRequest, 'type' | 'id'>, limits: StageLimits): Promise<KitResult & { ok: true }> {
    return this.request({ type: 'convert', ...req }, limits);
  }

  /**
   * Sends an inspect request (kit.md): page or slide count, and an OOXML copy when `output`/`format` are given.
   * The whole job runs under the load time limit. Errors as for convert().
   */
  inspect(req: Omit<InspectRequest, 'type' | 'id'>, limits: StageLimits): Promise<KitResult & { ok: true }> {
    return this.request({ type: 'inspect', ...req }, { loadMs: limits.loadMs + limits.convertMs, convertMs: limits.convertMs });
  }

  private request(msg: Omit<ConvertRequest, 'id'> | Omit<InspectRequest, 'id'>, limits: StageLimits): Promise<KitResult & { ok: true }> {
    if (this.state !== 'ready') return Promise.reject(new OdeError('internal', `kit ${this.id} is ${this.state}, not ready`));
    this.state = 'busy';
    const id = this.nextRequestId++;
    return new Promise<KitResult>((resolve, reject) => {
      this.pending = { id, resolve, reject, limits };
      this.arm(limits.loadMs, 'loading');
      this.child.send({ ...msg, id });
    }).then((r) => {
      if (r.ok) return r;
      const code = isErrorCode(r.error.code) ? r.error.code : 'internal';
      throw new OdeError(code, r.error.message);
    });
  }

  /** Asks the kit to shut down cleanly; SIGKILL after `graceMs`. Resolves when it has exited. */
  stop(graceMs = 5000): Promise<void> {
    if (this.state === 'dead') return Promise.resolve();
    const exited = new Promise<void>((resolve) => this.once('exit', () => resolve()));
    this.state = 'stopping';
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
