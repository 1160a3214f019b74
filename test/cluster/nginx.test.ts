import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminClient } from '../../tui/client.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { docxText } from '../helpers/docx.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { startCluster, type Cluster } from './cluster-setup.ts';
import { expectEveryWordStored, median, probe, typistsOn } from './typist.ts';

const enc = encodeURIComponent;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('three Ode nodes behind nginx (docs/deploy/nginx-cluster.conf, docs/deploy/cluster.md)', () => {
  let c: Cluster;
  const docx = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
  /** WOPISrc -> serverId before any node left. */
  const placement = new Map<string, string>();
  let drainedId = '';
  /** A document whose node (on the hash ring) is the drained one. */
  let homedOnDrained = '';

  beforeAll(async () => {
    c = await startCluster('nginx');
  }, 120_000);
  afterAll(async () => {
    await c?.stop();
  });

  it('spreads 300 WOPISrc values over the nodes within +-20 % of even (hash $arg_WOPISrc consistent)', async () => {
    const counts = new Map(c.nodes.map((n) => [n.serverId, 0]));
    for (let i = 0; i < 300; i++) {
      // As in haproxy.test.ts: one WOPISrc per file id of a Nextcloud host, the same on every run.
      const src = `https://cloud.example.org/index.php/apps/richdocuments/wopi/files/${1000 + i}_ocabc123`;
      const { status, serverId } = await probe(c.balancer, src);
      expect(status).toBe(200);
      placement.set(src, serverId);
      counts.set(serverId, (counts.get(serverId) ?? 0) + 1);
    }
    console.log(`nginx: 300 WOPISrc over 3 nodes: ${[...counts.values()].join(' / ')}`);
    expect(counts.size).toBe(3);
    for (const n of counts.values()) {
      expect(n).toBeGreaterThanOrEqual(80);
      expect(n).toBeLessThanOrEqual(120);
    }
  });

  it("sends every request of one document to one node: editor page, WebSocket (typing through it), download, health probe; nginx's access log agrees", async () => {
    const src = c.host.addFile('one', 'one.docx', docx);
    const xml = await (await c.balancer.fetch(`${c.balancerUrl}/hosting/discovery`)).text();
    const urlsrc = new URL(/<action\b[^>]*\bext="docx"[^>]*\burlsrc="([^"]+)"/.exec(xml)![1].replace(/&amp;/g, '&'));
    const page = await c.balancer.fetch(`${c.balancerUrl}${urlsrc.pathname}?WOPISrc=${enc(src)}`, {
      method: 'POST',
      body: new URLSearchParams({ access_token: c.host.token }),
    });
    expect(page.status).toBe(200);
    await page.text();
    const { client } = await EditorClient.open(c.balancerUrl, src, { token: c.host.token }, 90_000, c.balancer.wsOptions);
    // The socket carries editing both ways through nginx (Upgrade and Connection headers passed).
    let from = client.messages.length;
    client.type('Typed through nginx ');
    await client.next('modified', (m) => m.modified, 30_000, from);
    from = client.messages.length;
    client.send({ type: 'download', id: 'd1', format: 'pdf', purpose: 'download' });
    const ready = await client.next('downloadReady', (m) => m.id === 'd1', 60_000, from);
    const dl = await c.balancer.fetch(`${c.balancerUrl}${ready.url}`);
    expect(dl.status).toBe(200);
    expect(
      Buffer.from(await dl.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const health = await probe(c.balancer, src);
    const holder = c.nodes.find((n) => n.daemon.server.documents.list().some((d) => d.key === src))!;
    expect(holder).toBeDefined();
    expect({
      page: page.headers.get('x-ode-server-id'),
      socket: client.serverId,
      download: dl.headers.get('x-ode-server-id'),
      health: health.serverId,
    }).toEqual({ page: holder.serverId, socket: holder.serverId, download: holder.serverId, health: holder.serverId });
    client.close();
    await client.closed();
    // nginx's own log ($upstream_addr): page (POST), socket (logged when it closed), download and probe, all on that node.
    const key = enc(src);
    await expect
      .poll(() => c.balancer.balanced(key).map((r) => r.uri.split('?')[0]), { timeout: 10_000 })
      .toEqual(expect.arrayContaining([urlsrc.pathname, '/ode/ws', '/health', ready.url.split('?')[0]]));
    expect(new Set(c.balancer.balanced(key).map((r) => r.server))).toEqual(new Set([holder.name]));
    const idle = Date.now() + 30_000;
    while (holder.daemon.server.documents.list().some((d) => d.key === src) && Date.now() < idle) await sleep(100);
    expect(docxText(c.host.files.get('one')!.bytes)).toContain('Typed through nginx');
  }, 150_000);

  it('drains a node while users type: nginx retries its 503s on the next node of the ring, every typed word is stored, and only its documents move', async () => {
    const drained = c.nodes[0];
    drainedId = drained.serverId;
    // Two documents on the node that drains, one on another.
    const want = new Map([
      [drained.serverId, 2],
      [c.nodes[1].serverId, 1],
    ]);
    const typists = await typistsOn(c.balancer, c.host, want, 'n', docx);
    expect(typists).toHaveLength(3);
    for (const t of typists) await t.open();
    for (const t of typists) t.start();
    await sleep(3000);
    const admin = createAdminClient({ url: drained.daemon.adminUrl!, token: () => drained.daemon.adminToken });
    const drainStartedAt = Date.now();
    const report = await admin.trpc.node.drain.mutate({ exit: false });
    await admin.close();
    expect(report).toMatchObject({ state: 'drained', documents: 2, views: 2 });
    const moved = typists.filter((t) => t.nodes[0] === drained.serverId);
    homedOnDrained = moved[0].src;
    const deadline = Date.now() + 60_000;
    while (moved.some((t) => t.moves.length === 0) && Date.now() < deadline) await sleep(100);
    await sleep(3000);
    // The last view leaving saves (exit save) and uploads: every word typed is in the stored file.
    await expectEveryWordStored(c, typists);
    expect(moved).toHaveLength(2);
    for (const t of moved) {
      expect(t.moves.map((m) => m.code)).toEqual([4503]);
      expect(t.nodes).toHaveLength(2);
      expect(t.nodes[1]).not.toBe(drained.serverId);
    }
    for (const t of typists.filter((x) => !moved.includes(x))) expect(t.moves).toEqual([]);
    const times = moved.map((t) => t.moves[0].backAt - drainStartedAt);
    console.log(
      `nginx: drain -> typing again (${times.length} users): median ${median(times)} ms, max ${Math.max(...times)} ms; the drain took ${report.ms} ms; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} CPUs`,
    );
    expect(Math.max(...times)).toBeLessThan(60_000);
    // nginx's log: each moved document's first socket on the drained node, its second on another.
    for (const t of moved) {
      const sockets = c.balancer.balanced(enc(t.src)).filter((r) => r.uri.startsWith('/ode/ws'));
      expect(sockets.map((r) => r.server)).toEqual([drained.name, expect.not.stringMatching(`^${drained.name}$`)]);
    }
  }, 180_000);

  it('an editor page (a POST) of a document of the drained node, once nginx tries that node again, is retried on the next node', async () => {
    // fail_timeout (10 s) passes: nginx sends the next request of that WOPISrc to the drained node again, which
    // refuses it (503 draining) without reading the form; nginx must pass the POST on to the next node.
    await sleep(11_000);
    const xml = await (await c.balancer.fetch(`${c.balancerUrl}/hosting/discovery`)).text();
    const path = new URL(/<action\b[^>]*\bext="docx"[^>]*\burlsrc="([^"]+)"/.exec(xml)![1].replace(/&amp;/g, '&')).pathname;
    const page = await c.balancer.fetch(`${c.balancerUrl}${path}?WOPISrc=${enc(homedOnDrained)}`, {
      method: 'POST',
      body: new URLSearchParams({ access_token: c.host.token }),
    });
    const body = await page.text();
    expect(page.status, body.slice(0, 300)).toBe(200);
    expect(page.headers.get('x-ode-server-id')).not.toBe(drainedId);
    // nginx's log: this POST went to the drained node first, then to the next one (its body was passed on again).
    const drainedName = c.nodes.find((n) => n.serverId === drainedId)!.name;
    const posts = c.balancer.balanced(enc(homedOnDrained)).filter((r) => r.method === 'POST');
    expect(posts.at(-1)!.tried).toEqual([drainedName, expect.not.stringMatching(`^${drainedName}$`)]);
  }, 60_000);

  it('after the node left, only its documents moved', async () => {
    let moved = 0;
    for (const [src, before] of placement) {
      const { status, serverId } = await probe(c.balancer, src);
      // The drained node answers 503 on /health: nginx goes on to the next node of the ring, which answers 200.
      expect(status).toBe(200);
      if (before === drainedId) {
        expect(serverId).not.toBe(drainedId);
        moved++;
      } else expect(serverId).toBe(before);
    }
    expect(moved).toBe([...placement.values()].filter((s) => s === drainedId).length);
  });
});
