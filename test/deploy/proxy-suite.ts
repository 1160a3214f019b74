import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch, FormData } from 'undici';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';
import { freePort } from '../helpers/net.ts';
import { writeBigOdt } from './big-document.ts';
import type { ProxyOptions, RunningProxy } from './proxies.ts';
import { generateCertificateFiles, type GeneratedCertificates } from '../../certs/server-cert.ts';

/**
 * The reverse-proxy suite (issue 8, "Deployment"), run once per documented configuration: the proxy runs as a
 * real process on loopback with TLS from a local CA (`ode certs generate`'s code), in front of a real Ode with
 * ssl.termination and no net.public_url, so discovery's URLs come from the proxy's X-Forwarded-Proto/-Host; a
 * fake WOPI host serves the document of the editing socket.
 */
export function describeProxy(name: string, start: (opts: ProxyOptions) => Promise<RunningProxy>): void {
  describe(`${name} in front of Ode (docs/deploy)`, () => {
    let dir: string;
    let tls: GeneratedCertificates;
    let caPem: string;
    let agent: Agent;
    let host: FakeWopiHost;
    let daemon: TestDaemon;
    let proxy: RunningProxy;
    let bigOdt: string;
    let bigSize: number;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'ode-deploy-'));
      tls = generateCertificateFiles(join(dir, 'certs'), { names: ['localhost', '127.0.0.1'], days: 90 });
      caPem = readFileSync(tls.caCert, 'utf8');
      agent = new Agent({ connect: { ca: caPem } });
      bigOdt = join(dir, 'big.odt');
      bigSize = writeBigOdt(bigOdt);
      host = await FakeWopiHost.start();
      const httpsPort = await freePort();
      daemon = await startDaemon({ ssl: { termination: true }, documents: { check_secs: 0 } });
      proxy = await start({ odePort: Number(new URL(daemon.url).port), httpsPort, certFile: tls.cert, keyFile: tls.key });
    });
    afterAll(async () => {
      await proxy?.stop();
      await daemon?.stop();
      await host?.stop();
      await agent?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const post = (path: string, file: { bytes: Buffer; name: string }, headers: Record<string, string> = {}) => {
      const form = new FormData();
      form.append('data', new Blob([new Uint8Array(file.bytes)]), file.name);
      return fetch(`${proxy.url}${path}`, { method: 'POST', body: form, headers, dispatcher: agent });
    };

    it("serves discovery over TLS; its URLs are the proxy's https origin (X-Forwarded-*); plain HTTP redirects", async () => {
      const r = await fetch(`${proxy.url}/hosting/discovery`, { dispatcher: agent });
      expect(r.status).toBe(200);
      const xml = await r.text();
      expect(xml).toContain('<wopi-discovery>');
      const urlsrcs = [...xml.matchAll(/urlsrc="([^"]+)"/g)].map((m) => m[1]);
      expect(urlsrcs.length).toBeGreaterThan(10);
      for (const u of urlsrcs) expect(u.startsWith(`${proxy.url}/`)).toBe(true);
      expect(xml).toMatch(/<proof-key [^>]*modulus="/);
      const plain = await fetch(`${proxy.httpUrl}/hosting/discovery`, { redirect: 'manual' });
      expect(plain.status).toBe(301);
      expect(plain.headers.get('location')).toMatch(/^https:\/\//);
    });

    it('converts a 20 MB document to PDF through the proxy', { timeout: 240_000 }, async () => {
      expect(bigSize).toBeGreaterThan(20 * 1024 * 1024);
      const r = await post('/ode/convert-to/pdf', { bytes: readFileSync(bigOdt), name: 'big.odt' });
      const body = Buffer.from(await r.arrayBuffer());
      expect(r.status, body.subarray(0, 300).toString()).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/pdf');
      expect(body.subarray(0, 5).toString()).toBe('%PDF-');
      // The 2300 px noise picture is in the PDF: it cannot be much smaller than the picture's JPEG.
      expect(body.length).toBeGreaterThan(1024 * 1024);
    });

    it("an upload over limits.max_upload_mb gets Ode's own 413 through the proxy, not a 502", { timeout: 120_000 }, async () => {
      daemon.reconfigure({ limits: { max_upload_mb: 5 } });
      try {
        // Ode refuses as soon as it knows, then reads and discards the rest: closing while the proxy still sends
        // made nginx and Apache answer 502 now and then. Three times, to catch the race.
        for (let i = 0; i < 3; i++) {
          const r = await post('/ode/convert-to/pdf', { bytes: readFileSync(bigOdt), name: 'big.odt' });
          const text = await r.text();
          expect(r.status, `${text.slice(0, 300)}\n${proxy.errors().slice(-1500)}`).toBe(413);
          expect((JSON.parse(text) as { code: string }).code).toBe('too_large');
        }
      } finally {
        daemon.reconfigure({});
      }
    });

    it('a caller denied by net.post_allow is named, with "X-Forwarded-For", and the key to change', async () => {
      const letter = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
      const r = await post('/ode/convert-to/pdf', { bytes: letter, name: 'letter.docx' }, { 'X-Forwarded-For': '203.0.113.9' });
      expect(r.status, proxy.errors().slice(-1500)).toBe(403);
      const err = (await r.json()) as { code: string; message: string };
      expect(err.code).toBe('forbidden_host');
      expect(err.message).toContain('203.0.113.9');
      expect(err.message).toContain('X-Forwarded-For');
      expect(err.message).toContain('net.post_allow.host');
      // The daemon's log line says the same, for the sysadmin reading journalctl.
      const logged = daemon.logBuffer.recent(50, 'warn').find((l) => l.msg.startsWith('convert-to denied'));
      expect(logged?.msg).toContain('203.0.113.9 (from X-Forwarded-For)');
      expect(logged?.msg).toContain('add a pattern for it to net.post_allow.host');
      // The proxy's own address (loopback) is allowed: the same request without the foreign address converts.
      const ok = await post('/ode/convert-to/pdf', { bytes: letter, name: 'letter.docx' });
      expect(ok.status).toBe(200);
      // A post_allow that forgets the proxy: the message says the address refused is the proxy's.
      daemon.reconfigure({ net: { post_allow: { host: ['10\\.9\\.9\\.9'] } } });
      try {
        const r2 = await post('/ode/convert-to/pdf', { bytes: letter, name: 'letter.docx' });
        expect(r2.status).toBe(403);
        const m = ((await r2.json()) as { message: string }).message;
        expect(m).toContain('The address 127.0.0.1 is not allowed');
        expect(m).toContain('It is the reverse proxy that forwarded the request');
      } finally {
        daemon.reconfigure({});
      }
    });

    it('a WOPI host not in storage.wopi.hosts: the socket refusal names the host and the key, through the proxy', async () => {
      const src = 'https://cloud.example.org/wopi/files/abc';
      const refusal = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const ws = new WebSocket(`${proxy.url.replace(/^https/, 'wss')}/ode/ws?WOPISrc=${encodeURIComponent(src)}`, { ca: caPem });
        ws.once('open', () => reject(new Error('the socket opened')));
        ws.once('error', reject);
        ws.once('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
      });
      expect(refusal.status).toBe(403);
      const err = JSON.parse(refusal.body) as { code: string; message: string };
      expect(err.code).toBe('forbidden_host');
      expect(err.message).toContain('"cloud.example.org"');
      expect(err.message).toContain('cloud\\.example\\.org');
      expect(err.message).toContain('storage.wopi.hosts');
      const logged = daemon.logBuffer.recent(50, 'warn').find((l) => l.msg === 'editing socket refused');
      expect(String(logged?.fields.err)).toContain('add a pattern for it (e.g. "cloud\\.example\\.org") to storage.wopi.hosts');
    });

    it('opens an editing WebSocket (wss) through the proxy: status, then a ping answered', async () => {
      const src = host.addFile('deploy1', 'letter.docx', readFileSync(join(CORPUS, 'properties/documentProperties.docx')));
      const { client, status } = await EditorClient.open(proxy.url, src, { token: host.token }, 60_000, { ca: caPem });
      try {
        expect(status.docType).toBe('text');
        expect(status.parts).toBeGreaterThanOrEqual(1);
        expect(host.of('CheckFileInfo').length).toBeGreaterThanOrEqual(1);
        const from = client.messages.length;
        client.send({ type: 'ping', id: 42 });
        const pong = await client.next('pong', (m) => m.id === 42, 30_000, from);
        expect(pong.id).toBe(42);
      } finally {
        client.close();
      }
    });
  });
}
