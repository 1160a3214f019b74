import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SettingsListing } from './host-settings.ts';

/**
 * The on-disk cache of settings for editing sessions, under `<state_dir>/settings-cache/` (host-integration
 * protocol, "UserSettings": the stamp "must change only when the settings change; an unneeded change makes the
 * server re-fetch"):
 *
 * ```
 * listings/<sha256 of key>.json   a settings fetch JSON, checked, keyed by the listing's URL (no token), its
 *                                 owner (UserId for UserSettings) and the CheckFileInfo stamp
 * files/<sha256 of uri+stamp>/<file name>   one file's bytes, keyed by its uri (no token) and its stamp
 * ```
 *
 * Entries never change once written (a new stamp is a new key), so readers need no lock; writes go to a temporary
 * name first and are renamed into place, so a reader never sees half a file. Entries of old stamps stay until
 * the folder is cleared (each is a few kB).
 */
export class SettingsCache {
  constructor(readonly dir: string) {}

  /** The cached listing for `key` (see listingKey), or undefined. A damaged entry counts as missing. */
  listing(key: string): SettingsListing | undefined {
    const file = join(this.dir, 'listings', `${hash(key)}.json`);
    if (!existsSync(file)) return undefined;
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as SettingsListing;
    } catch {
      return undefined;
    }
  }

  /** Stores a listing under `key`. */
  putListing(key: string, listing: SettingsListing): void {
    this.write(join(this.dir, 'listings'), `${hash(key)}.json`, JSON.stringify(listing));
  }

  /** The path of the cached bytes of `uri` at `stamp`, stored as `name`, or undefined when not cached. */
  file(uri: string, stamp: string, name: string): string | undefined {
    const path = join(this.dir, 'files', hash(`${withoutToken(uri)}\n${stamp}`), name);
    return existsSync(path) ? path : undefined;
  }

  /** Stores the bytes of `uri` at `stamp` as `name` (a plain file name); returns their path. */
  putFile(uri: string, stamp: string, name: string, bytes: Uint8Array): string {
    const dir = join(this.dir, 'files', hash(`${withoutToken(uri)}\n${stamp}`));
    this.write(dir, name, bytes);
    return join(dir, name);
  }

  private write(dir: string, name: string, data: string | Uint8Array): void {
    mkdirSync(dir, { recursive: true });
    const tmp = join(dir, `.${name}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      writeFileSync(tmp, data);
      renameSync(tmp, join(dir, name));
    } finally {
      rmSync(tmp, { force: true });
    }
  }
}

/**
 * The cache key of a listing: its URL without `access_token` (tokens change per session), the user it belongs to
 * (UserSettings differ per user behind the same URL; empty for SharedSettings) and the CheckFileInfo stamp.
 */
export function listingKey(url: string, owner: string, stamp: string): string {
  return `${withoutToken(url)}\n${owner}\n${stamp}`;
}

/** `url` without its `access_token` query parameter (an unparsable string is returned as it is). */
export function withoutToken(url: string): string {
  try {
    const u = new URL(url);
    u.searchParams.delete('access_token');
    return u.href;
  } catch {
    return url;
  }
}

function hash(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}
