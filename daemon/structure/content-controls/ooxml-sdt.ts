import type { Element } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { REL, relationshipsOf, targetOfType } from '../package/opc-relationships.ts';
import { NS, childElements, firstChild } from '../xml/dom.ts';
import { DEFAULT_CHECKBOX_STATES, type CheckboxStates, type ContentControl, type ContentControlItem, type ContentControlType } from './content-control.ts';
import { writeBoundValue } from './ooxml-data-binding.ts';
import { firstRunProperties, replaceSdtContent, sdtContentText } from './ooxml-sdt-content.ts';

/**
 * DOCX content controls: w:sdt at block, run, row and cell level (ECMA-376 Part 1 17.5.2, CT_SdtBlock, CT_SdtRun,
 * CT_SdtRow, CT_SdtCell) with their properties w:sdtPr (CT_SdtPr) and the Word 2010 checkbox (w14:checkbox,
 * [MS-DOCX] 2.6.1).
 *
 * Which sdts count, and their order (docs/structure/content-controls.md):
 * - the main document story in document order, an outer control before the controls nested in it;
 * - a footnote's or endnote's controls where its reference stands (as LibreOffice's ODT has them: the note body
 *   sits inside the paragraph), so a docx and its ODT conversion number their controls alike;
 * - then the headers and footers, in the order the section properties reference them, each part once;
 * - not the glossary document (building blocks, word/glossary/), and not the gallery containers w:docPartObj,
 *   w:docPartList (TOC, cover pages, page numbers), w:group and w15:repeatingSection(Item), which hold content
 *   rather than a value; controls nested inside those do count.
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
const CONTAINERS = new Set(['docPartObj', 'docPartList', 'group', 'repeatingSection', 'repeatingSectionItem']);
/** CT_SdtPr's sequence before the type choice (17.5.2.38); elements not listed (the choice, w14/w15) come after. */
const SDT_PR_ORDER = ['rPr', 'alias', 'tag', 'id', 'lock', 'placeholder', 'temporary', 'showingPlcHdr', 'dataBinding', 'label', 'tabIndex'];

/** The content controls of a docx, in the order described in the module comment. */
export function findOoxmlSdts(doc: StructureDocument): OoxmlSdt[] {
  const main = targetOfType(doc.pkg, '', REL.officeDocument) ?? 'word/document.xml';
  if (!doc.has(main)) return [];
  const rels = relationshipsOf(doc.pkg, main);
  const relOfType = (suffix: string) => rels.find((r) => !r.external && r.type.endsWith(suffix));
  const notes = new Map<string, Map<string, Element>>();
  const noteOf = (kind: 'footnote' | 'endnote', id: string): Element | undefined => {
    let byId = notes.get(kind);
    if (!byId) {
      byId = new Map();
      const rel = relOfType(`/${kind}s`);
      if (rel && doc.has(rel.target)) for (const n of childElements(doc.xml(rel.target).documentElement!, NS.w, kind)) byId.set(n.getAttributeNS(NS.w, 'id') ?? '', n);
      notes.set(kind, byId);
    }
    return byId.get(id);
  };
  const out: OoxmlSdt[] = [];
  const headerIds: string[] = [];
  const glossary = rels.find((r) => !r.external && r.type === GLOSSARY)?.target;

  const walk = (el: Element, part: string): void => {
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType !== 1) continue;
      const c = n as Element;
      if (c.namespaceURI === NS.mc) {
        if (c.localName === 'AlternateContent') {
          const choice = firstChild(c, NS.mc, 'Choice');
          if (choice) walk(choice, part);
        }
        continue;
      }
      if (c.namespaceURI !== NS.w) {
        walk(c, part);
        continue;
      }
      switch (c.localName) {
        case 'sdt': {
          const sdtPr = firstChild(c, NS.w, 'sdtPr');
          const content = firstChild(c, NS.w, 'sdtContent');
          if (content && !(sdtPr && childElements(sdtPr).some((p) => CONTAINERS.has(p.localName ?? '')))) out.push(new OoxmlSdt(doc, part, c, content, glossary));
          if (content) walk(content, part);
          break;
        }
        case 'sectPr':
          for (const ref of childElements(c, NS.w)) if (ref.localName === 'headerReference' || ref.localName === 'footerReference') headerIds.push(ref.getAttributeNS(NS.r, 'id') ?? '');
          break;
        case 'footnoteReference':
        case 'endnoteReference': {
          const note = noteOf(c.localName === 'footnoteReference' ? 'footnote' : 'endnote', c.getAttributeNS(NS.w, 'id') ?? '');
          if (note) walk(note, relOfType(c.localName === 'footnoteReference' ? '/footnotes' : '/endnotes')!.target);
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
  walk(doc.xml(main).documentElement!, main);
  const seen = new Set<string>();
  for (const id of headerIds) {
    const target = rels.find((r) => r.id === id && !r.external)?.target;
    if (!target || seen.has(target) || !doc.has(target)) continue;
    seen.add(target);
    walk(doc.xml(target).documentElement!, target);
  }
  return out;
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

  private prop(name: string): string | undefined {
    const pr = firstChild(this.sdt, NS.w, 'sdtPr');
    const el = pr && firstChild(pr, NS.w, name);
    return el ? (el.getAttributeNS(NS.w, 'val') ?? '') : undefined;
  }

  /** The control type from the choice element of w:sdtPr; rich-text when there is none (Word's default). */
  type(): ContentControlType {
    const pr = firstChild(this.sdt, NS.w, 'sdtPr');
    for (const c of pr ? childElements(pr) : []) {
      const t = (c.namespaceURI === NS.w || (c.namespaceURI === NS.w14 && c.localName === 'checkbox')) && TYPE_OF_CHOICE[c.localName ?? ''];
      if (t) return t;
    }
    return 'rich-text';
  }

  identity(): Pick<ContentControlItem, 'id' | 'tag' | 'alias'> {
    const id = Number(this.prop('id') ?? 0);
    // w:id is a signed 32-bit number (ST_DecimalNumber); LibreOffice keeps it as sal_Int32.
    return { id: Number.isFinite(id) ? id | 0 : 0, tag: this.prop('tag') ?? '', alias: this.prop('alias') ?? '' };
  }

  item(): ContentControlItem {
    const type = this.type();
    const item: ContentControlItem = { ...this.identity(), content: sdtContentText(this.content), type };
    if (type === 'checkbox') item.Checked = String(this.isChecked());
    if (type === 'date') {
      const date = firstChild(this.pr, NS.w, 'date')!;
      item.DateFormat = attrOfChild(date, 'dateFormat');
      item.DateLanguage = attrOfChild(date, 'lid');
      item.CurrentDate = date.getAttributeNS(NS.w, 'fullDate') ?? '';
    }
    return item;
  }

  private checkbox(): Element | undefined {
    return firstChild(this.pr, NS.w14, 'checkbox');
  }

  private isChecked(): boolean {
    const checked = this.checkbox() && firstChild(this.checkbox()!, NS.w14, 'checked');
    const v = checked?.getAttributeNS(NS.w14, 'val') ?? '0';
    return v === '1' || v === 'true' || v === 'on';
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
    const rank = (c: Element) => (c.namespaceURI === NS.w && SDT_PR_ORDER.includes(c.localName ?? '') ? SDT_PR_ORDER.indexOf(c.localName!) : SDT_PR_ORDER.length);
    const before = childElements(pr).find((c) => rank(c) > SDT_PR_ORDER.indexOf(name));
    pr.insertBefore(el, before ?? null);
    return el;
  }

  private removeProp(name: string): void {
    const el = firstChild(this.pr, NS.w, name);
    if (el) el.parentNode!.removeChild(el);
  }
}

function attrOfChild(parent: Element, name: string): string {
  return firstChild(parent, NS.w, name)?.getAttributeNS(NS.w, 'val') ?? '';
}
