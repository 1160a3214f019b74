import { OdeError } from '../errors.ts';
import { BASE_HEADERS } from '../http/respond.ts';
import type { Handler } from './context.ts';

/** GET /ode/download/<id>: an export prepared for one view (editor.md `downloadReady`), served once. */
export const download: Handler = (_req, res, ctx, { rest }) => {
  const item = ctx.downloads.take(rest.replace(/^\//, ''));
  if (!item) throw new OdeError('not_found', 'No such download: it was fetched already or has expired (60 s).');
  const ascii = item.filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  res.writeHead(200, {
    ...BASE_HEADERS,
    'Content-Type': item.mimeType,
    'Content-Length': item.bytes.length,
    'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(item.filename)}`,
    'Cache-Control': 'no-store',
  });
  res.end(item.bytes);
};
