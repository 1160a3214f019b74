import type { Element } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { REL } from '../package/opc-relationships.ts';
import { NS, childElements, firstChild } from '../xml/dom.ts';
import {
  childrenThroughAlternates,
  domParts,
  readChild,
  readChildren,
  readRelationships,
  streamedParts,
  type PartReader,
  type ReadElement,
} from '../xml/read-tree.ts';
import { DEFAULT_CHECKBOX_STATES, type CheckboxStates, type ContentControl, type ContentControlItem, type ContentControlType } from './content-control.ts';
import { writeBoundValue } from './ooxml-data-binding.ts';
import { firstRunProperties, replaceSdtContent, sdtContentText } from './ooxml-sdt-content.ts';

/**
 * DOCX content controls: w:sdt at block, run, row and cell level (ECMA-376 Part 1 17.5.2, CT_SdtBlock, CT_SdtRun,
 * CT_SdtRow, CT_SdtCell) with their properties w:sdtPr (CT_SdtPr) and the Word 2010 checkbox (w14:checkbox,
 * [MS-DOCX] 2.6.1).
 *
 * Which sdts count, and their order (docs/structure/content-controls.md), LibreOffice's order (its content
 * control list is sorted by node position, and Writer's nodes hold the notes, then headers and footers, then the
 * body):
 * - first the footnotes' and endnotes' controls, in the order of their references in the body;
 * - then the headers and footers, in the order the section properties reference them, each part once;
 * - then the main document story in document order, an outer control before the controls nested in it;
 * - not the glossary document (building blocks, word/glossary/), and not the gallery containers w:docPartObj,
 *   w:docPartList (TOC, cover pages, page numbers), w:group and w15:repeatingSection, which hold content
 *   rather than a value; controls nested inside those do count, and so does each w15:repeatingSectionItem.
 */

const GLOSSARY = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/glossaryDocument';
const TYPE_OF_CHOICE: Readonly<Record<string, ContentControlType>> = {
  checkbox: 'checkbox',
  dropDownList: 'drop-down-list',
  comboBox: 'combo-box',
  date: 'date',
  text: 'plain-text',
  richText: 'rich-text',
  picture: 'picture',
};
const CONTAINERS = new Set(['docPartObj', 'docPartList', 'group', 'repeatingSection']);
/** CT_SdtPr's sequence before the type choice (17.5.2.38); elements not listed (the choice, w14/w15) come after. */
const SDT_PR_ORDER = ['rPr', 'alias', 'tag', 'id', 'lock', 'placeholder', 'temporary', 'showingPlcHdr', 'dataBinding', 'label', 'tabIndex'];

/** A w:sdt the walk counts: its part, the sdt and its w:sdtContent. */
interface FoundSdt<E extends ReadElement> {
  part: string;
  sdt: E;
  content: E;
}

/**
 * The counted w:sdt of a docx in the order described in the module comment, with the glossary part, read through
 * `parts`: the DOM (`domParts`: the elements are @xmldom/xmldom elements, for writing) or stream-built trees.
 * @throws StructureError bad_package when a part is not well-formed.
 */
function walkSdts<E extends ReadElement>(doc: StructureDocument, parts: PartReader): { found: FoundSdt<E>[]; glossary?: string } {
  const types: readonly string[] = REL.officeDocument;
  const main = readRelationships(doc, '', parts).find((r) => !r.external && types.includes(r.type))?.target ?? 'word/document.xml';
  if (!doc.has(main)) return { found: [] };
  const rels = readRelationships(doc, main, parts);
  const relOfType = (suffix: string) => rels.find((r) => !r.external && r.type.endsWith(suffix));
  const notes = new Map<string, Map<string, ReadElement>>();
  const noteOf = (kind: 'footnote' | 'endnote', id: string): ReadElement | undefined => {
    let byId = notes.get(kind);
    if (!byId) {
      byId = new Map();
      const rel = relOfType(`/${kind}s`);
      if (rel && doc.has(rel.target)) for (const n of readChildren(parts(doc, rel.target), NS.w, kind)) byId.set(n.getAttributeNS(NS.w, 'id') ?? '', n);
      notes.set(kind, byId);
    }
    return byId.get(id);
  };
  const body: FoundSdt<E>[] = [];
  const inNotes: FoundSdt<E>[] = [];
  const inHeaders: FoundSdt<E>[] = [];
  let found = body;
  const headerIds: string[] = [];
  const glossary = rels.find((r) => !r.external && r.type === GLOSSARY)?.target;

  const walk = (el: ReadElement, part: string): void => {
    for (const c of childrenThroughAlternates(el)) {
      if (c.namespaceURI !== NS.w) {
        walk(c, part);
        continue;
      }
      switch (c.localName) {
        case 'sdt': {
          const sdtPr = readChild(c, NS.w, 'sdtPr');
          const content = readChild(c, NS.w, 'sdtContent');
          // The parts' elements are of the reader's kind: E (DOM elements from domParts).
          if (content && !(sdtPr && readChildren(sdtPr).some((p) => CONTAINERS.has(p.localName ?? ''))))
            found.push({ part, sdt: c as E, content: content as E });
          if (content) walk(content, part);
          break;
        }
        case 'sectPr':
          for (const ref of readChildren(c, NS.w))
            if (ref.localName === 'headerReference' || ref.localName === 'footerReference') headerIds.push(ref.getAttributeNS(NS.r, 'id') ?? '');
          break;
        case 'footnoteReference':
        case 'endnoteReference': {
          const note = noteOf(c.localName === 'footnoteReference' ? 'footnote' : 'endnote', c.getAttributeNS(NS.w, 'id') ?? '');
          if (note) {
            const outer = found;
            found = inNotes;
            walk(note, relOfType(c.localName === 'footnoteReference' ? '/footnotes' : '/endnotes')!.target);
            found = outer;
          }
          break;
        }
        case 'rPr':
        case 'sdtPr':
        case 'sdtEndPr':
        case 'tblPr':
        case 'trPr':
        case 'tcPr':
          break;
        default:
          walk(c, part);
      }
    }
  };
  walk(parts(doc, main), main);
  found = inHeaders;
  const seen = new Set<string>();
  for (const id of headerIds) {
    const target = rels.find((r) => r.id === id && !r.external)?.target;
    if (!target || seen.has(target) || !doc.has(target)) continue;
    seen.add(target);
    walk(parts(doc, target), target);
  }
  return { found: [...inNotes, ...inHeaders, ...body], glossary };
}

/** The content controls of a docx, in the order described in the module comment, over the parts' DOM (writable). */
export function findOoxmlSdts(doc: StructureDocument): OoxmlSdt[] {
  const { found, glossary } = walkSdts<Element>(doc, domParts);
  return found.map((f) => new OoxmlSdt(doc, f.part, f.sdt, f.content, glossary));
}

/**
 * The extraction items of a docx's content controls (what `OoxmlSdt.item()` gives, in the same order), read
 * through `parts` (default: stream-built trees, no DOM).
 * @throws StructureError bad_package when a part is not well-formed.
 */
export function ooxmlSdtItems(doc: StructureDocument, parts: PartReader = streamedParts): ContentControlItem[] {
  return walkSdts(doc, parts).found.map((f) => sdtItem(f.sdt, f.content));
}

/** The control type from the choice element of w:sdtPr; rich-text when there is none (Word's default). */
function sdtType(sdt: ReadElement): ContentControlType {
  const pr = readChild(sdt, NS.w, 'sdtPr');
  for (const c of pr ? readChildren(pr) : []) {
    const t = (c.namespaceURI === NS.w || (c.namespaceURI === NS.w14 && c.localName === 'checkbox')) && TYPE_OF_CHOICE[c.localName ?? ''];
    if (t) return t;
  }
  return 'rich-text';
}

/** The w:val of the w:sdtPr child `name`; undefined when there is no such child. */
function sdtProp(sdt: ReadElement, name: string): string | undefined {
  const pr = readChild(sdt, NS.w, 'sdtPr');
  const el = pr && readChild(pr, NS.w, name);
  return el ? (el.getAttributeNS(NS.w, 'val') ?? '') : undefined;
}

function sdtIdentity(sdt: ReadElement): Pick<ContentControlItem, 'id' | 'tag' | 'alias'> {
  const id = Number(sdtProp(sdt, 'id') ?? 0);
  // w:id is a signed 32-bit number (ST_DecimalNumber); LibreOffice keeps it as sal_Int32.
  return { id: Number.isFinite(id) ? id | 0 : 0, tag: sdtProp(sdt, 'tag') ?? '', alias: sdtProp(sdt, 'alias') ?? '' };
}

/** True when a w14:checkbox's w14:checked is on. */
function sdtChecked(sdt: ReadElement): boolean {
  const pr = readChild(sdt, NS.w, 'sdtPr');
  const box = pr && readChild(pr, NS.w14, 'checkbox');
  const checked = box && readChild(box, NS.w14, 'checked');
  const v = checked?.getAttributeNS(NS.w14, 'val') ?? '0';
  return v === '1' || v === 'true' || v === 'on';
}

/** The extraction item of one w:sdt and its w:sdtContent. */
function sdtItem(sdt: ReadElement, content: ReadElement): ContentControlItem {
  const type = sdtType(sdt);
  const item: ContentControlItem = { ...sdtIdentity(sdt), content: sdtContentText(content), type };
  if (type === 'checkbox') item.Checked = String(sdtChecked(sdt));
  if (type === 'date') {
    // a date type means w:sdtPr/w:date exists
    const date = readChild(readChild(sdt, NS.w, 'sdtPr')!, NS.w, 'date')!;
    item.DateFormat = attrOfChild(date, 'dateFormat');
    item.DateLanguage = attrOfChild(date, 'lid');
    // LibreOffice keeps the date without the zone Word writes (2012-01-11T00:00:00Z -> 2012-01-11T00:00:00).
    item.CurrentDate = (date.getAttributeNS(NS.w, 'fullDate') ?? '').replace(/^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})$/, '$1');
  }
  return item;
}

/** One w:sdt of a docx (see the module comment), read and written in place in its part's DOM. */
export class OoxmlSdt implements ContentControl {
  constructor(
    private readonly doc: StructureDocument,
    /** The part holding the sdt, e.g. `word/document.xml`, `word/footnotes.xml`, `word/header1.xml`. */
    readonly part: string,
    private readonly sdt: Element,
    private readonly content: Element,
    /** The glossary document part (building blocks, where placeholder texts live), if any. */
    private readonly glossary: string | undefined,
  ) {}

  /** w:sdtPr or an empty stand-in, for reading: reading never changes the DOM. */
  private get pr(): Element {
    return firstChild(this.sdt, NS.w, 'sdtPr') ?? this.sdt.ownerDocument!.createElementNS(NS.w, 'w:sdtPr');
  }

  /** w:sdtPr, created when missing, for writing. */
  private get sdtPr(): Element {
    let pr = firstChild(this.sdt, NS.w, 'sdtPr');
    if (!pr) {
      pr = this.sdt.ownerDocument!.createElementNS(NS.w, 'w:sdtPr');
      this.sdt.insertBefore(pr, this.sdt.firstChild);
    }
    return pr;
  }

  /** The control type from the choice element of w:sdtPr; rich-text when there is none (Word's default). */
  type(): ContentControlType {
    return sdtType(this.sdt);
  }

  identity(): Pick<ContentControlItem, 'id' | 'tag' | 'alias'> {
    return sdtIdentity(this.sdt);
  }

  item(): ContentControlItem {
    return sdtItem(this.sdt, this.content);
  }

  private checkbox(): Element | undefined {
    return firstChild(this.pr, NS.w14, 'checkbox');
  }

  checkboxStates(): CheckboxStates | undefined {
    const box = this.checkbox();
    if (!box) return undefined;
    const glyph = (name: string, fallback: string) => {
      const code = parseInt(firstChild(box, NS.w14, name)?.getAttributeNS(NS.w14, 'val') ?? '', 16);
      return Number.isFinite(code) ? String.fromCodePoint(code) : fallback;
    };
    return { checked: glyph('checkedState', DEFAULT_CHECKBOX_STATES.checked), unchecked: glyph('uncheckedState', DEFAULT_CHECKBOX_STATES.unchecked) };
  }

  setContent(text: string): void {
    let shown = text;
    let rPr = firstRunProperties(this.content);
    // A control showing its placeholder shows it in the placeholder's style (Word: "PlaceholderText", grey); the
    // value that replaces it should not be grey.
    const rStyle = rPr && firstChild(rPr, NS.w, 'rStyle');
    if (rStyle && firstChild(this.pr, NS.w, 'showingPlcHdr') && rStyle.getAttributeNS(NS.w, 'val') === 'PlaceholderText') {
      rPr!.removeChild(rStyle);
      if (childElements(rPr!).length === 0) rPr = undefined;
    }
    const placeholder = text === '' ? this.placeholder() : undefined;
    if (placeholder) {
      shown = placeholder.text;
      rPr = placeholder.rPr ?? rPr;
    }
    replaceSdtContent(this.content, shown, rPr);
    if (placeholder) this.insertProp('showingPlcHdr');
    else this.removeProp('showingPlcHdr');
    // A bound date keeps its value in the store (as a date unless stored as text): content changes only the text.
    const date = firstChild(this.pr, NS.w, 'date');
    if (!date || attrOfChild(date, 'storeMappedDataAs') === 'text') this.writeBinding(text);
    this.doc.markChanged(this.part);
  }

  setChecked(checked: boolean): void {
    const box = this.checkbox()!;
    let flag = firstChild(box, NS.w14, 'checked');
    if (!flag) {
      flag = box.ownerDocument!.createElementNS(NS.w14, 'w14:checked');
      box.insertBefore(flag, box.firstChild);
    }
    flag.setAttributeNS(NS.w14, 'w14:val', checked ? '1' : '0');
    const states = this.checkboxStates()!;
    replaceSdtContent(this.content, checked ? states.checked : states.unchecked, firstRunProperties(this.content));
    this.removeProp('showingPlcHdr');
    this.writeBinding(String(checked));
    this.doc.markChanged(this.part);
  }

  setAlias(alias: string): void {
    this.insertProp('alias').setAttributeNS(NS.w, 'w:val', alias);
    this.doc.markChanged(this.part);
  }

  setDate(iso: string): void {
    const date = firstChild(this.pr, NS.w, 'date')!;
    date.setAttributeNS(NS.w, 'w:fullDate', iso);
    const storedAs = attrOfChild(date, 'storeMappedDataAs') || 'dateTime';
    if (storedAs !== 'text') this.writeBinding(storedAs === 'date' ? iso.slice(0, 10) : iso.replace(/(Z|[+-]\d\d:?\d\d)$/, ''));
    this.doc.markChanged(this.part);
  }

  /** Writes the bound custom XML node; drops the binding when it cannot be followed (ooxml-data-binding.ts). */
  private writeBinding(value: string): void {
    const binding = firstChild(this.pr, NS.w, 'dataBinding');
    if (binding && !writeBoundValue(this.doc, binding, value)) binding.parentNode!.removeChild(binding);
  }

  /** The placeholder text Word shows for this control: its w:placeholder/w:docPart in the glossary document. */
  private placeholder(): { text: string; rPr?: Element } | undefined {
    const ph = firstChild(this.pr, NS.w, 'placeholder');
    const name = ph && firstChild(ph, NS.w, 'docPart')?.getAttributeNS(NS.w, 'val');
    if (!name || !this.glossary || !this.doc.has(this.glossary)) return undefined;
    const parts = firstChild(this.doc.xml(this.glossary).documentElement!, NS.w, 'docParts');
    for (const docPart of parts ? childElements(parts, NS.w, 'docPart') : []) {
      const pr = firstChild(docPart, NS.w, 'docPartPr');
      if (!pr || attrOfChild(pr, 'name') !== name) continue;
      const body = firstChild(docPart, NS.w, 'docPartBody');
      if (!body) return undefined;
      return { text: sdtContentText(body), rPr: firstRunProperties(body) };
    }
    return undefined;
  }

  /** The w:sdtPr child `name`, created at its place in CT_SdtPr's sequence when missing. */
  private insertProp(name: string): Element {
    const pr = this.sdtPr;
    const existing = firstChild(pr, NS.w, name);
    if (existing) return existing;
    const el = pr.ownerDocument!.createElementNS(NS.w, `w:${name}`);
    const rank = (c: Element) =>
      c.namespaceURI === NS.w && SDT_PR_ORDER.includes(c.localName ?? '') ? SDT_PR_ORDER.indexOf(c.localName!) : SDT_PR_ORDER.length;
    const before = childElements(pr).find((c) => rank(c) > SDT_PR_ORDER.indexOf(name));
    pr.insertBefore(el, before ?? null);
    return el;
  }

  private removeProp(name: string): void {
    const el = firstChild(this.pr, NS.w, name);
    if (el) el.parentNode!.removeChild(el);
  }
}

function attrOfChild(parent: ReadElement, name: string): string {
  return readChild(parent, NS.w, name)?.getAttributeNS(NS.w, 'val') ?? '';
}
