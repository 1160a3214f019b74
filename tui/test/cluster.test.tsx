/**
 * The dashboard over several nodes (`ode tui --node ...`): the cluster screen at 80x24 and 120x30 from a fixed
 * state (serving, draining and unreachable nodes), then against two real daemons through their admin listeners:
 * documents and views as an editor client opens one, a node drained, then one stopped.
 */
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type TestDaemon } from '../../test/helpers/daemon.ts';
import { EditorClient } from '../../test/helpers/editor-client.ts';
import { FakeWopiHost } from '../../test/helpers/fake-wopi-host.ts';
import { parseNodeFlag } from '../../cli/tui.ts';
import { createAdminClient } from '../client.ts';
import type { ClusterNodeView } from '../cluster.ts';
import { ClusterApp } from '../cluster-dashboard.tsx';
import { ClusterScreen } from '../screens/cluster.tsx';
import { DOC_A, DOC_B, status, T0 } from './fixtures.ts';
import { renderElement } from './render.tsx';

const CORPUS = '/work/shared/corpus';

let current: { unmount(): void } | undefined;
afterEach(() => {
  current?.unmount();
  current = undefined;
});

/** Three nodes: one serving with two documents, one draining with none, one that stopped answering. */
function nodes(): ClusterNodeView[] {
  return [
    { target: '10.0.0.11:9981', status: { ...status(0), serverId: 'a1', node: 'serving' }, documents: [DOC_A, DOC_B], seenAt: T0 },
    { target: '10.0.0.12:9981', status: { ...status(0), serverId: 'b2', node: 'draining', documents: 0, views: 0, kits: [] }, documents: [], seenAt: T0 },
    { target: '10.0.0.13:9981', status: { ...status(0), serverId: 'c3' }, documents: [DOC_A], seenAt: T0, error: 'daemon unreachable (fetch failed)' },
  ];
}

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 30 },
])('the cluster screen at $columns x $rows', ({ columns, rows }) => {
  it("one row per node with its state, documents, views and kits; totals; each serving node's documents with their users", async () => {
    const r = renderElement(<ClusterScreen nodes={nodes()} width={columns} height={rows - 1} />, { columns, rows });
    current = r;
    const f = await r.waitFor((f) => f.includes('Open documents'));
    const lines = f.split('\n');
    expect(lines.length).toBeLessThanOrEqual(rows);
    for (const l of lines) expect([...l].length, l).toBeLessThanOrEqual(columns);
    expect(f).toContain('Ode cluster · 3 nodes   1 serving');
    // status(0): 2 documents, 3 views, kits 1 ready / 2 editing of 16.
    expect(f).toMatch(/10\.0\.0\.11:9981\s+serving\s+2\s+3\s+1\/2\/0\/0 of 16/);
    expect(f).toMatch(/10\.0\.0\.12:9981\s+draining\s+0\s+0\s+0\/0\/0\/0 of 16/);
    expect(f).toMatch(/10\.0\.0\.13:9981\s+unreachable\s+last seen \d\d:\d\d:\d\d: daemon unreachable/);
    // Totals count the nodes that answer.
    expect(f).toMatch(/total\s+2\s+3/);
    expect(f).toContain('10.0.0.11:9981 (serving)');
    expect(f).toMatch(/\*letter\.docx\s+2 view\(s\): Ada Lovelace, Grace Hopper/);
    // The unreachable node's last known documents are not listed as open there.
    expect(f).not.toContain('10.0.0.13:9981 (');
  });
});

describe('`ode tui --node` values', () => {
  it('takes an admin URL, optionally =<token file>, and refuses anything else', () => {
    expect(parseNodeFlag('http://10.0.0.11:9981')).toEqual({ url: 'http://10.0.0.11:9981' });
    expect(parseNodeFlag('http://10.0.0.12:9981/=/etc/ode/ode2.token')).toEqual({ url: 'http://10.0.0.12:9981', tokenFile: '/etc/ode/ode2.token' });
    expect(() => parseNodeFlag('10.0.0.11:9981')).toThrow(/expected http:\/\/host:port/);
  });
});

describe('the cluster dashboard against two running daemons (real admin API)', () => {
  let a: TestDaemon;
  let b: TestDaemon;
  let host: FakeWopiHost;
  const editors: EditorClient[] = [];

  beforeAll(async () => {
    host = await FakeWopiHost.start();
    [a, b] = await Promise.all(
      [0, 1].map(() => startDaemon({ kits: { prespawn: 1, max: 2 }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } }, 1)),
    );
    // LibreOffice's start takes minutes when the machine runs other suites at once (load average 30+ seen).
  }, 300_000);
  afterAll(async () => {
    for (const e of editors) e.close();
    await a?.stop();
    await b?.stop().catch(() => undefined);
    await host?.stop();
  });

  it('shows per node its documents, views, kits and state: serving, drained, then unreachable once stopped', async () => {
    const endpoints = [a, b].map((d) => ({ url: d.adminUrl!, token: () => d.adminToken }));
    const r = renderElement(<ClusterApp endpoints={endpoints} intervalMs={250} />, { columns: 110, rows: 24 });
    current = r;
    const [ta, tb] = [a, b].map((d) => d.adminUrl!.replace('http://', '').replace(/\./g, '\\.'));
    await r.waitFor((f) => new RegExp(`${ta}\\s+serving\\s+0\\s+0`).test(f) && new RegExp(`${tb}\\s+serving\\s+0\\s+0`).test(f), 20_000);
    const src = host.addFile('c1', 'cluster-letter.docx', readFileSync(`${CORPUS}/properties/documentProperties.docx`), { UserFriendlyName: 'Ada Lovelace' });
    const { client } = await EditorClient.open(a.url, src, { token: host.token }, 90_000);
    editors.push(client);
    // The node's row (admin status) and its document list (admin documents) are two requests per refresh: the row
    // may count the view one refresh before the list names it, so wait for both.
    let f = await r.waitFor((f) => new RegExp(`${ta}\\s+serving\\s+1\\s+1\\s+\\d/1/`).test(f) && /cluster-letter\.docx\s+1 view\(s\)/.test(f), 20_000);
    expect(f).toMatch(/cluster-letter\.docx\s+1 view\(s\)/);
    const admin = createAdminClient({ url: b.adminUrl, token: () => b.adminToken });
    await admin.trpc.node.drain.mutate({ exit: false });
    await admin.close();
    f = await r.waitFor((f) => new RegExp(`${tb}\\s+drained`).test(f), 20_000);
    expect(f).toContain('Ode cluster · 2 nodes   1 serving');
    await b.stop();
    f = await r.waitFor((f) => new RegExp(`${tb}\\s+unreachable\\s+last seen`).test(f), 20_000);
    expect(f).toMatch(new RegExp(`${ta}\\s+serving\\s+1\\s+1`));
    await r.press('q');
  }, 180_000);
});
