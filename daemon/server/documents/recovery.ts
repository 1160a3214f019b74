/**
 * What a start does with what the previous daemon left unstored (issue 17, items 6 and 8; docs/reliability.md):
 *
 * 1. Each edit journal (`<state_dir>/journal/*`, journal-store.ts) is rebuilt in a kit (its snapshot, the views'
 *    cursors, its input replayed, then `.uno:Save`) into a recovery copy, and the journal is deleted.
 * 2. Every recovery copy (`<state_dir>/recovery/`, the Uploader's copies of saves the host did not take, and the
 *    copies of step 1) moves to `<state_dir>/recovery/pending/` with its sidecar `.json` (WOPISrc, token and its
 *    expiry, the stored file's LastModifiedTime it builds on), so a new session of the same document cannot delete it.
 * 3. Each pending copy is uploaded with PutFile and X-ODE-WOPI-Timestamp = that LastModifiedTime (spec:
 *    external change detection rule 1): stored -> deleted; 409 (the stored file changed meanwhile) -> kept as
 *    `conflict`; an expired token (access_token_ttl) or 401 -> kept as `token_expired`; the host unavailable -> kept
 *    and tried again every `documents.upload_retry_max_secs`. A copy is deleted only after the host stored it.
 *
 * The admin API lists what is pending (`documents.recovery`). No token reaches the log.
 */
import type { RecoveryCopyInfo } from '../../../admin-api/backend.ts';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Logger } from 'pino';
import type { OdeConfig } from '../config/schema.ts';
import type { WopiClient } from '../wopi/wopi-client.ts';
import { WopiError } from '../wopi/wopi-error.ts';
import { parseWopiSrc } from '../wopi/wopi-src.ts';
import { replay, settled } from './document-journal.ts';
import type { EditingKitPool } from './editing-kit.ts';
import { JournalStore, type StoredJournal } from './journal-store.ts';

/** The sidecar of a recovery copy (`<copy>.json`): what its upload needs. */
export interface RecoverySidecar {
  wopiSrc: string;
  fileName: string;
  token: string;
  /** access_token_ttl of the token, ms since the epoch. */
  tokenTtl?: number;
  /** The stored file's LastModifiedTime the copy builds on (X-ODE-WOPI-Timestamp). */
  lastModifiedTime?: string;
  /** `upload`: a save the host did not take (uploader.ts); `journal`: rebuilt from an edit journal after a restart. */
  source: 'upload' | 'journal';
  createdAt: number;
}

/** A pending recovery copy as the admin API lists it (no token): admin-api's RecoveryCopyInfo. */
export type RecoveryCopy = RecoveryCopyInfo;
/** Why a recovery copy is still pending. */
export type RecoveryState = RecoveryCopyInfo['state'];

/** Writes `<copy>.json` beside a recovery copy (mode 0600: it holds the token). */
export function writeSidecar(copyPath: string, sidecar: RecoverySidecar): void {
  writeFileSync(`${copyPath}.json.tmp`, JSON.stringify(sidecar), { mode: 0o600 });
  renameSync(`${copyPath}.json.tmp`, `${copyPath}.json`);
}

/** Starts the recovery of a previous daemon's leftovers, and lists what stays pending. */
export class RecoveryService {
  private readonly pending = new Map<string, RecoveryCopy>();
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly deps: {
      client: WopiClient;
      pool: EditingKitPool;
      config: () => OdeConfig;
      log: Logger;
      /** `<state_dir>/recovery`. */
      recoveryDir: string;
      /** `<state_dir>/journal`. */
      journalDir: string;
    },
  ) {}

  private get pendingDir(): string {
    return join(this.deps.recoveryDir, 'pending');
  }

  /** The copies not stored yet (admin API `documents.recovery`). */
  list(): RecoveryCopy[] {
    return [...this.pending.values()];
  }

  /**
   * Steps 1-3 of the module docstring. Resolves when every journal was rebuilt and every copy tried once; never
   * throws (each failure is logged and the copy kept).
   */
  async start(): Promise<void> {
    // The copies already there move first: a document opened while the journals are rebuilt cannot overwrite them.
    this.movePending();
    for (const dir of JournalStore.list(this.deps.journalDir)) {
      if (this.stopped) return;
      await this.rebuildJournal(dir);
    }
    this.movePending();
    await this.uploadAll();
  }

  /** Stops retrying. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
  }

  /** Step 1 for one journal folder. */
  private async rebuildJournal(dir: string): Promise<void> {
    const j = JournalStore.read(dir);
    const { log } = this.deps;
    if (!j) {
      log.warn({ dir }, 'an edit journal could not be read back (it was being created); it is left in place');
      return;
    }
    const started = Date.now();
    try {
      const bytes = await this.rebuild(j);
      mkdirSync(this.deps.recoveryDir, { recursive: true, mode: 0o700 });
      const copy = join(this.deps.recoveryDir, `${basename(dir)}-journal-${Date.now()}-${safeName(j.meta.fileName)}`);
      writeFileSync(copy, bytes, { mode: 0o600 });
      writeSidecar(copy, { wopiSrc: j.meta.wopiSrc, fileName: j.meta.fileName, token: j.meta.token, tokenTtl: j.meta.tokenTtl, lastModifiedTime: j.meta.lastModifiedTime, source: 'journal', createdAt: j.meta.createdAt });
      rmSync(dir, { recursive: true, force: true });
      log.warn({ document: docKey(j.meta.wopiSrc), replayed: j.entries.length, ms: Date.now() - started }, 'rebuilt a document from the edit journal a previous daemon left');
    } catch (e) {
      log.error({ err: (e as Error).message, dir }, 'an edit journal could not be rebuilt; it is kept');
    }
  }

  /** Opens the journal's snapshot in a kit, replays its input, saves, and returns the saved file. */
  private async rebuild(j: StoredJournal): Promise<Uint8Array> {
    const { pool } = this.deps;
    const limits = this.deps.config().limits;
    const kit = await pool.leaseEditingKit();
    try {
      const input = join(kit.dir, `document.${j.meta.format}`);
      copyFileSync(j.snapshotPath, input);
      const [first, ...others] = j.meta.views;
      const opened = await kit.open({ input, lang: first?.lang, timezone: first?.timezone }, { loadMs: limits.load_secs * 1000, convertMs: limits.convert_secs * 1000 });
      const views = new Map<number, number>();
      if (first) views.set(first.key, opened.viewId);
      for (const v of others) views.set(v.key, (await kit.createView({ userName: v.userName, userId: v.userId, lang: v.lang, timezone: v.timezone })).viewId);
      await replay(kit, () => j.entries, views, j.snapshot.cursors);
      await settled(kit);
      await kit.saveDoc(opened.viewId, false);
      return readFileSync(input);
    } finally {
      await kit.closeDoc().catch(() => undefined);
      pool.retireKit(kit);
    }
  }

  /** Step 2: every copy with a sidecar moves to pending/ (copies without one, from older versions, stay and are logged). */
  private movePending(): void {
    const { recoveryDir, log } = this.deps;
    if (!existsSync(recoveryDir)) return;
    mkdirSync(this.pendingDir, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(recoveryDir)) {
      const path = join(recoveryDir, name);
      if (name.endsWith('.json') || name.endsWith('.tmp') || !statSync(path).isFile()) continue;
      if (!existsSync(`${path}.json`)) {
        log.warn({ copy: path }, 'a recovery copy without its upload details stays in the recovery folder (store it by hand)');
        continue;
      }
      const to = join(this.pendingDir, existsSync(join(this.pendingDir, name)) ? `${Date.now()}-${name}` : name);
      renameSync(`${path}.json`, `${to}.json`);
      renameSync(path, to);
    }
    for (const name of readdirSync(this.pendingDir)) {
      if (name.endsWith('.json') || name.endsWith('.tmp')) continue;
      const side = this.sidecar(name);
      if (!side) continue;
      this.pending.set(name, { id: name, fileName: side.fileName, host: new URL(side.wopiSrc).origin, document: docKey(side.wopiSrc), bytes: statSync(join(this.pendingDir, name)).size, createdAt: side.createdAt, source: side.source, state: 'uploading' });
    }
  }

  private sidecar(name: string): RecoverySidecar | undefined {
    try {
      return JSON.parse(readFileSync(join(this.pendingDir, `${name}.json`), 'utf8')) as RecoverySidecar;
    } catch {
      return undefined;
    }
  }

  /** Step 3 for every pending copy not refused for good; host_unavailable ones are tried again later. */
  private async uploadAll(): Promise<void> {
    for (const copy of this.pending.values()) {
      if (this.stopped) return;
      if (copy.state === 'uploading' || copy.state === 'host_unavailable') await this.upload(copy);
    }
    if ([...this.pending.values()].some((c) => c.state === 'host_unavailable') && !this.stopped) {
      this.retryTimer = setTimeout(() => void this.uploadAll(), this.deps.config().documents.upload_retry_max_secs * 1000);
      this.retryTimer.unref();
    }
  }

  private async upload(copy: RecoveryCopy): Promise<void> {
    const { log, client } = this.deps;
    const side = this.sidecar(copy.id);
    const path = join(this.pendingDir, copy.id);
    if (!side) return;
    if (side.tokenTtl && side.tokenTtl < Date.now()) {
      copy.state = 'token_expired';
      copy.error = 'the access token expired (access_token_ttl): open the document and store the copy by hand';
      log.warn({ document: copy.document, copy: copy.id }, 'a recovery copy cannot be uploaded: its access token expired');
      return;
    }
    try {
      const r = await client.putFile(parseWopiSrc(side.wopiSrc), side.token, readFileSync(path), { timestamp: side.lastModifiedTime, isModifiedByUser: true, isAutosave: true, isExitSave: false });
      rmSync(path, { force: true });
      rmSync(`${path}.json`, { force: true });
      this.pending.delete(copy.id);
      log.warn({ document: copy.document, copy: copy.id, bytes: copy.bytes, lastModifiedTime: r.lastModifiedTime }, 'a recovery copy was uploaded: the host has the unsaved edits a previous daemon held');
    } catch (e) {
      const err = e instanceof WopiError ? e : new WopiError('failed', (e as Error).message);
      copy.error = err.message;
      copy.state = err.kind === 'document_changed' ? 'conflict' : err.kind === 'unauthorized' ? 'token_expired' : err.retryable ? 'host_unavailable' : 'failed';
      log.warn({ document: copy.document, copy: copy.id, state: copy.state, err: err.message }, 'a recovery copy could not be uploaded; it is kept');
    }
  }
}

/** The WOPISrc without its query (what the logs and the admin API show; a query may carry secrets). */
function docKey(wopiSrc: string): string {
  try {
    const u = new URL(wopiSrc);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid WOPISrc)';
  }
}

/** A file name safe in the recovery folder. */
function safeName(name: string): string {
  return name.replace(/[^\w.\- ]/g, '_') || 'document';
}
