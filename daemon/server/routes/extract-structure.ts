import { rmSync } from 'node:fs';
import { OdeError } from '../errors.ts';
import { receiveAllowedForm } from '../http/allowed-form.ts';
import { sendError, sendJson } from '../http/respond.ts';
import type { Handler } from './context.ts';

/**
 * POST /ode/extract-document-structure (alias /cool/): spec "Extraction". Same allow-list as convert-to;
 * multipart fields `data`, `filter`, `lang` (and `password`); answers `{DocStructure: {...}}` as JSON.
 */
export const extractStructure: Handler = async (req, res, ctx) => {
  const form = await receiveAllowedForm(req, ctx, 'extract-document-structure');
  try {
    if (!form.file) throw new OdeError('no_file');
    const result = await ctx.extractor.extract({
      path: form.file.path,
      filename: form.file.filename,
      fields: { filter: form.fields.filter, lang: form.fields.lang, password: form.fields.password },
    });
    sendJson(res, 200, result);
  } catch (e) {
    if (e instanceof OdeError && e.code === 'queue_full') return sendError(res, e, { 'Retry-After': '5' });
    throw e;
  } finally {
    rmSync(form.dir, { recursive: true, force: true });
  }
};
