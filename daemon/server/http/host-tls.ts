/**
 * TLS of Ode's requests to WOPI hosts (WOPI operations, the settings endpoints): issue 8, "WOPI and settings
 * requests verify certificates"; spec (conversion API, Authentication): production systems must use valid
 * certificates, disabling validation is for testing only. One undici Agent built from `storage.ssl` (a live key):
 * - verify: true (default): the host's chain must lead to Node's bundled roots, the system CAs
 *   (/etc/ssl/certs/ca-certificates.crt, which `update-ca-certificates` maintains) or storage.ssl.ca_file;
 * - verify: false: any certificate is accepted, logged as a warning at start and on every new connection to a
 *   host, and shown in the admin status (`insecureHostTls`).
 * The Agent is rebuilt when storage.ssl or the CA file (its mtime) changes; requests go through undici's own fetch.
 */
import { readFileSync, statSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import type { Logger } from 'pino';
import { Agent, buildConnector, fetch as undiciFetch, FormData as UndiciFormData } from 'undici';
import type { OdeConfig } from '../config/schema.ts';

/** Where Debian (and derivatives) keep the system CA bundle. */
export const SYSTEM_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/** fetch as the host clients use it (global types in, global types out). */
export type HostFetch = (url: URL, init: RequestInit) => Promise<Response>;

/** Options of HostTls. */
export interface HostTlsOptions {
  /** The live configuration (storage.ssl is read on every request). */
  config: () => OdeConfig;
  log: Logger;
  /** The system CA bundle (tests may point elsewhere); default SYSTEM_CA_BUNDLE. */
  systemBundle?: string;
}

/** TLS error codes that mean "this certificate is not trusted", with what the operator should do. */
const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

/**
 * A sentence naming the fix for a failed request to a host, from the error fetch threw (its `cause.code`), or
 * undefined when the failure is not about the host's certificate.
 * @param host `host:port` of the request.
 */
export function describeHostTlsError(e: unknown, host: string): string | undefined {
  const code = (e as { cause?: { code?: string } })?.cause?.code ?? (e as { code?: string })?.code;
  if (!code) return undefined;
  if (UNTRUSTED.has(code))
    return `the TLS certificate of ${host} is not trusted (${code}): add the CA that issued it (PEM) to storage.ssl.ca_file, or to the system CAs (/usr/local/share/ca-certificates/ + update-ca-certificates)`;
  if (code === 'CERT_HAS_EXPIRED') return `the TLS certificate of ${host} has expired (${code}): the host must renew it`;
  if (code === 'CERT_NOT_YET_VALID') return `the TLS certificate of ${host} is not valid yet (${code}): check the clocks of Ode's machine and the host`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `the TLS certificate of ${host} is not issued for that name (${code}): use the name the certificate carries in WOPISrc, or reissue the certificate with this name in subjectAltName`;
  return undefined;
}

/** The host-request TLS of one daemon; see the file comment. */
export class HostTls {
  private agent: Agent | undefined;
  private key = '';
  private warnedCaFile = '';

  constructor(private readonly opts: HostTlsOptions) {}

  /** True when storage.ssl.verify is false (shown in the admin status and the dashboard). */
  get insecure(): boolean {
    return !this.opts.config().storage.ssl.verify;
  }

  /**
   * Builds the Agent now (at start, and after storage.ssl changed): logs the warning when verification is off
   * (again whenever a configuration change turns it off) and an unusable ca_file.
   */
  start(): void {
    this.dispatcher();
  }

  /** fetch through the current Agent (see HostFetch). A global FormData body is re-packed for undici's fetch. */
  readonly fetch: HostFetch = async (url, init) => {
    let body = init.body;
    if (body instanceof FormData) {
      // undici's fetch only recognises its own FormData class (Node 20's global one is another copy of undici).
      const f = new UndiciFormData();
      for (const [k, v] of body.entries()) {
        if (typeof v === 'string') f.append(k, v);
        else f.append(k, v, v.name);
      }
      body = f as unknown as RequestInit['body'];
    }
    const res = await undiciFetch(url, { ...(init as object), body, dispatcher: this.dispatcher() } as Parameters<typeof undiciFetch>[1]);
    return res as unknown as Response;
  };

  /** Closes the Agent (pending requests finish first). */
  async close(): Promise<void> {
    const a = this.agent;
    this.agent = undefined;
    await a?.close();
  }

  /** The Agent for the current storage.ssl, rebuilt when it or the CA file changed. */
  private dispatcher(): Agent {
    const ssl = this.opts.config().storage.ssl;
    let mtime = 0;
    if (ssl.ca_file) {
      try {
        mtime = statSync(ssl.ca_file).mtimeMs;
      } catch {
        mtime = -1;
      }
    }
    const key = `${ssl.verify}|${ssl.ca_file}|${mtime}`;
    if (this.agent && key === this.key) return this.agent;
    const old = this.agent;
    this.agent = ssl.verify ? this.verifyingAgent(ssl.ca_file) : this.insecureAgent();
    this.key = key;
    // In-flight requests on the old Agent finish; it closes after them.
    void old?.close().catch(() => undefined);
    return this.agent;
  }

  private insecureAgent(): Agent {
    this.opts.log.warn('storage.ssl.verify is false: certificates of WOPI and settings hosts are NOT verified (for tests only; set it to true in production)');
    const connect = buildConnector({ rejectUnauthorized: false });
    return new Agent({
      connect: (options, callback) => {
        if (options.protocol === 'https:')
          this.opts.log.warn(
            { host: `${options.hostname}:${options.port || 443}` },
            'TLS connection to a host WITHOUT certificate verification (storage.ssl.verify: false; for tests only)',
          );
        connect(options, callback);
      },
    });
  }

  private verifyingAgent(caFile: string): Agent {
    const cas: string[] = [...rootCertificates];
    try {
      cas.push(readFileSync(this.opts.systemBundle ?? SYSTEM_CA_BUNDLE, 'utf8'));
    } catch {
      // No system bundle (not Debian, or ca-certificates not installed): Node's bundled roots still apply.
    }
    if (caFile) {
      try {
        const pem = readFileSync(caFile, 'utf8');
        if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error('no PEM certificate ("-----BEGIN CERTIFICATE-----") in it');
        cas.push(pem);
        this.warnedCaFile = '';
      } catch (e) {
        if (this.warnedCaFile !== caFile)
          this.opts.log.error(
            { file: caFile, err: (e as Error).message },
            'storage.ssl.ca_file cannot be used: hosts are verified against the system CAs only; fix the path or the file (PEM certificates)',
          );
        this.warnedCaFile = caFile;
      }
    }
    // One secure context for all connections: parsing a few hundred CAs per connection would cost milliseconds each.
    let secureContext: SecureContext;
    try {
      secureContext = createSecureContext({ ca: cas });
    } catch (e) {
      this.opts.log.error({ file: caFile, err: (e as Error).message }, 'storage.ssl.ca_file is refused by TLS: hosts are verified against the system CAs only');
      secureContext = createSecureContext({ ca: [...rootCertificates] });
    }
    return new Agent({ connect: { secureContext } });
  }
}
