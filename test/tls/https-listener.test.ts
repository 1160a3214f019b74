import { X509Certificate } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { Agent, fetch as undiciFetch } from 'undici';
import { stringify } from 'yaml';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCertificateFiles } from '../../certs/server-cert.ts';
import { ConfigError, loadConfig } from '../../daemon/server/config/load.ts';
import { ConfigStore } from '../../daemon/server/config/watch.ts';
import { createOdeServer } from '../../daemon/server/server.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';
import { CORPUS } from '../helpers/convert-client.ts';

const dir = mkdtempSync(join(tmpdir(), 'ode-https-'));
const certs = generateCertificateFiles(join(dir, 'certs'), { names: ['localhost', '127.0.0.1', '::1'] });
const caPem = readFileSync(certs.caCert, 'utf8');
const corpusDocx = join(CORPUS, 'properties/documentProperties.docx');

/** The serial of the certificate a brand-new TLS connection to `port` is served (no session reuse). */
function servedSerial(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = tlsConnect({ host: '127.0.0.1', port, ca: caPem, servername: 'localhost' }, () => {
      const serial = s.getPeerCertificate().serialNumber;
      s.end();
      resolve(serial);
    });
    s.once('error', reject);
  });
}

function fileSerial(path: string): string {
  return new X509Certificate(readFileSync(path)).serialNumber;
}

/** Polls `check` until it returns true or `ms` pass (file watchers are asynchronous). */
async function until(check: () => Promise<boolean> | boolean, ms = 20_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('HTTPS on the public listener with a generated CA', () => {
  let daemon: TestDaemon;
  let host: FakeWopiHost;
  let port: number;
  const trusting = new Agent({ connect: { ca: caPem } });
  const logs = (msg: string) => daemon.logBuffer.recent(1000, 'debug').filter((l) => l.msg.includes(msg));

  beforeAll(async () => {
    host = await FakeWopiHost.start();
    daemon = await startDaemon({ ssl: { enable: true, cert_file: certs.cert, key_file: certs.key } }, 1);
    port = Number(new URL(daemon.url).port);
  });
  afterAll(async () => {
    await daemon?.stop();
    await host?.stop();
    await trusting.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves discovery to a client that trusts only the local CA, with https:// URLs', async () => {
    expect(daemon.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const res = await undiciFetch(`${daemon.url}/hosting/discovery`, { dispatcher: trusting });
    expect(res.status).toBe(200);
    const xml = await res.text();
    const urlsrc = /urlsrc="([^"]+ode\.html\?)"/.exec(xml)?.[1];
    expect(urlsrc?.startsWith(`https://127.0.0.1:${port}/browser/`)).toBe(true);
  });

  it('is refused by a client that does not trust the CA (certificate error)', async () => {
    const err = await fetch(`${daemon.url}/hosting/discovery`).then(
      () => undefined,
      (e: Error & { cause?: { code?: string } }) => e,
    );
    expect(err?.cause?.code).toMatch(/^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)$/);
    const ws = await EditorClient.connect(daemon.url, host.addFile('x', 'x.docx', readFileSync(corpusDocx))).then(
      () => undefined,
      (e: Error & { code?: string }) => e,
    );
    expect(ws?.code).toMatch(/^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)$/);
  });

  it('opens a document over an editing wss:// WebSocket', async () => {
    const src = host.addFile('doc1', 'simple.docx', readFileSync(corpusDocx));
    const { client, status } = await EditorClient.open(daemon.url, src, { token: host.token }, 60_000, { ca: caPem });
    try {
      expect(status.type).toBe('status');
      expect(host.of('CheckFileInfo').length).toBeGreaterThan(0);
      expect(host.of('GetFile').length).toBeGreaterThan(0);
    } finally {
      client.close();
    }
  });

  it('reports the certificate in /health and the admin status', async () => {
    const leaf = new X509Certificate(readFileSync(certs.cert));
    const health = (await (await undiciFetch(`${daemon.url}/health`, { dispatcher: trusting })).json()) as {
      certificate?: { subject: string; notAfter: string; daysLeft: number; expiresSoon: boolean };
    };
    expect(health.certificate?.subject).toBe('CN=localhost');
    expect(Date.parse(health.certificate!.notAfter)).toBe(Date.parse(leaf.validTo));
    expect(health.certificate?.daysLeft).toBeGreaterThanOrEqual(823);
    expect(health.certificate?.expiresSoon).toBe(false);
    const status = await daemon.server.admin.backend.status();
    expect(status.certificate?.subject).toBe('CN=localhost');
    expect(status.insecureHostTls).toBe(false);
  });

  it('hot reload: new connections get a newly generated certificate without a restart', async () => {
    const before = await servedSerial(port);
    expect(before).toBe(fileSerial(certs.cert));
    generateCertificateFiles(join(dir, 'certs'), { names: ['localhost', '127.0.0.1'] });
    const after = fileSerial(certs.cert);
    expect(after).not.toBe(before);
    expect(await until(async () => (await servedSerial(port)) === after)).toBe(true);
    expect(logs('TLS certificate reloaded').length).toBeGreaterThan(0);
    // The daemon kept serving throughout.
    expect((await undiciFetch(`${daemon.url}/health`, { dispatcher: trusting })).status).toBe(200);
  });

  it('refuses a certificate that does not match the key, logs why, and keeps the running one', async () => {
    const serving = fileSerial(certs.cert);
    const other = generateCertificateFiles(join(dir, 'other'), { names: ['localhost'] });
    copyFileSync(other.cert, certs.cert);
    expect(await until(() => logs('TLS certificate change refused').length > 0)).toBe(true);
    expect(logs('TLS certificate change refused').at(-1)?.fields.err).toContain('does not belong to the certificate');
    expect(await servedSerial(port)).toBe(serving);
    // Putting a good pair back is picked up again.
    generateCertificateFiles(join(dir, 'certs'), { names: ['localhost'] });
    expect(await until(async () => (await servedSerial(port)) === fileSerial(certs.cert))).toBe(true);
  });

  it('a certificate expiring within 30 days shows expiresSoon in /health and is warned about', async () => {
    generateCertificateFiles(join(dir, 'certs'), { names: ['localhost', '127.0.0.1'], days: 10 });
    const short = fileSerial(certs.cert);
    expect(await until(async () => (await servedSerial(port)) === short)).toBe(true);
    const health = (await (await undiciFetch(`${daemon.url}/health`, { dispatcher: trusting })).json()) as {
      certificate: { daysLeft: number; expiresSoon: boolean };
    };
    expect(health.certificate.expiresSoon).toBe(true);
    expect([9, 10]).toContain(health.certificate.daysLeft);
    const warn = daemon.logBuffer.recent(1000, 'warn').filter((l) => l.msg.includes('TLS certificate expires on'));
    expect(warn.length).toBeGreaterThan(0);
    expect(warn.at(-1)?.msg).toContain('renew it');
    expect((await daemon.server.admin.backend.status()).certificate?.expiresSoon).toBe(true);
  });
});

describe('HTTPS start-up errors name the file and the fix', () => {
  const base = mkdtempSync(join(tmpdir(), 'ode-https-bad-'));
  // Its own pair: the suite above removes its directory when it ends.
  const certs = generateCertificateFiles(join(base, 'good'), { names: ['localhost'] });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  async function startWith(ssl: Record<string, unknown>): Promise<Error | undefined> {
    const file = join(base, 'ode.yaml');
    writeFileSync(file, stringify({ state_dir: join(base, 'state'), ssl: { enable: true, ...ssl } }));
    const log = pino({ level: 'silent' });
    const store = new ConfigStore(loadConfig(file, {}).config, file, log);
    const server = createOdeServer({ config: store, log, port: 0, adminPort: 0 });
    return server.start().then(
      async () => {
        await server.stop();
        return undefined;
      },
      (e: Error) => e,
    );
  }

  it('a missing key file', async () => {
    const e = await startWith({ cert_file: certs.cert, key_file: join(base, 'nope.pem') });
    expect(e).toBeInstanceOf(ConfigError);
    expect(e!.message).toContain(`ssl.key_file ${join(base, 'nope.pem')} does not exist`);
  });

  it('an empty cert_file', async () => {
    const e = await startWith({ key_file: certs.key });
    expect(e!.message).toContain('ssl.cert_file is empty');
    expect(e!.message).toContain('ode certs generate');
  });

  it('a key of another certificate', async () => {
    const other = generateCertificateFiles(join(base, 'other'), { names: ['localhost'] });
    const e = await startWith({ cert_file: certs.cert, key_file: other.key });
    expect(e).toBeInstanceOf(ConfigError);
    expect(e!.message).toContain(`ssl.key_file ${other.key} does not belong to the certificate in ssl.cert_file ${certs.cert}`);
  });

  it('a file that is not PEM', async () => {
    writeFileSync(join(base, 'junk.pem'), 'not a certificate\n');
    const e = await startWith({ cert_file: join(base, 'junk.pem'), key_file: certs.key });
    expect(e!.message).toContain(`ssl.cert_file ${join(base, 'junk.pem')} holds no PEM certificate`);
  });
});
