/**
 * The dashboard's client over the admin listener's unix socket (admin.socket): every call, queries included,
 * goes over the WebSocket (`ws+unix://<path>:/trpc`), so no HTTP agent is needed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDaemon, type TestDaemon } from '../../test/helpers/daemon.ts';
import { startDataFlow } from '../data.ts';
import { createDashboardStore } from '../state/external-store.ts';

let daemon: TestDaemon;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ode-tui-sock-'));
  daemon = await startDaemon({ admin: { socket: join(dir, 'admin.sock') } }, 1);
}, 120_000);
afterAll(async () => {
  await daemon?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('connects over the unix socket: status, configuration and proof key arrive', async () => {
  expect(daemon.adminSocket).toBe(join(dir, 'admin.sock'));
  const store = createDashboardStore(daemon.adminSocket!);
  const flow = startDataFlow({ socket: daemon.adminSocket, token: () => daemon.adminToken, statusIntervalMs: 250, dispatch: store.dispatch });
  try {
    await expect.poll(() => store.getState().connection.kind, { timeout: 20_000 }).toBe('connected');
    await expect.poll(() => store.getState().status?.version, { timeout: 20_000 }).toBeTruthy();
    await expect.poll(() => store.getState().config?.file, { timeout: 20_000 }).toBe(daemon.configFile);
    await expect.poll(() => store.getState().proofKey?.fingerprint, { timeout: 20_000 }).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/i);
    expect(store.getState().errors).toEqual({});
  } finally {
    await flow.stop();
  }
});
