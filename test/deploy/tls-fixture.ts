import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';

/** PEM files of a test CA and a server certificate it signed, written into a folder. */
export interface TlsFixture {
  /** The CA certificate (PEM text): what a client must trust. */
  caPem: string;
  caFile: string;
  certFile: string;
  keyFile: string;
}

function forgeKeys(): { privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey } {
  // node:crypto generates the key (forge's pure-JS RSA generation takes seconds on a busy machine).
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const priv = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  return { privateKey: priv, publicKey: forge.pki.setRsaPublicKey(priv.n, priv.e) };
}

/**
 * Writes a CA and a server certificate for `names` (DNS names) and `ips` into `dir`, valid from an hour ago for
 * `days` days (negative: already expired). The reverse-proxy tests' TLS, standing in for certbot's files.
 */
export function makeTlsFixture(dir: string, names: string[] = ['localhost'], ips: string[] = ['127.0.0.1'], days = 30): TlsFixture {
  const now = Date.now();
  const ca = forgeKeys();
  const caCert = forge.pki.createCertificate();
  caCert.publicKey = ca.publicKey;
  caCert.serialNumber = '01';
  caCert.validity.notBefore = new Date(now - 3_600_000);
  caCert.validity.notAfter = new Date(now + 365 * 86_400_000);
  const caName = [{ name: 'commonName', value: 'Ode test CA' }];
  caCert.setSubject(caName);
  caCert.setIssuer(caName);
  caCert.setExtensions([{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }]);
  caCert.sign(ca.privateKey, forge.md.sha256.create());

  const leaf = forgeKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = leaf.publicKey;
  cert.serialNumber = '02';
  cert.validity.notBefore = new Date(Math.min(now - 3_600_000, now + days * 86_400_000 - 7_200_000));
  cert.validity.notAfter = new Date(now + days * 86_400_000);
  cert.setSubject([{ name: 'commonName', value: names[0] ?? ips[0] }]);
  cert.setIssuer(caName);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: [...names.map((value) => ({ type: 2, value })), ...ips.map((ip) => ({ type: 7, ip }))] },
  ]);
  cert.sign(ca.privateKey, forge.md.sha256.create());

  const caPem = forge.pki.certificateToPem(caCert);
  const caFile = join(dir, 'ca.pem');
  const certFile = join(dir, 'fullchain.pem');
  const keyFile = join(dir, 'privkey.pem');
  writeFileSync(caFile, caPem);
  writeFileSync(certFile, forge.pki.certificateToPem(cert) + caPem);
  writeFileSync(keyFile, forge.pki.privateKeyToPem(leaf.privateKey), { mode: 0o600 });
  return { caPem, caFile, certFile, keyFile };
}
