import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { pino } from 'pino';
import { loadConfig } from '../../daemon/server/config/load.ts';
import { ConfigStore } from '../../daemon/server/config/watch.ts';
import { createOdeServer, type OdeServer } from '../../daemon/server/server.ts';

/** A daemon started for a test: its base URL, the server object, its config file, and stop(). */
export interface TestDaemon {
  url: string;
  server: OdeServer;
  store: ConfigStore;
  configFile: string;
  /** Rewrites the config file with `overrides` merged over the test's base config and reloads it. */
  reconfigure(overrides: Record<string, unknown>): void;
  stop(): Promise<void>;
}

function merge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && typeof a[k] === 'object' ? merge(a[k] as Record<string, unknown>, v as Record<string, unknown>) : v;
  }
  return out;
}

/**
 * Starts a real Ode daemon on 127.0.0.1 port 0 with a temp state dir and its own config file (so live reload
 * is exercised for real), waits until `readyKits` kits are ready, and returns it. Logs are silent unless
 * ODE_TEST_LOG is set to a level.
 */
export async function startDaemon(overrides: Record<string, unknown> = {}, readyKits = 1): Promise<TestDaemon> {
  const dir = mkdtempSync(join(tmpdir(), 'ode-test-'));
  const configFile = join(dir, 'ode.yaml');
  const base = merge({ state_dir: join(dir, 'state'), kits: { prespawn: 1, convert_concurrency: 1 } }, overrides);
  writeFileSync(configFile, stringify(base));
  const log = pino({ level: process.env.ODE_TEST_LOG ?? 'silent' });
  const store = new ConfigStore(loadConfig(configFile, {}).config, configFile, log);
  const server = createOdeServer({ config: store, log, port: 0 });
  const { url } = await server.start();
  await server.pool.waitReady(readyKits, 90_000);
  return {
    url,
    server,
    store,
    configFile,
    reconfigure(more) {
      writeFileSync(configFile, stringify(merge(base, more)));
      if (!store.reload()) throw new Error('reconfigure: the test config was refused');
    },
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
