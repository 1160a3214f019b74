import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';

/** One real HTTP request from a chosen local address (127.0.0.2 is loopback too, but another peer address). */
function send(
  url: string,
  opts: { from: string; method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'GET', localAddress: opts.from, headers: opts.headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.once('error', reject);
    req.end(opts.body);
  });
}

const FORWARDED = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'office.example.test' };

/** discovery's urlsrc for docx and the editor page's socket URL, as seen by a request from `from` with `headers`. */
async function urls(daemon: TestDaemon, from: string, headers: Record<string, string> = {}): Promise<{ urlsrc: string; socketUrl: string }> {
  const d = await send(`${daemon.url}/hosting/discovery`, { from, headers });
  expect(d.status).toBe(200);
  const urlsrc = /<action[^>]*ext="docx"[^>]*urlsrc="([^"]+)"/.exec(d.text)?.[1] ?? '';
  // The editor page itself is always asked for at the daemon's own address (as a proxy would forward it).
  const page = new URL(urlsrc.replace(/^https?:\/\/[^/]+/, daemon.url));
  page.searchParams.set('WOPISrc', 'http://127.0.0.1:9/wopi/files/1');
  const p = await send(page.href, {
    from,
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'access_token=t&access_token_ttl=0',
  });
  expect(p.status).toBe(200);
  const config = JSON.parse(/<script type="application\/json" id="ode-config">([^<]*)<\/script>/.exec(p.text)?.[1] ?? '{}') as { socketUrl?: string };
  return { urlsrc, socketUrl: config.socketUrl ?? '' };
}

describe('X-Forwarded-Proto / -Host are honoured only from net.proxy_addresses', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon({ net: { proxy_addresses: ['127\\.0\\.0\\.2'] } }, 0);
  });
  afterAll(async () => daemon?.stop());

  it('a trusted proxy sending X-Forwarded-Proto: https gets https:// and wss:// URLs on its host', async () => {
    const u = await urls(daemon, '127.0.0.2', FORWARDED);
    expect(u.urlsrc).toMatch(/^https:\/\/office\.example\.test\/browser\/[0-9a-f]+\/ode\.html\?$/);
    expect(u.socketUrl).toBe('wss://office.example.test/ode/ws');
  });

  it('the same headers from an address not in net.proxy_addresses are ignored', async () => {
    const u = await urls(daemon, '127.0.0.1', FORWARDED);
    expect(u.urlsrc.startsWith(`${daemon.url}/browser/`)).toBe(true);
    expect(u.urlsrc).toMatch(/^http:\/\//);
    expect(u.socketUrl).toBe(`${daemon.url.replace(/^http/, 'ws')}/ode/ws`);
  });

  it('net.proxy_addresses is live: once 127.0.0.1 is listed, its headers count', async () => {
    daemon.reconfigure({ net: { proxy_addresses: ['127\\.0\\.0\\.1'] } });
    const u = await urls(daemon, '127.0.0.1', FORWARDED);
    expect(u.urlsrc.startsWith('https://office.example.test/')).toBe(true);
    const other = await urls(daemon, '127.0.0.2', FORWARDED);
    expect(other.urlsrc.startsWith('http://')).toBe(true);
  });
});

describe('ssl.termination: Ode speaks HTTP but writes https:// and wss:// URLs', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon({ ssl: { termination: true } }, 0);
  });
  afterAll(async () => daemon?.stop());

  it('without forwarded headers, on the Host it was asked at', async () => {
    expect(daemon.url).toMatch(/^http:\/\//);
    const host = new URL(daemon.url).host;
    const u = await urls(daemon, '127.0.0.1');
    expect(u.urlsrc.startsWith(`https://${host}/browser/`)).toBe(true);
    expect(u.socketUrl).toBe(`wss://${host}/ode/ws`);
  });

  it('with a trusted proxy X-Forwarded-Host (default proxy_addresses: loopback)', async () => {
    const u = await urls(daemon, '127.0.0.1', { 'X-Forwarded-Host': 'office.example.test:8443' });
    expect(u.urlsrc.startsWith('https://office.example.test:8443/browser/')).toBe(true);
    expect(u.socketUrl).toBe('wss://office.example.test:8443/ode/ws');
  });
});
