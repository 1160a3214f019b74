import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCertificateFiles } from '../../certs/server-cert.ts';
import { checkCertificate } from '../../cli/doctor/certificate.ts';
import type { DiscoveryAnswer, DoctorContext } from '../../cli/doctor/check.ts';
import { checkClock, checkPublicUrl } from '../../cli/doctor/public-url.ts';
import { checkWebSocket } from '../../cli/doctor/websocket.ts';
import { validateConfig } from '../../daemon/server/config/load.ts';

const DAY = 86_400_000;

function ctx(url: string, more: Partial<DoctorContext> = {}): DoctorContext {
  return { config: validateConfig({}, 'test'), url: new URL(url), ca: [], discovery: undefined, discoveryError: undefined, ...more };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

describe('ode doctor: the certificate check against real TLS servers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ode-doctor-certs-'));
  const servers: Server[] = [];
  /** An HTTPS server on 127.0.0.1 with a certificate from `ode certs generate`'s code; answers its URL and CA. */
  const serve = async (name: string, names: string[], days: number, now?: Date) => {
    const g = generateCertificateFiles(join(dir, name), { names, days, now });
    const s = createHttpsServer({ cert: readFileSync(g.cert), key: readFileSync(g.key) }, (_req, res) => res.end('ok'));
    servers.push(s);
    return { url: `https://127.0.0.1:${await listen(s)}`, ca: readFileSync(g.caCert, 'utf8') };
  };
  afterAll(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('trusted through --ca, for the host, 90 days: ok; without the CA: FAIL, not trusted', async () => {
    const s = await serve('good', ['localhost', '127.0.0.1'], 90);
    const ok = await checkCertificate(ctx(s.url, { ca: [s.ca] }));
    expect(ok.status).toBe('ok');
    expect(ok.detail).toMatch(/valid (89|90) more days/);
    const untrusted = await checkCertificate(ctx(s.url));
    expect(untrusted.status).toBe('FAIL');
    expect(untrusted.detail).toContain('is not trusted');
    expect(untrusted.fix).toContain('--ca');
  });

  it('a certificate for another name: FAIL naming the host and the names it has', async () => {
    const s = await serve('other', ['office.example.org'], 90);
    const r = await checkCertificate(ctx(s.url, { ca: [s.ca] }));
    expect(r.status).toBe('FAIL');
    expect(r.detail).toContain('is not for 127.0.0.1');
    expect(r.detail).toContain('office.example.org');
  });

  it('expired: FAIL with the date and "renew"; expiring within 30 days: warn', async () => {
    const old = await serve('expired', ['127.0.0.1'], 30, new Date(Date.now() - 100 * DAY));
    const r = await checkCertificate(ctx(old.url, { ca: [old.ca] }));
    expect(r.status).toBe('FAIL');
    expect(r.detail).toContain('expired on');
    expect(r.fix).toContain('renew');
    const soon = await serve('soon', ['127.0.0.1'], 10);
    const w = await checkCertificate(ctx(soon.url, { ca: [soon.ca] }));
    expect(w.status).toBe('warn');
    expect(w.detail).toMatch(/expires in (9|10) days/);
  });

  it('a plain-http public URL without ssl.enable: warn, naming the way to TLS', async () => {
    const r = await checkCertificate(ctx('http://127.0.0.1:9980'));
    expect(r.status).toBe('warn');
    expect(r.fix).toContain('ssl.termination');
  });
});

describe("ode doctor: telling a proxy's answer from Ode's", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // What a proxy that does not know the path answers: its own HTML page, to the upgrade too.
    server = createHttpServer((_req, res) => {
      res.writeHead(400, { 'Content-Type': 'text/html' });
      res.end('<html><body><h1>400 Bad Request</h1>nginx</body></html>');
    });
    url = `http://127.0.0.1:${await listen(server)}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it("websocket: a 400 page that is not Ode's JSON is the proxy's, and the fix names the upgrade lines", async () => {
    const r = await checkWebSocket(ctx(url));
    expect(r.status).toBe('FAIL');
    expect(r.detail).toContain('the proxy answered the upgrade of /ode/ws itself with 400');
    expect(r.fix).toContain('proxy_set_header Upgrade $http_upgrade');
    expect(r.fix).toContain('ProxyPass /ode/ws ws://');
  });
});

describe('ode doctor: discovery and clock judgements', () => {
  const answer = (body: string, skewMs = 0): DiscoveryAnswer => ({
    status: 200,
    body,
    dateMs: 1_800_000_000_000 + skewMs,
    localMs: 1_800_000_000_000,
    elapsedMs: 5,
  });
  const xml = (urlsrc: string) =>
    `<wopi-discovery><net-zone name="external-http"><app name="writer"><action name="edit" ext="odt" urlsrc="${urlsrc}"/></app></net-zone></wopi-discovery>`;

  it('public-url: discovery that sends editors to the internal address fails, naming net.public_url', () => {
    const r = checkPublicUrl(ctx('https://ode.example.com', { discovery: answer(xml('http://127.0.0.1:9980/browser/abc/ode.html?')) }));
    expect(r.status).toBe('FAIL');
    expect(r.detail).toContain('http://127.0.0.1:9980/browser/abc/ode.html');
    expect(r.fix).toContain('net.public_url: https://ode.example.com');
    const ok = checkPublicUrl(ctx('https://ode.example.com', { discovery: answer(xml('https://ode.example.com/browser/abc/ode.html?')) }));
    expect(ok.status).toBe('ok');
  });

  it('public-url: a 502 is the proxy not reaching Ode; a refused connection says to start Ode', () => {
    const bad = checkPublicUrl(ctx('https://ode.example.com', { discovery: { ...answer('<html>Bad Gateway</html>'), status: 502 } }));
    expect(bad.status).toBe('FAIL');
    expect(bad.detail).toContain('the proxy cannot reach Ode');
    const down = checkPublicUrl(ctx('https://ode.example.com', { discoveryError: 'ECONNREFUSED: connect ECONNREFUSED 192.0.2.1:443' }));
    expect(down.status).toBe('FAIL');
    expect(down.fix).toContain('systemctl start ode');
  });

  it('clock: 10 min off fails (proof timestamps), 90 s warns, 1 s is fine', () => {
    const far = checkClock(ctx('https://ode.example.com', { discovery: answer('', 600_000) }));
    expect(far.status).toBe('FAIL');
    expect(far.detail).toContain('600 s off');
    expect(far.fix).toContain('timedatectl set-ntp true');
    expect(checkClock(ctx('https://ode.example.com', { discovery: answer('', -90_000) })).status).toBe('warn');
    expect(checkClock(ctx('https://ode.example.com', { discovery: answer('', 1_000) })).status).toBe('ok');
  });
});
