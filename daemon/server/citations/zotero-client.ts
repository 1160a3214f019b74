/**
 * The citation service's web API: Zotero Web API v3 (https://www.zotero.org/support/dev/web_api/v3/basics), the
 * one Collabora Online's citation feature uses. The user's key (CheckFileInfo UserPrivateInfo.CitationAPIKey) goes
 * in the `Zotero-API-Key` header, never in a URL or to the browser. docs/citations.md.
 */
import type { CitationListItem } from '../../protocol/editor.ts';

/** One library item: what the editor lists (`CitationListItem`, no key material) plus what the daemon inserts. */
export interface CitationItem extends CitationListItem {
  /** The citation as Zotero formats it (HTML span). */
  citationHtml: string;
  /** The bibliography entry as Zotero formats it (HTML div.csl-bib-body). */
  bibHtml: string;
}

/** The citation service failed (unreachable, key refused, not the expected shape). `status` is the HTTP status when there was one. */
export class CitationServiceError extends Error {
  override readonly name = 'CitationServiceError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const REQUEST_MS = 20_000;
/** Zotero allows at most 100 items per request (`limit`). */
const PAGE = 100;
/** Zotero allows at most 50 keys in `itemKey`. */
const MAX_KEYS = 50;

/** Plain text of a small HTML fragment from Zotero (tags removed, the common entities decoded, spaces collapsed). */
export function htmlToText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A Zotero Web API client for one user's key. */
export class ZoteroClient {
  private userId: number | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  private async get(path: string, query: Record<string, string>): Promise<Response> {
    const url = new URL(`${this.baseUrl.replace(/\/+$/, '')}${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    let res: Response;
    try {
      res = await fetch(url, { headers: { 'Zotero-API-Key': this.apiKey, 'Zotero-API-Version': '3' }, signal: AbortSignal.timeout(REQUEST_MS) });
    } catch (e) {
      throw new CitationServiceError(`the citation service at ${url.origin} could not be reached (${(e as Error).message})`);
    }
    if (res.status === 403 || res.status === 401)
      throw new CitationServiceError('the citation service refused your API key (check it in your account settings)', res.status);
    if (!res.ok) throw new CitationServiceError(`the citation service answered ${res.status}`, res.status);
    return res;
  }

  /** The key's user id (GET /keys/<key>; cached). */
  async user(): Promise<number> {
    if (this.userId !== undefined) return this.userId;
    // The key is also the path here (Zotero's own API shape); the request goes from the daemon, never the browser.
    const body = (await (await this.get(`/keys/${encodeURIComponent(this.apiKey)}`, {})).json()) as { userID?: unknown };
    if (typeof body.userID !== 'number') throw new CitationServiceError('the citation service did not say whose key this is (no userID)');
    this.userId = body.userID;
    return this.userId;
  }

  /**
   * The user's items with their citation and bibliography entry in `style` (GET /users/<id>/items/top?format=json&
   * include=data,citation,bib&style=...). At most `max` items, newest first as Zotero sorts by default.
   */
  async items(style: string, max = 300): Promise<CitationItem[]> {
    const id = await this.user();
    const out: CitationItem[] = [];
    for (let start = 0; start < max; start += PAGE) {
      const res = await this.get(`/users/${id}/items/top`, {
        format: 'json',
        include: 'data,citation,bib',
        style,
        limit: String(Math.min(PAGE, max - start)),
        start: String(start),
      });
      const page = parseItems(await res.json());
      out.push(...page);
      const total = Number(res.headers.get('Total-Results') ?? out.length);
      if (page.length === 0 || out.length >= total) break;
    }
    return out;
  }

  /** These items (GET /users/<id>/items?itemKey=A,B&format=json&include=data,citation,bib&style=...), in the order of `keys`. */
  async itemsByKey(keys: string[], style: string): Promise<CitationItem[]> {
    const id = await this.user();
    const out: CitationItem[] = [];
    for (let i = 0; i < keys.length; i += MAX_KEYS) {
      const res = await this.get(`/users/${id}/items`, { format: 'json', include: 'data,citation,bib', style, itemKey: keys.slice(i, i + MAX_KEYS).join(',') });
      out.push(...parseItems(await res.json()));
    }
    const byKey = new Map(out.map((it) => [it.key, it]));
    return keys.map((k) => byKey.get(k)).filter((it): it is CitationItem => it !== undefined);
  }

  /** The formatted bibliography of these items (GET /users/<id>/items?itemKey=...&format=bib&style=...): XHTML, sorted by the style. */
  async bibliography(keys: string[], style: string): Promise<string> {
    const id = await this.user();
    const res = await this.get(`/users/${id}/items`, { format: 'bib', style, itemKey: keys.slice(0, MAX_KEYS * 3).join(',') });
    return (await res.text()).replace(/^<\?xml[^>]*>\s*/, '');
  }
}

function parseItems(json: unknown): CitationItem[] {
  if (!Array.isArray(json)) throw new CitationServiceError('the citation service answered something that is not a list of items');
  const out: CitationItem[] = [];
  for (const raw of json as Array<Record<string, unknown>>) {
    const data = (raw.data ?? {}) as Record<string, unknown>;
    const meta = (raw.meta ?? {}) as Record<string, unknown>;
    const key = typeof raw.key === 'string' ? raw.key : typeof data.key === 'string' ? data.key : '';
    if (!/^[A-Z0-9]{8}$/.test(key)) continue;
    // Notes and attachments have no citation.
    if (data.itemType === 'note' || data.itemType === 'attachment') continue;
    const citationHtml = typeof raw.citation === 'string' ? raw.citation : '';
    out.push({
      key,
      title: typeof data.title === 'string' ? data.title : '',
      creators: typeof meta.creatorSummary === 'string' ? meta.creatorSummary : '',
      date: typeof data.date === 'string' ? data.date : '',
      itemType: typeof data.itemType === 'string' ? data.itemType : '',
      citation: htmlToText(citationHtml),
      citationHtml,
      bibHtml: typeof raw.bib === 'string' ? raw.bib : '',
    });
  }
  return out;
}
