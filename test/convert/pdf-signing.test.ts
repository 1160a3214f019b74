import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';

/** An RSA 2048 key pair from node:crypto (much faster than forge's pure-JS generation), as forge objects. */
function rsaKeys(): { publicKey: forge.pki.rsa.PublicKey; privateKey: forge.pki.rsa.PrivateKey } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  return { privateKey: key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e) };
}

/** A test CA and a signing certificate issued by it (RSA 2048, valid for a day), as PEM. */
function makeCertificates(): { caPem: string; certPem: string; keyPem: string } {
  const now = new Date();
  const later = new Date(now.getTime() + 86_400_000);
  const caKeys = rsaKeys();
  const ca = forge.pki.createCertificate();
  ca.publicKey = caKeys.publicKey;
  ca.serialNumber = '01';
  ca.validity.notBefore = now;
  ca.validity.notAfter = later;
  const caName = [{ name: 'commonName', value: 'Ode Test CA' }];
  ca.setSubject(caName);
  ca.setIssuer(caName);
  ca.setExtensions([{ name: 'basicConstraints', cA: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true }]);
  ca.sign(caKeys.privateKey, forge.md.sha256.create());
  const keys = rsaKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '02';
  cert.validity.notBefore = now;
  cert.validity.notAfter = later;
  cert.setSubject([{ name: 'commonName', value: 'Ode Test Signer' }]);
  cert.setIssuer(caName);
  cert.setExtensions([{ name: 'keyUsage', digitalSignature: true, nonRepudiation: true }]);
  cert.sign(caKeys.privateKey, forge.md.sha256.create());
  return { caPem: forge.pki.certificateToPem(ca), certPem: forge.pki.certificateToPem(cert), keyPem: forge.pki.privateKeyToPem(keys.privateKey) };
}

describe('PDF signing from PEM (spec: Digital signature options)', () => {
  let daemon: TestDaemon;
  const pem = makeCertificates();
  beforeAll(async () => {
    daemon = await startDaemon();
  });
  afterAll(async () => daemon?.stop());

  it('signs the exported PDF; pdfsig reports a valid signature by the test signer', async () => {
    const options = {
      SignPDF: { type: 'boolean', value: 'true' },
      SignCertificateCertPem: { type: 'string', value: pem.certPem },
      SignCertificateKeyPem: { type: 'string', value: pem.keyPem },
      SignCertificateCaPem: { type: 'string', value: pem.caPem },
      SignatureReason: { type: 'string', value: 'Approved' },
      SignatureLocation: { type: 'string', value: 'Lisbon' },
    };
    const r = await postConvert(daemon.url, '/ode/convert-to/pdf', join(CORPUS, 'content-controls/ContentControls.docx'), { options: JSON.stringify(options) });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'ode-sig-'));
    try {
      writeFileSync(join(dir, 's.pdf'), r.body);
      const out = execFileSync('pdfsig', [join(dir, 's.pdf')], { encoding: 'utf8' });
      expect(out).toContain('Signature #1');
      expect(out).toContain('Ode Test Signer');
      expect(out).toMatch(/Signature Validation: Signature is Valid/);
      // The reason and location are in the signature dictionary (pdfsig does not print them).
      expect(r.body.toString('latin1')).toContain('/Reason (Approved)');
      expect(r.body.toString('latin1')).toContain('/Location (Lisbon)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a key that does not match the certificate is refused with bad_options', async () => {
    const other = makeCertificates();
    const options = {
      SignPDF: { type: 'boolean', value: 'true' },
      SignCertificateCertPem: { type: 'string', value: pem.certPem },
      SignCertificateKeyPem: { type: 'string', value: other.keyPem },
      SignCertificateCaPem: { type: 'string', value: pem.caPem },
    };
    const r = await postConvert(daemon.url, '/ode/convert-to/pdf', join(CORPUS, 'content-controls/ContentControls.docx'), { options: JSON.stringify(options) });
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe('bad_options');
    expect(r.error?.message).toContain('SignCertificateKeyPem');
  });
});
