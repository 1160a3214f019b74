import { simpleRequest } from './request.ts';
import type { CheckResult, DiscoveryAnswer, DoctorContext } from './check.ts';

/**
 * GET <url>/hosting/discovery once (spec: Discovery), timing it and reading its Date header; the answer is
 * shared by the public-url, proof-key and clock checks.
 */
export async function fetchDiscovery(url: URL, ca: string[]): Promise<{ answer?: DiscoveryAnswer; error?: string }> {
  const t0 = Date.now();
  try {
    const r = await simpleRequest(new URL('/hosting/discovery', url), { ca, timeoutMs: 30_000 });
    const t1 = Date.now();
    const date = typeof r.headers.date === 'string' ? Date.parse(r.headers.date) : NaN;
    return { answer: { status: r.status, body: r.body, dateMs: Number.isNaN(date) ? undefined : date, localMs: (t0 + t1) / 2, elapsedMs: t1 - t0 } };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return { error: err.code ? `${err.code}: ${err.message}` : err.message };
  }
}

/**
 * The public URL answers discovery (200, a wopi-discovery document) and discovery's urlsrc starts with that URL:
 * otherwise hosts send users to an address they cannot reach (the classic proxy mistake: urlsrc says
 * http://127.0.0.1:9980 because the proxy did not pass Host or X-Forwarded-Proto).
 */
export function checkPublicUrl(ctx: DoctorContext): CheckResult {
  const at = `${ctx.url.origin}/hosting/discovery`;
  const d = ctx.discovery;
  if (!d) {
    const e = ctx.discoveryError ?? '';
    const fix = /ECONNREFUSED/.test(e)
      ? 'start Ode (systemctl start ode) and the proxy, and check the port; `journalctl -u ode` has the reason a start failed'
      : /CERT|SSL|TLS|certificate|self.signed/i.test(e)
        ? 'see the certificate check (a private CA: pass it with --ca)'
        : 'check DNS, the firewall and the proxy in front of Ode';
    return { name: 'public-url', status: 'FAIL', detail: `${at} did not answer: ${e}`, fix };
  }
  if (d.status === 502 || d.status === 503 || d.status === 504) {
    return {
      name: 'public-url',
      status: 'FAIL',
      detail: `${at} answered ${d.status}: the proxy cannot reach Ode`,
      fix: "check that Ode runs (systemctl status ode) and that the proxy's upstream is Ode's net.listen:net.port (127.0.0.1:9980 by default)",
    };
  }
  if (d.status !== 200 || !d.body.includes('<wopi-discovery')) {
    return {
      name: 'public-url',
      status: 'FAIL',
      detail: `${at} answered ${d.status} without a discovery document: ${d.body.slice(0, 120).replace(/\s+/g, ' ')}`,
      fix: 'the proxy must pass every path to Ode (location / in docs/deploy/nginx.conf, ProxyPass / in apache.conf)',
    };
  }
  const urlsrc = /urlsrc="([^"]+)"/.exec(d.body)?.[1];
  const base = ctx.url.href.replace(/\/$/, '');
  if (urlsrc && !urlsrc.startsWith(`${base}/`)) {
    return {
      name: 'public-url',
      status: 'FAIL',
      detail: `discovery at ${at} sends editors to ${urlsrc.split('?')[0]}, not under ${base}`,
      fix: `set net.public_url: ${base} (or ssl.termination: true with the proxy sending Host, X-Forwarded-Proto and X-Forwarded-Host from an address in net.proxy_addresses)`,
    };
  }
  return { name: 'public-url', status: 'ok', detail: `${at} answers discovery (${d.elapsedMs} ms)` };
}

/** Skew past which proof timestamps fail (MS-WOPI: hosts reject X-WOPI-TimeStamp older than 20 min; Ode's own checks allow ~5 min). */
const FAIL_SKEW_MS = 5 * 60_000;
const WARN_SKEW_MS = 60_000;

/**
 * Clock skew between this machine and the server behind the public URL, from discovery's Date header
 * (1 s resolution, so under 2 s is noise). Proof timestamps (X-WOPI-TimeStamp) fail when clocks disagree.
 */
export function checkClock(ctx: DoctorContext): CheckResult {
  const d = ctx.discovery;
  if (!d || d.dateMs === undefined)
    return { name: 'clock', status: 'FAIL', detail: 'no Date header to compare (discovery did not answer)', fix: 'fix the public-url check first' };
  const skew = d.dateMs - d.localMs;
  const secs = Math.round(skew / 1000);
  const fix = 'run NTP on both machines: timedatectl set-ntp true (systemd-timesyncd or chrony)';
  if (Math.abs(skew) > FAIL_SKEW_MS)
    return { name: 'clock', status: 'FAIL', detail: `the server's clock is ${secs} s off this machine's: proof timestamps will be refused`, fix };
  if (Math.abs(skew) > WARN_SKEW_MS) return { name: 'clock', status: 'warn', detail: `the server's clock is ${secs} s off this machine's`, fix };
  return { name: 'clock', status: 'ok', detail: `within ${Math.max(2, Math.abs(secs))} s of this machine's clock` };
}
