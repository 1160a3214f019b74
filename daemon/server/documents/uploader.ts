import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { PutFileOptions, WopiClient } from '../wopi/wopi-client.ts';
import { WopiError } from '../wopi/wopi-error.ts';
import type { WopiSrc } from '../wopi/wopi-src.ts';
import { writeSidecar } from './recovery.ts';

/** One upload: the saved bytes, the token to use, and the PutFile headers' facts. */
export interface UploadRequest extends PutFileOptions {
  bytes: Uint8Array;
  token: string;
  /** access_token_ttl of `token` (ms since the epoch), kept beside the recovery copy (recovery.ts). */
  tokenTtl?: number;
}

/** How an upload ended: the host's new LastModifiedTime, or the error that stopped it (never `unavailable` while retrying is allowed). */
export type UploadOutcome = { ok: true; lastModifiedTime?: string; bytes: number } | { ok: false; error: WopiError };

/** Back-off of retried uploads, ms: first wait, longest wait. */
export interface RetryPolicy {
  firstMs: number;
  maxMs: number;
}

/**
 * Uploads one document's saves to its WOPI host (PutFile), so that nothing is lost when the host misbehaves
 * (issue 4, "Storage failures"):
 *
 * | state     | entered when                         | the saved copy                                  | leaves to |
 * |-----------|--------------------------------------|-------------------------------------------------|-----------|
 * | idle      | created, or an upload ended          | none pending                                    | uploading |
 * | uploading | `upload()`                           | written to the recovery folder first            | idle, waiting |
 * | waiting   | the host was unavailable (5xx, ...)  | kept in the recovery folder, listed in the log  | uploading (after back-off), idle (`stop()`) |
 *
 * A newer save replaces a pending one (only the newest bytes are uploaded, once). The recovery copy (with a
 * `.json` sidecar: WOPISrc, token, timestamp) is removed only when the host has the file; if the daemon stops before
 * that, it stays, and the next start uploads it (recovery.ts).
 *
 * When the daemon stops (`finishBy`, issue 17 item 7) the callers of a retrying upload are answered at once (so the
 * document's exit save can run behind them and replace the pending bytes with the latest state); retries then go on
 * at most every second until the deadline, and an attempt still running at the deadline is given up (its copy stays).
 */
export class Uploader {
  private pending: { req: UploadRequest; resolvers: Array<(o: UploadOutcome) => void> } | undefined;
  private running = false;
  private stopped = false;
  private wake: (() => void) | undefined;
  private readonly recoveryFile: string;
  /** Set by `finishBy`: no attempt or wait goes past it (ms since the epoch). */
  private deadline: number | undefined;
  /** Resolves at the deadline (a PutFile still running then is given up). */
  private deadlineReached: Promise<'deadline'> | undefined;
  private lastError: WopiError | undefined;

  constructor(
    private readonly client: WopiClient,
    private readonly src: WopiSrc,
    private readonly recoveryDir: string,
    private readonly fileName: string,
    private readonly log: Logger,
    private readonly retry: RetryPolicy,
    /** Told about each failed attempt that will be retried (to show "retrying" to users). */
    private readonly onRetry: (error: WopiError, waitMs: number) => void = () => undefined,
  ) {
    const id = createHash('sha256').update(src.key).digest('hex').slice(0, 12);
    this.recoveryFile = join(recoveryDir, `${id}-${fileName.replace(/[^\w.\- ]/g, '_')}`);
  }

  /** Where an unfinished upload's bytes are kept. */
  get recoveryPath(): string {
    return this.recoveryFile;
  }

  /**
   * Uploads `req` (or a newer request that replaces it before it is sent). Resolves when the host has it or
   * refused it for good; `unavailable` is retried with back-off until `stop()`.
   */
  upload(req: UploadRequest): Promise<UploadOutcome> {
    return new Promise((resolve) => {
      if (this.pending) {
        this.pending.req = req;
        this.pending.resolvers.push(resolve);
      } else {
        this.pending = { req, resolvers: [resolve] };
      }
      this.keepRecoveryCopy(req);
      this.wake?.();
      if (!this.running) void this.loop();
    });
  }

  /** True while an upload is pending or retrying. */
  get busy(): boolean {
    return this.running || this.pending !== undefined;
  }

  /**
   * Stops retrying: a pending upload makes one last attempt at most (within `graceMs`), then resolves with its
   * error; its recovery copy stays on disk.
   */
  async stop(graceMs = 0): Promise<void> {
    this.stopped = true;
    this.wake?.();
    const deadline = Date.now() + graceMs;
    while (this.running && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }

  /**
   * The daemon stops (issue 17 item 7): uploads end by `deadline` (ms since the epoch). The callers of an upload now
   * pending or retrying get its last error at once (the request itself stays pending until a newer one replaces it);
   * a waiting retry is tried again now, then at most every second; an attempt running at the deadline is given up.
   * Whatever the host has not taken by then stays in the recovery copy.
   */
  finishBy(deadline: number): void {
    this.deadline = deadline;
    this.deadlineReached = new Promise((r) => setTimeout(() => r('deadline'), Math.max(0, deadline - Date.now())).unref());
    if (this.pending && this.pending.resolvers.length > 0) {
      const error = this.lastError ?? new WopiError('unavailable', 'the daemon is stopping before the host took this save');
      for (const r of this.pending.resolvers.splice(0)) r({ ok: false, error });
    }
    this.wake?.();
  }

  /** The copy and its sidecar (recovery.ts: what a later start needs to upload it), synced to disk. */
  private keepRecoveryCopy(req: UploadRequest): void {
    mkdirSync(this.recoveryDir, { recursive: true, mode: 0o700 });
    const tmp = `${this.recoveryFile}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, req.bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.recoveryFile);
    writeSidecar(this.recoveryFile, {
      wopiSrc: this.src.url.href,
      fileName: this.fileName,
      token: req.token,
      tokenTtl: req.tokenTtl,
      lastModifiedTime: req.timestamp,
      source: 'upload',
      createdAt: Date.now(),
      lock: req.lock,
    });
  }

  /** PutFile of `req`; past the stop deadline (finishBy) an attempt still running is given up as `unavailable`. */
  private async attempt(req: UploadRequest): Promise<{ lastModifiedTime?: string }> {
    const put = this.client.putFile(this.src, req.token, req.bytes, req);
    if (!this.deadlineReached) return put;
    put.catch(() => undefined);
    const r = await Promise.race([put, this.deadlineReached]);
    if (r === 'deadline') throw new WopiError('unavailable', 'the host did not answer PutFile before the daemon had to stop');
    return r;
  }

  /** True when no further attempt may start (stopped, or the stop deadline passed). */
  private get givingUp(): boolean {
    return this.stopped || (this.deadline !== undefined && Date.now() >= this.deadline);
  }

  private async loop(): Promise<void> {
    this.running = true;
    let wait = this.retry.firstMs;
    try {
      while (this.pending) {
        const { req, resolvers } = this.pending;
        let outcome: UploadOutcome;
        try {
          const r = await this.attempt(req);
          outcome = { ok: true, lastModifiedTime: r.lastModifiedTime, bytes: req.bytes.length };
        } catch (e) {
          const error = e instanceof WopiError ? e : new WopiError('failed', (e as Error).message);
          this.lastError = error;
          // A newer save came while this attempt ran: it is tried at once.
          if (error.retryable && this.pending.req !== req && !this.givingUp) continue;
          if (error.retryable && !this.givingUp) {
            // While the daemon stops, retries come at most every second and never past the deadline.
            const ms = this.deadline === undefined ? wait : Math.max(0, Math.min(wait, 1000, this.deadline - Date.now()));
            this.log.warn({ err: error.message, retryInMs: ms, recovery: this.recoveryFile }, 'upload failed; retrying');
            this.onRetry(error, ms);
            await new Promise<void>((r) => {
              const t = setTimeout(r, ms);
              this.wake = () => {
                clearTimeout(t);
                r();
              };
            });
            this.wake = undefined;
            wait = Math.min(wait * 2, this.retry.maxMs);
            continue;
          }
          outcome = { ok: false, error };
        }
        // A newer save arrived while this one was in flight: it is uploaded next, and every caller gets its result.
        // When this one was stored, the newer one (which holds it) builds on the host's new LastModifiedTime.
        if (this.pending.req !== req) {
          if (outcome.ok && outcome.lastModifiedTime) this.pending.req.timestamp = outcome.lastModifiedTime;
          continue;
        }
        this.pending = undefined;
        wait = this.retry.firstMs;
        if (outcome.ok) {
          this.lastError = undefined;
          rmSync(this.recoveryFile, { force: true });
          rmSync(`${this.recoveryFile}.json`, { force: true });
        } else this.log.error({ err: outcome.error.message, recovery: this.recoveryFile }, 'upload failed; the saved copy is kept in the recovery folder');
        for (const r of resolvers) r(outcome);
      }
    } finally {
      this.running = false;
    }
  }
}
