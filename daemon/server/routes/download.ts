import { OdeError } from '../errors.ts';
import { sendAttachment } from '../http/respond.ts';
import type { Handler } from './context.ts';

/** GET /ode/download/<id>: an export prepared for one view (editor.md `downloadReady`), served once. */
export const download: Handler = (_req, res, ctx, { rest }) => {
  const item = ctx.downloads.take(rest.replace(/^\//, ''));
  if (!item) throw new OdeError('not_found', 'No such download: it was fetched already or has expired (60 s).');
  // A slideshow is shown in the editor's sandboxed frame: inline, under its own policy (sessions/slideshow.ts).
  const inline: Record<string, string> = item.inline ? { 'Content-Disposition': 'inline', 'Content-Security-Policy': item.inline.csp } : {};
  sendAttachment(res, item.bytes, item.mimeType, item.filename, { 'Cache-Control': 'no-store', ...inline });
};
