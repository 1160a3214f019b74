import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { KitSettingsFile, KitSettingsManifest } from '../../protocol/kit.ts';
import type { FileInfo, SettingsRef } from '../wopi/check-file-info.ts';
import { parseSettingsBaseUrl, type HostSettingsClient, type SettingsListing, type SettingsType } from './host-settings.ts';
import { listingKey, type SettingsCache } from './settings-cache.ts';

/** What SessionSettings needs: the host client (token, Bearer, proof), the cache, the allowed hosts, a logger. */
export interface SessionSettingsDeps {
  client: HostSettingsClient;
  cache: SettingsCache;
  /** `storage.wopi.hosts`, read at each fetch (live config). */
  allowedHosts: () => readonly string[];
  log: Logger;
}

/** A plain file name: what a settings file may be installed as. */
const PLAIN_NAME = /^(?!\.)[^/\\\x00-\x1f]{1,255}$/;

/**
 * The settings of an editing session (host-integration protocol, CheckFileInfo `SharedSettings` and
 * `UserSettings`, "Settings fetch response"): fetches each settings JSON and downloads its files through the
 * settings client (token, `Authorization: Bearer`, proof headers; URLs checked against `storage.wopi.hosts`),
 * cached on disk by stamp (settings-cache.ts), and returns the kit's settings manifest (kit.md, "Settings"):
 * shared files first, user files after them so they win.
 *
 * A listing whose CheckFileInfo stamp was seen before is not fetched again (for the same URL and user); a file
 * whose uri and stamp were downloaded before is not downloaded again. A failed fetch (host down, 404, bad JSON,
 * a host not allowed) is logged with its reason and leaves out that source; a failed file leaves out that file:
 * the document then opens with LibreOffice's defaults for what is missing. Nothing here throws.
 */
export class SessionSettings {
  constructor(private readonly deps: SessionSettingsDeps) {}

  /**
   * The manifest for a view's CheckFileInfo (`token`: the view's access token, used when a settings URL has no
   * `access_token` of its own); undefined when the host sent no settings or none could be had.
   */
  async forView(info: Pick<FileInfo, 'SharedSettings' | 'UserSettings' | 'UserId'>, token: string): Promise<KitSettingsManifest | undefined> {
    const files: KitSettingsFile[] = [];
    if (info.SharedSettings) files.push(...(await this.fetchSource('shared', info.SharedSettings, '', token)));
    if (info.UserSettings) files.push(...(await this.fetchSource('user', info.UserSettings, info.UserId, token)));
    return files.length > 0 ? { files } : undefined;
  }

  private async fetchSource(source: 'shared' | 'user', ref: SettingsRef, owner: string, viewToken: string): Promise<KitSettingsFile[]> {
    const what = source === 'shared' ? 'SharedSettings' : 'UserSettings';
    let base: URL;
    let token: string;
    let type: SettingsType;
    try {
      const url = new URL(ref.url);
      token = url.searchParams.get('access_token') || viewToken;
      const t = url.searchParams.get('type');
      type = t === 'userconfig' || t === 'systemconfig' ? t : source === 'shared' ? 'systemconfig' : 'userconfig';
      base = parseSettingsBaseUrl(ref.url, this.deps.allowedHosts());
    } catch (e) {
      this.deps.log.warn(
        { settings: what, err: (e as Error).message },
        'settings not used: the CheckFileInfo settings URL is not usable; the document opens with defaults',
      );
      return [];
    }
    const key = listingKey(ref.url, owner, ref.stamp);
    // An empty stamp says nothing about change: fetch every time.
    let listing = ref.stamp ? this.deps.cache.listing(key) : undefined;
    if (!listing) {
      try {
        listing = await this.deps.client.list(base, token, type);
      } catch (e) {
        this.deps.log.warn({ settings: what, host: base.host, err: (e as Error).message }, 'settings fetch failed; the document opens with defaults');
        return [];
      }
      if (ref.stamp) this.deps.cache.putListing(key, listing);
    }
    return this.download(what, source, base, token, listing);
  }

  /** Each listed file from the cache or the host, in listing order; failures are logged and left out. */
  private async download(what: string, source: 'shared' | 'user', base: URL, token: string, listing: SettingsListing): Promise<KitSettingsFile[]> {
    const out: KitSettingsFile[] = [];
    for (const [setting, files] of Object.entries(listing.settings)) {
      for (const f of files) {
        if (!PLAIN_NAME.test(f.file)) {
          this.deps.log.warn({ settings: what, setting, uri: f.uri }, 'a settings file was not used: its uri does not end in a plain file name');
          continue;
        }
        // A file without a stamp cannot be known unchanged: download it each time (under a stamp of its own).
        const stamp = f.stamp || `unstamped ${randomUUID()}`;
        let path = this.deps.cache.file(f.uri, stamp, f.file);
        if (!path) {
          try {
            path = this.deps.cache.putFile(f.uri, stamp, f.file, await this.deps.client.download(base, token, f.uri));
          } catch (e) {
            this.deps.log.warn(
              { settings: what, setting, file: f.file, err: (e as Error).message },
              'a settings file could not be downloaded; the document opens without it',
            );
            continue;
          }
        }
        out.push({ setting, name: f.file, path, source });
      }
    }
    return out;
  }
}
