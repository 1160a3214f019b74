import { randomBytes } from 'node:crypto';

/** One prepared download: bytes, Content-Type, file name, and when it expires (ms since epoch). */
export interface PreparedDownload {
  bytes: Uint8Array;
  mimeType: string;
  filename: string;
  expires: number;
  /** Served inline (shown in a frame, not saved) with this Content-Security-Policy: the slideshow (slideshow.ts). */
  inline?: { csp: string };
}

/**
 * Exports waiting for their download (editor.md `download` -> `downloadReady`): each is fetched once from
 * `/ode/download/<id>` with an unguessable id, within `ttlMs`.
 */
export class DownloadStore {
  private readonly items = new Map<string, PreparedDownload>();

  constructor(private readonly ttlMs = 60_000) {}

  /** Keeps a download and returns its id (32 hex characters). */
  add(bytes: Uint8Array, mimeType: string, filename: string, inline?: { csp: string }): string {
    const now = Date.now();
    for (const [k, v] of this.items) if (v.expires < now) this.items.delete(k);
    const id = randomBytes(16).toString('hex');
    this.items.set(id, { bytes, mimeType, filename, expires: now + this.ttlMs, inline });
    return id;
  }

  /** Takes a download out (one use); undefined when unknown or expired. */
  take(id: string): PreparedDownload | undefined {
    const d = this.items.get(id);
    this.items.delete(id);
    return d && d.expires >= Date.now() ? d : undefined;
  }
}
