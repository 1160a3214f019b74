import { randomBytes } from 'node:crypto';
import { odeError, simpleRequest } from './request.ts';
import type { CheckResult, DoctorContext } from './check.ts';

/** The upload size issue 8 asks every install to take (proxies default to 1 MB: nginx's client_max_body_size). */
export const UPLOAD_BYTES = 20 * 1024 * 1024;

/**
 * A 20 MB upload to /ode/convert-to gets past the proxy: a multipart form whose `data` file has no format to
 * convert to, so Ode receives it all and answers 400 `no_format` without starting a kit. A 403 `forbidden_host`
 * from Ode also shows the proxy let the declared 20 MB through (this machine is just not in net.post_allow); a
 * 413 tells whose limit it was: Ode's JSON (limits.max_upload_mb) or the proxy's page.
 */
export async function checkUpload(ctx: DoctorContext): Promise<CheckResult> {
  const target = new URL('/ode/convert-to', ctx.url);
  const boundary = `ode-doctor-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="data"; filename="ode-doctor-upload.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(256 * 1024, 0x20);
  let r: Awaited<ReturnType<typeof simpleRequest>>;
  try {
    r = await simpleRequest(target, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(head.length + UPLOAD_BYTES + tail.length) },
      ca: ctx.ca,
      timeoutMs: 120_000,
      body: async (write, aborted) => {
        await write(head);
        for (let sent = 0; sent < UPLOAD_BYTES && !aborted(); sent += chunk.length) await write(chunk.subarray(0, Math.min(chunk.length, UPLOAD_BYTES - sent)));
        await write(tail);
      },
    });
  } catch (e) {
    return {
      name: 'upload',
      status: 'FAIL',
      detail: `a 20 MB POST to ${target.href} failed: ${(e as Error).message}`,
      fix: 'fix the public-url check first; a reset during the upload is often a proxy body limit',
    };
  }
  const err = odeError(r.body);
  if (r.status === 400 && err?.code === 'no_format') return { name: 'upload', status: 'ok', detail: 'a 20 MB upload to /ode/convert-to reaches Ode' };
  if (r.status === 403 && err?.code === 'forbidden_host')
    return { name: 'upload', status: 'ok', detail: `the proxy accepts a 20 MB upload (Ode then refused this machine: ${err.message})` };
  if (r.status === 413 && err?.code === 'too_large')
    return { name: 'upload', status: 'FAIL', detail: `Ode refuses 20 MB: ${err.message}`, fix: 'raise limits.max_upload_mb (100 by default)' };
  if (r.status === 413)
    return {
      name: 'upload',
      status: 'FAIL',
      detail: "the proxy refused a 20 MB upload with 413 (not Ode's JSON)",
      fix: 'nginx: client_max_body_size 200m; Apache: LimitRequestBody 209715200 (keep it above limits.max_upload_mb; docs/deploy/)',
    };
  if (r.status === 502)
    return {
      name: 'upload',
      status: 'FAIL',
      detail: 'a 20 MB upload got 502 from the proxy: the proxy lost the connection to Ode during the upload',
      fix: 'raise limits.max_upload_mb above 20; if it is, check that Ode runs (journalctl -u ode)',
    };
  return {
    name: 'upload',
    status: 'FAIL',
    detail: `a 20 MB POST to ${target.pathname} got ${r.status}${err ? ` ${err.code}: ${err.message}` : `: ${r.body.slice(0, 100).replace(/\s+/g, ' ')}`}`,
    fix: 'the proxy must pass POST /ode/convert-to to Ode unchanged (docs/deploy/)',
  };
}
