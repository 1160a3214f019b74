import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { OdeConfig } from '../config/schema.ts';
import type { ConvertService } from '../convert/convert-service.ts';
import type { KitPool } from '../pool/pool.ts';
import type { ExtractService } from '../structure/extract-service.ts';
import type { TransformService } from '../structure/transform-service.ts';
import type { DownloadStore } from '../sessions/downloads.ts';
import type { CheckFileInfoPrefetch } from '../editor-page/prefetch.ts';
import type { WopiClient } from '../wopi/wopi-client.ts';
import type { ProofKeyStore } from './proof-key-store.ts';

/** What route handlers share: live config, the pool, services, and the daemon's identity. */
export interface RouteContext {
  config: () => OdeConfig;
  log: Logger;
  pool: KitPool;
  converter: ConvertService;
  extractor: ExtractService;
  transformer: TransformService;
  /** Exports prepared for editor views, fetched once from /ode/download/<id>. */
  downloads: DownloadStore;
  /** The WOPI client (proof headers, time-outs) every host request goes through. */
  wopi: WopiClient;
  /** CheckFileInfo answers started while the editor page is served. */
  prefetch: CheckFileInfoPrefetch;
  proofKeys: ProofKeyStore;
  /** Folder for incoming uploads (removed per request). */
  uploadDir: string;
  version: string;
  versionHash: string;
  serverId: string;
  startedAt: number;
}

/** A route handler; `params` holds the path remainder (e.g. the format of /ode/convert-to/<format>). */
export type Handler = (req: IncomingMessage, res: ServerResponse, ctx: RouteContext, params: { rest: string }) => Promise<void> | void;

/**
 * The public base URL for absolute links: `net.public_url` when set, else `http://<Host header>`.
 * (TLS and proxy handling come with the TLS work.)
 */
export function baseUrl(req: IncomingMessage, cfg: OdeConfig): string {
  if (cfg.net.public_url) return cfg.net.public_url;
  const host = req.headers.host ?? `${cfg.net.listen}:${cfg.net.port}`;
  return `http://${host}`;
}
