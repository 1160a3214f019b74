import { copyFileSync, rmSync } from 'node:fs';
import { extname, join } from 'node:path';
import { inKitJob, stageLimits } from '../convert/kit-job.ts';
import { OdeError } from '../errors.ts';
import { kindOfExtension } from '../formats/tables.ts';
import { receiveAllowedForm } from '../http/allowed-form.ts';
import { BASE_HEADERS, sendError } from '../http/respond.ts';
import type { Handler } from './context.ts';

/**
 * Parses LibreOffice's link-target JSON; its older builds wrote a comma before a closing brace (richdocuments
 * repairs `", }` before decoding), so that is repaired too.
 * @throws OdeError internal when it is not JSON even then.
 */
function parseTargets(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    try {
      return JSON.parse(text.replace(/",\s*}/g, '" }'));
    } catch {
      throw new OdeError('internal', 'LibreOffice answered link targets that are not JSON.');
    }
  }
}

/**
 * POST or PUT /cool/extract-link-targets (aliases /ode/, /lool/): Collabora's Linking API. The document in the
 * first file part of a multipart form (richdocuments PUTs it in a part named after the file); the caller must match
 * net.post_allow.host. Answers 200 JSON `{"Targets": {"Headings": {"Intro": "Intro|outline"}, "Tables": {...},
 * "Frames", "Images", "OLE objects", "Sections", "Bookmarks", "Drawing objects"}}` as LibreOffice lists them
 * (lok::Office::extractRequest in a conversion kit); each value is the `target` to open at or to thumbnail.
 * @throws OdeError forbidden_host, no_file, unknown_input_format, load_failed (LibreOffice could not read it),
 *   queue_full, timeout, kit_crashed, too_large, bad_request.
 */
export const extractLinkTargets: Handler = async (req, res, ctx) => {
  const form = await receiveAllowedForm(req, ctx, 'extract-link-targets');
  try {
    if (!form.file) throw new OdeError('no_file');
    const ext = extname(form.file.filename).slice(1).toLowerCase();
    if (!kindOfExtension(ext)) throw new OdeError('unknown_input_format', `Ode does not read ".${ext}" files (the file part's file name decides the type).`);
    const limits = stageLimits(ctx.config().limits);
    const upload = form.file.path;
    const text = await inKitJob(ctx.pool, async (kit, dir) => {
      const input = join(dir, `input.${ext}`);
      copyFileSync(upload, input);
      const r = await kit.inspect({ input, linkTargets: true }, limits);
      return r.linkTargets ?? '';
    });
    const body = JSON.stringify(parseTargets(text));
    res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  } catch (e) {
    if (e instanceof OdeError && e.code === 'queue_full') return sendError(res, e, { 'Retry-After': '5' });
    throw e;
  } finally {
    rmSync(form.dir, { recursive: true, force: true });
  }
};

/**
 * POST or PUT /cool/get-thumbnail (aliases /ode/, /lool/): Collabora's Linking API thumbnail. The document in the
 * first file part, `target` optional (a value of extract-link-targets); the caller must match net.post_allow.host.
 * Answers 200 `image/png`: the first page (slide, sheet area) as LibreOffice exports it to PNG. The `target` is
 * accepted and not used: Ode's thumbnail is always the document's start (docs/hosts.md lists the difference).
 * @throws OdeError forbidden_host, no_file, unknown_input_format, password_required, load_failed, queue_full,
 *   timeout, kit_crashed, too_large, bad_request.
 */
export const getThumbnail: Handler = async (req, res, ctx) => {
  const form = await receiveAllowedForm(req, ctx, 'get-thumbnail');
  try {
    if (!form.file) throw new OdeError('no_file');
    const out = await ctx.converter.convert({ path: form.file.path, filename: form.file.filename, fields: { format: 'png', lang: form.fields.lang } });
    res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': 'image/png', 'Content-Length': out.bytes.length });
    res.end(out.bytes);
  } catch (e) {
    if (e instanceof OdeError && e.code === 'queue_full') return sendError(res, e, { 'Retry-After': '5' });
    throw e;
  } finally {
    rmSync(form.dir, { recursive: true, force: true });
  }
};
