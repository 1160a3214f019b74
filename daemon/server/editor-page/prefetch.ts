import type { FileInfo } from '../wopi/check-file-info.ts';

/**
 * CheckFileInfo answers started while the editor page is served (issue 4: "Start CheckFileInfo while the page is
 * being served"), handed to the editor's `load` a moment later so it does not wait for the host twice. Entries live
 * `ttlMs` and are used once; a failed prefetch is simply asked again.
 *
 * Each page load asks the host again (issue 14, item 11): a second load of the same WOPISrc and token replaces the
 * answer of the first, never reuses it, so a permission the host revoked in between is seen. An answer is thus
 * never older than the latest page load of its document and token, and serves one `load` at most.
 */
export class CheckFileInfoPrefetch {
  private readonly entries = new Map<string, { promise: Promise<FileInfo>; expires: number }>();

  constructor(private readonly ttlMs = 30_000) {}

  private static id(key: string, token: string, override: string | undefined): string {
    return `${key}\u0000${token}\u0000${override ?? ''}`;
  }

  /** Starts a CheckFileInfo for this document, token and override, replacing an answer an earlier page load left unused. */
  start(key: string, token: string, override: string | undefined, ask: () => Promise<FileInfo>): void {
    const now = Date.now();
    for (const [k, v] of this.entries) if (v.expires < now) this.entries.delete(k);
    const id = CheckFileInfoPrefetch.id(key, token, override);
    const promise = ask();
    const entry = { promise, expires: now + this.ttlMs };
    promise.catch(() => {
      if (this.entries.get(id) === entry) this.entries.delete(id);
    });
    this.entries.set(id, entry);
  }

  /** The prefetched answer, if one was started and has not expired (used once). */
  take(key: string, token: string, override: string | undefined): Promise<FileInfo> | undefined {
    const id = CheckFileInfoPrefetch.id(key, token, override);
    const e = this.entries.get(id);
    this.entries.delete(id);
    return e && e.expires >= Date.now() ? e.promise : undefined;
  }
}
