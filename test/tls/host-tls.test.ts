import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';

const dir = mkdtempSync(join(tmpdir(), 'ode-host-tls-'));
const hostCert = join(dir, 'host.pem');
const hostKey = join(dir, 'host-key.pem');
// The WOPI host's self-signed certificate, made by openssl (outside Ode), for the address the host listens on.
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    hostKey,
    '-out',
    hostCert,
    '-days',
    '30',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ],
  { stdio: 'ignore' },
);
const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));

describe('TLS of requests to a WOPI host with a self-signed certificate', () => {
  let daemon: TestDaemon;
  let host: FakeWopiHost;
  const warnings = (msg: string) => daemon.logBuffer.recent(2000, 'warn').filter((l) => l.msg.includes(msg));

  beforeAll(async () => {
    host = await FakeWopiHost.start({ cert: readFileSync(hostCert, 'utf8'), key: readFileSync(hostKey, 'utf8') });
    daemon = await startDaemon({ documents: { check_secs: 0 } }, 1);
  });
  afterAll(async () => {
    await daemon?.stop();
    await host?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is refused with an error naming storage.ssl.ca_file when its CA is not configured', async () => {
    expect(host.url).toMatch(/^https:/);
    const src = host.addFile('a', 'a.docx', DOCX);
    const client = await EditorClient.connect(daemon.url, src);
    client.send({ type: 'load', token: host.token });
    const error = (await client.next('error')) as { code: string; message: string };
    client.close();
    expect(error.code).toBe('checkfileinfo_failed');
    expect(error.message).toContain(`the TLS certificate of ${new URL(host.url).host} is not trusted`);
    expect(error.message).toContain('storage.ssl.ca_file');
    expect(error.message).toMatch(/DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN/);
    // The TLS handshake failed: the host never saw the request.
    expect(host.of('CheckFileInfo')).toHaveLength(0);
  });

  it('is accepted once its certificate is in storage.ssl.ca_file (live): CheckFileInfo succeeds and the document opens', async () => {
    daemon.reconfigure({ storage: { ssl: { ca_file: hostCert } } });
    const src = host.addFile('b', 'b.docx', DOCX);
    const { client, status } = await EditorClient.open(daemon.url, src, { token: host.token });
    client.close();
    expect(status.type).toBe('status');
    expect(host.of('CheckFileInfo').length).toBeGreaterThan(0);
    expect(host.of('GetFile').length).toBeGreaterThan(0);
    expect((await daemon.server.admin.backend.status()).insecureHostTls).toBe(false);
  });

  it('storage.ssl.verify: false accepts it, warns when turned off and on each connection, and shows in the admin status', async () => {
    const before = warnings('WITHOUT certificate verification').length;
    daemon.reconfigure({ storage: { ssl: { verify: false, ca_file: '' } } });
    expect(warnings('storage.ssl.verify is false').length).toBeGreaterThan(0);
    const src = host.addFile('c', 'c.docx', DOCX);
    const checks = host.of('CheckFileInfo').length;
    const { client, status } = await EditorClient.open(daemon.url, src, { token: host.token });
    client.close();
    expect(status.type).toBe('status');
    expect(host.of('CheckFileInfo').length).toBeGreaterThan(checks);
    const perConnection = warnings('WITHOUT certificate verification');
    expect(perConnection.length).toBeGreaterThan(before);
    expect(perConnection.at(-1)?.fields.host).toBe(new URL(host.url).host);
    expect((await daemon.server.admin.backend.status()).insecureHostTls).toBe(true);
  });
});
