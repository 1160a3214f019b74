import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { LIMITS, stage, useKit } from './helpers.ts';

const DOCX = '/work/shared/corpus/content-controls/ContentControls.docx';

/** A PDF text string written as `<FEFF...>` (UTF-16BE hex, ISO 32000-1 7.9.2.2) for dictionary key `key`, decoded. */
function pdfHexString(raw: string, key: string): string | undefined {
  const hex = new RegExp(`/${key}\\s*<FEFF([0-9A-Fa-f]*)>`).exec(raw)?.[1];
  if (hex === undefined) return undefined;
  return Buffer.from(hex, 'hex').swap16().toString('utf16le');
}

/** A test CA and a signing certificate it issued (RSA 2048, valid for a day), PEM; the key as PKCS#8 and PKCS#1. */
function certificates(): { caPem: string; certPem: string; keyPem: string; keyPkcs1Pem: string } {
  const keys = () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
    return { pem: privateKey, key, pub: forge.pki.setRsaPublicKey(key.n, key.e) };
  };
  const make = (pub: forge.pki.PublicKey, cn: string, serial: string, extensions: object[], issuer: { cn: string; key: forge.pki.rsa.PrivateKey }) => {
    const cert = forge.pki.createCertificate();
    cert.publicKey = pub;
    cert.serialNumber = serial;
    cert.validity.notBefore = new Date(Date.now() - 60_000);
    cert.validity.notAfter = new Date(Date.now() + 86_400_000);
    cert.setSubject([{ name: 'commonName', value: cn }]);
    cert.setIssuer([{ name: 'commonName', value: issuer.cn }]);
    cert.setExtensions(extensions);
    cert.sign(issuer.key, forge.md.sha256.create());
    return forge.pki.certificateToPem(cert);
  };
  const ca = keys();
  const signer = keys();
  return {
    caPem: make(
      ca.pub,
      'Ode Engine CA',
      '01',
      [
        { name: 'basicConstraints', cA: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true },
      ],
      { cn: 'Ode Engine CA', key: ca.key },
    ),
    certPem: make(signer.pub, 'Ode Engine Signer', '02', [{ name: 'keyUsage', digitalSignature: true, nonRepudiation: true }], {
      cn: 'Ode Engine CA',
      key: ca.key,
    }),
    keyPem: signer.pem,
    keyPkcs1Pem: forge.pki.privateKeyToPem(signer.key),
  };
}

/**
 * PDF signing by LibreOffice itself (issue 15, one of the 7.4 statements retried on 25.2). LibreOffice 7.4's PDF
 * export could not sign from PEM material, so Ode signs the exported PDF afterwards (daemon/server/convert/sign-pdf.ts).
 * LibreOffice 25.2's PDF export reads `SignPDF`, `SignCertificateCertPem`, `SignCertificateKeyPem` and
 * `SignCertificateCaPem` from FilterData (the names Collabora Online's convert-to documents) and signs while it
 * exports; poppler's pdfsig checks the result.
 */
describe('kit: LibreOffice 25.2 signs a PDF export from PEM material', () => {
  const k = useKit();
  const pem = certificates();
  const str = (value: string) => ({ type: 'string', value });
  const options = (keyPem: string) =>
    JSON.stringify({
      SignPDF: { type: 'boolean', value: 'true' },
      SignCertificateCertPem: str(pem.certPem),
      SignCertificateKeyPem: str(keyPem),
      SignCertificateCaPem: str(pem.caPem),
      SignatureReason: str('Approved'),
      SignatureLocation: str('Lisbon'),
    });

  it('saveAs pdf with SignPDF and the PEM certificate, PKCS#8 key and CA: pdfsig finds one intact signature by the signer', async () => {
    const input = stage(k.kit, DOCX);
    const output = join(dirname(input), 'signed.pdf');
    await k.kit.convert({ input, output, format: 'pdf', filterOptions: options(pem.keyPem) }, LIMITS);
    const report = execFileSync('pdfsig', [output], { encoding: 'utf8' });
    console.log(`[pdf sign by LibreOffice] ${report.replace(/\n/g, ' | ')}`);
    expect(report).toContain('Signature #1');
    expect(report).not.toContain('Signature #2');
    expect(report).toContain('Ode Engine Signer');
    expect(report).toMatch(/Total document signed/);
    expect(report).toMatch(/Signature Validation: Signature is Valid/);
    const raw = readFileSync(output).toString('latin1');
    expect(pdfHexString(raw, 'Reason')).toBe('Approved');
    expect(pdfHexString(raw, 'Location')).toBe('Lisbon');
  }, 120_000);

  it('the same key as PKCS#1 ("BEGIN RSA PRIVATE KEY", what Ode accepts today) fails the whole export', async () => {
    const input = stage(k.kit, DOCX);
    const output = join(dirname(input), 'signed-pkcs1.pdf');
    await expect(k.kit.convert({ input, output, format: 'pdf', filterOptions: options(pem.keyPkcs1Pem) }, LIMITS)).rejects.toThrow();
  }, 120_000);
});
