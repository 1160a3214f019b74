/**
 * The dashboard against a real daemon (startDaemon: real kits, the built-in demo WOPI host, the real admin
 * listener) through the real client (tRPC over HTTP and WebSocket, token in the Authorization header): status,
 * documents appearing and closing as a real editor WebSocket client opens them, config edits refused and applied,
 * proof-key rotation, update check, logs, and a wrong token. The restart/reconnect case is in pty.test.ts (it
 * needs a daemon on a fixed port).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type TestDaemon } from '../../test/helpers/daemon.ts';
import { EditorClient } from '../../test/helpers/editor-client.ts';
import { startDataFlow, type DataFlow } from '../data.ts';
import { createDashboardStore, type DashboardStore } from '../state/external-store.ts';
import { KEYS, renderWithProviders, type Rendered } from './render.tsx';

const CORPUS = '/work/shared/corpus';
const fileId = (name: string) => Buffer.from(name, 'utf8').toString('base64url');

describe('the dashboard against a running daemon (real kits, real admin API)', () => {
  let daemon: TestDaemon;
  let folder: string;
  let store: DashboardStore;
  let flow: DataFlow;
  let r: Rendered;
  const editors: EditorClient[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'ode-tui-docs-'));
    copyFileSync(join(CORPUS, 'properties/documentProperties.docx'), join(folder, 'letter.docx'));
    daemon = await startDaemon(
      { demo_host: { folder }, kits: { prespawn: 1, max: 3 }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } },
      1,
    );
    store = createDashboardStore(daemon.adminUrl!.replace('http://', ''));
    flow = startDataFlow({ url: daemon.adminUrl, token: () => daemon.adminToken, statusIntervalMs: 250, dispatch: store.dispatch });
    r = renderWithProviders(store.getState(), { columns: 100, rows: 30, store, run: (op) => void flow.run(op) });
  }, 120_000);
  afterAll(async () => {
    for (const e of editors) e.close();
    r?.unmount();
    await flow?.stop();
    await daemon?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it("connects and shows the daemon's version, kits and memory over time", async () => {
    const f = await r.waitFor((f) => f.includes('● connected') && f.includes('Health'));
    const status = store.getState().status!;
    expect(f).toContain(`version ${status.version}`);
    expect(f).toMatch(/Daemon\s+mem \d+\.\d MiB/);
    expect(f).toMatch(new RegExp(`${status.kits[0].pid}\\s+(ready|starting|busy)`));
    // status.live keeps coming: the samples (the sparklines' data) grow.
    const before = store.getState().samples.length;
    await r.waitFor(() => store.getState().samples.length >= before + 2);
  });

  it("Documents: a document an editor client opens appears with its user; c + y closes it, the editor's socket is closed, the row goes", async () => {
    await r.press('2');
    await r.waitFor((f) => f.includes('No document is open.'));
    const page = await (await fetch(`${daemon.url}/?user=${encodeURIComponent('Ada Lovelace')}`)).text();
    const token = /name="access_token" value="([^"]+)"/.exec(page)![1];
    const { client } = await EditorClient.open(daemon.url, `${daemon.url}/demo/wopi/files/${fileId('letter.docx')}`, { token });
    editors.push(client);
    let f = await r.waitFor((f) => f.includes('letter.docx') && f.includes('Ada Lovelace'), 30_000);
    expect(f).toContain('1 open document');
    expect(f).toMatch(/kit\s+pid \d+, \d+\.\d MiB/);
    await r.press('s');
    f = await r.waitFor((f) => f.includes('saved letter.docx') || f.includes('failed:'), 30_000);
    expect(f).toContain('saved letter.docx');
    await r.press('c');
    await r.waitFor((f) => f.includes('Close letter.docx (saved first when modified)? (y/n)'));
    await r.press('y');
    f = await r.waitFor((f) => f.includes('closed letter.docx'), 30_000);
    await r.waitFor((f) => f.includes('No document is open.'));
    await expect.poll(() => client.closeCode, { timeout: 10_000 }).toBeDefined();
  });

  it("Config: a bad post_allow entry is refused with the server's problem inline and the file unchanged; a good one is written and applied", async () => {
    await r.press('3', KEYS.right);
    await r.waitFor((f) => f.includes('post_allow hosts') && f.includes('file ' + daemon.configFile.slice(0, 20)));
    const before = readFileSync(daemon.configFile);
    const count = store.getState().config!.editable.postAllowHosts.length;
    await r.press('a');
    await r.waitFor((f) => f.includes('Enter save'));
    await r.press('(', 'x', KEYS.enter);
    let f = await r.waitFor((f) => f.includes('refused:'), 20_000);
    expect(f).toContain('invalid_config');
    expect(f).toContain('•'); // the server's problem line
    expect(f).toContain(`post_allow hosts (${count})`);
    expect(readFileSync(daemon.configFile).equals(before)).toBe(true);
    await r.press(KEYS.escape, 'a');
    await r.waitFor((f) => f.includes('Enter save'));
    await r.press(...'10\\.9\\.8\\.7');
    await r.press(KEYS.enter);
    f = await r.waitFor((f) => f.includes('and applied'), 20_000);
    expect(f).toContain(`post_allow hosts (${count + 1})`);
    expect(f).toContain('10\\.9\\.8\\.7');
    expect(readFileSync(daemon.configFile, 'utf8')).toContain('10\\.9\\.8\\.7');
    expect(daemon.store.get().net.post_allow.host).toContain('10\\.9\\.8\\.7');
  });

  it('Proof key: r + y rotates; the old fingerprint is the previous current one', async () => {
    await r.press('4');
    await r.waitFor((f) => f.includes('Current key'));
    const was = store.getState().proofKey!.fingerprint;
    await r.press('r', 'y');
    const f = await r.waitFor((f) => f.includes('rotated'), 20_000);
    const now = store.getState().proofKey!;
    expect(now.fingerprint).not.toBe(was);
    expect(now.oldFingerprint).toBe(was);
    expect(f.replace(/\s+/g, '')).toContain(now.fingerprint);
  });

  it('Updates: with no updates.url the screen says the check is not configured', async () => {
    await r.press('5');
    const f = await r.waitFor((f) => f.includes('update url'));
    expect(f).toContain('not configured');
    expect(f).toMatch(new RegExp(`current\\s+${store.getState().status!.version.replace(/\./g, '\\.')}`));
  });

  it("Logs: the daemon's lines arrive live (the admin actions above were logged)", async () => {
    await r.press('6');
    const f = await r.waitFor((f) => f.includes('following') && /admin/i.test(f.split('\n').slice(3).join('\n')), 20_000);
    expect(store.getState().logs.length).toBeGreaterThan(0);
    expect(f).toMatch(/\d\d:\d\d:\d\d (INFO|WARN)/);
  });

  it('a wrong token: the dashboard says unauthorized', async () => {
    const other = createDashboardStore('x');
    const bad = startDataFlow({ url: daemon.adminUrl, token: () => 'not-the-token', dispatch: other.dispatch });
    try {
      await expect.poll(() => other.getState().connection.kind, { timeout: 10_000 }).toBe('unauthorized');
      expect(other.getState().status).toBeUndefined();
    } finally {
      await bad.stop();
    }
  });
});
