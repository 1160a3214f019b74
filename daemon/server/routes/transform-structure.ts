import { rmSync } from 'node:fs';
import { OdeError } from '../errors.ts';
import { receiveAllowedForm } from '../http/allowed-form.ts';
import { sendAttachment, sendError } from '../http/respond.ts';
import type { Handler } from './context.ts';

/**
 * The optional path part of the transformation endpoint: `/<format>&lang=xx-XX` (spec: Transformation; both
 * may be omitted, e.g. `/docx`, `/&lang=de-DE`).
 * @throws OdeError bad_request for bad URL escapes or unknown path parameters.
 */
export function parseTransformPath(rest: string): { format?: string; lang?: string } {
  let text: string;
  try {
    text = decodeURIComponent(rest.replace(/^\//, ''));
  } catch {
    throw new OdeError('bad_request', `The path after transform-document-structure is not valid URL encoding: ${rest}`);
  }
  const [format, ...params] = text.split('&');
  const out: { format?: string; lang?: string } = { format: format || undefined };
  for (const p of params) {
    const [k, v] = p.split('=');
    if (k === 'lang' && v) out.lang = v;
    else if (p !== '') throw new OdeError('bad_request', `Unknown parameter "${p}" in the path: only <format>&lang=xx-XX is understood.`);
  }
  return out;
}

/**
 * POST /ode/transform-document-structure[/<format>[&lang=xx-XX]] (alias /cool/): spec "Transformation". Same
 * allow-list as convert-to; multipart fields `data`, `transform`, `format`, `lang` (and `password`); answers
 * the new document with its Content-Type and a Content-Disposition file name. The path's format and lang win
 * over the fields'.
 */
export const transformStructure: Handler = async (req, res, ctx, { rest }) => {
  const fromPath = parseTransformPath(rest);
  const form = await receiveAllowedForm(req, ctx, 'transform-document-structure');
  try {
    if (!form.file) throw new OdeError('no_file');
    const out = await ctx.transformer.transform({
      path: form.file.path,
      filename: form.file.filename,
      fields: {
        transform: form.fields.transform,
        format: fromPath.format ?? form.fields.format,
        lang: fromPath.lang ?? form.fields.lang,
        password: form.fields.password,
      },
    });
    sendAttachment(res, out.bytes, out.mimeType, out.filename, {
      'Server-Timing': `engine;dur=${out.timings.engineMs.toFixed(1)}, total;dur=${out.timings.totalMs.toFixed(1)}`,
    });
  } catch (e) {
    if (e instanceof OdeError && e.code === 'queue_full') return sendError(res, e, { 'Retry-After': '5' });
    throw e;
  } finally {
    rmSync(form.dir, { recursive: true, force: true });
  }
};
