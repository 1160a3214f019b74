/**
 * Reads the tracked changes of an odt (ODF 1.3 Part 3, 5.5 change tracking) into a RedlineFlow, the way
 * LibreOffice's ODF import does:
 * - office:text/text:tracked-changes holds one text:changed-region per change, with its office:change-info
 *   (dc:creator, dc:date, text:p = the comment) and its kind: text:insertion, text:deletion (holding the
 *   deleted paragraphs), text:format-change;
 * - in the body, text:change-start/text:change-end delimit an insertion or format change, and text:change marks
 *   where a deletion was: LibreOffice puts the deleted text back there, shown as deleted;
 * - adjacent changes of combinable data join into one redline, as for docx (redline-flow.ts).
 * - the other stories come first, as in Writer's node array: notes (text:note-body, in citation order), then
 *   headers/footers of the master pages (styles.xml, each with its own text:tracked-changes, made before the
 *   body) and frames' text boxes (draw:frame/draw:text-box) as met.
 * Annotations' text is not in Writer's text (no redlines there).
 */
import { streamedParts, type PartReader, type ReadElement } from '../xml/read-tree.ts';
import type { StructureDocument } from '../document.ts';
import { NS } from '../xml/dom.ts';
import { RedlineFlow, type RedlineData } from './redline-flow.ts';

const T = NS.text;

interface Region {
  data: RedlineData;
  /** Deletions: the deleted paragraphs' texts. */
  deleted?: string[];
}

/** Element children in namespace `ns` with local name `name`. */
function kids(el: ReadElement, ns: string, name: string): ReadElement[] {
  const out: ReadElement[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as ReadElement).namespaceURI === ns && (n as ReadElement).localName === name) out.push(n as ReadElement);
  }
  return out;
}

function regionOf(region: ReadElement): Region | undefined {
  for (let n = region.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const el = n as ReadElement;
    if (el.namespaceURI !== T) continue;
    const type = el.localName === 'insertion' ? 'Insert' : el.localName === 'deletion' ? 'Delete' : el.localName === 'format-change' ? 'Format' : undefined;
    if (!type) continue;
    const info = kids(el, NS.office, 'change-info')[0];
    const data: RedlineData = {
      type,
      author: info ? (kids(info, NS.dc, 'creator')[0]?.textContent ?? '') : '',
      date: info ? (kids(info, NS.dc, 'date')[0]?.textContent ?? '') : '',
      comment: info
        ? kids(info, T, 'p')
            .map((p) => paragraphText(p))
            .join('\n')
        : '',
    };
    if (type !== 'Delete') return { data };
    const deleted: string[] = [];
    collectParagraphs(el, deleted);
    return { data, deleted };
  }
  return undefined;
}

/** The texts of the paragraphs (text:p, text:h, in lists) under `el`, for deleted content. */
function collectParagraphs(el: ReadElement, out: string[]): void {
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const c = n as ReadElement;
    if (c.namespaceURI === T && (c.localName === 'p' || c.localName === 'h')) out.push(paragraphText(c));
    else if (c.namespaceURI !== NS.office) collectParagraphs(c, out);
  }
}

/** The text of a paragraph element, ODF white-space rules applied (text:s, text:tab, text:line-break). */
function paragraphText(p: ReadElement): string {
  let out = '';
  const walk = (el: ReadElement): void => {
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) out += (n.nodeValue ?? '').replace(/[ \t\r\n]+/g, ' ');
      else if (n.nodeType === 1) {
        const c = n as ReadElement;
        if (c.namespaceURI === T && c.localName === 's') out += ' '.repeat(Number(c.getAttributeNS(T, 'c') || '1'));
        else if (c.namespaceURI === T && c.localName === 'tab') out += '\t';
        else if (c.namespaceURI === T && c.localName === 'line-break') out += '\n';
        else if (c.namespaceURI === T && (c.localName === 'note' || c.localName === 'tracked-changes')) continue;
        else if (c.namespaceURI === NS.office || c.namespaceURI === NS.draw) continue;
        else walk(c);
      }
    }
  };
  walk(p);
  return out;
}

class OdtWalker {
  readonly flow = new RedlineFlow();
  private readonly open = new Map<string, { start: number; story: number }>();
  /**
   * Stories read after the body, with where they go in the redline table (group 0 notes, 1 frames and
   * headers/footers) and their creation number.
   */
  private readonly deferred: Array<{ container: ReadElement; group: 0 | 1; seq: number }> = [];

  constructor(private readonly regions: Map<string, Region>) {}

  story(container: ReadElement): void {
    this.flow.beginStory();
    this.blocks(container);
    this.flow.endStory();
  }

  /** Queues a story to read after the body: a header/footer, a note body or a frame's text box. */
  defer(container: ReadElement, group: 0 | 1): void {
    this.deferred.push({ container, group, seq: this.flow.nextSeq() });
  }

  /** Reads the queued stories (and those met inside them), each in its region. */
  readDeferred(): void {
    for (let i = 0; i < this.deferred.length; i++) {
      const { container, group, seq } = this.deferred[i]!;
      const start = this.flow.position;
      this.story(container);
      this.flow.addRegion(start, this.flow.position, group, seq);
    }
  }

  private blocks(parent: ReadElement): void {
    for (let n = parent.firstChild; n; n = n.nextSibling) {
      if (n.nodeType !== 1) continue;
      const el = n as ReadElement;
      if (el.namespaceURI === T) {
        if (el.localName === 'p' || el.localName === 'h') this.paragraph(el);
        else if (el.localName === 'list' || el.localName === 'list-item' || el.localName === 'list-header' || el.localName === 'section') this.blocks(el);
        else if (el.localName === 'change' || el.localName === 'change-start' || el.localName === 'change-end') this.mark(el);
      } else if (el.namespaceURI === NS.table) {
        if (el.localName === 'table-cell') this.story(el);
        else if (el.localName !== 'covered-table-cell') this.blocks(el);
      }
    }
  }

  private paragraph(p: ReadElement): void {
    this.inline(p);
    this.flow.appendParagraphEnd();
  }

  private inline(el: ReadElement): void {
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) this.flow.append((n.nodeValue ?? '').replace(/[ \t\r\n]+/g, ' '));
      else if (n.nodeType === 1) {
        const c = n as ReadElement;
        if (c.namespaceURI === NS.draw) {
          // A frame's text box, or a shape that is a Writer text box (its paragraphs are the shape's children;
          // plain shape text is not Writer text and holds no tracked changes).
          if (c.localName === 'frame') for (const box of kids(c, NS.draw, 'text-box')) this.defer(box, 1);
          else if (kids(c, T, 'p').length > 0 || kids(c, T, 'list').length > 0) this.defer(c, 1);
        } else if (c.namespaceURI === T) {
          switch (c.localName) {
            case 's':
              this.flow.append(' '.repeat(Number(c.getAttributeNS(T, 'c') || '1')));
              break;
            case 'tab':
              this.flow.append('\t');
              break;
            case 'line-break':
              this.flow.append('\n');
              break;
            case 'change':
            case 'change-start':
            case 'change-end':
              this.mark(c);
              break;
            case 'note': {
              // the citation is LibreOffice's anchor character; the body is a note story, kept before the body
              const noteBody = kids(c, T, 'note-body')[0];
              if (noteBody) this.defer(noteBody, 0);
              break;
            }
            default:
              this.inline(c);
          }
        }
      }
    }
  }

  /** text:change (a deletion: its text goes back in), text:change-start and text:change-end. */
  private mark(el: ReadElement): void {
    const id = el.getAttributeNS(T, 'change-id') ?? '';
    const region = this.regions.get(id);
    if (!region) return;
    if (el.localName === 'change') {
      if (region.deleted) this.flow.append(region.deleted.length > 0 ? region.deleted.join('\n') : '', region.data);
    } else if (el.localName === 'change-start') {
      this.open.set(id, { start: this.flow.position, story: this.flow.currentStory() });
    } else {
      const start = this.open.get(id);
      if (start) this.flow.appendRange(region.data, start.start, start.story);
      this.open.delete(id);
    }
  }
}

/**
 * The redline flow of an odt: office:text of content.xml with its notes and frames, and the headers and
 * footers of styles.xml, read from stream-built trees of the parts (`parts`, default) or from their DOM.
 * @throws StructureError bad_package when content.xml or styles.xml is not well-formed.
 */
export function readOdfRedlines(doc: StructureDocument, parts: PartReader = streamedParts): RedlineFlow {
  const regions = new Map<string, Region>();
  const collect = (container: ReadElement): void => {
    for (const tc of kids(container, T, 'tracked-changes')) {
      for (const region of kids(tc, T, 'changed-region')) {
        const r = regionOf(region);
        const id = region.getAttributeNS(T, 'id') || region.getAttribute('xml:id') || '';
        if (r && id) regions.set(id, r);
      }
    }
  };
  const walker = new OdtWalker(regions);
  // styles.xml is loaded first: the master pages' headers and footers are made before the body's frames.
  if (doc.has('styles.xml')) {
    const masters = kids(parts(doc, 'styles.xml'), NS.office, 'master-styles')[0];
    for (const page of masters ? kids(masters, NS.style, 'master-page') : []) {
      for (let n = page.firstChild; n; n = n.nextSibling) {
        const el = n as ReadElement;
        if (n.nodeType !== 1 || el.namespaceURI !== NS.style || !HEADER_FOOTER.has(el.localName ?? '')) continue;
        collect(el);
        walker.defer(el, 1);
      }
    }
  }
  const root = parts(doc, 'content.xml');
  const body = kids(root, NS.office, 'body')[0];
  const text = body ? kids(body, NS.office, 'text')[0] : undefined;
  if (text) {
    collect(text);
    walker.story(text);
  }
  walker.readDeferred();
  return walker.flow;
}

/** style:master-page children holding header/footer text (ODF 1.3 Part 3, 16.10-16.12). */
const HEADER_FOOTER: ReadonlySet<string> = new Set(['header', 'header-left', 'header-first', 'footer', 'footer-left', 'footer-first']);
