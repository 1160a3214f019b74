import type { Element, Node } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { NS, childElements } from '../xml/dom.ts';
import { domParts, readChild, readChildren, streamedParts, type PartReader, type ReadElement } from '../xml/read-tree.ts';
import { detachInDocumentOrder } from './document-order.ts';
import { DEFAULT_CHECKBOX_STATES, type CheckboxStates, type ContentControl, type ContentControlItem, type ContentControlType } from './content-control.ts';

/**
 * ODT content controls: LibreOffice's `loext:content-control` text-level element (LibreOffice 7.4+, not yet in
 * ODF 1.3; xmloff/source/text/xmlcontentcontrolcontext.cxx). Its attributes: loext:showing-place-holder,
 * loext:checkbox, loext:checked, loext:checked-state, loext:unchecked-state, loext:picture, loext:date,
 * loext:date-format, loext:date-rfc-language-tag, loext:current-date, loext:plain-text, loext:combobox,
 * loext:dropdown, loext:alias, loext:tag, loext:id (the last ones from 7.5 on); list entries are
 * `loext:list-item` children with loext:display-text and loext:value.
 *
 * Order, LibreOffice's (its list is sorted by node position; Writer's nodes hold notes, then headers and footers,
 * then the body): the controls in content.xml's notes (text:note) in document order, then the headers and footers
 * of styles.xml's master pages, then the rest of content.xml's office:text in document order. The type follows LibreOffice's SwContentControl::GetType:
 * checkbox, combo box, list (drop-down), picture, date, plain text, else rich text.
 */

const XML_SPACE_RUN = /[ \t\r\n]+/g;

/** The loext:content-control elements of an odt with their parts, in the order described in the module comment. */
function findControls(doc: StructureDocument, parts: PartReader): Array<{ part: string; el: ReadElement }> {
  const notes: Array<{ part: string; el: ReadElement }> = [];
  const headers: Array<{ part: string; el: ReadElement }> = [];
  const body: Array<{ part: string; el: ReadElement }> = [];
  for (const part of ['content.xml', 'styles.xml']) {
    if (!doc.has(part)) continue;
    const root = parts(doc, part);
    const scope = part === 'content.xml' ? readChild(root, NS.office, 'body') : readChild(root, NS.office, 'master-styles');
    if (!scope) continue;
    const found = scope.getElementsByTagNameNS(NS.loext, 'content-control');
    for (let i = 0; i < found.length; i++) (part === 'styles.xml' ? headers : inNote(found[i]!) ? notes : body).push({ part, el: found[i]! });
  }
  return [...notes, ...headers, ...body];
}

/** True when the element is inside a text:note (a footnote's or endnote's body). */
function inNote(el: ReadElement): boolean {
  for (let n = el.parentNode as ReadElement | null; n && n.nodeType === 1; n = n.parentNode as ReadElement | null)
    if (n.namespaceURI === NS.text && n.localName === 'note') return true;
  return false;
}

/** The content controls of an odt, in the order described in the module comment, over the parts' DOM (writable). */
export function findOdfContentControls(doc: StructureDocument): OdfContentControl[] {
  // domParts gives @xmldom/xmldom elements.
  return findControls(doc, domParts).map((c) => new OdfContentControl(doc, c.part, c.el as unknown as Element));
}

/**
 * The extraction items of an odt's content controls (what `OdfContentControl.item()` gives, in the same order),
 * read through `parts` (default: stream-built trees, no DOM).
 * @throws StructureError bad_package when content.xml or styles.xml is not well-formed.
 */
export function odfContentControlItems(doc: StructureDocument, parts: PartReader = streamedParts): ContentControlItem[] {
  return findControls(doc, parts).map((c) => odfControlItem(c.el));
}

/** A loext: attribute of a control; undefined when it has none. */
function controlAttr(el: ReadElement, name: string): string | undefined {
  return el.getAttributeNS(NS.loext, name) ?? undefined;
}

/** The type as LibreOffice derives it (see the module comment). */
function controlType(el: ReadElement): ContentControlType {
  const flag = (name: string) => controlAttr(el, name) === 'true';
  if (flag('checkbox')) return 'checkbox';
  if (flag('combobox')) return 'combo-box';
  if (flag('dropdown') || readChildren(el, NS.loext, 'list-item').length > 0) return 'drop-down-list';
  if (flag('picture')) return 'picture';
  if (flag('date')) return 'date';
  if (flag('plain-text')) return 'plain-text';
  return 'rich-text';
}

function controlIdentity(el: ReadElement): Pick<ContentControlItem, 'id' | 'tag' | 'alias'> {
  const id = Number(controlAttr(el, 'id') ?? 0);
  return { id: Number.isFinite(id) ? id | 0 : 0, tag: controlAttr(el, 'tag') ?? '', alias: controlAttr(el, 'alias') ?? '' };
}

/** The extraction item of one loext:content-control. */
function odfControlItem(el: ReadElement): ContentControlItem {
  const type = controlType(el);
  const item: ContentControlItem = { ...controlIdentity(el), content: odfText(el), type };
  if (type === 'checkbox') item.Checked = String(controlAttr(el, 'checked') === 'true');
  if (type === 'date') {
    item.DateFormat = controlAttr(el, 'date-format') ?? '';
    item.DateLanguage = controlAttr(el, 'date-rfc-language-tag') ?? '';
    item.CurrentDate = controlAttr(el, 'current-date') ?? '';
  }
  return item;
}

/** The text of ODF paragraph content as shown (ODF 1.3 part 3, 6.1: white space, text:s, text:tab, text:line-break). */
export function odfText(el: ReadElement): string {
  let out = '';
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 3 || n.nodeType === 4) {
      out += (n.nodeValue ?? '').replace(XML_SPACE_RUN, ' ');
      continue;
    }
    if (n.nodeType !== 1) continue;
    const c = n as ReadElement;
    if (c.namespaceURI === NS.text) {
      if (c.localName === 's') out += ' '.repeat(Math.max(1, Number(c.getAttributeNS(NS.text, 'c') ?? '1') || 1));
      else if (c.localName === 'tab') out += '\t';
      else if (c.localName === 'line-break') out += '\n';
      else if (c.localName === 'note' || c.localName === 'bookmark' || c.localName === 'bookmark-start' || c.localName === 'bookmark-end') continue;
      else out += odfText(c);
    } else if (c.namespaceURI === NS.office && c.localName === 'annotation') {
      continue;
    } else if (c.namespaceURI === NS.loext && c.localName === 'list-item') {
      continue;
    } else if (c.namespaceURI !== NS.draw) {
      out += odfText(c);
    }
  }
  return out;
}

/** Appends `text` to `parent` as ODF text: tabs as text:tab, line breaks as text:line-break, repeated or leading spaces as text:s. */
export function appendOdfText(parent: Element, text: string): void {
  const doc = parent.ownerDocument!;
  let plain = '';
  const flush = () => {
    if (plain) parent.appendChild(doc.createTextNode(plain));
    plain = '';
  };
  let spaces = 0;
  const flushSpaces = (atStart: boolean) => {
    if (spaces === 0) return;
    // One space after other text stays a character; every further one (and a leading one) needs text:s.
    if (!atStart) {
      plain += ' ';
      spaces--;
    }
    if (spaces > 0) {
      flush();
      const s = doc.createElementNS(NS.text, 'text:s');
      if (spaces > 1) s.setAttributeNS(NS.text, 'text:c', String(spaces));
      parent.appendChild(s);
    }
    spaces = 0;
  };
  let atStart = true;
  for (const ch of text.replace(/\r\n?/g, '\n')) {
    if (ch === ' ') {
      spaces++;
      continue;
    }
    flushSpaces(atStart);
    if (ch === '\t' || ch === '\n') {
      flush();
      parent.appendChild(doc.createElementNS(NS.text, ch === '\t' ? 'text:tab' : 'text:line-break'));
      atStart = true;
    } else {
      plain += ch;
      atStart = false;
    }
  }
  flushSpaces(atStart);
  flush();
}

/** Range markers (ODF 1.3 part 3, 6.2.1 bookmarks, 6.6.3 reference marks, 14.2 annotations) and their name attribute. */
const RANGE_MARKERS: ReadonlyArray<[string, string, string]> = [
  [NS.text, 'bookmark-start', 'bookmark-end'],
  [NS.text, 'reference-mark-start', 'reference-mark-end'],
  [NS.office, 'annotation', 'annotation-end'],
];

/**
 * The range markers inside `el` whose other end (same name) is outside it, detached and in document order: they
 * stay when the content is replaced, so no range is left with one end. Pairs wholly inside go with the content.
 */
function unpairedMarkers(el: Element): Element[] {
  const kept: Element[] = [];
  for (const [ns, start, end] of RANGE_MARKERS) {
    const nameNs = ns === NS.office ? NS.office : NS.text;
    const byName = new Map<string, Element[]>();
    for (const local of [start, end]) {
      const list = el.getElementsByTagNameNS(ns, local);
      for (let i = 0; i < list.length; i++) {
        const name = list[i].getAttributeNS(nameNs, 'name') ?? '';
        if (name === '') continue;
        byName.set(name, [...(byName.get(name) ?? []), list[i]]);
      }
    }
    for (const marks of byName.values()) if (marks.length === 1) kept.push(marks[0]);
  }
  return detachInDocumentOrder(el, kept);
}

/** One loext:content-control of an odt, read and written in place in its part's DOM. */
export class OdfContentControl implements ContentControl {
  constructor(
    private readonly doc: StructureDocument,
    /** `content.xml` or `styles.xml`. */
    readonly part: string,
    private readonly el: Element,
  ) {}

  private attr(name: string): string | undefined {
    return controlAttr(this.el, name);
  }

  private flag(name: string): boolean {
    return this.attr(name) === 'true';
  }

  /** The type as LibreOffice derives it (see the module comment). */
  type(): ContentControlType {
    return controlType(this.el);
  }

  identity(): Pick<ContentControlItem, 'id' | 'tag' | 'alias'> {
    return controlIdentity(this.el);
  }

  item(): ContentControlItem {
    return odfControlItem(this.el);
  }

  checkboxStates(): CheckboxStates | undefined {
    if (this.type() !== 'checkbox') return undefined;
    return {
      checked: this.attr('checked-state') || DEFAULT_CHECKBOX_STATES.checked,
      unchecked: this.attr('unchecked-state') || DEFAULT_CHECKBOX_STATES.unchecked,
    };
  }

  /** Replaces the children (list items stay) by `text`, inside a copy of the first text:span when there is one (not a placeholder's). */
  private replaceText(text: string): void {
    // While the placeholder shows, the span carries the placeholder's style ("Placeholder Text"): not kept.
    const span = this.flag('showing-place-holder') ? undefined : childElements(this.el).find((c) => c.namespaceURI === NS.text && c.localName === 'span');
    const keep: Node[] = unpairedMarkers(this.el);
    for (let n = this.el.firstChild; n; ) {
      const next = n.nextSibling;
      if (n.nodeType === 1 && (n as Element).namespaceURI === NS.loext && (n as Element).localName === 'list-item') keep.push(n);
      this.el.removeChild(n);
      n = next;
    }
    for (const k of keep) this.el.appendChild(k);
    let target = this.el;
    if (span) {
      target = span.cloneNode(false) as Element;
      this.el.appendChild(target);
    }
    appendOdfText(target, text);
  }

  setContent(text: string): void {
    // ODF keeps no placeholder text to restore: "" leaves the control empty.
    this.replaceText(text);
    this.el.removeAttributeNS(NS.loext, 'showing-place-holder');
    this.doc.markChanged(this.part);
  }

  setChecked(checked: boolean): void {
    const states = this.checkboxStates()!;
    this.el.setAttributeNS(NS.loext, 'loext:checked', String(checked));
    this.replaceText(checked ? states.checked : states.unchecked);
    this.el.removeAttributeNS(NS.loext, 'showing-place-holder');
    this.doc.markChanged(this.part);
  }

  setAlias(alias: string): void {
    this.el.setAttributeNS(NS.loext, 'loext:alias', alias);
    this.doc.markChanged(this.part);
  }

  setDate(iso: string): void {
    this.el.setAttributeNS(NS.loext, 'loext:current-date', iso);
    this.doc.markChanged(this.part);
  }
}
