import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { connect, rootCertificates } from 'node:tls';
import type { CheckResult, DoctorContext } from './check.ts';

const DAY = 86_400_000;
/** Expiry is reported this far ahead (issue 8: /health, the admin API and the dashboard warn 30 days ahead). */
const WARN_DAYS = 30;

/** Expiry and name of one certificate against `host`: a result when something is wrong, else undefined. */
function judge(cert: X509Certificate, host: string, source: string, now = Date.now()): CheckResult | undefined {
  const notAfter = Date.parse(cert.validTo);
  const notBefore = Date.parse(cert.validFrom);
  if (notAfter < now)
    return {
      name: 'certificate',
      status: 'FAIL',
      detail: `${source} expired on ${new Date(notAfter).toISOString()}`,
      fix: 'renew it (certbot renew), then reload the proxy or let Ode reload ssl.cert_file',
    };
  if (notBefore > now)
    return {
      name: 'certificate',
      status: 'FAIL',
      detail: `${source} is not valid before ${new Date(notBefore).toISOString()}`,
      fix: "check this machine's clock, or the certificate's dates",
    };
  const bare = host.replace(/^\[|\]$/g, '');
  const matches = isIP(bare) ? cert.checkIP(bare) : cert.checkHost(bare);
  if (!matches)
    return {
      name: 'certificate',
      status: 'FAIL',
      detail: `${source} is not for ${bare} (it names ${cert.subjectAltName ?? cert.subject})`,
      fix: `get a certificate whose subjectAltName has ${bare}, or set net.public_url to a name the certificate has`,
    };
  return undefined;
}

function days(cert: X509Certificate, now = Date.now()): number {
  return Math.floor((Date.parse(cert.validTo) - now) / DAY);
}

/** The certificate served at an https URL: trusted (system CAs plus --ca), unexpired, and for the URL's host. */
async function served(url: URL, ca: string[]): Promise<CheckResult> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || 443);
  let authorized: boolean;
  let authError: string | undefined;
  let cert: X509Certificate | undefined;
  try {
    ({ authorized, authError, cert } = await new Promise<{ authorized: boolean; authError: string | undefined; cert: X509Certificate | undefined }>(
      (resolve, reject) => {
        const s = connect(
          { host, port, servername: isIP(host) ? undefined : host, ca: [...rootCertificates, ...ca], rejectUnauthorized: false, timeout: 15_000 },
          () => {
            const peer = s.getPeerX509Certificate();
            resolve({ authorized: s.authorized, authError: s.authorizationError ? String(s.authorizationError) : undefined, cert: peer });
            s.end();
          },
        );
        s.on('timeout', () => s.destroy(new Error('no TLS answer within 15 s')));
        s.on('error', reject);
      },
    ));
  } catch (e) {
    return {
      name: 'certificate',
      status: 'FAIL',
      detail: `no TLS handshake with ${host}:${port}: ${(e as Error).message}`,
      fix: 'check that the proxy (or Ode with ssl.enable) listens with TLS on that port',
    };
  }
  if (!cert)
    return {
      name: 'certificate',
      status: 'FAIL',
      detail: `${host}:${port} sent no certificate`,
      fix: 'configure ssl_certificate (nginx), SSLCertificateFile (Apache) or ssl.cert_file',
    };
  const wrong = judge(cert, host, `the certificate of ${host}:${port}`);
  if (wrong) return wrong;
  if (!authorized) {
    return {
      name: 'certificate',
      status: 'FAIL',
      detail: `the certificate of ${host}:${port} is not trusted: ${authError}`,
      fix: "serve the full chain (certbot's fullchain.pem, not cert.pem); for a private CA, hosts must trust it too (pass it here with --ca)",
    };
  }
  const left = days(cert);
  if (left < WARN_DAYS)
    return {
      name: 'certificate',
      status: 'warn',
      detail: `trusted and for ${host}, but expires in ${left} days (${new Date(Date.parse(cert.validTo)).toISOString()})`,
      fix: 'renew it (certbot renew runs from a timer: check systemctl list-timers)',
    };
  return { name: 'certificate', status: 'ok', detail: `trusted, for ${host}, valid ${left} more days` };
}

/** With ssl.enable and a plain-http URL to check: the configured files (cert_file matches key_file, dates, name). */
function files(ctx: DoctorContext): CheckResult {
  const { cert_file, key_file } = ctx.config.ssl;
  const host = ctx.config.net.public_url ? new URL(ctx.config.net.public_url).hostname : ctx.url.hostname;
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(readFileSync(cert_file));
    if (!cert.checkPrivateKey(createPrivateKey(readFileSync(key_file)))) {
      return {
        name: 'certificate',
        status: 'FAIL',
        detail: `ssl.key_file ${key_file} is not the key of ssl.cert_file ${cert_file}`,
        fix: 'point ssl.key_file at the key the certificate was issued for (certbot: privkey.pem beside fullchain.pem)',
      };
    }
  } catch (e) {
    return {
      name: 'certificate',
      status: 'FAIL',
      detail: `cannot read ssl.cert_file/ssl.key_file: ${(e as Error).message}`,
      fix: 'set ssl.cert_file and ssl.key_file to readable PEM files (or `ode certs generate` for local use)',
    };
  }
  return (
    judge(cert, host, `ssl.cert_file ${cert_file}`) ?? {
      name: 'certificate',
      status: days(cert) < WARN_DAYS ? 'warn' : 'ok',
      detail: `ssl.cert_file is for ${host}, valid ${days(cert)} more days`,
      ...(days(cert) < WARN_DAYS ? { fix: 'renew it' } : {}),
    }
  );
}

/**
 * Certificates valid for the configured name (issue 8): the one served at an https public URL (through a
 * terminating proxy or Ode's own listener), else Ode's ssl.cert_file when ssl.enable; a plain-http public URL
 * is a warning, as hosts in production reach Ode over https.
 */
export async function checkCertificate(ctx: DoctorContext): Promise<CheckResult> {
  if (ctx.url.protocol === 'https:') return served(ctx.url, ctx.ca);
  if (ctx.config.ssl.enable) return files(ctx);
  return {
    name: 'certificate',
    status: 'warn',
    detail: `${ctx.url.origin} is plain HTTP: browsers and hosts reach Ode unencrypted`,
    fix: 'put Ode behind a TLS proxy (docs/deploy/) with net.public_url: https://... and ssl.termination: true, or set ssl.enable with ssl.cert_file and ssl.key_file',
  };
}
