/**
 * The daemon's public entry: what the command line (cli/) uses of the server, and the only module of
 * daemon/server/ it may import (.dependency-cruiser.cjs, rule `cli-through-server-entry`). Everything else in
 * daemon/server/ is the daemon's own and may change without the CLI noticing.
 */
export { LogBuffer } from './admin/log-buffer.ts';
export { ConfigError, loadConfig, resolveConfigPath } from './config/load.ts';
export type { OdeConfig } from './config/schema.ts';
export { ConfigStore } from './config/watch.ts';
export { ConvertService } from './convert/convert-service.ts';
export { fileIdOf, isDocumentName } from './demo-host/file-id.ts';
export { OdeError } from './errors.ts';
export { createLogger, type Logger } from './logger.ts';
export { readInstalledEngine, type InstalledEngine } from './pool/engine-check.ts';
export { KitPool } from './pool/pool.ts';
export { ProofKeyStore } from './routes/proof-key-store.ts';
export { probeSandbox, SANDBOX_FIX } from './sandbox/sandbox.ts';
export { createOdeServer } from './server.ts';
export { ODE_VERSION } from './version.ts';
export { EDITING_PATHS } from './ws/editing-socket.ts';
