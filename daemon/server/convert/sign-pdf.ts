import forge from 'node-forge';
import { SignPdf } from '@signpdf/signpdf';
import { plainAddPlaceholder } from '@signpdf/placeholder-plain';
import { P12Signer } from '@signpdf/signer-p12';
import { OdeError } from '../errors.ts';
import type { FilterDataEntry } from './options.ts';

function bad(message: string): OdeError {
  return new OdeError('bad_options', message);
}

/** Parses every certificate of a PEM bundle (the CA option may hold a chain). */
function parseCertificates(pem: string, option: string): forge.pki.Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  if (!blocks) throw bad(`options.${option}: no PEM certificate found`);
  try {
    return blocks.map((b) => forge.pki.certificateFromPem(b));
  } catch (e) {
    throw bad(`options.${option}: not a readable PEM certificate (${(e as Error).message})`);
  }
}

function parseKey(pem: string, password: string | undefined): forge.pki.PrivateKey {
  try {
    const key = pem.includes('ENCRYPTED') ? forge.pki.decryptRsaPrivateKey(pem, password ?? '') : forge.pki.privateKeyFromPem(pem);
    if (!key) throw new Error(password ? 'wrong SignaturePassword' : 'the key is encrypted: give SignaturePassword');
    return key;
  } catch (e) {
    throw bad(`options.SignCertificateKeyPem: cannot read the RSA private key (${(e as Error).message})`);
  }
}

/**
 * Signs an exported PDF (spec: Conversion, "Digital signature options"): SignCertificateCertPem,
 * SignCertificateKeyPem (RSA, optionally encrypted with SignaturePassword), SignCertificateCaPem (one or more CA
 * certificates), and the optional SignatureLocation, SignatureReason, SignatureContactInfo. LibreOffice 7.4's
 * PDF export could not sign from PEM material, so Ode adds an adbe.pkcs7.detached signature (PAdES-compatible
 * CMS, ISO 32000-1 12.8) to the exported file itself. LibreOffice 25.2.3 signs during the export when given these
 * FilterData names (test/kit-editing/pdf-sign-engine.test.ts: pdfsig finds a valid signature), but only with a
 * PKCS#8 key: a PKCS#1 key ("BEGIN RSA PRIVATE KEY") or an encrypted key with SignaturePassword fails the whole
 * export with a generic write error (0xc10), SignatureTSA needs network the sandboxed kits do not have, and it
 * names the document's author, not the signer, in the signature's /Name. So Ode keeps signing here; the signature
 * carries the server's current time.
 * @throws OdeError bad_options for unreadable PEM material, a key that does not match the certificate, or
 *   SignatureTSA (time-stamping is not available).
 */
export async function signPdf(pdf: Buffer, options: Record<string, FilterDataEntry>): Promise<Buffer> {
  if (options.SignatureTSA?.value)
    throw bad('options.SignatureTSA: time-stamped signatures are not available in Ode yet; leave it out to sign with the server time');
  const [cert] = parseCertificates(options.SignCertificateCertPem.value, 'SignCertificateCertPem');
  const chain = parseCertificates(options.SignCertificateCaPem.value, 'SignCertificateCaPem');
  const key = parseKey(options.SignCertificateKeyPem.value, options.SignaturePassword?.value);
  const publicKey = cert.publicKey as forge.pki.rsa.PublicKey;
  const rsaKey = key as forge.pki.rsa.PrivateKey;
  if (!publicKey.n || !rsaKey.n || publicKey.n.compareTo(rsaKey.n) !== 0)
    throw bad('options.SignCertificateKeyPem: the key does not belong to SignCertificateCertPem');
  const passphrase = forge.util.encode64(forge.random.getBytesSync(18));
  const p12Der = forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(rsaKey, [cert, ...chain], passphrase, { algorithm: '3des' })).getBytes();
  const p12 = Buffer.from(p12Der, 'binary');
  const commonName = cert.subject.getField('CN')?.value as string | undefined;
  let prepared: Buffer;
  try {
    prepared = plainAddPlaceholder({
      pdfBuffer: pdf,
      reason: options.SignatureReason?.value ?? '',
      contactInfo: options.SignatureContactInfo?.value ?? '',
      name: commonName ?? '',
      location: options.SignatureLocation?.value ?? '',
      appName: 'Ode',
    });
  } catch (e) {
    throw bad(`options.SignPDF: this PDF cannot be signed (${(e as Error).message}); encrypted PDFs cannot be signed after export`);
  }
  return new SignPdf().sign(prepared, new P12Signer(p12, { passphrase }));
}
