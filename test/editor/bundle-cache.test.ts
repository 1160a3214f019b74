import { readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';
import { startHostPage } from '../helpers/host-page.ts';

/** One request the test balancer passed on: to which node, what, and the node's answer. */
interface Passed {
  node: string;
  url: string;
  status: number;
}

/**
 * A balancer as docs/deploy/cluster.md configures one, reduced to its rule: a request whose query carries WOPISrc
 * goes to the node that WOPISrc hashes to (here always `routed`), any other request to whichever node (here always
 * `other`). HTTP and WebSocket upgrades are passed on unchanged (Host included), every answer's status is logged.
 */
async function startBalancer(
  routed: { name: string; url: string },
  other: { name: string; url: string },
): Promise<{ url: string; passed: Passed[]; stop(): Promise<void> }> {
  const passed: Passed[] = [];
  const pick = (url: string) => (new URL(url, 'http://x').searchParams.has('WOPISrc') ? routed : other);
  const server: Server = createServer((req, res) => {
    const node = pick(req.url ?? '/');
    const target = new URL(node.url);
    const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      passed.push({ node: node.name, url: req.url ?? '', status: answer.statusCode ?? 0 });
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  server.on('upgrade', (req, socket, head) => {
    const node = pick(req.url ?? '/');
    const target = new URL(node.url);
    const up = connect(Number(target.port), target.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      up.write(head);
      socket.pipe(up).pipe(socket);
    });
    passed.push({ node: node.name, url: req.url ?? '', status: 101 });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    passed,
    stop: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** What the editor frame fetched of its bundle (Resource Timing): URL, status, bytes over the network (0: cache). */
interface Fetched {
  name: string;
  status: number;
  transferSize: number;
  decodedBodySize: number;
}

/** Evaluated in the editor frame (a string: it names nothing of this file): the bundle's resource entries and the page's layout rule applied. */
const READ_BUNDLE = `(() => ({
  fetched: performance.getEntriesByType('resource').filter((e) => /\\/editor\\.(js|css)/.test(e.name)).map((e) => ({ name: e.name, status: e.responseStatus, transferSize: e.transferSize, decodedBodySize: e.decodedBodySize })),
  appDisplay: getComputedStyle(document.getElementById('ode-app')).display,
}))()`;

/**
 * Issue 15: the editor's bundle is downloaded once per browser, not once per document (its URL carried the WOPISrc
 * since 06e8eae), and a rolling upgrade still works: a node of another version answers 404 for the bundle and the
 * page asks again with its WOPISrc, which the balancer sends to the page's node. Debian's Chromium, a real kit.
 */
describe('the editor bundle: cached across documents, and found during a rolling upgrade', () => {
  let host: FakeWopiHost;
  let daemon: TestDaemon;
  let older: TestDaemon;
  let browser: Browser;
  const docx = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));

  beforeAll(async () => {
    host = await FakeWopiHost.start();
    daemon = await startDaemon({ documents: { check_secs: 0 } }, 1);
    // The node of the other version: a daemon whose version hash differs (fake kits: it never opens the document).
    older = await startDaemon({ documents: { check_secs: 0 } }, 1, 0, { fakeKits: true });
    older.server.context.versionHash = 'o1d0000000';
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await older?.stop();
    await daemon?.stop();
    await host?.stop();
  });

  /** Opens `id` through a host page on `daemonUrl` in `context` and waits for Document_Loaded; returns the editor frame's record. */
  const open = async (context: BrowserContext, daemonUrl: string, id: string) => {
    const web = await startHostPage({ daemonUrl, wopiSrc: host.addFile(id, `${id}.docx`, docx), token: host.token });
    const page = await context.newPage();
    try {
      await page.goto(web.url);
      await web.waitFor('App_LoadingStatus', (m) => m.Values.Status === 'Document_Loaded', 90_000);
      return (await (page.frame({ name: 'ode' }) as Frame).evaluate(READ_BUNDLE)) as { fetched: Fetched[]; appDisplay: string };
    } finally {
      await page.close();
      await web.stop();
    }
  };

  it('a second document takes editor.js and editor.css from the browser cache (no bytes over the network)', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    try {
      const first = await open(context, daemon.url, 'cache1');
      const second = await open(context, daemon.url, 'cache2');
      const js = (r: { fetched: Fetched[] }) => r.fetched.filter((f) => /editor\.js/.test(f.name));
      expect(js(first)).toHaveLength(1);
      expect(js(first)[0].transferSize).toBeGreaterThan(100_000);
      expect(js(second)).toHaveLength(1);
      expect(js(second)[0].name).toBe(js(first)[0].name);
      expect(js(second)[0].transferSize).toBe(0);
      expect(js(second)[0].decodedBodySize).toBe(js(first)[0].decodedBodySize);
      const css = second.fetched.filter((f) => /editor\.css/.test(f.name));
      expect(css.map((f) => f.transferSize)).toEqual([0]);
      expect(second.appDisplay).toBe('flex');
    } finally {
      await context.close();
    }
  }, 240_000);

  it("rolling upgrade: the bundle asked of a node of another version (404) is asked again with the WOPISrc and comes from the page's node", async () => {
    const lb = await startBalancer({ name: 'page-node', url: daemon.url }, { name: 'older-node', url: older.url });
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    try {
      const r = await open(context, lb.url, 'upgrade1');
      const bundle = (re: RegExp) =>
        lb.passed.filter((p) => re.test(p.url)).map((p) => ({ node: p.node, status: p.status, routed: p.url.includes('WOPISrc=') }));
      // The balancer's log (the oracle on the Node side): first the other node, 404; then the page's node, 200.
      expect(bundle(/\/editor\.js/)).toEqual([
        { node: 'older-node', status: 404, routed: false },
        { node: 'page-node', status: 200, routed: true },
      ]);
      expect(bundle(/\/editor\.css/)).toEqual([
        { node: 'older-node', status: 404, routed: false },
        { node: 'page-node', status: 200, routed: true },
      ]);
      // The browser's side: the same two fetches, and the stylesheet in force.
      expect(r.fetched.filter((f) => /editor\.js/.test(f.name)).map((f) => f.status)).toEqual([404, 200]);
      expect(r.appDisplay).toBe('flex');
    } finally {
      await context.close();
      await lb.stop();
    }
  }, 240_000);
});
