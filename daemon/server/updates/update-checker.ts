/**
 * The update check (spec: Update check; docs/updates.md): asks `updates.url` which version is current, caches the
 * answer for `updates.check_hours`, and says whether it is newer than this Ode.
 *
 * | state      | entered when                                   | leaves to                                   |
 * |------------|------------------------------------------------|---------------------------------------------|
 * | off        | `updates.url` is empty                         | unchecked (a url is configured)             |
 * | unchecked  | a url is configured, or it changed             | checking (the first get())                  |
 * | checking   | get() found no fresh answer, or refresh        | fresh (an answer came), failed              |
 * | fresh      | a good answer came                             | checking (check_hours later, or refresh)    |
 * | failed     | the request failed; the last good answer stays | checking (15 min later at most, or refresh) |
 *
 * One request at a time: concurrent get() share it. Ode re-checks by itself only while someone asks (a get() within
 * the last period); its timer is unref()'d so it never keeps the process alive.
 */
import type { Logger } from 'pino';
import type { UpdateInfo } from '../../../admin-api/backend.ts';
import type { OdeConfig } from '../config/schema.ts';
import { PRODUCT_NAME } from '../discovery/capabilities.ts';
import { ODE_VERSION } from '../version.ts';
import { requestUpdateVersion } from './update-request.ts';
import { isNewer } from './versions.ts';

/** The request's time-out (ms): an update server slower than this is as good as down. */
const TIMEOUT_MS = 5000;
/** After a failed check, ask again this soon (ms) at most, instead of waiting check_hours. */
const RETRY_MS = 15 * 60 * 1000;

/** What the checker needs: the live configuration (ConfigStore fits) and a logger. */
export interface UpdateCheckerOptions {
  config: { get(): OdeConfig; onChange(fn: (next: OdeConfig, prev: OdeConfig) => void): () => void };
  log: Logger;
  /** This Ode's version (`version` of the request, `current` of the answer); default package.json's. */
  current?: string;
}

/** The update check (state table above). */
export class UpdateChecker {
  private readonly current: string;
  private readonly log: Logger;
  /** The url the state below belongs to. */
  private url = '';
  private good: { version: string; checkedAt: number } | undefined;
  private error: string | undefined;
  /** When the last request ended (ms; 0: never). */
  private lastAttempt = 0;
  private lastAsked = 0;
  private inflight: Promise<void> | undefined;
  /** Bumped when the url changes or the checker stops: an answer for an older generation is dropped. */
  private generation = 0;
  private failing = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly unsubscribe: () => void;

  constructor(private readonly opts: UpdateCheckerOptions) {
    this.current = opts.current ?? ODE_VERSION;
    this.log = opts.log.child({ part: 'updates' });
    // updates.url is a live key: another server's answer says nothing about the new one.
    this.unsubscribe = opts.config.onChange((next, prev) => {
      if (next.updates.url !== prev.updates.url) this.reset(next.updates.url);
    });
  }

  /**
   * The update check's answer. Asks the update server first when there is no fresh answer (none yet, older than
   * `updates.check_hours`, or the last check failed more than 15 minutes ago) or when `refresh` is true; waits at
   * most 5 s for it. Never rejects: a failed check is reported in `error`, with the last good answer kept.
   */
  async get(refresh: boolean): Promise<UpdateInfo> {
    const url = this.opts.config.get().updates.url;
    if (!url) return { configured: false, product: PRODUCT_NAME, current: this.current, newer: false };
    if (url !== this.url) this.reset(url);
    this.lastAsked = Date.now();
    if (refresh || this.due()) await this.check();
    return this.info();
  }

  /** Stops the re-check timer and the config listener; a request under way is left to end and is ignored. */
  stop(): void {
    clearTimeout(this.timer);
    this.unsubscribe();
    this.generation++;
  }

  private info(): UpdateInfo {
    const available = this.good?.version;
    return {
      configured: true,
      url: this.url,
      product: PRODUCT_NAME,
      current: this.current,
      available,
      newer: available !== undefined && isNewer(available, this.current),
      checkedAt: this.good?.checkedAt,
      error: this.error,
    };
  }

  private reset(url: string): void {
    clearTimeout(this.timer);
    this.generation++;
    this.url = url;
    this.good = undefined;
    this.error = undefined;
    this.lastAttempt = 0;
    this.failing = false;
    this.inflight = undefined;
  }

  /** How long an answer (or a failure) holds, ms. */
  private period(): number {
    const full = this.opts.config.get().updates.check_hours * 3600 * 1000;
    return this.error ? Math.min(full, RETRY_MS) : full;
  }

  private due(): boolean {
    return this.lastAttempt === 0 || Date.now() - this.lastAttempt >= this.period();
  }

  private check(): Promise<void> {
    this.inflight ??= this.ask();
    return this.inflight;
  }

  private async ask(): Promise<void> {
    const generation = this.generation;
    const url = this.url;
    try {
      const version = await requestUpdateVersion(url, PRODUCT_NAME, this.current, TIMEOUT_MS, `Ode/${this.current}`);
      if (generation !== this.generation) return;
      this.good = { version, checkedAt: Date.now() };
      this.error = undefined;
      if (this.failing) this.log.info({ url, available: version }, 'the update check works again');
      else this.log.debug({ url, available: version }, 'update check answered');
      this.failing = false;
    } catch (e) {
      if (generation !== this.generation) return;
      this.error = (e as Error).message;
      // One line per failure streak: a server that stays down does not fill the log.
      if (!this.failing) this.log.warn({ url, err: this.error }, 'the update check failed; keeping the last good answer');
      this.failing = true;
    } finally {
      if (generation === this.generation) {
        this.inflight = undefined;
        this.lastAttempt = Date.now();
        this.arm();
      }
    }
  }

  /** Re-checks when the answer expires, but only while someone asked within the last period. */
  private arm(): void {
    clearTimeout(this.timer);
    const wait = this.period();
    if (Date.now() - this.lastAsked > wait) return;
    // setTimeout holds at most 2^31-1 ms (24.8 days): a longer check_hours waits in steps.
    this.timer = setTimeout(() => (this.due() ? void this.check() : this.arm()), Math.min(wait, 2 ** 31 - 1));
    this.timer.unref();
  }
}
