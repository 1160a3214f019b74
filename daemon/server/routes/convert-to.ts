import { rmSync } from 'node:fs';
import { extname } from 'node:path';
import { OdeError } from '../errors.ts';
import { receiveAllowedForm } from '../http/allowed-form.ts';
import { sendAttachment, sendError } from '../http/respond.ts';
import type { Handler } from './context.ts';

/**
 * POST /ode/convert-to[/<format>] (aliases /cool/, /lool/): spec "Conversion". Checks the caller against
 * net.post_allow.host, receives the multipart form, converts in a kit and answers the bytes with
 * Content-Type and a Content-Disposition file name; errors as `{code, message}`. Every upload first passes the
 * package checks (structure/package-check.ts: 413 package_too_large, 422 xml_too_deep / load_failed).
 */
export const convertTo: Handler = async (req, res, ctx, { rest }) => {
  const form = await receiveAllowedForm(req, ctx, 'convert-to');
  try {
    if (!form.file) throw new OdeError('no_file');
    let pathFormat: string;
    try {
      pathFormat = decodeURIComponent(rest.replace(/^\//, ''));
    } catch {
      throw new OdeError('bad_request', `The format in the path is not valid URL encoding: ${rest}`);
    }
    const format = pathFormat || form.fields.format;
    if (!format) throw new OdeError('no_format');
    const file = form.file;
    const out = await ctx.converter.convert({
      // Zip limits, XML depth and a type sniff, in a worker thread, before a kit sees the file (issue 17).
      precheck: () => ctx.engine.check(file.path, extname(file.filename).slice(1).toLowerCase()),
      path: form.file.path,
      filename: form.file.filename,
      fields: {
        format,
        options: form.fields.options,
        infilterOptions: form.fields.infilterOptions,
        PDFVer: form.fields.PDFVer,
        FullSheetPreview: form.fields.FullSheetPreview,
        lang: form.fields.lang,
        password: form.fields.password,
      },
    });
    sendAttachment(res, out.bytes, out.mimeType, out.filename, {
      'Server-Timing': `load;dur=${out.timings.loadMs.toFixed(1)}, save;dur=${out.timings.saveMs.toFixed(1)}, total;dur=${out.timings.totalMs.toFixed(1)}`,
    });
  } catch (e) {
    if (e instanceof OdeError && e.code === 'queue_full') return sendError(res, e, { 'Retry-After': '5' });
    throw e;
  } finally {
    rmSync(form.dir, { recursive: true, force: true });
  }
};
