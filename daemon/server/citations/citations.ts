/**
 * One view's citations (CheckFileInfo UserPrivateInfo.CitationAPIKey; docs/citations.md): lists the user's library
 * from the citation service, inserts a citation at the cursor and the bibliography of the cited items.
 *
 * What the document keeps: each citation is its text plus one bookmark per cited item named
 * `ZOTERO_ITEM_<item key>_<4 hex>` at the citation; the bibliography is its text plus a bookmark
 * `ZOTERO_BIBL_<4 hex>`. Bookmarks survive ODF and OOXML round trips (w:bookmarkStart), so the bibliography can be
 * rebuilt from any later copy: the cited keys are the ZOTERO_ITEM bookmarks of the document, in document order.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { ServerMessage } from '../../protocol/editor.ts';
import { StructureDocument } from '../../structure/index.ts';
import { NS } from '../../structure/xml/dom.ts';
import { streamXml } from '../../structure/xml/stream.ts';
import type { KitEditEvent } from '../documents/editing-kit.ts';
import type { FileInfo } from '../wopi/check-file-info.ts';
import { CitationServiceError, ZoteroClient, htmlToText } from './zotero-client.ts';

/** The default citation style (a CSL style id of the Zotero style repository). */
export const DEFAULT_STYLE = 'apa';

/** What the citations need of the document (documents/edit-document.ts). */
export interface CitableDocument {
  input(view: CitingView, event: KitEditEvent): void;
  paste(view: CitingView, mimeType: string, data: Uint8Array): Promise<void>;
  exportCopy(format: string): Promise<Uint8Array>;
}

/** What the citations need of their view (sessions/view-session.ts). */
export interface CitingView {
  readonly fileInfo: FileInfo;
  readonly readonly: boolean;
  send(msg: ServerMessage): void;
}

/** The user's citation key (UserPrivateInfo.CitationAPIKey; Collabora's older name ZoteroAPIKey is read too). */
export function citationKey(info: FileInfo): string | undefined {
  const p = (info.UserPrivateInfo ?? {}) as Record<string, unknown>;
  const key = p.CitationAPIKey ?? p.ZoteroAPIKey;
  return typeof key === 'string' && key.trim() !== '' ? key.trim() : undefined;
}

/** Bookmark name of a cited item. */
export const ITEM_BOOKMARK = /^ZOTERO_ITEM_([A-Z0-9]{8})_[0-9a-f]{4}$/;

/**
 * The item keys of the ZOTERO_ITEM bookmarks (`text:bookmark` and `text:bookmark-start`, ODF 1.3 Part 3, 6.2.1.2-3)
 * of an ODF text document's content.xml, in document order, each once: read with the structure engine's streaming
 * reader (namespace-aware, entities resolved).
 * @throws StructureError bad_package when `odt` is not a package with a well-formed content.xml; encrypted.
 */
export function citedKeys(odt: Uint8Array): string[] {
  const doc = StructureDocument.open(odt, 'odt');
  const keys: string[] = [];
  streamXml(doc.pkg.textOf('content.xml') ?? '', 'content.xml', {
    onOpen(el) {
      if (el.ns !== NS.text || (el.local !== 'bookmark' && el.local !== 'bookmark-start')) return;
      const k = ITEM_BOOKMARK.exec(el.attr(NS.text, 'name') ?? '')?.[1];
      if (k && !keys.includes(k)) keys.push(k);
    },
  });
  return keys;
}

const STYLE = /^[a-z0-9][a-z0-9-]{0,80}$/;

/** One view's citation requests. */
export class Citations {
  private readonly client: ZoteroClient;

  constructor(
    private readonly view: CitingView,
    private readonly doc: CitableDocument,
    apiKey: string,
    baseUrl: string,
    private readonly log: Logger,
  ) {
    this.client = new ZoteroClient(baseUrl, apiKey);
  }

  private failed(action: 'list' | 'citation' | 'bibliography', e: unknown): void {
    const message = (e as Error).message;
    this.log.warn({ err: message, action }, 'citation request failed');
    const code = e instanceof CitationServiceError ? (e.status === 401 || e.status === 403 ? 'key_refused' : 'service') : 'internal';
    this.view.send({ type: 'citationResult', action, ok: false, error: { code, message: `The citation service failed: ${message}` } });
  }

  private styleOf(style: string | undefined): string {
    return style && STYLE.test(style) ? style : DEFAULT_STYLE;
  }

  /** `citationList`: the library, answered by `citationList`. */
  async list(style: string | undefined): Promise<void> {
    const s = this.styleOf(style);
    try {
      const items = await this.client.items(s);
      this.view.send({
        type: 'citationList',
        style: s,
        items: items.map(({ key, title, creators, date, itemType, citation }) => ({ key, title, creators, date, itemType, citation })),
      });
    } catch (e) {
      this.failed('list', e);
    }
  }

  private bookmark(name: string): void {
    this.doc.input(this.view, { type: 'uno', command: '.uno:InsertBookmark', args: JSON.stringify({ Bookmark: { type: 'string', value: name } }) });
  }

  /** `citationInsert`: the items' citation at the cursor, with their bookmarks. */
  async insertCitation(itemKeys: string[], style: string | undefined): Promise<void> {
    if (this.view.readonly)
      return this.view.send({
        type: 'citationResult',
        action: 'citation',
        ok: false,
        error: { code: 'readonly', message: 'This document is open read-only for you.' },
      });
    const keys = [...new Set(itemKeys.filter((k) => typeof k === 'string' && /^[A-Z0-9]{8}$/.test(k)))];
    if (keys.length === 0)
      return this.view.send({ type: 'citationResult', action: 'citation', ok: false, error: { code: 'bad_request', message: 'No item to cite.' } });
    try {
      const items = await this.client.itemsByKey(keys, this.styleOf(style));
      if (items.length === 0) throw new CitationServiceError('none of these items is in your library any more');
      const text = items.map((it) => it.citation || `(${it.creators}, ${it.date})`).join(' ');
      for (const it of items) this.bookmark(`ZOTERO_ITEM_${it.key}_${randomBytes(2).toString('hex')}`);
      // A paste is done when it answers (a textInput event would be inserted later, after a save or export that follows).
      await this.doc.paste(this.view, 'text/plain;charset=utf-8', new TextEncoder().encode(text));
      this.view.send({ type: 'citationResult', action: 'citation', ok: true, text });
    } catch (e) {
      this.failed('citation', e);
    }
  }

  /** `bibliographyInsert`: the bibliography of every item cited in the document, at the cursor. */
  async insertBibliography(style: string | undefined): Promise<void> {
    if (this.view.readonly)
      return this.view.send({
        type: 'citationResult',
        action: 'bibliography',
        ok: false,
        error: { code: 'readonly', message: 'This document is open read-only for you.' },
      });
    try {
      const keys = citedKeys(await this.doc.exportCopy('odt'));
      if (keys.length === 0)
        return this.view.send({
          type: 'citationResult',
          action: 'bibliography',
          ok: false,
          error: { code: 'no_citations', message: 'The document cites nothing yet: insert a citation first.' },
        });
      const html = await this.client.bibliography(keys, this.styleOf(style));
      this.bookmark(`ZOTERO_BIBL_${randomBytes(2).toString('hex')}`);
      await this.doc.paste(this.view, 'text/html', new TextEncoder().encode(`<html><body>${html}</body></html>`));
      this.view.send({ type: 'citationResult', action: 'bibliography', ok: true, text: htmlToText(html), count: keys.length });
    } catch (e) {
      this.failed('bibliography', e);
    }
  }
}
