/**
 * The edit journal's files (docs/reliability.md, "Edit journal"): what rebuilds one document's unsaved state after a
 * kit crash or a daemon kill. One folder per edited document, `<state_dir>/journal/<document id>/`, mode 0700:
 *
 * | file                  | holds                                                                              | written                                  |
 * |-----------------------|------------------------------------------------------------------------------------|------------------------------------------|
 * | `meta.json`           | WOPISrc, file name, format, the writer's access token and its expiry, the stored file's LastModifiedTime the journal builds on, the views | when one of them changes (atomic rename) |
 * | `snapshot-<seq>.<ext>`| the document with every input up to `seq` (the downloaded or saved file, or a kit snapshot) | replaced by a newer snapshot             |
 * | `snapshot.json`       | `seq`, the snapshot's file name, each view's cursor at the snapshot, `stored` (the first snapshot: the host has it) | atomic rename after the snapshot file    |
 * | `events.jsonl`        | one line per input after the snapshot: `{s, v, e}` (sequence, view key, editor event) or `{s, v, paste}` | appended before the input goes to the kit; fdatasync'd at most every `syncMs` |
 *
 * Appends are plain write(2) calls, so a killed daemon loses nothing of what it wrote (the page cache survives the
 * process); only a crash of the whole machine can lose the last `syncMs` of input. Every file is 0600 (the
 * token is in meta.json). Nothing here logs a token.
 */
import {
  closeSync,
  copyFileSync,
  existsSync,
  fdatasync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { KitEditEvent } from './editing-kit.ts';

/** A view whose input is in the journal: how to create it again in a fresh kit. `key` is the journal's own number. */
export interface JournalView {
  key: number;
  userName: string;
  userId: string;
  lang?: string;
  timezone?: string;
  commentsOnly?: boolean;
}

/** What the journal needs to upload its document after a daemon restart (meta.json). */
export interface JournalMeta {
  version: 1;
  /** The WOPISrc as the editor gave it (its query may be needed by the host; the token is not in it). */
  wopiSrc: string;
  fileName: string;
  /** LibreOffice's saveAs format of the snapshots: the document's extension without the dot (docx, odt, xlsx, ...). */
  format: string;
  /** The access token of the last view that may store the document (the upload uses it). */
  token: string;
  /** access_token_ttl of that token, ms since the epoch, when the host gave one. */
  tokenTtl?: number;
  /** The stored file's LastModifiedTime the journal builds on (X-ODE-WOPI-Timestamp of the upload). */
  lastModifiedTime?: string;
  views: JournalView[];
  /** When the journal started (ms since the epoch). */
  createdAt: number;
}

/** A view's cursor when a snapshot was taken (twips; `cell`: Calc's cell cursor), set again before replaying. */
export interface JournalCursor {
  part: number;
  rect: [number, number, number, number];
  cell?: boolean;
}

/** snapshot.json: which file holds the input up to `seq`, and where the views' cursors were. */
export interface SnapshotInfo {
  seq: number;
  file: string;
  /** By view key. */
  cursors: Record<string, JournalCursor>;
  /**
   * True for the journal's first snapshot: the kit folder file, which the host holds (the downloaded copy or an
   * uploaded save); a rebuild that changes nothing then has nothing to upload (recovery.ts). Absent for a kit snapshot
   * and in journals of older versions.
   */
  stored?: boolean;
}

/** One input after the snapshot: an editor event, or a paste (base64 bytes). */
export type JournalEntry = { s: number; v: number; e: KitEditEvent } | { s: number; v: number; paste: { mimeType: string; data: string } };

/** A journal read back from disk (recovery after a restart). */
export interface StoredJournal {
  dir: string;
  meta: JournalMeta;
  snapshot: SnapshotInfo;
  snapshotPath: string;
  entries: JournalEntry[];
}

/** Writes one file atomically (tmp, fsync, rename), mode 0600. */
function writeAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** The journal folder of one document: create, append, replace the snapshot, remove. Synchronous on purpose (ordering). */
export class JournalStore {
  private fd: number | undefined;
  private dirty = false;
  private syncTimer: NodeJS.Timeout | undefined;
  private snapshotFile = '';

  /** `dir`: the document's journal folder; `syncMs`: the longest time an appended line waits for fdatasync. */
  constructor(
    readonly dir: string,
    private readonly syncMs: number,
  ) {}

  /** True once `create` ran (and `remove` did not). */
  get open(): boolean {
    return this.fd !== undefined;
  }

  /**
   * Starts the journal: `snapshotFrom` (a file holding every input up to `seq`; `stored`: the host holds it) is
   * copied in, then snapshot.json, meta.json, and an empty events.jsonl. Replaces what the folder held.
   */
  create(meta: JournalMeta, snapshotFrom: string, seq: number, cursors: Record<string, JournalCursor>, stored = false): void {
    this.remove();
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.snapshotFile = `snapshot-${seq}.${meta.format}`;
    copyFileSync(snapshotFrom, join(this.dir, this.snapshotFile));
    fsyncFile(join(this.dir, this.snapshotFile));
    writeAtomic(
      join(this.dir, 'snapshot.json'),
      JSON.stringify({ seq, file: this.snapshotFile, cursors, ...(stored ? { stored: true } : {}) } satisfies SnapshotInfo),
    );
    this.writeMeta(meta);
    this.fd = openSync(join(this.dir, 'events.jsonl'), 'w', 0o600);
  }

  /** Rewrites meta.json (atomic). */
  writeMeta(meta: JournalMeta): void {
    writeAtomic(join(this.dir, 'meta.json'), JSON.stringify(meta));
  }

  /** Appends one input (one write(2)); fdatasync follows within `syncMs`. */
  append(entry: JournalEntry): void {
    if (this.fd === undefined) return;
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
    this.dirty = true;
    if (!this.syncTimer) {
      this.syncTimer = setTimeout(() => this.sync(), this.syncMs);
      this.syncTimer.unref();
    }
  }

  private sync(): void {
    this.syncTimer = undefined;
    if (this.fd === undefined || !this.dirty) return;
    this.dirty = false;
    fdatasync(this.fd, () => undefined);
  }

  /**
   * A newer snapshot: `from` holds every input up to `seq`. It is copied in, snapshot.json points to it (the
   * switch is that one rename), then the older snapshot goes and events.jsonl keeps `rest` (the entries after `seq`).
   */
  replaceSnapshot(from: string, seq: number, format: string, cursors: Record<string, JournalCursor>, rest: readonly JournalEntry[]): void {
    if (this.fd === undefined) return;
    const file = `snapshot-${seq}.${format}`;
    copyFileSync(from, join(this.dir, file));
    fsyncFile(join(this.dir, file));
    writeAtomic(join(this.dir, 'snapshot.json'), JSON.stringify({ seq, file, cursors } satisfies SnapshotInfo));
    if (file !== this.snapshotFile) rmSync(join(this.dir, this.snapshotFile), { force: true });
    this.snapshotFile = file;
    closeSync(this.fd);
    writeAtomic(join(this.dir, 'events.jsonl'), rest.map((e) => `${JSON.stringify(e)}\n`).join(''));
    this.fd = openSync(join(this.dir, 'events.jsonl'), 'a', 0o600);
    this.dirty = false;
  }

  /** Deletes the journal (the stored file holds everything). */
  remove(): void {
    clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Closes the events file, leaving the journal on disk (the daemon stops without having stored everything). */
  close(): void {
    clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    if (this.fd !== undefined) {
      fsyncSync(this.fd);
      closeSync(this.fd);
    }
    this.fd = undefined;
  }

  /**
   * Reads the journal in `dir` back; undefined when it is incomplete (no meta or snapshot: it was being created).
   * A last line cut short is ignored, as are entries the snapshot already holds.
   */
  static read(dir: string): StoredJournal | undefined {
    try {
      const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as JournalMeta;
      const snapshot = JSON.parse(readFileSync(join(dir, 'snapshot.json'), 'utf8')) as SnapshotInfo;
      const snapshotPath = join(dir, snapshot.file);
      if (meta.version !== 1 || !existsSync(snapshotPath)) return undefined;
      const entries: JournalEntry[] = [];
      const text = existsSync(join(dir, 'events.jsonl')) ? readFileSync(join(dir, 'events.jsonl'), 'utf8') : '';
      for (const line of text.split('\n')) {
        if (!line) continue;
        try {
          const e = JSON.parse(line) as JournalEntry;
          if (e.s > snapshot.seq) entries.push(e);
        } catch {
          break;
        }
      }
      return { dir, meta, snapshot, snapshotPath, entries };
    } catch {
      return undefined;
    }
  }

  /** The journal folders under `root` (`<state_dir>/journal`). */
  static list(root: string): string[] {
    if (!existsSync(root)) return [];
    return readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(root, d.name));
  }
}

/** fsync of a file just written (copyFileSync does not sync). */
function fsyncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
