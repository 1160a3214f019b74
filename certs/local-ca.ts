/**
 * A local certificate authority for `ode certs generate` (issue 8, "Certificates"): an RSA 2048 key and a
 * self-signed CA certificate valid for 10 years, with basicConstraints CA:true and keyUsage keyCertSign/cRLSign,
 * so that browsers and `update-ca-certificates` accept it as a trust anchor. Keys come from node:crypto (native,
 * fast); node-forge builds and signs the X.509 structure (node:crypto cannot create certificates).
 */
import { createPrivateKey, generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import forge from 'node-forge';

/** A certificate and its private key, both PEM (the key unencrypted PKCS#8). */
export interface CertKeyPair {
  certPem: string;
  keyPem: string;
}

/** Options of createLocalCa. */
export interface LocalCaOptions {
  /** Subject common name; default `Ode local CA (<hostname-free random id>)` so two installs' CAs differ in name. */
  commonName?: string;
  /** Validity in years (default 10). */
  years?: number;
  /** The clock (tests); default now. */
  now?: Date;
}

/** A positive random serial number (RFC 5280: at most 20 bytes, non-negative), hex. */
export function randomSerial(): string {
  const b = randomBytes(16);
  b[0] &= 0x7f; // keep the DER INTEGER positive
  if (b[0] === 0) b[0] = 0x01; // and minimal (no leading zero byte)
  return b.toString('hex');
}

/** A new RSA 2048 key pair as forge keys plus the PKCS#8 PEM of the private key. */
export function newRsaKey(): { keyPem: string; privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const fk = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  return { keyPem, privateKey: fk, publicKey: forge.pki.setRsaPublicKey(fk.n, fk.e) };
}

/**
 * Creates a local CA: RSA 2048, SHA-256, `years` (default 10) of validity starting one minute ago (clock skew),
 * basicConstraints CA:true (critical), keyUsage keyCertSign + cRLSign (critical), subjectKeyIdentifier.
 */
export function createLocalCa(opts: LocalCaOptions = {}): CertKeyPair {
  const now = opts.now ?? new Date();
  const key = newRsaKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = key.publicKey;
  cert.serialNumber = randomSerial();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime());
  cert.validity.notAfter.setFullYear(now.getFullYear() + (opts.years ?? 10));
  const attrs = [
    { name: 'commonName', value: opts.commonName ?? `Ode local CA ${randomBytes(3).toString('hex')}` },
    { name: 'organizationName', value: 'Ode (local use)' },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key.privateKey, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: key.keyPem };
}

/**
 * Checks that `pair` is a usable CA: the certificate is a CA (basicConstraints), not expired, and the key is its
 * key. Returns nothing; throws an Error naming what is wrong (and that deleting the files makes a new CA).
 */
export function checkLocalCa(pair: CertKeyPair, where: string): void {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(pair.certPem);
  } catch (e) {
    throw new Error(`${where}: the CA certificate is not PEM X.509 (${(e as Error).message}); remove the CA files to create a new CA`);
  }
  if (!cert.ca) throw new Error(`${where}: the certificate is not a CA (basicConstraints CA:false); remove the CA files to create a new CA`);
  if (Date.parse(cert.validTo) <= Date.now())
    throw new Error(`${where}: the CA expired on ${new Date(cert.validTo).toISOString()}; remove the CA files to create a new CA (and trust the new one)`);
  let ok = false;
  try {
    ok = cert.checkPrivateKey(createPrivateKey(pair.keyPem));
  } catch {
    ok = false;
  }
  if (!ok) throw new Error(`${where}: the CA key does not belong to the CA certificate; remove the CA files to create a new CA`);
}
