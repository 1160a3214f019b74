import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminClient } from '../../tui/client.ts';
import { launchChromium } from '../helpers/browser.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { docxText } from '../helpers/docx.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { startHostPage, type HostPage } from '../helpers/host-page.ts';
import { startCluster, type Cluster } from './cluster-setup.ts';
import { missingWords } from './typist.ts';

const enc = encodeURIComponent;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
/** The editor's bundle (`/browser/<hash>/editor.js?v=...`, `editor.css`): no document's, linked without WOPISrc. */
const isBundle = (u: string) => /^\/browser\/[^/]+\/editor\.(js|css)$/.test(new URL(u).pathname) && !new URL(u).searchParams.has('WOPISrc');

/** One user typing words into one document through the balancer, reconnecting when its node drains (as the editor does). */
interface Typist {
  id: string;
  src: string;
  client: EditorClient;
  /** Every word sent on a live socket before the view was told `draining`. */
  typed: string[];
  /** The nodes the user was on, in order. */
  nodes: string[];
  /** From the drain's start to this user's view being live on another node, ms. */
  backAfterMs?: number;
  /** From the drain's start to the balancer sending this WOPISrc to a serving node (/health 200), ms. */
  routedAfterMs?: number;
  /** How many words were typed when the view was told `draining`. */
  typedBeforeDrain?: number;
  /** How many words were typed when the view was live again on another node. */
  typedWhenBack?: number;
}

describe('three Ode nodes behind HAProxy (docs/deploy/haproxy.cfg, docs/deploy/cluster.md)', () => {
  let c: Cluster;
  const docx = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
  /** WOPISrc -> serverId before any node left. */
  const placement = new Map<string, string>();
  let browser: Browser | undefined;
  let page: Page | undefined;
  let web: HostPage | undefined;
  /** Every URL Chromium asked of the balancer (HTTP and WebSocket). */
  const browserUrls: string[] = [];
  /** The node that drains: the one holding the document open in Chromium. */
  let drainedId = '';

  beforeAll(async () => {
    c = await startCluster();
  }, 120_000);
  afterAll(async () => {
    await page?.close();
    await browser?.close();
    await web?.stop();
    await c?.stop();
  });

  /** HAProxy's log lines of requests whose URI contains `text`: the server that answered, and the request. */
  const balancedRequests = (text: string) =>
    c.balancerLog.flatMap((l) => {
      const m = / ode_nodes\/(\S+) .*"(\w+) (\S+) HTTP\/[\d.]+"/.exec(l);
      return m && m[3].includes(text) ? [{ server: m[1], method: m[2], uri: m[3] }] : [];
    });
  const serverIdOf = (name: string) => c.nodes.find((n) => n.name === name)!.serverId;

  /** The node the balancer sends a request for `src` to, and its /health status. */
  const probe = async (src: string) => {
    const r = await fetch(`${c.balancerUrl}/health?WOPISrc=${enc(src)}`);
    await r.arrayBuffer();
    return { status: r.status, serverId: r.headers.get('x-ode-server-id') ?? '' };
  };

  it('spreads 300 WOPISrc values over the nodes within +-20 % of even, and every node signs with the one shared proof key', async () => {
    expect(new Set(c.nodes.map((n) => n.serverId)).size).toBe(3);
    const counts = new Map(c.nodes.map((n) => [n.serverId, 0]));
    for (let i = 0; i < 300; i++) {
      // Like a Nextcloud host: one WOPISrc per file id. A fixed host name (not the fake host's random port), so the
      // spread is the same on every run: consistent hashing spreads statistically (about +-8 per node for 300).
      const src = `https://cloud.example.org/index.php/apps/richdocuments/wopi/files/${1000 + i}_ocabc123`;
      const { status, serverId } = await probe(src);
      expect(status).toBe(200);
      placement.set(src, serverId);
      counts.set(serverId, (counts.get(serverId) ?? 0) + 1);
    }
    console.log(`300 WOPISrc over 3 nodes: ${[...counts.values()].join(' / ')}`);
    for (const n of counts.values()) {
      expect(n).toBeGreaterThanOrEqual(80);
      expect(n).toBeLessThanOrEqual(120);
    }
    // Same discovery proof key on every node (config proof_key: one file all nodes read).
    const keys = await Promise.all(
      c.nodes.map(async (n) => /<proof-key [^>]*\bvalue="([^"]+)"/.exec(await (await fetch(`${n.daemon.url}/hosting/discovery`)).text())?.[1]),
    );
    expect(keys[0]).toBeTruthy();
    expect(new Set(keys).size).toBe(1);
  });

  it('sends every request of one document to one node: editor page, WebSocket, download, the editor health probe', async () => {
    const src = c.host.addFile('one', 'one.docx', docx);
    const xml = await (await fetch(`${c.balancerUrl}/hosting/discovery`)).text();
    const urlsrc = new URL(/<action\b[^>]*\bext="docx"[^>]*\burlsrc="([^"]+)"/.exec(xml)![1].replace(/&amp;/g, '&'));
    const page = await fetch(`${c.balancerUrl}${urlsrc.pathname}?WOPISrc=${enc(src)}`, {
      method: 'POST',
      body: new URLSearchParams({ access_token: c.host.token }),
    });
    expect(page.status).toBe(200);
    const pageNode = page.headers.get('x-ode-server-id');
    const html = await page.text();
    expect(JSON.parse(/<script type="application\/json" id="ode-config">([^<]*)<\/script>/.exec(html)![1].replace(/\\u003c/g, '<')).wopiSrc).toBe(src);
    const { client } = await EditorClient.open(c.balancerUrl, src, { token: c.host.token });
    const from = client.messages.length;
    client.send({ type: 'download', id: 'd1', format: 'pdf', purpose: 'download' });
    const ready = await client.next('downloadReady', (m) => m.id === 'd1', 60_000, from);
    expect(new URL(ready.url, c.balancerUrl).searchParams.get('WOPISrc')).toBe(src);
    const dl = await fetch(`${c.balancerUrl}${ready.url}`);
    expect(dl.status).toBe(200);
    expect(
      Buffer.from(await dl.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const health = await probe(src);
    const holder = c.nodes.find((n) => n.daemon.server.documents.list().some((d) => d.key === src));
    expect(holder).toBeDefined();
    expect({ page: pageNode, socket: client.serverId, download: dl.headers.get('x-ode-server-id'), health: health.serverId }).toEqual({
      page: holder!.serverId,
      socket: holder!.serverId,
      download: holder!.serverId,
      health: holder!.serverId,
    });
    client.close();
    await client.closed();
  });

  it('Chromium through the balancer: loads, types and saves; every request it makes for the document carries WOPISrc and lands on the one node that holds it', async () => {
    web = await startHostPage({ daemonUrl: c.balancerUrl, wopiSrc: c.host.addFile('web', 'web.docx', docx), token: c.host.token });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
    const balancer = new URL(c.balancerUrl).host;
    page.on('request', (r) => new URL(r.url()).host === balancer && browserUrls.push(r.url()));
    page.on('websocket', (w) => new URL(w.url()).host === balancer && browserUrls.push(w.url()));
    await page.goto(web.url);
    await web.waitFor('App_LoadingStatus', (m) => m.Values.Status === 'Document_Loaded', 90_000);
    await page
      .frameLocator('#ode')
      .locator('.ode-doc')
      .click({ position: { x: 300, y: 200 } });
    await page.keyboard.type('Typed in Chromium ');
    await web.waitFor('Doc_ModifiedStatus', (m) => m.Values.Modified === true, 20_000);
    const since = web.messages().length;
    await web.post({ MessageId: 'Action_Save', Values: { DontTerminateEdit: true, DontSaveIfUnmodified: false, Notify: true } });
    expect((await web.waitFor('Action_Save_Resp', undefined, 30_000, since)).Values).toMatchObject({ success: true });
    expect(docxText(c.host.files.get('web')!.bytes)).toContain('Typed in Chromium');
    // Every request of the browser to the balancer belongs to this document and says so, but the editor's bundle:
    // one URL for every document (cached once), which any node of the page's version serves (docs/deploy/cluster.md).
    expect(browserUrls.length).toBeGreaterThanOrEqual(4);
    expect(browserUrls.filter(isBundle).length).toBeGreaterThanOrEqual(2);
    expect(browserUrls.filter((u) => !isBundle(u) && new URL(u).searchParams.get('WOPISrc') !== web!.wopiSrc)).toEqual([]);
    // HAProxy's own log: all of them went to one node, the one that has the document open. It logs a request when it
    // ends: the editor page by now (the bundle no longer carries the WOPISrc; the socket is logged when it closes).
    const key = encodeURIComponent(web.wopiSrc);
    await expect.poll(() => balancedRequests(key).length).toBeGreaterThanOrEqual(1);
    const servers = new Set(balancedRequests(key).map((r) => r.server));
    expect(servers.size).toBe(1);
    drainedId = serverIdOf([...servers][0]);
    const holder = c.nodes.find((n) => n.daemon.server.documents.list().some((d) => d.key === web!.wopiSrc));
    expect(holder?.serverId).toBe(drainedId);
  }, 150_000);

  it('drains a node while users type in four documents: every typed word is stored, only its documents move, and the users type again within seconds', async () => {
    const drained = c.nodes.find((n) => n.serverId === drainedId)!;
    const others = c.nodes.filter((n) => n !== drained);
    // Two documents on the node that drains, one on each other node.
    const want = new Map([[drained.serverId, 2], ...others.map((n) => [n.serverId, 1] as const)]);
    const chosen: Array<{ id: string; src: string }> = [];
    for (let i = 0; chosen.length < 4 && i < 200; i++) {
      const id = `t${i}`;
      const { serverId } = await probe(c.host.fileUrl(id));
      if ((want.get(serverId) ?? 0) > 0) {
        want.set(serverId, want.get(serverId)! - 1);
        chosen.push({ id, src: c.host.addFile(id, `${id}.docx`, docx) });
      }
    }
    expect(chosen).toHaveLength(4);
    const typists: Typist[] = [];
    for (const { id, src } of chosen) {
      const { client } = await EditorClient.open(c.balancerUrl, src, { token: c.host.token }, 90_000);
      typists.push({ id, src, client, typed: [], nodes: [client.serverId!] });
    }
    let typing = true;
    let drainStartedAt = 0;
    const runTypist = async (t: Typist) => {
      let n = 0;
      while (typing) {
        const { client } = t;
        if (client.closeCode === undefined && !client.messages.some((m) => m.type === 'draining')) {
          const word = `${t.id}w${n++}`;
          client.type(`${word} `);
          t.typed.push(word);
          await sleep(60);
          continue;
        }
        if (client.closeCode === undefined) {
          t.typedBeforeDrain ??= t.typed.length;
          await client.closed(30_000);
          continue;
        }
        // Closed with 4503: as the editor (host/move.ts), wait for the balancer to send this WOPISrc to a serving node, then open it again.
        expect(client.closeCode).toBe(4503);
        while ((await probe(t.src)).status !== 200) await sleep(100);
        t.routedAfterMs ??= Date.now() - drainStartedAt;
        try {
          t.client = (await EditorClient.open(c.balancerUrl, t.src, { token: c.host.token }, 90_000)).client;
          t.nodes.push(t.client.serverId!);
          t.backAfterMs = Date.now() - drainStartedAt;
          t.typedWhenBack = t.typed.length;
        } catch {
          await sleep(200);
        }
      }
    };
    const runs = typists.map((t) => runTypist(t));
    await sleep(1500);
    const chromiumLoads = web!.messages().length;
    const admin = createAdminClient({ url: drained.daemon.adminUrl!, token: () => drained.daemon.adminToken });
    drainStartedAt = Date.now();
    const report = await admin.trpc.node.drain.mutate({ exit: false });
    await admin.close();
    // The two typists' documents and the one open in Chromium.
    expect(report).toMatchObject({ state: 'drained', documents: 3, views: 3, exiting: false });
    expect(drained.daemon.server.documents.list()).toEqual([]);
    const direct = await fetch(`${drained.daemon.url}/health`);
    expect(direct.status).toBe(503);
    expect(await direct.json()).toMatchObject({ status: 'drained', node: 'drained' });
    // Straight to the drained node (as a balancer that has not noticed yet): new documents are refused, 503 draining.
    const xml = await (await fetch(`${drained.daemon.url}/hosting/discovery`)).text();
    const editorPath = new URL(/<action\b[^>]*\bext="docx"[^>]*\burlsrc="([^"]+)"/.exec(xml)![1].replace(/&amp;/g, '&')).pathname;
    const refusedPage = await fetch(`${drained.daemon.url}${editorPath}?WOPISrc=${enc(chosen[0].src)}`, {
      method: 'POST',
      body: new URLSearchParams({ access_token: c.host.token }),
    });
    expect(refusedPage.status).toBe(503);
    expect(await refusedPage.json()).toMatchObject({ code: 'draining' });
    await expect(EditorClient.connect(drained.daemon.url, chosen[0].src)).rejects.toThrow('upgrade refused: 503');
    // Typing goes on until every user typed 20 words and every moved user 10 on the new node: on a loaded machine a
    // fixed time gave a user 18 words in all. 120 s bounds a hang (the move itself is bounded below).
    const movedOn = (t: Typist) => t.nodes[0] !== drained.serverId || (t.typedWhenBack !== undefined && t.typed.length >= t.typedWhenBack + 10);
    const deadline = Date.now() + 120_000;
    while (typists.some((t) => t.typed.length < 20 || !movedOn(t)) && Date.now() < deadline) await sleep(100);
    typing = false;
    await Promise.all(runs);
    // Let LibreOffice process the last posted keys before the views leave: the exit save of a view closing right
    // after typing can miss them on a loaded machine (kit/input-order.ts waits by a heuristic); not what this tests.
    await sleep(1000);
    // The last view leaving saves (exit save) and uploads.
    for (const t of typists) {
      t.client.close();
      await t.client.closed();
    }
    const idle = Date.now() + 30_000;
    const typistOpen = () => c.nodes.some((n) => n.daemon.server.documents.list().some((d) => typists.some((t) => t.src === d.key)));
    while (typistOpen() && Date.now() < idle) await sleep(100);
    const moved = typists.filter((t) => t.nodes[0] === drained.serverId);
    expect(moved).toHaveLength(2);
    for (const t of moved) {
      expect(t.nodes).toHaveLength(2);
      expect(t.nodes[1]).not.toBe(drained.serverId);
    }
    for (const t of typists.filter((x) => x.nodes[0] !== drained.serverId)) expect(t.nodes).toHaveLength(1);
    // Every word each user says it typed is stored; a moved user typed on both nodes (the words of each are checked).
    for (const t of typists) {
      const missing = missingWords(t, docxText(c.host.files.get(t.id)!.bytes));
      expect({ id: t.id, missing }).toEqual({ id: t.id, missing: [] });
      expect(t.typed.length).toBeGreaterThan(0);
    }
    for (const t of moved) {
      expect(t.typedBeforeDrain).toBeGreaterThan(0);
      expect(t.typed.length).toBeGreaterThan(t.typedWhenBack!);
    }
    const times = moved.map((t) => t.backAfterMs!);
    const routed = moved.map((t) => t.routedAfterMs!);
    console.log(
      `drain -> typing again (${times.length} users): median ${median(times)} ms, max ${Math.max(...times)} ms (balancer moved them after median ${median(routed)} ms, max ${Math.max(...routed)} ms); the drain itself took ${report.ms} ms; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} CPUs`,
    );
    // A bound against a hang, not the measurement: on a 2-core machine shared with other test runs, LibreOffice's
    // load on the receiving node has taken 15 s (load average 20); alone it is 2-7 s (docs/deploy/cluster.md).
    expect(Math.max(...times)).toBeLessThan(60_000);
    // Every WOPI request of every node was signed with the one shared proof key (the Chromium document's come
    // through the host page's WOPI proxy, signed for the proxy's URL, so they are not checked here).
    expect(c.host.requests.filter((r) => r.proofValid === false && !r.path.startsWith('/wopi/files/web'))).toEqual([]);
    // The editor in Chromium reopened the document by itself, through the balancer, on another node: type and save again.
    // The reopen loads the document in a kit of the receiving node: at load 20-27 Document_Loaded missed a 60 s wait
    // once, so the wait is generous, a bound against a hang.
    const since = web!.messages().length;
    await web!.waitFor('App_LoadingStatus', (m) => m.Values.Status === 'Document_Loaded', 150_000, chromiumLoads);
    await page!
      .frameLocator('#ode')
      .locator('.ode-doc')
      .click({ position: { x: 300, y: 200 } });
    await page!.keyboard.type('Typed after the move ');
    await web!.waitFor('Doc_ModifiedStatus', (m) => m.Values.Modified === true, 20_000, since);
    const saving = web!.messages().length;
    await web!.post({ MessageId: 'Action_Save', Values: { DontTerminateEdit: true, DontSaveIfUnmodified: false, Notify: true } });
    expect((await web!.waitFor('Action_Save_Resp', undefined, 30_000, saving)).Values).toMatchObject({ success: true });
    const stored = docxText(c.host.files.get('web')!.bytes);
    expect(stored).toContain('Typed in Chromium');
    expect(stored).toContain('Typed after the move');
    const holder = c.nodes.find((n) => n.daemon.server.documents.list().some((d) => d.key === web!.wopiSrc));
    expect(holder).toBeDefined();
    expect(holder!.serverId).not.toBe(drained.serverId);
    expect(browserUrls.filter((u) => !isBundle(u) && new URL(u).searchParams.get('WOPISrc') !== web!.wopiSrc)).toEqual([]);
  }, 420_000);

  it('after the node left, only its documents moved', async () => {
    const gone = drainedId;
    let moved = 0;
    for (const [src, before] of placement) {
      // The answer's status is the node's own (/health); where it went is what this checks.
      const { serverId } = await probe(src);
      if (before === gone) {
        expect(serverId).not.toBe(gone);
        moved++;
      } else expect(serverId).toBe(before);
    }
    expect(moved).toBe([...placement.values()].filter((s) => s === gone).length);
  });
});
