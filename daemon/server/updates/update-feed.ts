/**
 * Ode's own update feed (spec: Update check, the answering side): which line's version `GET /UpdateCheck` answers
 * for a `product`, from the `updates.feed` table of the configuration (docs/updates.md).
 */
import { DEVELOPMENT_PRODUCT_NAME } from '../discovery/capabilities.ts';

/** The two lines of the feed. */
export type FeedLine = 'development' | 'release';

/**
 * The line a `product` query asks for: omitted (null or empty) or the development edition's product name
 * (`Ode Development Edition`) -> `development`; any other value -> `release` (spec: Update check).
 */
export function feedLineFor(product: string | null | undefined): FeedLine {
  return !product || product === DEVELOPMENT_PRODUCT_NAME ? 'development' : 'release';
}

/** The version the feed answers for `line` (`updates.feed.<line>`), or undefined when that line is empty. */
export function feedVersion(feed: { development: string; release: string }, line: FeedLine): string | undefined {
  const v = feed[line].trim();
  return v === '' ? undefined : v;
}
