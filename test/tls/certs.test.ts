import { execFile } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ODE = join(import.meta.dirname, '../../bin/ode.js');
const dir = mkdtempSync(join(tmpdir(), 'ode-certs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** openssl's own reading of a certificate (an independent parser). */
async function openssl(...args: string[]): Promise<string> {
  return (await run('openssl', args)).stdout;
}

describe('ode certs generate', () => {
  const out = join(dir, 'certs');
  let first: string;

  it('writes a local CA and a server certificate for the default names, with safe modes, and says how to trust the CA', async () => {
    first = (await run('node', [ODE, 'certs', 'generate', '--out', out])).stdout;
    expect(first).toContain('Created a local CA');
    expect(first).toContain(`cert_file: ${join(out, 'server.pem')}`);
    expect(first).toContain(`key_file: ${join(out, 'server-key.pem')}`);
    expect(first).toContain('update-ca-certificates');
    expect(first).toContain('/usr/local/share/ca-certificates/');
    expect(first).toMatch(/Import/);
    for (const f of ['ca-key.pem', 'server-key.pem']) expect(statSync(join(out, f)).mode & 0o777, f).toBe(0o600);
    for (const f of ['ca.pem', 'server.pem']) expect(statSync(join(out, f)).mode & 0o777, f).toBe(0o644);

    const ca = new X509Certificate(readFileSync(join(out, 'ca.pem')));
    const leaf = new X509Certificate(readFileSync(join(out, 'server.pem')));
    expect(ca.ca).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.checkPrivateKey(createPrivateKey(readFileSync(join(out, 'server-key.pem'))))).toBe(true);
    expect(leaf.checkHost('localhost')).toBe('localhost');
    expect(leaf.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(leaf.checkIP('::1')).toBe('::1');
    const days = (Date.parse(leaf.validTo) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(823);
    expect(days).toBeLessThanOrEqual(825);
    const caYears = (Date.parse(ca.validTo) - Date.now()) / (365.25 * 86_400_000);
    expect(caYears).toBeGreaterThan(9.9);

    // openssl agrees: the chain verifies for serverAuth, and the extensions are the ones asked for.
    expect(await openssl('verify', '-purpose', 'sslserver', '-CAfile', join(out, 'ca.pem'), join(out, 'server.pem'))).toContain(': OK');
    const caText = await openssl('x509', '-in', join(out, 'ca.pem'), '-noout', '-text');
    expect(caText).toMatch(/Basic Constraints: critical\s+CA:TRUE/);
    expect(caText).toMatch(/Key Usage: critical\s+Certificate Sign, CRL Sign/);
    const leafText = await openssl('x509', '-in', join(out, 'server.pem'), '-noout', '-text');
    expect(leafText).toMatch(/Extended Key Usage:\s+TLS Web Server Authentication/);
    expect(leafText).toMatch(/DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1/);
  });

  it('reuses the CA on a second run and issues for the names given', async () => {
    const caBefore = readFileSync(join(out, 'ca.pem'), 'utf8');
    const leafBefore = new X509Certificate(readFileSync(join(out, 'server.pem')));
    const text = (await run('node', [ODE, 'certs', 'generate', '--out', out, '--names', 'office.example.test,192.0.2.7'])).stdout;
    expect(text).toContain('Reused the local CA');
    expect(readFileSync(join(out, 'ca.pem'), 'utf8')).toBe(caBefore);
    const leaf = new X509Certificate(readFileSync(join(out, 'server.pem')));
    expect(leaf.serialNumber).not.toBe(leafBefore.serialNumber);
    expect(leaf.checkHost('office.example.test')).toBe('office.example.test');
    expect(leaf.checkIP('192.0.2.7')).toBe('192.0.2.7');
    expect(leaf.checkHost('localhost')).toBeUndefined();
    expect(leaf.verify(new X509Certificate(caBefore).publicKey)).toBe(true);
  });

  it('refuses a bad name and a validity over 825 days with one line naming the problem', async () => {
    const bad = await run('node', [ODE, 'certs', 'generate', '--out', join(dir, 'bad'), '--names', 'not a name']).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect((bad as { code: number }).code).toBe(1);
    expect((bad as { stderr: string }).stderr).toContain('"not a name" is neither a DNS name nor an IP address');
    const long = await run('node', [ODE, 'certs', 'generate', '--out', join(dir, 'bad'), '--days', '900']).catch((e: { code: number; stderr: string }) => e);
    expect((long as { code: number }).code).toBe(1);
    expect((long as { stderr: string }).stderr).toContain('1 to 825 days');
    expect((long as { stderr: string }).stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
