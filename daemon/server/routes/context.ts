import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { OdeConfig } from '../config/schema.ts';
import type { ConvertService } from '../convert/convert-service.ts';
import type { KitPool } from '../pool/pool.ts';
import type { ExtractService } from '../structure/extract-service.ts';
import type { TransformService } from '../structure/transform-service.ts';
import type { StructureEngine } from '../structure/engine-pool.ts';
import type { DownloadStore } from '../sessions/downloads.ts';
import type { CheckFileInfoPrefetch } from '../editor-page/prefetch.ts';
import type { WopiClient } from '../wopi/wopi-client.ts';
import type { ProofKeyStore } from './proof-key-store.ts';
import { publicOrigin } from '../http/forwarded.ts';
import type { HostTls } from '../http/host-tls.ts';
import type { PublicTls } from '../http/tls-listener.ts';
import type { NodeDrain } from '../cluster/node-drain.ts';

/** What route handlers share: live config, the pool, services, and the daemon's identity. */
export interface RouteContext {
  config: () => OdeConfig;
  log: Logger;
  pool: KitPool;
  converter: ConvertService;
  extractor: ExtractService;
  transformer: TransformService;
  /** The structure engine's worker threads; also the package checks every upload passes before a kit (issue 17). */
  engine: StructureEngine;
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
  /** This process's random id (8 hex): each node of a cluster has its own; sent as X-Ode-Server-Id on every answer. */
  serverId: string;
  startedAt: number;
  /** Serving or draining (cluster/node-drain.ts): /health, new editor pages and sockets follow it. */
  node: NodeDrain;
  /** The public listener's certificate when ssl.enable (expiry in /health and the admin status). */
  publicTls?: PublicTls;
  /** TLS of requests to WOPI and settings hosts (storage.ssl). */
  hostTls?: HostTls;
}

/** A route handler; `params` holds the path remainder (e.g. the format of /ode/convert-to/<format>). */
export type Handler = (req: IncomingMessage, res: ServerResponse, ctx: RouteContext, params: { rest: string }) => Promise<void> | void;

/**
 * The public base URL for absolute links: `net.public_url` when set, else `<scheme>://<host>` of the request as
 * the client saw it (http/forwarded.ts: https over TLS or with ssl.termination; X-Forwarded-Proto/-Host only from
 * net.proxy_addresses, a debug line on `log` when ignored).
 */
export function baseUrl(req: IncomingMessage, cfg: OdeConfig, log?: Logger): string {
  if (cfg.net.public_url) return cfg.net.public_url.replace(/\/+$/, '');
  const o = publicOrigin(req, cfg, log);
  return `${o.scheme}://${o.host}`;
}
