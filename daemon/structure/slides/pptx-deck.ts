/**
 * A PPTX presentation as a `SlideDeck` (ECMA-376 Part 1, 19.2 presentation.xml p:sldIdLst; 19.3 slides, slide
 * layouts, slide masters), seen the way LibreOffice 7.4's PPTX import sees it (docs/structure/slides.md):
 *  - master slides: one per slide layout used by a slide, in order of first use; named after the layout's
 *    p:cSld/@name unless that name is taken, else "Default", "Default 1", ...;
 *  - slide names: p:cSld/@name, else the title text (" (2)", " (3)" for repeats), else the dynamic "Slide <n>";
 *  - layout id: the AutoLayout LibreOffice derives from p:sldLayout/@type;
 *  - objects: pptx-shapes.ts.
 * Changes go through the document's parsed parts (relationships, content types, presentation.xml), so they are
 * written at save and untouched parts are copied.
 */
import type { Document, Element } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { StructureError } from '../errors.ts';
import { addOverride, removeOverride } from '../package/content-types.ts';
import { addRelationship, relativeTarget, relsPartName, removeRelationship, removeRelsPart } from '../package/opc-relationships.ts';
import { NS, childElements, firstChild, parseXml } from '../xml/dom.ts';
import { readChild, readChildren, type PrunedView, type ReadElement } from '../xml/read-tree.ts';
import { domOf, partRoot, partView, putDom, relationshipsOf, removeDom, tookAsDom } from './part-reads.ts';
import type { SlideDeck, TextObjectEditor } from './deck.ts';
import type { SlideItem, SlidesResult } from './index.ts';
import { SLIDE_LAYOUTS, autoLayoutName, autoLayoutOfType, layoutTypesFor } from './pptx-autolayout.ts';
import { HEADER_FOOTER_TYPES, describeObject, emptyPlaceholder, isTextShape, placeholderOf, placeholderType, slideObjects, titleText } from './pptx-shapes.ts';
import { PptxTextBody } from './pptx-text.ts';

const REL_BASE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';
const SLIDE_CT = 'application/vnd.openxmlformats-officedocument.presentationml.slide+xml';
const P14 = 'http://schemas.microsoft.com/office/powerpoint/2010/main';
/** Placeholders a new slide does not copy from its layout (they become header/footer settings). */
const HEADER_FOOTER_PH = new Set(['dt', 'ftr', 'sldNum', 'hdr']);

function relType(type: string, name: string): boolean {
  return type.endsWith(`/${name}`);
}

/** One slide: its p:sldId (of a read tree or the DOM), relationship id and part. */
interface SlideRef<E extends ReadElement = ReadElement> {
  sldId: E;
  rId: string;
  part: string;
}

/**
 * What the decks read of a slide layout part: the root (p:sldLayout/@type) and its first p:cSld (@name), the rest
 * of the part not read.
 */
const LAYOUT_HEAD: PrunedView = {
  name: 'pptx-layout-head',
  prune: (el) => (el.depth === 0 ? 'keep' : el.depth === 1 && el.ns === NS.p && el.local === 'cSld' ? 'stop' : 'drop'),
};

/**
 * What slide names need of a slide part (`titleText`): p:cSld (@name) and, in its p:spTree, the p:sp shapes with their
 * non-visual properties (the placeholder type) and the text of their text body (a:p, its a:r, a:br and a:fld, their
 * a:t); the rest (geometry, pictures, timing, text formatting) is not kept, and skipped unparsed. For commands that
 * look slides up by name; the extraction reads whole slides and names them from those trees.
 */
const SLIDE_NAMES: PrunedView = {
  name: 'pptx-slide-names',
  prune: (el, parent) => {
    if (el.depth === 0) return 'keep';
    if (el.depth === 1) return el.ns === NS.p && el.local === 'cSld' ? 'keep' : 'drop';
    if (el.depth === 2) return el.ns === NS.p && el.local === 'spTree' ? 'keep' : 'drop';
    if (el.depth === 3) return el.ns === NS.p && el.local === 'sp' ? 'keep' : 'drop';
    if (el.depth === 4) return el.ns === NS.p && (el.local.startsWith('nv') || el.local === 'txBody') ? 'keep' : 'drop';
    const inText = parent?.namespaceURI === NS.a || parent?.localName === 'txBody';
    if (!inText) return 'keep';
    if (el.depth === 5) return el.ns === NS.a && el.local === 'p' ? 'keep' : 'drop';
    if (el.depth === 6) return el.ns === NS.a && (el.local === 'r' || el.local === 'br' || el.local === 'fld') ? 'keep' : 'drop';
    return el.depth === 7 && el.ns === NS.a && el.local === 't' ? 'keep' : 'drop';
  },
};

/** Formatting elements: the slide rules ask only whether they have content (pptx-shapes.ts hasNoVisualProperties). */
const FORMATTING: ReadonlySet<string> = new Set(['spPr', 'grpSpPr', 'style', 'bodyPr', 'lstStyle', 'pPr', 'rPr', 'endParaRPr', 'tblPr', 'tcPr']);

function isFormatting(ns: string | null, local: string | null): boolean {
  return FORMATTING.has(local ?? '') && (ns === NS.p || ns === NS.a);
}

/**
 * True when the formatting of a shape that holds `parent` is read: `parent` is in a p:sp that is a footer,
 * slide-number or date placeholder (pptx-shapes.ts HEADER_FOOTER_TYPES), the only shapes whose formatting the rules
 * look at, or whose placeholder is not known yet (its non-visual properties come later, against the schema's
 * order). Called at a start tag: what precedes it in the part is in the tree.
 */
function formattingRead(parent: ReadElement): boolean {
  for (let n: ReadElement | null = parent; n; n = n.parentNode as ReadElement | null) {
    if (n.localName !== 'sp' || n.namespaceURI !== NS.p) continue;
    // placeholderType's reading (pptx-shapes.ts placeholderOf: the first p:nv* child), without making arrays
    for (let c = n.firstChild; c; c = c.nextSibling) {
      if (c.nodeType !== 1 || c.namespaceURI !== NS.p || !c.localName?.startsWith('nv')) continue;
      const nvPr = readChild(c as ReadElement, NS.p, 'nvPr');
      const ph = nvPr && readChild(nvPr, NS.p, 'ph');
      return ph !== undefined && HEADER_FOOTER_TYPES.has(ph.getAttribute('type') || 'obj');
    }
    return true;
  }
  return false;
}

/**
 * The elements of a slide the objects and names do not read (SLIDE_OBJECTS): every child of the root but p:cSld
 * (transition, timing, extensions), every child of p:cSld but p:spTree (the background), and the formatting elements
 * (FORMATTING, in the p: and a: namespaces) of shapes whose formatting is not read (`formattingRead`).
 */
function droppedFromSlide(ns: string, local: string, depth: number, parent: ReadElement): boolean {
  if (depth === 1) return ns !== NS.p || local !== 'cSld';
  if (depth === 2) return ns !== NS.p || local !== 'spTree';
  // a shape's common non-visual properties (p:cNvPr, p:cNvSpPr, ...: id, name, locks), and a table's column widths
  if (ns === NS.p && local.startsWith('cNv') && parent.localName?.startsWith('nv')) return true;
  if (ns === NS.a && local === 'tblGrid') return true;
  return isFormatting(ns, local) && !isFormatting(parent.namespaceURI, parent.localName) && !formattingRead(parent);
}

/** Slide objects whose content no rule reads (pptx-shapes.ts: only p:sp and p:graphicFrame have text). */
const WITHOUT_TEXT: ReadonlySet<string> = new Set(['pic', 'cxnSp', 'grpSp', 'contentPart']);

/**
 * What the objects and names of a slide need of its part: p:cSld with its shapes and their text, the rest dropped
 * unparsed (`droppedFromSlide`: formatting, background, timing...; most of a styled slide's tags) or kept without its
 * content (pictures, connectors, groups: WITHOUT_TEXT). In footer,
 * slide-number and date placeholders, whose formatting the rules read (whether a formatting element has a child, and
 * its own attributes), the children of formatting elements are kept without their content. The charts filter reads
 * whole slides (a slide it read is not read again: the view gives its tree).
 */
const SLIDE_OBJECTS: PrunedView = {
  name: 'pptx-slide-objects',
  prune: (el, parent) => {
    if (!parent) return 'keep';
    if (droppedFromSlide(el.ns, el.local, el.depth, parent)) return 'drop';
    return isFormatting(parent.namespaceURI, parent.localName) || (el.ns === NS.p && WITHOUT_TEXT.has(el.local)) ? 'leaf' : 'keep';
  },
  dropByName: droppedFromSlide,
};

/** Opens a pptx for slide commands and extraction. @throws StructureError bad_package when presentation.xml is missing. */
export function openPptxDeck(doc: StructureDocument): PptxDeck {
  return new PptxDeck(doc);
}

/** The PPTX implementation of SlideDeck. */
export class PptxDeck implements SlideDeck {
  private readonly presPart: string;
  private readonly created = new Set<string>();
  /** Every slide part name created in this request, deleted or not (never reused: numbering only grows). */
  private readonly named = new Set<string>();

  constructor(private readonly doc: StructureDocument) {
    const main = relationshipsOf(doc, '').find((r) => relType(r.type, 'officeDocument') && !r.external);
    this.presPart = main?.target ?? 'ppt/presentation.xml';
    if (!doc.has(this.presPart)) domOf(doc, this.presPart);
  }

  private get pres(): Document {
    return domOf(this.doc, this.presPart);
  }

  private sldIdLst(): Element {
    const root = this.pres.documentElement!;
    let lst = firstChild(root, NS.p, 'sldIdLst');
    if (!lst) {
      lst = this.pres.createElementNS(NS.p, 'p:sldIdLst');
      const after = firstChild(root, NS.p, 'notesMasterIdLst') ?? firstChild(root, NS.p, 'sldMasterIdLst');
      root.insertBefore(lst, after ? after.nextSibling : root.firstChild);
    }
    return lst;
  }

  /** The slides' p:sldId elements, relationship ids and parts, in order, from presentation.xml as `root` has it. */
  private slideRefs<E extends ReadElement>(root: E): SlideRef<E>[] {
    const rels = new Map(relationshipsOf(this.doc, this.presPart).map((r) => [r.id, r.target]));
    const lst = readChild(root, NS.p, 'sldIdLst');
    return (lst ? readChildren(lst, NS.p, 'sldId') : []).map((sldId) => {
      const rId = sldId.getAttributeNS(NS.r, 'id') ?? '';
      const part = rels.get(rId);
      if (!part) throw new StructureError('bad_package', `p:sldId ${sldId.getAttribute('id')} points at no slide part (${rId})`, this.presPart);
      return { sldId, rId, part };
    });
  }

  /** The slides, as read (a tree of presentation.xml while no command changed it). */
  private slideParts(): SlideRef[] {
    return this.slideRefs(partRoot(this.doc, this.presPart));
  }

  /** The slides with the p:sldId elements of presentation.xml's DOM, for changing them. */
  private slides(): SlideRef<Element>[] {
    return this.slideRefs(this.pres.documentElement!);
  }

  private slide(index: number): { rId: string; part: string } {
    const s = this.slideParts()[index];
    if (!s) throw new StructureError('out_of_range', `there is no slide ${index}`);
    return s;
  }

  /** The p:spTree of a slide or layout part's DOM, for changing it. */
  private spTree(part: string): Element {
    return this.treeOf(domOf(this.doc, part).documentElement!, part);
  }

  /** The p:spTree of a slide as read (partView SLIDE_OBJECTS). */
  private readSpTree(part: string): ReadElement {
    return this.treeOf(partView(this.doc, part, SLIDE_OBJECTS), part);
  }

  private treeOf<E extends ReadElement>(root: E, part: string): E {
    const cSld = readChild(root, NS.p, 'cSld');
    const tree = cSld ? readChild(cSld, NS.p, 'spTree') : undefined;
    if (!tree) throw new StructureError('bad_package', `${part} has no p:cSld/p:spTree`, part);
    return tree;
  }

  private layoutOf(slidePart: string): string {
    const rel = relationshipsOf(this.doc, slidePart).find((r) => relType(r.type, 'slideLayout'));
    if (!rel) throw new StructureError('bad_package', `${slidePart} has no slide layout`, slidePart);
    return rel.target;
  }

  /** A slide layout's p:cSld/@name ("" when none) and p:sldLayout/@type (null when none). */
  private layoutInfo(layoutPart: string): { name: string; type: string | null } {
    const root = partView(this.doc, layoutPart, LAYOUT_HEAD);
    const isLayout = root.namespaceURI === NS.p && root.localName === 'sldLayout';
    return { name: readChild(root, NS.p, 'cSld')?.getAttribute('name') ?? '', type: isLayout ? root.getAttribute('type') : null };
  }

  /** LibreOffice's master pages: one per used layout, in order of first use, with their names. */
  private masters(): { layout: string; name: string }[] {
    const out: { layout: string; name: string }[] = [];
    for (const s of this.slideParts()) {
      const layout = this.layoutOf(s.part);
      if (out.some((m) => m.layout === layout)) continue;
      const taken = new Set(out.map((m) => m.name));
      let name = 'Default';
      for (let i = 1; taken.has(name); i++) name = `Default ${i}`;
      const wanted = this.layoutInfo(layout).name;
      if (wanted && !taken.has(wanted)) name = wanted;
      out.push({ layout, name });
    }
    return out;
  }

  /** Number of slides. */
  slideCount(): number {
    return this.slideParts().length;
  }

  /** Names of the master slides, in order. */
  masterNames(): string[] {
    return this.masters().map((m) => m.name);
  }

  /** The names of the slides: p:cSld/@name, else the title (deduplicated), else "Slide <n>". */
  slideNames(): string[] {
    return this.namesFrom((part) => partView(this.doc, part, SLIDE_NAMES));
  }

  /** The slide names, read from the slide parts' roots as `read` gives them (SLIDE_NAMES views, or the DOM). */
  private namesFrom(read: (part: string) => ReadElement): string[] {
    const names: string[] = [];
    for (const s of this.slideParts()) names.push(this.nameOf(read(s.part), s.part, names));
    return names.map((n, i) => n || `Slide ${i + 1}`);
  }

  /**
   * A slide's own name (p:cSld/@name), else its title with " (2)", " (3)"... when `before` (the names of the slides
   * before it, as this gives them) has it already, else "" (the caller names it "Slide <n>").
   */
  private nameOf(root: ReadElement, part: string, before: readonly string[]): string {
    const name = readChild(root, NS.p, 'cSld')?.getAttribute('name') ?? '';
    if (name) return name;
    const title = titleText(this.treeOf(root, part));
    if (!title) return '';
    let count = 1;
    for (const prev of before) {
      if (!prev.startsWith(title)) continue;
      const rest = prev.slice(title.length);
      if (rest === '' || (/^ \((\d+)\)$/.test(rest) && Number(rest.slice(2, -1)) > 0)) count++;
    }
    return count === 1 ? title : `${title} (${count})`;
  }

  /**
   * The whole slides result. Each slide is read once, named and described from the same tree, which is not kept
   * (`partView`'s `keep`): a deck's extraction holds one slide's tree at a time, not all of them (less for the
   * garbage collector to copy while it runs).
   */
  describe(): SlidesResult {
    const masters = this.masters();
    const MasterSlides: SlidesResult['MasterSlides'] = {};
    masters.forEach((m, i) => (MasterSlides[`MasterSlide ${i}`] = { Name: m.name }));
    const names: string[] = [];
    const Slides: Record<string, SlideItem> = {};
    this.slideParts().forEach((s, i) => {
      const root = partView(this.doc, s.part, SLIDE_OBJECTS, false);
      const name = this.nameOf(root, s.part, names);
      names.push(name);
      const layout = this.layoutOf(s.part);
      const id = autoLayoutOfType(this.layoutInfo(layout).type);
      const objects = slideObjects(this.treeOf(root, s.part)).map(describeObject);
      const Objects: SlideItem['Objects'] = {};
      objects.forEach((o, k) => (Objects[`Objects ${k}`] = o));
      Slides[`Slide ${i}`] = {
        SlideName: name || `Slide ${i + 1}`,
        MasterSlideName: masters.find((m) => m.layout === layout)?.name ?? '',
        LayoutId: id,
        LayoutName: autoLayoutName(id),
        ObjectCount: objects.length,
        Objects,
      };
    });
    return { SlideCount: names.length, MasterSlideCount: masters.length, MasterSlides, Slides };
  }

  /** A part name `ppt/slides/slide<n>.xml` not used yet. */
  private newSlidePart(): string {
    let max = 0;
    for (const n of [...this.doc.pkg.names(), ...this.named]) {
      const m = /^ppt\/slides\/slide(\d+)\.xml$/.exec(n);
      if (m) max = Math.max(max, Number(m[1]));
    }
    const part = `ppt/slides/slide${max + 1}.xml`;
    this.created.add(part);
    this.named.add(part);
    return part;
  }

  /** Adds the presentation relationship, p:sldId (at `at`) and content type of a new slide part. */
  private register(part: string, at: number): void {
    tookAsDom(this.doc, relsPartName(this.presPart));
    const rId = addRelationship(this.doc, this.presPart, `${REL_BASE}slide`, part);
    const lst = this.sldIdLst();
    const ids = childElements(lst, NS.p, 'sldId');
    const next = Math.max(255, ...ids.map((e) => Number(e.getAttribute('id') ?? 0))) + 1;
    const sldId = this.pres.createElementNS(NS.p, 'p:sldId');
    sldId.setAttribute('id', String(next));
    sldId.setAttributeNS(NS.r, 'r:id', rId);
    lst.insertBefore(sldId, ids[at] ?? null);
    this.doc.markChanged(this.presPart);
    addOverride(this.doc, part, SLIDE_CT);
  }

  /** Inserts a new slide on master `master` (its slide layout) at `at`, with the layout's text placeholders, empty. */
  insertSlide(at: number, master: number): void {
    const m = this.masters()[master];
    if (!m) throw new StructureError('out_of_range', `there is no master slide ${master}`);
    const part = this.newSlidePart();
    const dom = parseXml(
      `<p:sld xmlns:a="${NS.a}" xmlns:r="${NS.r}" xmlns:p="${NS.p}"><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/></p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`,
      part,
    );
    putDom(this.doc, part, dom);
    tookAsDom(this.doc, relsPartName(part));
    addRelationship(this.doc, part, `${REL_BASE}slideLayout`, m.layout);
    const tree = this.spTree(part);
    for (const ph of this.layoutPlaceholders(m.layout)) tree.appendChild(emptyPlaceholder(dom, ph, tree));
    this.register(part, at);
  }

  /** The text placeholders of a layout (p:sp with p:ph, not header/footer or picture-like ones). */
  private layoutPlaceholders(layout: string): Element[] {
    return childElements(this.spTree(layout), NS.p, 'sp').filter((sp) => {
      const type = placeholderType(sp);
      return type !== undefined && !HEADER_FOOTER_PH.has(type) && isTextShape(sp);
    });
  }

  /** Deletes slide `index`: its p:sldId, relationship, part, .rels, content type, notes slide and comments. */
  deleteSlide(index: number): void {
    const s = this.slides()[index];
    if (!s) throw new StructureError('out_of_range', `there is no slide ${index}`);
    const id = s.sldId.getAttribute('id');
    s.sldId.parentNode!.removeChild(s.sldId);
    for (const sld of Array.from(this.pres.getElementsByTagNameNS(NS.p, 'sld'))) if (sld.getAttributeNS(NS.r, 'id') === s.rId) sld.parentNode!.removeChild(sld);
    for (const ref of Array.from(this.pres.getElementsByTagNameNS(P14, 'sldId'))) if (ref.getAttribute('id') === id) ref.parentNode!.removeChild(ref);
    this.doc.markChanged(this.presPart);
    tookAsDom(this.doc, relsPartName(this.presPart));
    removeRelationship(this.doc, this.presPart, s.rId);
    for (const rel of relationshipsOf(this.doc, s.part)) {
      if (!rel.external && (relType(rel.type, 'notesSlide') || relType(rel.type, 'comments'))) this.removePart(rel.target);
    }
    this.removePart(s.part);
  }

  private removePart(part: string): void {
    removeDom(this.doc, part);
    removeRelsPart(this.doc, part);
    removeDom(this.doc, relsPartName(part));
    removeOverride(this.doc, part);
    this.created.delete(part);
  }

  /** Moves slide `from` so that it ends at index `to`. */
  moveSlide(from: number, to: number): void {
    const s = this.slides()[from];
    if (!s) throw new StructureError('out_of_range', `there is no slide ${from}`);
    const lst = this.sldIdLst();
    lst.removeChild(s.sldId);
    lst.insertBefore(s.sldId, childElements(lst, NS.p, 'sldId')[to] ?? null);
    this.doc.markChanged(this.presPart);
  }

  /** Inserts a copy of slide `index` at `index + 1`: the slide XML and its relationships (media, charts shared; notes and comments not copied). */
  duplicateSlide(index: number): void {
    const s = this.slide(index);
    const part = this.newSlidePart();
    const copy = domOf(this.doc, s.part).cloneNode(true) as Document;
    // The copy must not repeat an explicit slide name (names are unique): it is named like an unnamed slide.
    firstChild(copy.documentElement!, NS.p, 'cSld')?.removeAttribute('name');
    putDom(this.doc, part, copy);
    const srcRels = relsPartName(s.part);
    const rels = domOf(this.doc, srcRels).cloneNode(true) as Document;
    for (const r of childElements(rels.documentElement!, NS.rel, 'Relationship')) {
      const type = r.getAttribute('Type') ?? '';
      if (relType(type, 'notesSlide') || relType(type, 'comments')) rels.documentElement!.removeChild(r);
    }
    putDom(this.doc, relsPartName(part), rels);
    this.register(part, index + 1);
  }

  /** Layout ids and names ChangeLayout accepts. */
  layouts(): ReadonlyArray<{ id: number; name: string }> {
    return SLIDE_LAYOUTS;
  }

  /**
   * Changes the layout of slide `index` to the layout of its master whose type gives AutoLayout `layoutId`; slide
   * placeholders are re-pointed (idx) at the new layout's placeholders of the same kind, and missing ones added empty.
   * @throws StructureError no_match when the master has no such layout.
   */
  changeLayout(index: number, layoutId: number): void {
    const s = this.slide(index);
    const current = this.layoutOf(s.part);
    const masterRel = relationshipsOf(this.doc, current).find((r) => relType(r.type, 'slideMaster'));
    if (!masterRel) throw new StructureError('bad_package', `${current} has no slide master`, current);
    const candidates = relationshipsOf(this.doc, masterRel.target)
      .filter((r) => relType(r.type, 'slideLayout'))
      .map((r) => r.target);
    const types = layoutTypesFor(layoutId);
    let target: string | undefined;
    for (const t of types) {
      target = candidates.find((l) => (this.layoutInfo(l).type ?? 'cust') === t);
      if (target) break;
    }
    if (!target) {
      const have = candidates.map((l) => `${this.layoutInfo(l).name || l} (${autoLayoutName(autoLayoutOfType(this.layoutInfo(l).type))})`).join(', ');
      throw new StructureError('no_match', `the slide's master has no layout for ${autoLayoutName(layoutId)}; its layouts are: ${have}`);
    }
    const relsName = relsPartName(s.part);
    const relsRoot = domOf(this.doc, relsName).documentElement!;
    for (const r of childElements(relsRoot, NS.rel, 'Relationship')) {
      if (relType(r.getAttribute('Type') ?? '', 'slideLayout')) r.setAttribute('Target', relativeTarget(s.part, target!));
    }
    this.doc.markChanged(relsName);
    const kind = (sp: Element) => {
      const t = placeholderType(sp) ?? '';
      return t === 'ctrTitle' ? 'title' : t === 'body' ? 'obj' : t;
    };
    const tree = this.spTree(s.part);
    const slidePhs = childElements(tree, NS.p, 'sp').filter((sp) => placeholderOf(sp) && !HEADER_FOOTER_PH.has(placeholderType(sp)!));
    const dom = domOf(this.doc, s.part);
    for (const lph of this.layoutPlaceholders(target)) {
      const k = kind(lph);
      const i = slidePhs.findIndex((sp) => kind(sp) === k);
      if (i >= 0) {
        const ph = placeholderOf(slidePhs[i])!;
        const idx = placeholderOf(lph)!.getAttribute('idx');
        if (idx) ph.setAttribute('idx', idx);
        else ph.removeAttribute('idx');
        slidePhs.splice(i, 1);
      } else {
        tree.appendChild(emptyPlaceholder(dom, lph, tree));
      }
    }
    this.doc.markChanged(s.part);
  }

  /** Renames slide `index` (p:cSld/@name). */
  renameSlide(index: number, name: string): void {
    const s = this.slide(index);
    firstChild(domOf(this.doc, s.part).documentElement!, NS.p, 'cSld')!.setAttribute('name', name);
    this.doc.markChanged(s.part);
  }

  /** Number of objects on slide `index`. */
  objectCount(index: number): number {
    return slideObjects(this.readSpTree(this.slide(index).part)).length;
  }

  /** The text editor of object `object` on slide `index` (a p:txBody is created for a shape without one). */
  textObject(index: number, object: number): TextObjectEditor | undefined {
    const part = this.slide(index).part;
    const shape = slideObjects(this.spTree(part))[object];
    if (!shape || !isTextShape(shape)) return undefined;
    let tx = firstChild(shape, NS.p, 'txBody');
    if (!tx) {
      const dom = domOf(this.doc, part);
      tx = dom.createElementNS(NS.p, 'p:txBody');
      tx.appendChild(dom.createElementNS(NS.a, 'a:bodyPr'));
      tx.appendChild(dom.createElementNS(NS.a, 'a:lstStyle'));
      tx.appendChild(dom.createElementNS(NS.a, 'a:p'));
      shape.insertBefore(tx, firstChild(shape, NS.p, 'extLst') ?? null);
    }
    const type = placeholderType(shape);
    return new PptxTextBody(tx, type === 'obj' || type === 'body', () => this.doc.markChanged(part));
  }
}
