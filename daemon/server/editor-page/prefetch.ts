import { randomUUID } from 'node:crypto';
import type { FileInfo } from '../wopi/check-file-info.ts';

/** One CheckFileInfo started for one page load. */
interface Entry {
  id: string;
  key: string;
  promise: Promise<FileInfo>;
  expires: number;
}

/**
 * CheckFileInfo answers started while the editor page is served (issue 4: "Start CheckFileInfo while the page is
 * being served"), handed to the editor's `load` a moment later so it does not wait for the host twice. Entries live
 * `ttlMs` and are used once; a failed prefetch is simply asked again.
 *
 * An answer serves only the load it was fetched for (issue 14, item 11): each page load asks the host again and
 * gets an id the page carries to the editor (`prefetch` in the page config, sent back in `load`); a load with an id
 * takes that page's answer or none. A load without an id (an editor that does not send it) takes the latest page
 * load's answer for its document, token and override, never an older one. So a permission the host revoked before
 * a page load always holds for that page.
 */
export class CheckFileInfoPrefetch {
  private readonly byId = new Map<string, Entry>();
  /** The latest page load's entry per document, token and override. */
  private readonly latest = new Map<string, Entry>();

  constructor(private readonly ttlMs = 30_000) {}

  private static key(doc: string, token: string, override: string | undefined): string {
    return `${doc}\u0000${token}\u0000${override ?? ''}`;
  }

  /**
   * Starts a CheckFileInfo for one page load of this document, token and override.
   * @returns the page load's id, for the page config (`prefetch`).
   */
  start(doc: string, token: string, override: string | undefined, ask: () => Promise<FileInfo>): string {
    const now = Date.now();
    for (const [id, e] of this.byId) if (e.expires < now) this.drop(e, id);
    const entry: Entry = { id: randomUUID(), key: CheckFileInfoPrefetch.key(doc, token, override), promise: ask(), expires: now + this.ttlMs };
    entry.promise.catch(() => this.drop(entry, entry.id));
    this.byId.set(entry.id, entry);
    this.latest.set(entry.key, entry);
    return entry.id;
  }

  /**
   * The answer for a load (used once): the one of page load `id` when given (undefined when it is another
   * document's, token's or override's, used or expired), else the latest page load's for this document, token and
   * override.
   */
  take(doc: string, token: string, override: string | undefined, id?: string): Promise<FileInfo> | undefined {
    const key = CheckFileInfoPrefetch.key(doc, token, override);
    const e = id !== undefined ? this.byId.get(id) : this.latest.get(key);
    if (!e || e.key !== key) return undefined;
    this.drop(e, e.id);
    return e.expires >= Date.now() ? e.promise : undefined;
  }

  private drop(e: Entry, id: string): void {
    this.byId.delete(id);
    if (this.latest.get(e.key) === e) this.latest.delete(e.key);
  }
}
