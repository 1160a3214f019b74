/**
 * The WOPI lock of a document (MS-WOPI Lock, RefreshLock, Unlock; only when CheckFileInfo says SupportsLocks): taken
 * when the document opens, refreshed every 10 minutes (hosts expire locks after 30), released when it closes. Its
 * id goes with every PutFile and RenameFile (X-WOPI-Lock).
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { WopiClient } from '../wopi/wopi-client.ts';
import { WopiError } from '../wopi/wopi-error.ts';
import type { WopiSrc } from '../wopi/wopi-src.ts';
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
}

/** One document's WOPI lock. */
export class DocumentLock {
  /** Our lock id while the host holds a lock for us. */
  id: string | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly host: LockHost) {}

  /**
   * Locks the file at the host with `view`'s token and refreshes the lock with a writing view's token. A lock held
   * by someone else makes the document read-only for everyone here (`refused`), and `view` is told.
   */
  async take(view: ViewHandle): Promise<void> {
    const { client, src, log } = this.host;
    const id = `ode-${randomUUID()}`;
    try {
      await client.lock(src, view.token, 'LOCK', id);
      this.id = id;
      this.timer = setInterval(() => {
        const v = [...this.host.views].find((x) => !x.readonly) ?? view;
        client.lock(src, v.token, 'REFRESH_LOCK', id).catch((e: Error) => log.warn({ err: e.message }, 'RefreshLock failed'));
      }, REFRESH_MS);
      this.timer.unref();
    } catch (e) {
      const held = e instanceof WopiError && e.kind === 'conflict' ? ` (locked by "${e.lock ?? 'another application'}")` : '';
      log.warn({ err: (e as Error).message }, 'Lock failed: the document is read-only here');
      this.host.refused();
      view.send({ type: 'storage', state: 'ok', message: `The document is being edited elsewhere${held}: it is open read-only.` });
    }
  }

  /** Stops refreshing and unlocks (not awaited) with the first view's token, or `fallback`'s when none is left. */
  release(fallback: ViewHandle | undefined): void {
    clearInterval(this.timer);
    const id = this.id;
    const v = [...this.host.views][0] ?? fallback;
    this.id = undefined;
    if (id && v) this.host.client.lock(this.host.src, v.token, 'UNLOCK', id).catch((e: Error) => this.host.log.warn({ err: e.message }, 'Unlock failed'));
  }
}
