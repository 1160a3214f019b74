import { OdeError } from '../errors.ts';
import { sendAttachment } from '../http/respond.ts';
import type { Handler } from './context.ts';

/** GET /ode/download/<id>: an export prepared for one view (editor.md `downloadReady`), served once. */
export const download: Handler = (_req, res, ctx, { rest }) => {
  const item = ctx.downloads.take(rest.replace(/^\//, ''));
  if (!item) throw new OdeError('not_found', 'No such download: it was fetched already or has expired (60 s).');
  sendAttachment(res, item.bytes, item.mimeType, item.filename, { 'Cache-Control': 'no-store' });
};
