import type { IncomingMessage } from 'node:http';
import type { RouteContext } from '../routes/context.ts';
import { OdeError } from '../errors.ts';
import { checkPostAllow } from './post-allow.ts';
import { receiveForm, type UploadedForm } from './multipart.ts';

/**
 * The common start of the conversion and structure endpoints (spec: Authentication): the caller must match
 * `net.post_allow.host` (else 403 naming the address seen, and a log line), then the multipart form is received
 * into a per-request folder (limits.max_upload_mb). The caller removes `form.dir` when done.
 * @throws OdeError forbidden_host, too_large, bad_request, body_timeout (limits.body_idle_secs).
 */
export async function receiveAllowedForm(req: IncomingMessage, ctx: RouteContext, what: string): Promise<UploadedForm> {
  const cfg = ctx.config();
  const decision = checkPostAllow(req, cfg.net.post_allow.host);
  if (!decision.allowed) {
    const via = decision.viaForwardedFor ? ' (from X-Forwarded-For)' : '';
    // The peer refused while X-Forwarded-For came along: the peer is a reverse proxy, whose own address is needed too.
    const proxy =
      !decision.viaForwardedFor && req.headers['x-forwarded-for']
        ? ` It is the reverse proxy that forwarded the request (X-Forwarded-For: ${String(req.headers['x-forwarded-for']).slice(0, 100)}): its address must be allowed as well.`
        : '';
    const message = `The address ${decision.denied}${via} is not allowed to use ${what}: add a pattern for it to net.post_allow.host.${proxy}`;
    ctx.log.warn({ address: decision.denied, via: decision.viaForwardedFor }, `${what} denied: ${message}`);
    throw new OdeError('forbidden_host', message);
  }
  return receiveForm(req, ctx.uploadDir, cfg.limits.max_upload_mb * 1024 * 1024, cfg.limits.body_idle_secs * 1000);
}
