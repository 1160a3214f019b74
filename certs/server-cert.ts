/**
 * Server certificates signed by the local CA, and the certificate files of `ode certs generate` (issue 8,
 * "Certificates"; docs/tls.md). Files in the output directory (default `<state_dir>/certs/`):
 *
 * | file            | what                                   | mode |
 * |-----------------|----------------------------------------|------|
 * | `ca.pem`        | the local CA certificate (trust this)  | 0644 |
 * | `ca-key.pem`    | its key                                | 0600 |
 * | `server.pem`    | the server certificate (ssl.cert_file) | 0644 |
 * | `server-key.pem`| its key (ssl.key_file)                 | 0600 |
 *
 * An existing CA pair is reused, so a browser or system that trusts it keeps trusting new server certificates.
 * Each file is written to a temp file and renamed, so a running daemon's watcher never reads half a file.
 */
import { isIP } from 'node:net';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';
import { checkLocalCa, createLocalCa, newRsaKey, randomSerial, type CertKeyPair } from './local-ca.ts';

/** Longest server certificate validity, days (CA/Browser Forum limit that Apple and Chrome enforce: 825). */
export const MAX_SERVER_CERT_DAYS = 825;

/** The names a certificate is made for when none are given. */
export const DEFAULT_CERT_NAMES = ['localhost', '127.0.0.1', '::1'] as const;

/** Options of issueServerCert. */
export interface ServerCertOptions {
  /** DNS names and IP addresses (v4 or v6) for subjectAltName; the first is the subject CN. */
  names: readonly string[];
  /** Validity in days, 1..825 (default 825). */
  days?: number;
  /** The clock (tests); default now. */
  now?: Date;
}

const DNS_NAME = /^(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/**
 * Splits and checks a `--names` list (`localhost,127.0.0.1,::1`): each entry a DNS name (a leading `*.` allowed)
 * or an IP address.
 * @throws Error naming the first entry that is neither.
 */
export function parseCertNames(list: string): string[] {
  const names = list
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.length === 0) throw new Error('--names is empty: give DNS names and/or IP addresses, e.g. --names office.example.org,192.0.2.10');
  for (const n of names) if (!isIP(n.replace(/^\[|\]$/g, '')) && !DNS_NAME.test(n)) throw new Error(`--names: "${n}" is neither a DNS name nor an IP address`);
  return names.map((n) => n.replace(/^\[|\]$/g, ''));
}

/**
 * Issues a server certificate signed by `ca`: RSA 2048, SHA-256, `days` of validity (max 825) from one minute
 * ago, subjectAltName with a DNS entry per name and an IP entry per address, extendedKeyUsage serverAuth,
 * keyUsage digitalSignature + keyEncipherment, basicConstraints CA:false, authorityKeyIdentifier of the CA.
 * @throws Error when days is out of range or a name is invalid.
 */
export function issueServerCert(ca: CertKeyPair, opts: ServerCertOptions): CertKeyPair {
  const days = opts.days ?? MAX_SERVER_CERT_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_SERVER_CERT_DAYS)
    throw new Error(`the validity must be 1 to ${MAX_SERVER_CERT_DAYS} days, not ${days}`);
  const names = parseCertNames(opts.names.join(','));
  const now = opts.now ?? new Date();
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const caKey = forge.pki.privateKeyFromPem(ca.keyPem);
  const key = newRsaKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = key.publicKey;
  cert.serialNumber = randomSerial();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + days * 86_400_000);
  cert.setSubject([{ name: 'commonName', value: names[0] }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })) },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: key.keyPem };
}

/** The paths `generateCertificateFiles` wrote, and whether the CA already existed. */
export interface GeneratedCertificates {
  dir: string;
  caCert: string;
  caKey: string;
  cert: string;
  key: string;
  reusedCa: boolean;
}

/** Writes `data` to `path` through a temp file and rename, with `mode` (set again after: umask applies to create). */
function writeAtomic(path: string, data: string, mode: number): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, data, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

/**
 * `ode certs generate`: reuses `<dir>/ca.pem` + `ca-key.pem` when both exist (checked: a CA, unexpired, key
 * matches), else creates a local CA; then issues a server certificate for `names` and writes it. Keys 0600,
 * certificates 0644, the directory 0700 when created.
 * @throws Error when an existing CA is unusable (the message says to remove it) or names/days are invalid.
 */
export function generateCertificateFiles(dir: string, opts: ServerCertOptions): GeneratedCertificates {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const paths = { caCert: join(dir, 'ca.pem'), caKey: join(dir, 'ca-key.pem'), cert: join(dir, 'server.pem'), key: join(dir, 'server-key.pem') };
  const reusedCa = existsSync(paths.caCert) && existsSync(paths.caKey);
  let ca: CertKeyPair;
  if (reusedCa) {
    ca = { certPem: readFileSync(paths.caCert, 'utf8'), keyPem: readFileSync(paths.caKey, 'utf8') };
    checkLocalCa(ca, paths.caCert);
  } else {
    ca = createLocalCa({ now: opts.now });
  }
  const server = issueServerCert(ca, opts);
  if (!reusedCa) {
    writeAtomic(paths.caKey, ca.keyPem, 0o600);
    writeAtomic(paths.caCert, ca.certPem, 0o644);
  }
  // The key first: a watcher that sees the new certificate then finds its key already there.
  writeAtomic(paths.key, server.keyPem, 0o600);
  writeAtomic(paths.cert, server.certPem, 0o644);
  return { dir, ...paths, reusedCa };
}
