/**
 * What a start does with what the previous daemon left unstored (issue 17, items 6 and 8; docs/reliability.md):
 *
 * 1. Each edit journal (`<state_dir>/journal/*`, journal-store.ts) is rebuilt in a kit (its snapshot, the views'
 *    cursors, its input replayed, then `.uno:Save`) into a recovery copy, and the journal is deleted. A journal whose
 *    input changed nothing (LibreOffice not modified after the replay) on the file the host holds (its snapshot
 *    marked `stored`, or, for older journals, equal to the host's GetFile) is deleted without a copy: nothing is
 *    uploaded for a document only looked at.
 * 2. Every recovery copy (`<state_dir>/recovery/`, the Uploader's copies of saves the host did not take, and the
 *    copies of step 1) moves to `<state_dir>/recovery/pending/` with its sidecar `.json` (WOPISrc, token and its
 *    expiry, the stored file's LastModifiedTime it builds on), so a new session of the same document cannot delete it.
 * 3. Each pending copy is uploaded with PutFile and X-ODE-WOPI-Timestamp = that LastModifiedTime (spec:
 *    external change detection rule 1): stored -> deleted; 409 (the stored file changed meanwhile) -> kept as
 *    `conflict`; an expired token (access_token_ttl) or 401 -> kept as `token_expired`; the host unavailable -> kept
 *    and tried again every `documents.upload_retry_max_secs`. A copy is deleted only after the host stored it.
 *
 * 4. A copy kept (conflict, token expired, refused, host unavailable) is offered to the users of its document when
 *    they open it (`offersFor`; document-recovery-offer.ts: restore as the new version, or save as a new file).
 *
 * WOPI locks (lock-records.ts): the host may still hold the lock a killed daemon took. A copy of such a document is
 * uploaded under that lock (LOCK with the same id is a refresh or takes it again, MS-WOPI; PutFile with X-WOPI-Lock;
 * UNLOCK), or under the live document's lock when it is open here again; the previous run's locks of documents with
 * nothing to upload are released once the copies were tried.
 *
 * The admin API lists what is pending (`documents.recovery`). No token reaches the log.
 */
import type { RecoveryCopyInfo } from '../../../admin-api/backend.ts';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Logger } from 'pino';
import type { OdeConfig } from '../config/schema.ts';
import type { WopiClient } from '../wopi/wopi-client.ts';
import { WopiError } from '../wopi/wopi-error.ts';
import { parseWopiSrc, type WopiSrc } from '../wopi/wopi-src.ts';
import type { EditingKitPool } from './editing-kit.ts';
import { rebuildJournalChanges } from './journal-rebuild.ts';
import { JournalStore, type StoredJournal } from './journal-store.ts';
import { lockDocKey, type LockRecords } from './lock-records.ts';

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
  /** Our WOPI lock on the document when the save was made (X-WOPI-Lock), if it had one. */
  lock?: string;
}

/**
 * What an open document uses of the pending copies (document-recovery-offer.ts): the copies of a document to offer
 * its users, and a copy claimed while a user's choice stores it.
 */
export interface RecoveryOffers {
  /** The copies of document `docKey` (WOPISrc without its query) a user may restore: every pending one not being uploaded. */
  offersFor(docKey: string): RecoveryCopy[];
  /** Takes copy `id` of `docKey` out of the offers and uploads while a user's choice stores it; undefined when gone. */
  claim(id: string, docKey: string): { bytes: Buffer; copy: RecoveryCopy } | undefined;
  /** A claimed copy was stored (deleted now) or not (offered again). */
  release(id: string, stored: boolean): void;
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
export class RecoveryService implements RecoveryOffers {
  private readonly pending = new Map<string, RecoveryCopy>();
  /** Copies a user's choice is storing (not offered, not uploaded by the retry loop meanwhile). */
  private readonly claimed = new Set<string>();
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
      /** The locks this daemon holds and the previous run's (lock-records.ts). */
      locks?: LockRecords;
      /** The lock of the document `wopiSrc` when it is open here and locked now. */
      liveLock?: (wopiSrc: string) => string | undefined;
      /** The pending copies of document `docKey` changed (one stored, kept, or claimed): its views are told again. */
      changed?: (docKey: string) => void;
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
    await this.releasePreviousLocks();
  }

  /**
   * Releases the locks the previous run held on documents with no pending copy left (UNLOCK with the token that took
   * them). A lock the host no longer holds (409) is forgotten; one whose token expired or whose host is down stays
   * known, so a user reopening the document replaces it (document-lock.ts), and the host expires it anyway.
   */
  private async releasePreviousLocks(): Promise<void> {
    const { locks, liveLock, client, log } = this.deps;
    for (const rec of locks?.previousAll() ?? []) {
      if (this.stopped) return;
      const key = lockDocKey(rec.wopiSrc);
      if (liveLock?.(rec.wopiSrc) || [...this.pending.values()].some((c) => c.document === key)) continue;
      if (rec.tokenTtl && rec.tokenTtl < Date.now()) continue;
      try {
        await client.lock(parseWopiSrc(rec.wopiSrc), rec.token, 'UNLOCK', rec.lock);
        locks?.settled(rec.wopiSrc);
        log.info({ document: key }, 'released the WOPI lock a previous run of the daemon held');
      } catch (e) {
        if (e instanceof WopiError && e.kind === 'conflict') locks?.settled(rec.wopiSrc);
        log.info({ document: key, err: (e as Error).message }, 'the WOPI lock a previous run held could not be released');
      }
    }
  }

  /** See RecoveryOffers. */
  offersFor(docKey: string): RecoveryCopy[] {
    return [...this.pending.values()].filter((c) => c.document === docKey && c.state !== 'uploading' && !this.claimed.has(c.id));
  }

  /** See RecoveryOffers. */
  claim(id: string, docKey: string): { bytes: Buffer; copy: RecoveryCopy } | undefined {
    const copy = this.pending.get(id);
    if (!copy || copy.document !== docKey || copy.state === 'uploading' || this.claimed.has(id)) return undefined;
    try {
      const bytes = readFileSync(join(this.pendingDir, id));
      this.claimed.add(id);
      this.deps.changed?.(docKey);
      return { bytes, copy };
    } catch {
      return undefined;
    }
  }

  /** See RecoveryOffers. */
  release(id: string, stored: boolean): void {
    const copy = this.pending.get(id);
    this.claimed.delete(id);
    if (!copy) return;
    if (stored) {
      this.remove(copy);
      this.deps.log.warn({ document: copy.document, copy: id }, "a recovery copy was stored by a user's choice");
    }
    this.deps.changed?.(copy.document);
  }

  private remove(copy: RecoveryCopy): void {
    const path = join(this.pendingDir, copy.id);
    rmSync(path, { force: true });
    rmSync(`${path}.json`, { force: true });
    this.pending.delete(copy.id);
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
      const { bytes, changed } = await this.rebuild(j);
      if (!changed && (j.snapshot.stored === true || (await this.hostHas(j, bytes)))) {
        // Only clicks, cursor moves and sheet switches (or changes undone): the host has the document as it was.
        rmSync(dir, { recursive: true, force: true });
        log.info(
          { document: docKey(j.meta.wopiSrc), replayed: j.entries.length, ms: Date.now() - started },
          'an edit journal a previous daemon left changed nothing the host lacks; deleted without an upload',
        );
        return;
      }
      mkdirSync(this.deps.recoveryDir, { recursive: true, mode: 0o700 });
      const copy = join(this.deps.recoveryDir, `${basename(dir)}-journal-${Date.now()}-${safeName(j.meta.fileName)}`);
      writeFileSync(copy, bytes, { mode: 0o600 });
      writeSidecar(copy, {
        wopiSrc: j.meta.wopiSrc,
        fileName: j.meta.fileName,
        token: j.meta.token,
        tokenTtl: j.meta.tokenTtl,
        lastModifiedTime: j.meta.lastModifiedTime,
        source: 'journal',
        createdAt: j.meta.createdAt,
      });
      rmSync(dir, { recursive: true, force: true });
      log.warn(
        { document: docKey(j.meta.wopiSrc), replayed: j.entries.length, ms: Date.now() - started },
        'rebuilt a document from the edit journal a previous daemon left',
      );
    } catch (e) {
      log.error({ err: (e as Error).message, dir }, 'an edit journal could not be rebuilt; it is kept');
    }
  }

  /**
   * True when the host's file is `bytes` (GetFile with the journal's token): a journal of an older version (no
   * `stored` mark) whose snapshot is the stored file. False when it differs or cannot be read (then uploaded).
   */
  private async hostHas(j: StoredJournal, bytes: Uint8Array): Promise<boolean> {
    try {
      return Buffer.from(await this.deps.client.getFile(parseWopiSrc(j.meta.wopiSrc), j.meta.token)).equals(Buffer.from(bytes));
    } catch {
      return false;
    }
  }

  /**
   * Opens the journal's snapshot in a kit, replays its input, saves when that changed the document, and returns the
   * file and whether it changed (journal-rebuild.ts rebuildJournalChanges).
   */
  private rebuild(j: StoredJournal): Promise<{ bytes: Uint8Array; changed: boolean }> {
    const limits = this.deps.config().limits;
    return rebuildJournalChanges(this.deps.pool, j, { loadMs: limits.load_secs * 1000, convertMs: limits.convert_secs * 1000 });
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
      this.pending.set(name, {
        id: name,
        fileName: side.fileName,
        host: new URL(side.wopiSrc).origin,
        document: docKey(side.wopiSrc),
        bytes: statSync(join(this.pendingDir, name)).size,
        createdAt: side.createdAt,
        source: side.source,
        state: 'uploading',
      });
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
      if (this.claimed.has(copy.id)) continue;
      if (copy.state === 'uploading' || copy.state === 'host_unavailable') {
        await this.upload(copy);
        this.deps.changed?.(copy.document);
      }
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
      const src = parseWopiSrc(side.wopiSrc);
      const bytes = readFileSync(path);
      const r = await this.underLock(src, side, (lock) =>
        client.putFile(src, side.token, bytes, { timestamp: side.lastModifiedTime, isModifiedByUser: true, isAutosave: true, isExitSave: false, lock }),
      );
      this.remove(copy);
      log.warn(
        { document: copy.document, copy: copy.id, bytes: copy.bytes, lastModifiedTime: r.lastModifiedTime },
        'a recovery copy was uploaded: the host has the unsaved edits a previous daemon held',
      );
    } catch (e) {
      const err = e instanceof WopiError ? e : new WopiError('failed', (e as Error).message);
      copy.error = err.kind === 'conflict' ? `${err.message}: the document is locked by another application` : err.message;
      copy.state =
        err.kind === 'document_changed' || err.kind === 'conflict'
          ? 'conflict'
          : err.kind === 'unauthorized'
            ? 'token_expired'
            : err.retryable
              ? 'host_unavailable'
              : 'failed';
      log.warn({ document: copy.document, copy: copy.id, state: copy.state, err: err.message }, 'a recovery copy could not be uploaded; it is kept');
    }
  }

  /**
   * Runs `put` under the document's WOPI lock: the live document's when it is open here and locked; else the lock the
   * previous run held (lock-records.ts) or the copy's own, taken again with the same id (MS-WOPI Lock: a refresh
   * when the host still holds it) and released afterwards; else none.
   * @throws WopiError `conflict` when someone else holds the lock, and what `put` throws.
   */
  private async underLock<T>(src: WopiSrc, side: RecoverySidecar, put: (lock: string | undefined) => Promise<T>): Promise<T> {
    const { client, locks, liveLock, log } = this.deps;
    const live = liveLock?.(side.wopiSrc);
    if (live) return put(live);
    const lock = locks?.previous(side.wopiSrc)?.lock ?? side.lock;
    if (!lock) return put(undefined);
    try {
      await client.lock(src, side.token, 'LOCK', lock);
    } catch (e) {
      // A lock held by someone else, a token refused or a host down: the copy waits. Another refusal (a host that
      // stopped supporting locks: 501) does not stop the upload.
      if (e instanceof WopiError && (e.kind === 'conflict' || e.kind === 'unauthorized' || e.retryable)) throw e;
      return put(undefined);
    }
    try {
      return await put(lock);
    } finally {
      await client.lock(src, side.token, 'UNLOCK', lock).then(
        () => locks?.settled(side.wopiSrc),
        (e: Error) => log.warn({ document: docKey(side.wopiSrc), err: e.message }, 'Unlock after a recovery upload failed'),
      );
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
