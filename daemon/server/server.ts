import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { mkdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { ConfigStore } from './config/watch.ts';
import { ConvertService } from './convert/convert-service.ts';
import type { FakeKitOptions } from './pool/kit-process.ts';
import { KitPool } from './pool/pool.ts';
import { createRouter, type Route } from './router.ts';
import type { RouteContext } from './routes/context.ts';
import { convertTo } from './routes/convert-to.ts';
import { extractStructure } from './routes/extract-structure.ts';
import { ExtractService } from './structure/extract-service.ts';
import { StructureKit } from './structure/structure-kit.ts';
import { StructureEngine } from './structure/engine-pool.ts';
import { TransformService } from './structure/transform-service.ts';
import { DownloadStore } from './sessions/downloads.ts';
import { CheckFileInfoPrefetch } from './editor-page/prefetch.ts';
import { editorPage } from './routes/editor-page.ts';
import { DocumentRegistry } from './documents/registry.ts';
import { WopiClient } from './wopi/wopi-client.ts';
import { attachEditingSockets } from './ws/editing-socket.ts';
import { createDemoHost, type DemoHost } from './demo-host/demo-host.ts';
import { download } from './routes/download.ts';
import { transformStructure } from './routes/transform-structure.ts';
import { health, root } from './routes/health.ts';
import { capabilities, discovery } from './routes/hosting.ts';
import { favicon, loleafletImage } from './routes/host-icons.ts';
import { extractLinkTargets, getThumbnail } from './routes/link-targets.ts';
import { wopiAccessCheck } from './routes/wopi-access-check.ts';
import { ProofKeyStore } from './routes/proof-key-store.ts';
import { settingsProxy } from './routes/settings-proxy.ts';
import { SessionSettings } from './settings/fetch-settings.ts';
import { HostSettingsClient } from './settings/host-settings.ts';
import { SettingsCache } from './settings/settings-cache.ts';
import { ODE_VERSION, ODE_VERSION_HASH } from './version.ts';
import { AdminTokenStore } from '../../certs/admin-token.ts';
import type { AdminBackend } from '../../admin-api/backend.ts';
import { createAdminBackend } from './admin/backend.ts';
import { createAdminListener } from './admin/listener.ts';
import { LogBuffer } from './admin/log-buffer.ts';
import { createAdminMetrics, type AdminMetrics } from './admin/metrics.ts';
import { updateCheck } from './routes/update-check.ts';
import { UpdateChecker } from './updates/update-checker.ts';
import { HostTls } from './http/host-tls.ts';
import { PublicTls } from './http/tls-listener.ts';
import { onClientError } from './http/client-error.ts';
import { NodeDrain } from './cluster/node-drain.ts';

/** Options of the daemon: the live configuration and a logger. `port` overrides net.port (tests use 0). */
export interface OdeServerOptions {
  config: ConfigStore;
  log: Logger;
  port?: number;
  /** Overrides admin.port (tests and benchmarks use 0: nothing may bind 9981 there). Ignored when admin.socket is set. */
  adminPort?: number;
  /** The buffer `log` also writes to (createLogger's third argument); the admin API's logs come from it. */
  logBuffer?: LogBuffer;
  /** The admin token's store; default the keyring / `<state_dir>/admin_token` of the configuration's state_dir. */
  adminTokens?: AdminTokenStore;
  /** Tests only: every kit is the fake kit, no LibreOffice (kit.md, "The fake kit"); no configuration key reaches it. */
  fakeKits?: FakeKitOptions;
}

/** A running (or startable) daemon: fastify-style factory result; nothing listens until start(). */
export interface OdeServer {
  /**
   * Starts the kit pool, the public listener and then the admin listener; resolves with the bound addresses
   * (`adminUrl` on TCP, `adminSocket` when admin.socket is set).
   */
  start(): Promise<{ port: number; url: string; adminUrl?: string; adminSocket?: string }>;
  /** Stops accepting, ends the kits and removes temp dirs. */
  stop(): Promise<void>;
  readonly pool: KitPool;
  /** The documents open for editing. */
  readonly documents: DocumentRegistry;
  readonly proofKeys: ProofKeyStore;
  readonly context: RouteContext;
  /** The built-in demo WOPI host; undefined when demo_host.enabled is false. */
  readonly demoHost: DemoHost | undefined;
  /** Serving or draining behind a load balancer (cluster/node-drain.ts; docs/deploy/cluster.md). */
  readonly node: NodeDrain;
  /** The update check (spec: Update check; docs/updates.md). */
  readonly updates: UpdateChecker;
  /** The admin API's backend, its metrics and token store (the admin listener serves them). */
  readonly admin: { readonly backend: AdminBackend; readonly metrics: AdminMetrics; readonly tokens: AdminTokenStore };
}

const ROUTES: Route[] = [
  { method: 'GET', path: '/', exact: true, handler: root },
  { method: 'GET', path: '/health', exact: true, handler: health },
  { method: 'GET', path: '/hosting/discovery', exact: true, handler: discovery },
  { method: 'GET', path: '/hosting/capabilities', exact: true, handler: capabilities },
  { method: 'GET', path: '/UpdateCheck', exact: true, handler: updateCheck },
  { method: 'GET', path: '/browser', exact: false, handler: editorPage },
  { method: 'GET', path: '/favicon.ico', exact: true, handler: favicon },
  { method: 'GET', path: '/loleaflet', exact: false, handler: loleafletImage },
  { method: 'POST', path: '/browser', exact: false, handler: editorPage },
  { method: 'POST', path: '/ode/convert-to', exact: false, handler: convertTo },
  { method: 'POST', path: '/cool/convert-to', exact: false, handler: convertTo },
  { method: 'POST', path: '/lool/convert-to', exact: false, handler: convertTo },
  { method: 'POST', path: '/ode/extract-document-structure', exact: true, handler: extractStructure },
  { method: 'POST', path: '/cool/extract-document-structure', exact: true, handler: extractStructure },
  { method: 'POST', path: '/ode/transform-document-structure', exact: false, handler: transformStructure },
  { method: 'GET', path: '/ode/download', exact: false, handler: download },
  { method: 'GET', path: '/ode/settings', exact: false, handler: settingsProxy },
  { method: 'POST', path: '/ode/settings', exact: false, handler: settingsProxy },
  { method: 'DELETE', path: '/ode/settings', exact: false, handler: settingsProxy },
  { method: 'POST', path: '/cool/transform-document-structure', exact: false, handler: transformStructure },
  // Hosts written for Collabora (issue 14): its Linking API (richdocuments PUTs, the SDK POSTs) and the WOPI access check.
  { method: 'POST', path: '/cool/extract-link-targets', exact: true, handler: extractLinkTargets },
  { method: 'PUT', path: '/cool/extract-link-targets', exact: true, handler: extractLinkTargets },
  { method: 'POST', path: '/ode/extract-link-targets', exact: true, handler: extractLinkTargets },
  { method: 'PUT', path: '/ode/extract-link-targets', exact: true, handler: extractLinkTargets },
  { method: 'POST', path: '/lool/extract-link-targets', exact: true, handler: extractLinkTargets },
  { method: 'PUT', path: '/lool/extract-link-targets', exact: true, handler: extractLinkTargets },
  { method: 'POST', path: '/cool/get-thumbnail', exact: true, handler: getThumbnail },
  { method: 'PUT', path: '/cool/get-thumbnail', exact: true, handler: getThumbnail },
  { method: 'POST', path: '/ode/get-thumbnail', exact: true, handler: getThumbnail },
  { method: 'PUT', path: '/ode/get-thumbnail', exact: true, handler: getThumbnail },
  { method: 'POST', path: '/lool/get-thumbnail', exact: true, handler: getThumbnail },
  { method: 'PUT', path: '/lool/get-thumbnail', exact: true, handler: getThumbnail },
  { method: 'POST', path: '/hosting/wopiAccessCheck', exact: true, handler: wopiAccessCheck },
];

/**
 * Creates the Ode daemon (HTTP server, kit pool, conversion service, proof keys). Nothing starts until
 * `start()`; the proof key is created or loaded on start.
 */
export function createOdeServer(opts: OdeServerOptions): OdeServer {
  const { log } = opts;
  const config = () => opts.config.get();
  const cfg = config();
  const tmpRoot = join(tmpdir(), `ode-${process.pid}-${randomBytes(4).toString('hex')}`);
  const uploadDir = join(tmpRoot, 'uploads');
  const pool = new KitPool({ config, log, tmpRoot: join(tmpRoot, 'kits'), fakeKits: opts.fakeKits });
  const converter = new ConvertService(pool, config, log);
  const structureKit = new StructureKit(pool, config);
  const engine = new StructureEngine(config, log.child({ component: 'structure' }));
  // TLS: requests to hosts verify with storage.ssl (live); the public listener serves HTTPS when ssl.enable.
  const hostTls = new HostTls({ config, log });
  const publicTls = cfg.ssl.enable ? new PublicTls({ ssl: cfg.ssl, log }) : undefined;
  const wopi = new WopiClient({
    fetch: hostTls.fetch,
    sign: (token, url) => ({ ...proofKeys.sign(token, url) }),
    timeoutMs: cfg.storage.wopi.timeout_secs * 1000,
    compatHeaders: cfg.storage.wopi.compat_headers,
    userAgent: `Ode/${ODE_VERSION}`,
  });
  const sessionSettings = new SessionSettings({
    client: new HostSettingsClient({
      sign: (token, url) => ({ ...proofKeys.sign(token, url) }),
      timeoutMs: cfg.storage.wopi.timeout_secs * 1000,
      userAgent: `Ode/${ODE_VERSION}`,
    }),
    cache: new SettingsCache(join(cfg.state_dir, 'settings-cache')),
    allowedHosts: () => config().storage.wopi.hosts,
    log: log.child({ component: 'settings' }),
  });
  const documents = new DocumentRegistry({
    client: wopi,
    pool,
    config,
    log,
    convertTemplate: (from, to) => structureKit.convertFile(from, to),
    settings: (info, token) => sessionSettings.forView(info, token),
  });
  const proofKeys = new ProofKeyStore(cfg.state_dir, cfg.proof_key || undefined, log);
  const node = new NodeDrain({ documents, log });
  const context: RouteContext = {
    config,
    log,
    pool,
    converter,
    extractor: new ExtractService(structureKit, log, engine),
    transformer: new TransformService(structureKit, log, engine),
    engine,
    downloads: new DownloadStore(),
    wopi,
    prefetch: new CheckFileInfoPrefetch(),
    proofKeys,
    uploadDir,
    version: ODE_VERSION,
    versionHash: ODE_VERSION_HASH,
    serverId: randomBytes(4).toString('hex'),
    startedAt: Date.now(),
    node,
    publicTls,
    hostTls,
  };
  const demoHost = cfg.demo_host.enabled ? createDemoHost({ config, log }) : undefined;
  const updates = new UpdateChecker({ config: opts.config, log });
  const adminParts = { config: opts.config, log, pool, documents, proofKeys, context, logBuffer: opts.logBuffer ?? new LogBuffer(), updates };
  const admin = {
    backend: createAdminBackend(adminParts),
    metrics: createAdminMetrics(adminParts),
    tokens: opts.adminTokens ?? new AdminTokenStore({ stateDir: cfg.state_dir }),
  };
  const adminListener = createAdminListener({ backend: admin.backend, config, log, tokenStore: admin.tokens, metrics: admin.metrics });
  let server: Server | undefined;
  let closeSockets: (() => void) | undefined;

  return {
    pool,
    documents,
    proofKeys,
    context,
    node,
    demoHost,
    updates,
    admin,
    async start() {
      // First, so a bad certificate file fails the start before any kit is spawned (ConfigError naming the fix).
      const tlsOptions = publicTls?.load();
      hostTls.start();
      // storage.ssl is live: rebuild the Agent (and warn when verification was turned off) as soon as it changes.
      opts.config.onChange((next, prev) => {
        if (next.storage.ssl !== prev.storage.ssl) hostTls.start();
      });
      mkdirSync(uploadDir, { recursive: true });
      proofKeys.load();
      pool.start();
      await demoHost?.start();
      // The demo host's routes come first: its start page replaces the plain-text GET /.
      const router = createRouter([...(demoHost?.routes ?? []), ...ROUTES], context);
      server = tlsOptions ? createHttpsServer(tlsOptions, router) : createHttpServer(router);
      server.requestTimeout = 0; // conversions have their own limits (limits.*_secs)
      server.headersTimeout = 60_000;
      server.on('clientError', onClientError(log));
      closeSockets = attachEditingSockets(
        server,
        config,
        { registry: documents, client: wopi, downloads: context.downloads, prefetch: context.prefetch, log, updates, config },
        { node, serverId: context.serverId },
      );
      const port = opts.port ?? cfg.net.port;
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, cfg.net.listen, () => resolve());
      });
      const bound = (server.address() as AddressInfo).port;
      const host = cfg.net.listen.includes(':') ? `[${cfg.net.listen}]` : cfg.net.listen;
      const url = `${tlsOptions ? 'https' : 'http'}://${host}:${bound}`;
      if (publicTls) await publicTls.watch(server as import('node:https').Server);
      log.info(
        { url, version: ODE_VERSION, ...(publicTls?.leaf ? { certificate: publicTls.leaf.subject, notAfter: publicTls.leaf.notAfter } : {}) },
        'Ode is listening',
      );
      // What a previous daemon left unstored (edit journals, recovery copies): rebuilt and uploaded in the background.
      void documents.recovery.start().catch((e: Error) => log.error({ err: e.message }, 'recovery of the previous run failed'));
      const adminAddress = await adminListener.start(opts.adminPort);
      return { port: bound, url, ...('socket' in adminAddress ? { adminSocket: adminAddress.socket } : { adminUrl: adminAddress.url }) };
    },
    async stop() {
      // Exit saves first (IsExitSave), while kits and the host are still there; then the sockets and listener.
      await documents.shutdown();
      closeSockets?.();
      await adminListener.stop();
      await new Promise<void>((resolve) => {
        if (!server) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pool.stop();
      await engine.close();
      await publicTls?.close();
      await hostTls.close();
      await demoHost?.stop();
      updates.stop();
      await opts.config.close();
      rmSync(tmpRoot, { recursive: true, force: true });
    },
  };
}
