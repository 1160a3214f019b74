import { rmSync } from 'node:fs';
import { OdeError } from '../errors.ts';
import { checkPostAllow } from '../http/post-allow.ts';
import { receiveForm } from '../http/multipart.ts';
import { sendError, sendJson } from '../http/respond.ts';
import type { Handler } from './context.ts';

/**
 * POST /ode/extract-document-structure (alias /cool/): spec "Extraction". Same allow-list as convert-to;
 * multipart fields `data`, `filter`, `lang` (and `password`); answers `{DocStructure: {...}}` as JSON.
 */
export const extractStructure: Handler = async (req, res, ctx) => {
  const cfg = ctx.config();
  const decision = checkPostAllow(req, cfg.net.post_allow.host);
  if (!decision.allowed) {
    const via = decision.viaForwardedFor ? ' (from X-Forwarded-For)' : '';
    ctx.log.warn({ address: decision.denied }, 'extract-document-structure denied by net.post_allow.host');
    throw new OdeError('forbidden_host', `The address ${decision.denied}${via} is not allowed to use the structure API: add a pattern for it to net.post_allow.host.`);
  }
  const form = await receiveForm(req, ctx.uploadDir, cfg.limits.max_upload_mb * 1024 * 1024);
  try {
    if (!form.file) throw new OdeError('no_file');
    const result = await ctx.extractor.extract({ path: form.file.path, filename: form.file.filename, fields: { filter: form.fields.filter, lang: form.fields.lang, password: form.fields.password } });
    sendJson(res, 200, result);
  } catch (e) {
    if (e instanceof OdeError && e.code === 'queue_full') return sendError(res, e, { 'Retry-After': '5' });
    throw e;
  } finally {
    rmSync(form.dir, { recursive: true, force: true });
  }
};
