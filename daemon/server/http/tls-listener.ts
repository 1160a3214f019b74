/**
 * HTTPS on the public listener (issue 8, "Certificates"; docs/tls.md): the certificate chain (ssl.cert_file, leaf
 * first, plus ssl.ca_file when the intermediates are kept apart) and the key (ssl.key_file), checked at start with
 * errors that name the file and the fix, re-read when the files change (chokidar; certbot renewals need no
 * restart) and applied with `server.setSecureContext` to new connections. A bad new file is refused with a log
 * line and the running context stays. The leaf's expiry is reported (CertificateStatus) and warned about at start
 * and daily within EXPIRY_WARNING_DAYS.
 *
 * Reload states: `serving(A)` -- file event --> (debounce) read + check --> ok: `serving(B)` (logged with the new
 * serial) | bad: `serving(A)` (logged error naming the file). An hourly re-read covers renames a watcher may miss
 * (certbot swaps symlinks).
 */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, type SecureContextOptions, type Server as TlsServer } from 'node:tls';
import { watch, type FSWatcher } from 'chokidar';
import type { Logger } from 'pino';
import {
  certificateInfo,
  certificateStatus,
  EXPIRY_WARNING_DAYS,
  splitPemCertificates,
  type CertificateInfo,
  type CertificateStatus,
} from '../../../certs/cert-info.ts';
import { ConfigError } from '../config/load.ts';
import type { OdeConfig } from '../config/schema.ts';

/** The key material of one load: options for createServer/setSecureContext and what they hold. */
export interface TlsMaterial {
  options: SecureContextOptions;
  leaf: CertificateInfo;
  /** The raw file contents, to skip reloads that change nothing. */
  fingerprint: string;
}

const FIX_GENERATE = 'for local use, `ode certs generate` writes a CA and a server certificate and prints the lines to paste';

function readPem(key: 'ssl.cert_file' | 'ssl.key_file' | 'ssl.ca_file', path: string): string {
  if (!path) throw new ConfigError('ssl', [`${key} is empty but ssl.enable is true: set it to a PEM file (${FIX_GENERATE}), or set ssl.enable: false`]);
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EACCES'
          ? `is not readable by the user running Ode (uid ${process.getuid?.() ?? '?'}): fix its owner or mode`
          : `cannot be read (${code})`;
    throw new ConfigError('ssl', [
      `${key} ${path} ${why}; ${key === 'ssl.key_file' ? 'point it at the private key of the certificate' : 'point it at the PEM certificate file'}`,
    ]);
  }
}

/**
 * Reads and checks ssl.cert_file, ssl.key_file and ssl.ca_file (when set): PEM certificates in the cert file
 * (leaf first), an unencrypted PEM key that belongs to the leaf, and a context node accepts.
 * @throws ConfigError (source `ssl`) whose one problem names the key, the file and the fix.
 */
export function loadTlsMaterial(ssl: OdeConfig['ssl'], now = Date.now()): TlsMaterial {
  const certText = readPem('ssl.cert_file', ssl.cert_file);
  const keyText = readPem('ssl.key_file', ssl.key_file);
  const caText = ssl.ca_file ? readPem('ssl.ca_file', ssl.ca_file) : '';
  const chain = splitPemCertificates(certText);
  if (chain.length === 0)
    throw new ConfigError('ssl', [`ssl.cert_file ${ssl.cert_file} holds no PEM certificate ("-----BEGIN CERTIFICATE-----"): ${FIX_GENERATE}`]);
  if (ssl.ca_file && splitPemCertificates(caText).length === 0)
    throw new ConfigError('ssl', [
      `ssl.ca_file ${ssl.ca_file} holds no PEM certificate: give the intermediate CA certificates in PEM, or leave ssl.ca_file empty`,
    ]);
  let leaf: CertificateInfo;
  let x509: X509Certificate;
  try {
    leaf = certificateInfo(chain[0], now);
    x509 = new X509Certificate(chain[0]);
  } catch (e) {
    throw new ConfigError('ssl', [`ssl.cert_file ${ssl.cert_file}: the first certificate cannot be read (${(e as Error).message})`]);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(keyText);
  } catch (e) {
    throw new ConfigError('ssl', [
      `ssl.key_file ${ssl.key_file} is not an unencrypted PEM private key (${(e as Error).message}); remove a passphrase with \`openssl pkey -in key.pem -out key-plain.pem\``,
    ]);
  }
  if (!x509.checkPrivateKey(key)) {
    throw new ConfigError('ssl', [
      `ssl.key_file ${ssl.key_file} does not belong to the certificate in ssl.cert_file ${ssl.cert_file} (${leaf.subject}, serial ${leaf.serialNumber}); point both at the same certificate's files (with certbot: fullchain.pem and privkey.pem)`,
    ]);
  }
  // The leaf first, then the intermediates (cert file rest, then ca_file): what clients need to build the path.
  const options: SecureContextOptions = { cert: [...chain, ...splitPemCertificates(caText)].join('\n'), key: keyText };
  try {
    createSecureContext(options);
  } catch (e) {
    throw new ConfigError('ssl', [`ssl.cert_file ${ssl.cert_file} / ssl.key_file ${ssl.key_file} are refused by TLS: ${(e as Error).message}`]);
  }
  return { options, leaf, fingerprint: `${certText}\n${keyText}\n${caText}` };
}

/** Options of PublicTls. */
export interface PublicTlsOptions {
  ssl: OdeConfig['ssl'];
  log: Logger;
  /** Debounce of file events, ms (certificate and key usually change together). Default 300. */
  debounceMs?: number;
}

/**
 * The public listener's certificate: loads it at start, watches the files, reloads into the server, reports
 * expiry. One per daemon; `close()` stops the watcher and timers.
 */
export class PublicTls {
  private material: TlsMaterial | undefined;
  private server: TlsServer | undefined;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private lastExpiryWarning = 0;
  private readonly listeners = new Set<(leaf: CertificateInfo) => void>();

  constructor(private readonly opts: PublicTlsOptions) {}

  /**
   * Loads the files (see loadTlsMaterial) and warns when the certificate expires within EXPIRY_WARNING_DAYS.
   * @returns the options for `https.createServer`.
   * @throws ConfigError naming the file and the fix.
   */
  load(): SecureContextOptions {
    this.material = loadTlsMaterial(this.opts.ssl);
    this.warnExpiry(true);
    return this.material.options;
  }

  /** The certificate in use now (undefined before load). */
  get leaf(): CertificateInfo | undefined {
    return this.material?.leaf;
  }

  /** The status for /health and the admin API, with days left computed now. */
  status(): CertificateStatus | undefined {
    if (!this.material) return undefined;
    const leaf = certificateInfo(this.material.options.cert as string);
    return certificateStatus(leaf);
  }

  /** Calls `fn` after each reload that changed the certificate. Returns an unsubscribe function. */
  onReload(fn: (leaf: CertificateInfo) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * Starts watching the certificate, key and CA files and applying changes to `server`; also an hourly re-read
   * and the daily expiry warning. Resolves when the watcher is ready.
   */
  async watch(server: TlsServer): Promise<void> {
    this.server = server;
    const files = [this.opts.ssl.cert_file, this.opts.ssl.key_file, this.opts.ssl.ca_file].filter(Boolean);
    this.watcher = watch(files, { ignoreInitial: true, awaitWriteFinish: { stabilityThreshold: 100, pollInterval: 25 } });
    const changed = () => {
      clearTimeout(this.debounce);
      this.debounce = setTimeout(() => this.reload(), this.opts.debounceMs ?? 300);
    };
    this.watcher.on('change', changed).on('add', changed).on('unlink', changed);
    this.timer = setInterval(() => {
      this.reload();
      this.warnExpiry(false);
    }, 3_600_000);
    this.timer.unref();
    await new Promise<void>((resolve) => this.watcher!.once('ready', () => resolve()));
  }

  /**
   * Re-reads the files now; applies them when they changed and are good. Returns true when a new certificate
   * was applied; false when nothing changed or the files were refused (logged; the running context stays).
   */
  reload(): boolean {
    if (!this.server || !this.material) return false;
    let next: TlsMaterial;
    try {
      next = loadTlsMaterial(this.opts.ssl);
    } catch (e) {
      const why = e instanceof ConfigError ? e.problems.join('; ') : (e as Error).message;
      this.opts.log.error({ err: why }, 'TLS certificate change refused; still serving the previous certificate');
      return false;
    }
    if (next.fingerprint === this.material.fingerprint) return false;
    this.server.setSecureContext(next.options);
    this.material = next;
    this.opts.log.info(
      { subject: next.leaf.subject, serial: next.leaf.serialNumber, notAfter: next.leaf.notAfter },
      'TLS certificate reloaded; new connections use it',
    );
    this.warnExpiry(true);
    for (const fn of this.listeners) fn(next.leaf);
    return true;
  }

  /** Logs a warning when the certificate expires within EXPIRY_WARNING_DAYS (at most daily unless `force`). */
  private warnExpiry(force: boolean): void {
    const s = this.status();
    if (!s?.expiresSoon) return;
    if (!force && Date.now() - this.lastExpiryWarning < 86_400_000) return;
    this.lastExpiryWarning = Date.now();
    const what = s.daysLeft < 0 ? `expired on ${s.notAfter}` : `expires on ${s.notAfter} (${s.daysLeft} days left, warning from ${EXPIRY_WARNING_DAYS})`;
    this.opts.log.warn(
      { file: this.opts.ssl.cert_file, subject: s.subject, notAfter: s.notAfter, daysLeft: s.daysLeft },
      `TLS certificate ${what}: renew it and replace ssl.cert_file and ssl.key_file (Ode re-reads them)`,
    );
  }

  /** Stops the watcher and timers. */
  async close(): Promise<void> {
    clearTimeout(this.debounce);
    clearInterval(this.timer);
    await this.watcher?.close();
    this.watcher = undefined;
  }
}
