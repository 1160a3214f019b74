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
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  return { privateKey: key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e) };
}

/** A certificate for `keys`, named `cn`, issued by `issuer` (its own name when absent), valid for a day. */
function certificate(
  keys: ReturnType<typeof rsaKeys>,
  cn: string,
  serial: string,
  extensions: object[],
  issuer?: { cn: string; key: forge.pki.rsa.PrivateKey },
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial;
  cert.validity.notBefore = new Date();
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  cert.setSubject([{ name: 'commonName', value: cn }]);
  cert.setIssuer([{ name: 'commonName', value: issuer?.cn ?? cn }]);
  cert.setExtensions(extensions);
  cert.sign(issuer?.key ?? keys.privateKey, forge.md.sha256.create());
  return cert;
}

/** A test CA and a signing certificate issued by it (RSA 2048), as PEM. */
function makeCertificates(): { caPem: string; certPem: string; keyPem: string } {
  const caKeys = rsaKeys();
  const ca = certificate(caKeys, 'Ode Test CA', '01', [
    { name: 'basicConstraints', cA: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true },
  ]);
  const keys = rsaKeys();
  const cert = certificate(keys, 'Ode Test Signer', '02', [{ name: 'keyUsage', digitalSignature: true, nonRepudiation: true }], {
    cn: 'Ode Test CA',
    key: caKeys.privateKey,
  });
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
