import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

/** A test CA and a signing certificate it issued, as PEM (CheckFileInfo UserPrivateInfo.SignatureCa/Cert/Key). */
export interface SigningCredentialsPem {
  caPem: string;
  certPem: string;
  keyPem: string;
}

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

/**
 * A CA ("Ode Test CA") and a user certificate it issued ("Ode Test Signer", digitalSignature + nonRepudiation),
 * made with node-forge, valid from yesterday for a year (docs/editing.md, "Signing").
 */
export function makeSigningCredentials(): SigningCredentialsPem {
  const { pki } = forge;
  const make = (cn: string, issuer: forge.pki.Certificate | undefined, issuerKey: forge.pki.rsa.PrivateKey | undefined, ca: boolean) => {
    const keys = rsaKeys();
    const cert = pki.createCertificate();
    cert.publicKey = keys.publicKey;
    cert.serialNumber = ca ? '01' : '02';
    cert.validity.notBefore = new Date(Date.now() - 86_400_000);
    cert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
    const subject = [
      { name: 'commonName', value: cn },
      { name: 'organizationName', value: 'Ode signing test' },
    ];
    cert.setSubject(subject);
    cert.setIssuer(issuer ? issuer.subject.attributes : subject);
    cert.setExtensions(
      ca
        ? [
            { name: 'basicConstraints', cA: true, critical: true },
            { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
            { name: 'subjectKeyIdentifier' },
          ]
        : [
            { name: 'basicConstraints', cA: false },
            { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
            { name: 'subjectKeyIdentifier' },
          ],
    );
    cert.sign(issuerKey ?? keys.privateKey, forge.md.sha256.create());
    return { cert, key: keys.privateKey };
  };
  const ca = make('Ode Test CA', undefined, undefined, true);
  const user = make('Ode Test Signer', ca.cert, ca.key, false);
  return { caPem: pki.certificateToPem(ca.cert), certPem: pki.certificateToPem(user.cert), keyPem: pki.privateKeyToPem(user.key) };
}

/** The base64 body of a PEM block (what would show if a secret leaked, as PEM or as DER base64). */
export const pemBody = (pem: string): string => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
