/**
 * The WOPI lock of a document (MS-WOPI Lock, RefreshLock, Unlock; only when CheckFileInfo says SupportsLocks): taken
 * when the document opens, refreshed every 10 minutes (hosts expire locks after 30), released when it closes. Its
 * id goes with every PutFile and RenameFile (X-WOPI-Lock). Each held lock is recorded on disk (lock-records.ts): when
 * the host still holds the lock a killed daemon took on this document, the new lock replaces it (MS-WOPI
 * UnlockAndRelock: LOCK with X-WOPI-OldLock) instead of opening the document read-only until the old one expires.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { WopiClient } from '../wopi/wopi-client.ts';
import { WopiError } from '../wopi/wopi-error.ts';
import type { WopiSrc } from '../wopi/wopi-src.ts';
import type { LockRecords } from './lock-records.ts';
import type { ViewHandle } from './view-handle.ts';

/** How often a held lock is refreshed (ms). */
const REFRESH_MS = 10 * 60 * 1000;

/** What the lock needs from its document. */
export interface LockHost {
  readonly client: WopiClient;
  readonly src: WopiSrc;
  readonly views: ReadonlySet<ViewHandle>;
  /** The lock is held elsewhere (or the host refused it): no view here may change the document. */
  refused(): void;
  readonly log: Logger;
  /** Where held locks are recorded, and the previous run's (lock-records.ts); none in unit set-ups. */
  readonly records?: LockRecords;
}

/** One document's WOPI lock. */
export class DocumentLock {
  /** Our lock id while the host holds a lock for us. */
  id: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The view whose token took the lock: the last one to unlock with when no view is left (a view refused as it joined). */
  private takenWith: ViewHandle | undefined;

  constructor(private readonly host: LockHost) {}

  /**
   * Locks the file at the host with `view`'s token and refreshes the lock with a writing view's token; nothing when
   * the lock is held already (a reload). A lock held by someone else makes the document read-only for everyone here
   * (`refused`), and `view` is told.
   */
  async take(view: ViewHandle): Promise<void> {
    // Held already: a reload loads the document again under the lock it holds. A second LOCK with a new id would be
    // answered 409 by a host that enforces locks (our own lock taken for someone else's), and the document would turn
    // read-only for everyone.
    if (this.id) return;
    const { client, src, log, records } = this.host;
    const id = `ode-${randomUUID()}`;
    // Recorded before the request: a daemon killed while the host grants it still leaves the id for the next start.
    records?.held({ wopiSrc: src.url.href, lock: id, token: view.token, tokenTtl: view.tokenTtl, takenAt: Date.now() });
    try {
      await this.lockReplacingPrevious(view, id);
      this.id = id;
      this.takenWith = view;
      this.timer = setInterval(() => {
        const v = [...this.host.views].find((x) => !x.readonly) ?? view;
        client.lock(src, v.token, 'REFRESH_LOCK', id).catch((e: Error) => log.warn({ err: e.message }, 'RefreshLock failed'));
      }, REFRESH_MS);
      this.timer.unref();
    } catch (e) {
      records?.released(src.url.href, id);
      const held = e instanceof WopiError && e.kind === 'conflict' ? ` (locked by "${e.lock ?? 'another application'}")` : '';
      log.warn({ err: (e as Error).message }, 'Lock failed: the document is read-only here');
      this.host.refused();
      view.send({ type: 'storage', state: 'ok', message: `The document is being edited elsewhere${held}: it is open read-only.` });
    }
  }

  /**
   * LOCK with `id`; when the host answers 409 with the lock a previous (killed) daemon of ours held on this document,
   * UnlockAndRelock from that lock to `id`. Either way the previous lock is settled: the host no longer holds it.
   * @throws WopiError from the host (`conflict`: locked by someone else).
   */
  private async lockReplacingPrevious(view: ViewHandle, id: string): Promise<void> {
    const { client, src, log, records } = this.host;
    const previous = records?.previous(src.url.href);
    try {
      await client.lock(src, view.token, 'LOCK', id);
    } catch (e) {
      if (!(previous && e instanceof WopiError && e.kind === 'conflict' && e.lock === previous.lock)) throw e;
      await client.lock(src, view.token, 'LOCK', id, previous.lock);
      log.info({ lockedSince: previous.takenAt }, 'the host still held the lock of a previous run of this daemon: replaced it (UnlockAndRelock)');
    }
    if (previous) records?.settled(src.url.href);
  }

  /**
   * Stops refreshing and unlocks (not awaited) with the first view's token, or `fallback`'s when none is left, or
   * that of the view that took the lock (the document's first view, refused when the node began draining as it loaded).
   */
  release(fallback: ViewHandle | undefined): void {
    clearInterval(this.timer);
    const id = this.id;
    const v = [...this.host.views][0] ?? fallback ?? this.takenWith;
    this.id = undefined;
    this.takenWith = undefined;
    if (!id || !v) return;
    this.host.client.lock(this.host.src, v.token, 'UNLOCK', id).then(
      () => this.host.records?.released(this.host.src.url.href, id),
      // The record stays: the next start tries to release the lock again.
      (e: Error) => this.host.log.warn({ err: e.message }, 'Unlock failed'),
    );
  }
}
