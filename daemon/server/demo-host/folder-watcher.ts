import { basename } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Stats } from 'node:fs';
import { isDocumentName } from './file-id.ts';

/** A document in the folder as the watcher last saw it. */
export interface ListedFile {
  name: string;
  /** Bytes. */
  size: number;
  /** ms since the epoch. */
  mtimeMs: number;
}

/** A change of the listing: a file appeared, changed or disappeared. */
export type FolderEvent = { kind: 'add' | 'change' | 'unlink'; name: string };

/**
 * Watches the demo host's folder with chokidar (top level only; hidden files, the host's temp files and
 * sub-folders skipped) and keeps the listing the start page shows, so files copied in, deleted or changed while
 * the daemon runs appear, disappear and change on the page.
 */
export class FolderWatcher {
  private readonly files = new Map<string, ListedFile>();
  private readonly listeners = new Set<(e: FolderEvent) => void>();
  private watcher: FSWatcher | undefined;

  constructor(readonly folder: string) {}

  /** Starts watching; resolves once the initial scan is done (the listing is complete then). */
  async start(): Promise<void> {
    const w = watch(this.folder, {
      depth: 0,
      alwaysStat: true,
      ignoreInitial: false,
      ignored: (path: string) => path !== this.folder && basename(path).startsWith('.'),
      // The host's own saves are atomic renames; editors' saves may be several writes.
      awaitWriteFinish: { stabilityThreshold: 200, pollInterval: 50 },
    });
    this.watcher = w;
    const seen = (kind: 'add' | 'change') => (path: string, stats?: Stats) => {
      const name = basename(path);
      if (!isDocumentName(name) || !stats?.isFile()) return;
      this.files.set(name, { name, size: stats.size, mtimeMs: stats.mtimeMs });
      this.emit({ kind, name });
    };
    w.on('add', seen('add'));
    w.on('change', seen('change'));
    w.on('unlink', (path: string) => {
      const name = basename(path);
      if (this.files.delete(name)) this.emit({ kind: 'unlink', name });
    });
    await new Promise<void>((resolve, reject) => {
      w.once('ready', () => resolve());
      w.once('error', reject);
    });
  }

  /** The documents, sorted by name. */
  list(): ListedFile[] {
    return [...this.files.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Calls `fn` for every change; returns the unsubscribe function. */
  onChange(fn: (e: FolderEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Stops watching. */
  async stop(): Promise<void> {
    await this.watcher?.close();
    this.listeners.clear();
  }

  private emit(e: FolderEvent): void {
    for (const fn of this.listeners) fn(e);
  }
}
