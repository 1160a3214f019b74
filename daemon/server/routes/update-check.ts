import { OdeError } from '../errors.ts';
import { sendJson } from '../http/respond.ts';
import { feedLineFor, feedVersion } from '../updates/update-feed.ts';
import type { Handler } from './context.ts';

/**
 * The feed's headers. `no-cache`: a cache must ask again, so a new version in the feed is seen at once.
 * `Access-Control-Allow-Origin: *`: the feed is public, carries no credentials and nothing per user, and an admin
 * page on another origin (a host's settings page) may ask it from the browser.
 */
const FEED_HEADERS = { 'Cache-Control': 'no-cache', 'Access-Control-Allow-Origin': '*' };

/**
 * GET /UpdateCheck?product=&version= (spec: Update check): Ode's own update feed, answered from `updates.feed`
 * (a live key): `{"odewsd_version": "<version>"}`. `product` omitted or `Ode Development Edition` gets the
 * development line, any other product the release line; `version` is accepted and not used. An empty line
 * answers 404 `no_update_line` (docs/errors.md), with a log line.
 */
export const updateCheck: Handler = (req, res, ctx) => {
  const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
  const product = query.get('product');
  const line = feedLineFor(product);
  const version = feedVersion(ctx.config().updates.feed, line);
  if (version === undefined) {
    const err = new OdeError('no_update_line', `This server's update feed has no ${line} version (updates.feed.${line} is empty).`, { line });
    ctx.log.warn({ path: '/UpdateCheck', code: err.code, status: err.status, product, line }, 'update feed line is empty');
    return sendJson(res, err.status, err.toJSON(), FEED_HEADERS);
  }
  sendJson(res, 200, { odewsd_version: version }, FEED_HEADERS);
};
