import type { Logger } from 'pino';
import type { ConfigStore } from '../config/watch.ts';
import type { DocumentRegistry } from '../documents/registry.ts';
import type { KitPool } from '../pool/pool.ts';
import type { ProofKeyStore } from '../routes/proof-key-store.ts';
import type { RouteContext } from '../routes/context.ts';
import type { UpdateChecker } from '../updates/update-checker.ts';
import type { LogBuffer } from './log-buffer.ts';

/** The daemon parts the admin backend reads and steers (daemon/server/admin/backend.ts composes them). */
export interface AdminParts {
  config: ConfigStore;
  log: Logger;
  pool: KitPool;
  documents: DocumentRegistry;
  proofKeys: ProofKeyStore;
  context: RouteContext;
  logBuffer: LogBuffer;
  updates: UpdateChecker;
}
