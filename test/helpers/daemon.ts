import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { pino } from 'pino';
import { loadConfig } from '../../daemon/server/config/load.ts';
import { ConfigStore } from '../../daemon/server/config/watch.ts';
import { createOdeServer, type OdeServer } from '../../daemon/server/server.ts';
import { LogBuffer } from '../../daemon/server/admin/log-buffer.ts';
import { LOG_OPTIONS } from '../../daemon/server/logger.ts';
import { daemonLogFile, recordSecret } from './log-capture.ts';
import { AdminTokenStore } from '../../certs/admin-token.ts';
import type { FakeKitControl } from '../../daemon/protocol/kit.ts';

/** A daemon started for a test: its base URL, the server object, its config file, and stop(). */
export interface TestDaemon {
  url: string;
  server: OdeServer;
  store: ConfigStore;
  configFile: string;
  /** The admin listener's base URL (port 0: a free port), undefined when the test configured admin.socket. */
  adminUrl: string | undefined;
  /** The admin listener's unix socket when the test configured admin.socket. */
  adminSocket: string | undefined;
  /** The admin token at start (file store under the temp state dir; the keyring is not used in tests). */
  adminToken: string;
  /** The log lines the daemon wrote (info and above, also when stderr is silent). */
  logBuffer: LogBuffer;
  /** Rewrites the config file with `overrides` merged over the test's base config and reloads it. */
  reconfigure(overrides: Record<string, unknown>): void;
  /**
   * With `fakeKits`: tells the daemon's fake kits what to do from now on (kit.md, "The fake kit": slow open or save,
   * failing save, crash on save); `{}` asks nothing. Throws for a daemon with real kits.
   */
  fakeKit(control: FakeKitControl): void;
  stop(): Promise<void>;
}

/**
 * Waits until `server` has no open document (their views closed: exit saves done, kits retired), polling every
 * `pollMs`; resolves true then, false when `timeoutMs` passed first.
 */
export async function documentsClosed(server: Pick<OdeServer, 'documents'>, timeoutMs = 30_000, pollMs = 20): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (server.documents.list().length > 0) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return true;
}

function merge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && typeof a[k] === 'object' ? merge(a[k] as Record<string, unknown>, v as Record<string, unknown>) : v;
  }
  return out;
}

/**
 * Starts a real Ode daemon on 127.0.0.1 `port` (0, the default: a free port; a fixed one to start a daemon again
 * where a stopped one listened, e.g. the editor's reconnection test) with a temp state dir and its own config file (so live reload
 * is exercised for real), waits until `readyKits` kits are ready, and returns it. Logs are silent unless
 * ODE_TEST_LOG is set to a level. `fakeKits`: every kit is the fake kit (no LibreOffice; kit.md, "The fake kit"),
 * unsandboxed unless `overrides` say otherwise, steered with `fakeKit()`; for tests of the document lifecycle only.
 */
export async function startDaemon(overrides: Record<string, unknown> = {}, readyKits = 1, port = 0, opts: { fakeKits?: boolean } = {}): Promise<TestDaemon> {
  const dir = mkdtempSync(join(tmpdir(), 'ode-test-'));
  const configFile = join(dir, 'ode.yaml');
  // The fake kit reads its control file outside its own folder, which a sandbox would hide.
  // kits.convert_nice 0: under the suite's load (other files' kits and browsers, each its own scheduling group) a
  // conversion kit at nice 10 gets a tenth of a kit's CPU share and the conversion tests' time limits do not hold
  // (measured: pool-robustness at load 15-19 timed out at 60 s with nice 10, passed in 35 s with 0). The priority
  // itself is tested in test/convert/conversion-priority.test.ts; a test may set convert_nice in `overrides`.
  // limits.structure_nice 0 for the same reason (the package check before each conversion runs in those threads);
  // tested in test/convert/structure-priority.test.ts.
  const base = merge(
    {
      state_dir: join(dir, 'state'),
      kits: { prespawn: 1, convert_concurrency: 1, convert_nice: 0 },
      limits: { structure_nice: 0 },
      ...(opts.fakeKits ? { security: { sandbox: 'off' } } : {}),
    },
    overrides,
  );
  const controlFile = join(dir, 'fake-kit.json');
  writeFileSync(configFile, stringify(base));
  // The buffer gets info and above (the admin API's logs); stderr only what ODE_TEST_LOG asks for.
  const logBuffer = new LogBuffer();
  const stderrLevel = process.env.ODE_TEST_LOG;
  const streams: pino.StreamEntry[] = [{ level: 'info', stream: logBuffer }];
  if (stderrLevel && stderrLevel !== 'silent') streams.push({ level: stderrLevel as pino.Level, stream: pino.destination(2) });
  // In a vitest run every line, at every level, also goes to the run's log folder, grepped for secrets at the end.
  const logFile = daemonLogFile('daemon');
  if (logFile) streams.push({ level: 'trace', stream: logFile });
  const level = logFile ? 'trace' : stderrLevel && stderrLevel !== 'silent' && pino.levels.values[stderrLevel] < pino.levels.values.info ? stderrLevel : 'info';
  // The daemon's own redaction hook (LOG_OPTIONS), as `ode serve` logs.
  const log = pino({ ...LOG_OPTIONS, level }, pino.multistream(streams));
  const store = new ConfigStore(loadConfig(configFile, {}).config, configFile, log);
  const adminTokens = new AdminTokenStore({ stateDir: store.get().state_dir, useKeyring: false });
  const server = createOdeServer({ config: store, log, port, adminPort: 0, logBuffer, adminTokens, ...(opts.fakeKits ? { fakeKits: { controlFile } } : {}) });
  const { url, adminUrl, adminSocket } = await server.start();
  await server.pool.waitReady(readyKits, 90_000);
  const adminToken = adminTokens.getOrCreate().token;
  recordSecret(adminToken, 'admin token');
  const proofKey = join(store.get().state_dir, 'proof_key');
  // A line of the PEM inside the private exponent (the first lines hold the header and the public modulus).
  if (existsSync(proofKey)) recordSecret(readFileSync(proofKey, 'utf8').split('\n')[10], 'proof key (private exponent)');
  return {
    url,
    server,
    store,
    configFile,
    adminUrl,
    adminSocket,
    adminToken,
    logBuffer,
    reconfigure(more) {
      writeFileSync(configFile, stringify(merge(base, more)));
      if (!store.reload()) throw new Error('reconfigure: the test config was refused');
    },
    fakeKit(control) {
      if (!opts.fakeKits) throw new Error('fakeKit: this daemon runs real kits');
      writeFileSync(controlFile, JSON.stringify(control));
    },
    async stop() {
      await server.stop();
      logFile?.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
