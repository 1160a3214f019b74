/**
 * The WOPI locks this daemon holds at hosts, on disk (issue 17: a killed daemon's lock). A document's lock
 * (document-lock.ts) is written here when taken and removed when released, one file per document:
 * `<state_dir>/locks/<sha256 of the document key, 24 hex>.json` (0600: it holds the token that may unlock it).
 *
 * After a SIGKILL the host still holds the dead daemon's lock (hosts expire locks after 30 minutes, MS-WOPI), and
 * a new lock id would be refused with 409 for that long: the document would open read-only and a recovery upload
 * would be refused. Collabora Online draws a new random lock id per document load and keeps none across a restart;
 * Ode reads the previous run's files at start (`previous`) so that:
 * - a recovery upload of that document locks with the old id (a refresh, MS-WOPI Lock), stores, and unlocks;
 * - a user reopening the document while the host still holds the old id replaces it (UnlockAndRelock, X-WOPI-OldLock);
 * - the locks of documents with nothing to recover are released at start (recovery.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One held lock: the document (WOPISrc), our lock id, the token that took it and its expiry (ms since the epoch). */
export interface LockRecord {
  wopiSrc: string;
  lock: string;
  token: string;
  tokenTtl?: number;
  /** When the lock was taken (ms since the epoch). */
  takenAt: number;
}

/** The document key of a WOPISrc (origin and path, no query), as EditDocument keys documents. */
export function lockDocKey(wopiSrc: string): string {
  try {
    const u = new URL(wopiSrc);
    return `${u.origin}${u.pathname}`;
  } catch {
    return wopiSrc;
  }
}

/** The lock files of one state folder, and the previous run's locks read at construction. */
export class LockRecords {
  /** The previous run's locks by document key, until recovery or a reopen settles them. */
  private readonly stale = new Map<string, LockRecord>();

  /**
   * Reads the lock files a previous daemon left in `dir` (`<state_dir>/locks`). They stay on disk until settled, so
   * a daemon killed again before that still knows them.
   */
  constructor(private readonly dir: string) {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name.endsWith('.json')) {
        try {
          const rec = JSON.parse(readFileSync(path, 'utf8')) as LockRecord;
          if (typeof rec.wopiSrc === 'string' && typeof rec.lock === 'string' && typeof rec.token === 'string') this.stale.set(lockDocKey(rec.wopiSrc), rec);
        } catch {
          rmSync(path, { force: true });
        }
      } else rmSync(path, { force: true });
    }
  }

  private file(wopiSrc: string): string {
    return join(this.dir, `${createHash('sha256').update(lockDocKey(wopiSrc)).digest('hex').slice(0, 24)}.json`);
  }

  /** Records a lock the host granted (atomic write, 0600). Never throws (a failure only loses the record). */
  held(rec: LockRecord): void {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const path = this.file(rec.wopiSrc);
      writeFileSync(`${path}.tmp`, JSON.stringify(rec), { mode: 0o600 });
      renameSync(`${path}.tmp`, path);
    } catch {
      // the state folder is not writable: the lock works, only a restart cannot release it
    }
  }

  /** Forgets the document's lock `lock` (released or given up); a newer lock of the same document stays. */
  released(wopiSrc: string, lock: string): void {
    const path = this.file(wopiSrc);
    try {
      if ((JSON.parse(readFileSync(path, 'utf8')) as LockRecord).lock === lock) rmSync(path, { force: true });
    } catch {
      // none recorded
    }
  }

  /** The lock a previous daemon held on this document, if not settled yet. */
  previous(wopiSrc: string): LockRecord | undefined {
    return this.stale.get(lockDocKey(wopiSrc));
  }

  /** Every previous lock not settled yet. */
  previousAll(): LockRecord[] {
    return [...this.stale.values()];
  }

  /** The previous lock of the document was released, replaced, or expired: it is not ours any more. */
  settled(wopiSrc: string): void {
    const rec = this.stale.get(lockDocKey(wopiSrc));
    if (!rec) return;
    this.stale.delete(lockDocKey(wopiSrc));
    this.released(wopiSrc, rec.lock);
  }
}
