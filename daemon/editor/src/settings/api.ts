/**
 * The settings page's calls to the daemon's settings proxy (daemon/server/routes/settings-proxy.ts,
 * docs/settings.md): the token goes as `Authorization: Bearer`, the host's base URL as `base`; the daemon adds the
 * proof headers and talks to the host.
 */

import type { SettingFile, SettingsListing } from '../../../protocol/settings.ts';

export type { SettingFile, SettingsListing };

/**
 * The answer to an upload, a delete or a save as the page shows it: `ok`, the host's HTTP status, its `status`
 * field (`success`, ...) and its `message` or `details` as text.
 */
export interface ShownAnswer {
  ok: boolean;
  hostStatus: number | undefined;
  status: string;
  text: string;
}

/** What the page needs to reach the proxy. */
export interface ApiConfig {
  proxy: string;
  baseUrl: string;
  accessToken: string;
}

function describe(details: unknown): string {
  if (typeof details === 'string') return details;
  if (details && typeof details === 'object') {
    const d = details as Record<string, unknown>;
    return Object.entries(d)
      .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(', ');
  }
  return '';
}

/** Reads a proxy answer: a 2xx `{hostStatus, status, message|details}` or an error `{code, message, hostStatus, host}`. */
async function shown(res: Response): Promise<ShownAnswer> {
  let body: Record<string, unknown> = {};
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    /* not JSON: the HTTP status says enough */
  }
  if (res.ok) {
    const status = typeof body.status === 'string' ? body.status : 'success';
    const text = typeof body.message === 'string' ? body.message : describe(body.details);
    return { ok: status === 'success' || status === 'ok', hostStatus: Number(body.hostStatus) || undefined, status, text };
  }
  const host = (body.host ?? {}) as Record<string, unknown>;
  const status = typeof host.status === 'string' ? host.status : String(body.code ?? res.status);
  const hostStatus = Number(body.hostStatus) || undefined;
  return {
    ok: false,
    hostStatus,
    status: hostStatus ? `${status} (${hostStatus})` : status,
    text: typeof host.message === 'string' ? host.message : String(body.message ?? res.statusText),
  };
}

/** The proxy client of one settings page. */
export class SettingsApi {
  private readonly cfg: ApiConfig;

  constructor(cfg: ApiConfig) {
    this.cfg = cfg;
  }

  private url(path: string, params: Record<string, string>): string {
    return `${this.cfg.proxy}${path}?${new URLSearchParams({ base: this.cfg.baseUrl, ...params })}`;
  }

  private get headers(): Record<string, string> {
    return { Authorization: `Bearer ${this.cfg.accessToken}` };
  }

  /** The settings of `type`. @throws Error with the proxy's message when listing fails. */
  async list(type: string): Promise<SettingsListing> {
    const res = await fetch(this.url('', { type }), { headers: this.headers, cache: 'no-store' });
    if (!res.ok) throw new Error((await shown(res)).text || `HTTP ${res.status}`);
    return (await res.json()) as SettingsListing;
  }

  /** Uploads `bytes` as `fileId` (`/settings/{TYPE}/{SETTING_NAME}/{FILE}`); a file of that name is replaced. */
  async upload(fileId: string, bytes: Blob): Promise<ShownAnswer> {
    try {
      return await shown(
        await fetch(this.url('/upload', { fileId }), { method: 'POST', headers: { ...this.headers, 'Content-Type': 'application/octet-stream' }, body: bytes }),
      );
    } catch (e) {
      return { ok: false, hostStatus: undefined, status: 'error', text: (e as Error).message };
    }
  }

  /** Deletes `fileId`. */
  async remove(fileId: string): Promise<ShownAnswer> {
    try {
      return await shown(await fetch(this.url('', { fileId }), { method: 'DELETE', headers: this.headers }));
    } catch (e) {
      return { ok: false, hostStatus: undefined, status: 'error', text: (e as Error).message };
    }
  }

  /** A listed file's text. @throws Error with the proxy's message. */
  async readText(uri: string): Promise<string> {
    const res = await fetch(this.url('/file', { uri }), { headers: this.headers, cache: 'no-store' });
    if (!res.ok) throw new Error((await shown(res)).text || `HTTP ${res.status}`);
    return res.text();
  }
}
