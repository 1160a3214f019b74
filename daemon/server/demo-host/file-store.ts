import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, copyFile, link, mkdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileIdOf, fileNameOf, isDocumentName } from './file-id.ts';

/** What CheckFileInfo needs of a stored file. */
export interface StoredFile {
  name: string;
  /** Bytes. */
  size: number;
  /** The file's mtime in ISO 8601 round-trip form (`2026-11-23T01:02:04.1234567Z`, 100 ns ticks as .NET's "o"). */
  lastModifiedTime: string;
  /** False when the file is not writable on disk (then UserCanWrite is false). */
  writable: boolean;
}

/** PutFile refused because the stored file changed (spec: External-change detection rule 1). */
export class StaleTimestampError extends Error {
  constructor(readonly current: string) {
    super(`the stored file's LastModifiedTime is ${current}`);
  }
}

/** A target name that already exists (PutRelativeFile with a RelativeTarget, RenameFile). */
export class NameTakenError extends Error {}

/** Prefix of the host's temp files in the folder: hidden, so the watcher and listings skip them. */
export const TEMP_PREFIX = '.ode-demo-';

/**
 * Gives `from` the extra name `to`, failing with EEXIST instead of replacing a file: a hard link, or on a file
 * system without hard links (some network and FUSE mounts) an exclusive copy.
 */
async function linkNew(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw e;
    await copyFile(from, to, constants.COPYFILE_EXCL);
  }
}

/** ISO 8601 round-trip form of a bigint mtime in nanoseconds. */
export function roundTripTime(mtimeNs: bigint): string {
  const ms = Number(mtimeNs / 1_000_000n);
  const ticks = (((mtimeNs % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n) / 100n;
  return `${new Date(ms).toISOString().slice(0, 19)}.${ticks.toString().padStart(7, '0')}Z`;
}

/**
 * The demo host's documents: one folder, files addressed by name. Writes are atomic (a hidden temp file in the
 * same folder, then rename, or link for a name that must not exist yet), and the writes of one file run one at a
 * time, so PutFile's timestamp check and its write cannot interleave with another save. Renamed files keep
 * answering under their old id for the daemon's lifetime (an open document's WOPISrc still names the old id).
 */
export class FileStore {
  readonly folder: string;
  private readonly queues = new Map<string, Promise<unknown>>();
  /** Old id -> new name, for files renamed while the daemon runs. */
  private readonly renamed = new Map<string, string>();

  constructor(folder: string) {
    this.folder = folder;
  }

  /** Creates the folder when it is missing. */
  async init(): Promise<void> {
    await mkdir(this.folder, { recursive: true });
  }

  /** The name of a file id: the decoded name, or where a renamed file went; undefined for an invalid id. */
  resolve(id: string): string | undefined {
    const name = fileNameOf(id);
    const moved = this.renamed.get(id);
    return moved ?? name;
  }

  /** Stat of a document by name; undefined when there is no such regular file. */
  async info(name: string): Promise<StoredFile | undefined> {
    if (!isDocumentName(name)) return undefined;
    const path = join(this.folder, name);
    try {
      const s = await stat(path, { bigint: true });
      if (!s.isFile()) return undefined;
      const writable = await access(path, constants.W_OK).then(
        () => true,
        () => false,
      );
      return { name, size: Number(s.size), lastModifiedTime: roundTripTime(s.mtimeNs), writable };
    } catch {
      return undefined;
    }
  }

  /** The bytes of a document. @throws when it cannot be read (ENOENT when gone). */
  read(name: string): Promise<Buffer> {
    return readFile(join(this.folder, name));
  }

  /**
   * PutFile: replaces the file atomically. With `expected` (X-ODE-WOPI-Timestamp), the write happens only when the
   * stored LastModifiedTime is still that value.
   * @returns the new LastModifiedTime.
   * @throws StaleTimestampError when the file changed; NameTakenError never; fs errors (ENOENT when gone).
   */
  write(name: string, bytes: Uint8Array, expected?: string): Promise<string> {
    return this.serial(name, async () => {
      const current = await this.info(name);
      if (!current) throw Object.assign(new Error(`${name} does not exist`), { code: 'ENOENT' });
      if (expected !== undefined && expected !== current.lastModifiedTime) throw new StaleTimestampError(current.lastModifiedTime);
      const tmp = await this.temp(bytes);
      const path = join(this.folder, name);
      await rename(tmp, path);
      const after = (await this.info(name))!.lastModifiedTime;
      if (after !== current.lastModifiedTime) return after;
      // The kernel's file times tick coarsely (a few ms): a save right after another must still get a new time.
      const s = await stat(path, { bigint: true });
      await utimes(path, new Date(), Number(s.mtimeNs) / 1e9 + 0.001);
      return (await this.info(name))!.lastModifiedTime;
    });
  }

  /**
   * PutRelativeFile: stores a new file. With `exact` the name is used as given (NameTakenError when it exists and
   * `overwrite` is false); otherwise a free name is chosen, `name (2).ext`, `name (3).ext`, ... when it is taken.
   * @returns the name used.
   */
  async create(name: string, bytes: Uint8Array, o: { exact: boolean; overwrite: boolean }): Promise<string> {
    const tmp = await this.temp(bytes);
    try {
      if (o.exact && o.overwrite) {
        await this.serial(name, () => rename(tmp, join(this.folder, name)));
        return name;
      }
      const ext = extname(name);
      const stem = name.slice(0, name.length - ext.length);
      for (let n = 1; n < 1000; n++) {
        const candidate = n === 1 ? name : `${stem} (${n})${ext}`;
        try {
          await linkNew(tmp, join(this.folder, candidate)); // fails with EEXIST instead of replacing
          return candidate;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
          if (o.exact) throw new NameTakenError(`${name} exists`);
        }
      }
      throw new NameTakenError(`no free name like ${name}`);
    } finally {
      await unlink(tmp).catch(() => undefined);
    }
  }

  /**
   * RenameFile: gives `name` the name `newName` (same folder), never replacing another file; the old id keeps
   * resolving to the new name.
   * @throws NameTakenError when `newName` exists; fs errors (ENOENT when `name` is gone).
   */
  renameTo(name: string, newName: string): Promise<void> {
    return this.serial(name, async () => {
      const from = join(this.folder, name);
      try {
        await linkNew(from, join(this.folder, newName));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new NameTakenError(`${newName} exists`);
        throw e;
      }
      await unlink(from);
      this.renamed.set(fileIdOf(name), newName);
      for (const [id, to] of this.renamed) if (to === name) this.renamed.set(id, newName);
    });
  }

  /** Forgets a rename when a new file takes the old name (the old id then means that file again). */
  appeared(name: string): void {
    this.renamed.delete(fileIdOf(name));
  }

  private async temp(bytes: Uint8Array): Promise<string> {
    const tmp = join(this.folder, `${TEMP_PREFIX}${randomBytes(6).toString('hex')}`);
    await writeFile(tmp, bytes);
    return tmp;
  }

  /** Runs `job` after the previous job of the same file. */
  private serial<T>(name: string, job: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(name) ?? Promise.resolve();
    const next = prev.then(job, job);
    const settled = next.catch(() => undefined);
    this.queues.set(name, settled);
    void settled.then(() => {
      if (this.queues.get(name) === settled) this.queues.delete(name);
    });
    return next;
  }
}
