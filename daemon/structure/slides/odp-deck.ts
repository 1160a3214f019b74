/**
 * The SlideDeck of an ODP (deck.ts; ODF 1.3 Part 3, 10.2 draw:page in office:presentation, 16.9
 * style:master-page, 16.41 style:presentation-page-layout), seen the way LibreOffice 7.4 loads the file:
 *
 * - master slides: the style:master-page elements of styles.xml, named by style:display-name, else style:name;
 * - slide names: a draw:name "page<n>" where n is the slide's 1-based position (LibreOffice's own default names,
 *   SdGenericDrawPage::setName) or a name starting "Slide " is a default name, reported as "Slide <position>";
 *   after moves, default-named slides are renumbered so LibreOffice still takes them as default names;
 * - layout: the AutoLayout LibreOffice's import derives from the style:presentation-page-layout's placeholders
 *   (odp-layouts.ts); a slide without one is AUTOLAYOUT_NONE, except the first slide, which keeps the
 *   AUTOLAYOUT_TITLE of the page LibreOffice creates before loading (seen in its re-export of Presentation1.odp);
 * - objects: the shapes of the page in document order (draw:a unwrapped), notes, forms and animations excluded;
 *   an object reports its text only when it has some (one empty paragraph is no text in LibreOffice).
 */
import type { Element } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { StructureError } from '../errors.ts';
import { NS, childElements, firstChild } from '../xml/dom.ts';
import type { SlideDeck, TextObjectEditor } from './deck.ts';
import type { SlideItem, SlideObject, SlidesResult } from './index.ts';
import { OdpTextEditor } from './odp-editor.ts';
import { ODP_LAYOUTS, autoLayoutName, cm, layoutIdOfElement, lengthToCm, placeholdersOfLayout, presentationObjectsOfLayout } from './odp-layouts.ts';
import { copyEmbeddedObjects, referencedPaths, removeUnreferenced, renewIds } from './odp-parts.ts';
import { adoptable, isEmptyPlaceholder, shapesOf, textContainerOf, textsOf } from './odp-shapes.ts';
import { OdpStyles } from './odp-styles.ts';
import { canStream, domOf, partRoot, partView } from './part-reads.ts';
import { readChild, readChildren, type PrunedView, type ReadElement } from '../xml/read-tree.ts';

const CONTENT = 'content.xml';
const STYLES = 'styles.xml';

/**
 * What the deck reads of styles.xml (often 300 kB of styles): the master pages of office:master-styles (without
 * their content) and the presentation page layouts of office:styles with their placeholders.
 */
const STYLES_VIEW: PrunedView = {
  name: 'odp-masters-layouts',
  prune: (el, parent) => {
    if (el.depth === 0) return 'keep';
    if (el.depth === 1) return el.ns === NS.office && (el.local === 'styles' || el.local === 'master-styles') ? 'keep' : 'drop';
    if (el.depth === 2 && parent?.localName === 'styles') return el.ns === NS.style && el.local === 'presentation-page-layout' ? 'keep' : 'drop';
    if (el.depth === 2) return el.ns === NS.style && el.local === 'master-page' ? 'leaf' : 'drop';
    return el.depth === 3 && el.ns === NS.presentation && el.local === 'placeholder' ? 'leaf' : 'drop';
  },
};

/**
 * The office:presentation of content.xml (the first of the first office:body), from its tree or its DOM.
 * @throws StructureError bad_package when there is none.
 */
function presentationOf<E extends ReadElement>(root: E): E {
  const body = readChild(root, NS.office, 'body');
  const presentation = body && readChild(body, NS.office, 'presentation');
  if (!presentation) throw new StructureError('bad_package', 'content.xml has no office:presentation: this is not a presentation', CONTENT);
  return presentation;
}

/**
 * Opens the slides of an odp. `forCommands`: content.xml is parsed as DOM at once, since nearly every slide
 * command changes it (reading its pages from a tree first would read the part twice); otherwise the pages are read
 * from content.xml's stream-built tree until a command needs the DOM.
 * @throws StructureError bad_package when content.xml has no office:presentation.
 */
export function openOdpDeck(doc: StructureDocument, forCommands = false): SlideDeck {
  return new OdpDeck(doc, forCommands);
}

/** A master page: its style:name, the name reported, and its position among the master pages. */
interface Master {
  styleName: string;
  name: string;
  index: number;
}

/** A page as the extraction and the lookups read it: its reported name, master and layout names, its objects' texts. */
interface PageRead {
  name: string;
  master: string | null;
  layout: string | null;
  objects: () => string[][][];
}

/**
 * The ODP deck. Until a command needs to change content.xml, its pages are read from the part's stream-built tree
 * (part-reads.ts partRoot, the tree the charts filter reads too); from then on, from content.xml's DOM (`dom()`).
 * styles.xml is read from a pruned tree (STYLES_VIEW) until it is taken as DOM. Both go through the same rules.
 */
class OdpDeck implements SlideDeck {
  private readonly doc: StructureDocument;
  private presentation?: Element;
  /** The office:presentation of content.xml's tree, while the deck reads it (until `dom()`). */
  private treePresentation?: ReadElement;
  private readonly styles: OdpStyles;
  private defaultNamed = new Set<Element>();
  private mastersCache?: Master[];
  private layoutsCache?: Map<string, number>;
  private serial = 0;

  constructor(doc: StructureDocument, forCommands: boolean) {
    this.doc = doc;
    this.styles = new OdpStyles(doc);
    if (forCommands || !canStream(doc, CONTENT)) this.dom();
    else this.treePresentation = presentationOf(partRoot(doc, CONTENT));
  }

  /** The office:presentation of content.xml's DOM: the deck reads and changes the DOM from now on. */
  private dom(): Element {
    if (this.presentation) return this.presentation;
    this.presentation = presentationOf(domOf(this.doc, CONTENT).documentElement!);
    this.treePresentation = undefined;
    // which pages have LibreOffice's default names, read once before any change
    this.domPages().forEach((page, i) => {
      if (isDefaultName(page.getAttributeNS(NS.draw, 'name') ?? '', i)) this.defaultNamed.add(page);
    });
    return this.presentation;
  }

  /** The draw:page elements as read: of content.xml's tree until the deck took it as DOM. */
  private readPages(): ReadElement[] {
    return this.treePresentation ? readChildren(this.treePresentation, NS.draw, 'page') : this.domPages();
  }

  /** The pages as read, with their reported names (default names by position in the tree, tracked in the DOM). */
  private reads(): PageRead[] {
    return this.readPages().map((page, i) => {
      const name = page.getAttributeNS(NS.draw, 'name') ?? '';
      const isDefault = this.treePresentation ? isDefaultName(name, i) : this.defaultNamed.has(page as Element);
      return {
        name: isDefault ? `Slide ${i + 1}` : name,
        master: page.getAttributeNS(NS.draw, 'master-page-name'),
        layout: page.getAttributeNS(NS.presentation, 'presentation-page-layout-name'),
        objects: () => shapesOf(page).map(textsOf),
      };
    });
  }

  /** The pages of content.xml's DOM, for changing. */
  private domPages(): Element[] {
    return childElements(this.dom(), NS.draw, 'page');
  }

  private page(index: number): Element {
    const page = this.domPages()[index];
    if (!page) throw new StructureError('out_of_range', `there is no slide ${index}`);
    return page;
  }

  /** The root of styles.xml as read (STYLES_VIEW while it is not DOM), undefined when the package has none. */
  private stylesRoot(): ReadElement | undefined {
    return this.doc.has(STYLES) ? partView(this.doc, STYLES, STYLES_VIEW) : undefined;
  }

  private masters(): Master[] {
    if (this.mastersCache) return this.mastersCache;
    const root = this.stylesRoot();
    const ms = root && readChild(root, NS.office, 'master-styles');
    return (this.mastersCache = (ms ? readChildren(ms, NS.style, 'master-page') : []).map((el, index) => {
      const styleName = el.getAttributeNS(NS.style, 'name') ?? '';
      return { styleName, name: el.getAttributeNS(NS.style, 'display-name') || styleName, index };
    }));
  }

  private masterStyles(): Element | undefined {
    return firstChild(domOf(this.doc, STYLES).documentElement!, NS.office, 'master-styles');
  }

  /** The style:master-page element of a master, in styles.xml's DOM. */
  private masterEl(m: Master): Element {
    return childElements(this.masterStyles()!, NS.style, 'master-page')[m.index];
  }

  /** style:presentation-page-layout names with the AutoLayout id LibreOffice gives each (the last of a name wins). */
  private layoutStyles(): Map<string, number> {
    if (this.layoutsCache) return this.layoutsCache;
    const out = new Map<string, number>();
    const root = this.stylesRoot();
    const styles = root && readChild(root, NS.office, 'styles');
    for (const el of styles ? readChildren(styles, NS.style, 'presentation-page-layout') : [])
      out.set(el.getAttributeNS(NS.style, 'name') ?? '', layoutIdOfElement(el));
    return (this.layoutsCache = out);
  }

  /** The AutoLayout id of a page with presentation-page-layout-name `name` at position `index`. */
  private layoutIdOf(name: string | null, index: number): number {
    const layout = name ? this.layoutStyles().get(name) : undefined;
    if (layout !== undefined) return layout;
    return index === 0 ? 0 : 20;
  }

  /** The master of a page with draw:master-page-name `name` (the first master when none matches). */
  private masterOf(name: string | null): Master | undefined {
    return this.masters().find((m) => m.styleName === name) ?? this.masters()[0];
  }

  slideCount(): number {
    return this.readPages().length;
  }

  masterNames(): string[] {
    return this.masters().map((m) => m.name);
  }

  slideNames(): string[] {
    return this.reads().map((p) => p.name);
  }

  describe(): SlidesResult {
    const masters = this.masters();
    const result: SlidesResult = { SlideCount: 0, MasterSlideCount: masters.length, MasterSlides: {}, Slides: {} };
    masters.forEach((m, i) => (result.MasterSlides[`MasterSlide ${i}`] = { Name: m.name }));
    const pages = this.reads();
    result.SlideCount = pages.length;
    pages.forEach((page, i) => {
      const layoutId = this.layoutIdOf(page.layout, i);
      const shapes = page.objects();
      const objects: Record<string, SlideObject> = {};
      shapes.forEach((texts, j) => {
        if (texts.length === 0) objects[`Objects ${j}`] = {};
        else {
          const t: Record<string, { ParaCount: number; Paragraphs: string[] }> = {};
          texts.forEach((paras, k) => (t[`Text ${k}`] = { ParaCount: paras.length, Paragraphs: paras }));
          objects[`Objects ${j}`] = { TextCount: texts.length, Texts: t };
        }
      });
      const item: SlideItem = {
        SlideName: page.name,
        MasterSlideName: this.masterOf(page.master)?.name ?? '',
        LayoutId: layoutId,
        LayoutName: autoLayoutName(layoutId),
        ObjectCount: shapes.length,
        Objects: objects,
      };
      result.Slides[`Slide ${i}`] = item;
    });
    return result;
  }

  insertSlide(at: number, master: number): void {
    const m = this.masters()[master];
    if (!m) throw new StructureError('out_of_range', `there is no master slide ${master}`);
    const presentation = this.dom();
    const page = domOf(this.doc, CONTENT).createElementNS(NS.draw, 'draw:page');
    page.setAttributeNS(NS.draw, 'draw:name', 'page');
    page.setAttributeNS(NS.draw, 'draw:master-page-name', m.styleName);
    const pages = this.domPages();
    presentation.insertBefore(page, pages[at] ?? pages[pages.length - 1]?.nextSibling ?? firstSlideAnchor(presentation));
    this.defaultNamed.add(page);
    this.applyLayout(page, 1);
    this.renumber();
  }

  deleteSlide(index: number): void {
    const page = this.page(index);
    const refs = referencedPaths(page);
    this.dom().removeChild(page);
    this.defaultNamed.delete(page);
    removeUnreferenced(this.doc, refs);
    this.renumber();
  }

  moveSlide(from: number, to: number): void {
    const page = this.page(from);
    const presentation = this.dom();
    presentation.removeChild(page);
    const rest = this.domPages();
    if (to < 0 || to > rest.length) throw new StructureError('out_of_range', `slide position ${to} is out of range`);
    presentation.insertBefore(page, rest[to] ?? rest[rest.length - 1]?.nextSibling ?? firstSlideAnchor(presentation));
    this.renumber();
  }

  duplicateSlide(index: number): void {
    const page = this.page(index);
    const copy = page.cloneNode(true) as Element;
    // the copy gets a default name (reported as "Slide <n>"): names stay unique
    this.defaultNamed.add(copy);
    renewIds(copy, `_c${++this.serial}`);
    copyEmbeddedObjects(this.doc, copy);
    this.dom().insertBefore(copy, page.nextSibling);
    this.renumber();
  }

  layouts(): ReadonlyArray<{ id: number; name: string }> {
    return ODP_LAYOUTS;
  }

  changeLayout(index: number, layoutId: number): void {
    if (!placeholdersOfLayout(layoutId)) throw new StructureError('out_of_range', `layout ${layoutId} cannot be given to a slide of an odp`);
    this.applyLayout(this.page(index), layoutId);
    this.doc.markChanged(CONTENT);
  }

  renameSlide(index: number, name: string): void {
    const page = this.page(index);
    page.setAttributeNS(NS.draw, 'draw:name', name);
    this.defaultNamed.delete(page);
    this.doc.markChanged(CONTENT);
  }

  objectCount(index: number): number {
    const page = this.readPages()[index];
    if (!page) throw new StructureError('out_of_range', `there is no slide ${index}`);
    return shapesOf(page).length;
  }

  textObject(index: number, object: number): TextObjectEditor | undefined {
    const shape = shapesOf(this.page(index))[object];
    if (!shape) throw new StructureError('out_of_range', `slide ${index} has no object ${object}`);
    const container = textContainerOf(shape);
    return container ? new OdpTextEditor(this.doc, shape, container, this.styles) : undefined;
  }

  /** Default-named pages get the name LibreOffice gives their position; notes thumbnails show their own page. */
  private renumber(): void {
    this.domPages().forEach((page, i) => {
      if (this.defaultNamed.has(page)) page.setAttributeNS(NS.draw, 'draw:name', `page${i + 1}`);
      const notes = firstChild(page, NS.presentation, 'notes');
      for (const thumb of notes ? childElements(notes, NS.draw, 'page-thumbnail') : []) thumb.setAttributeNS(NS.draw, 'draw:page-number', String(i + 1));
    });
    this.doc.markChanged(CONTENT);
  }

  /**
   * Gives a page an AutoLayout as LibreOffice's SdPage::SetAutoLayout(layout, bInit=true) does: the layout's
   * presentation objects are matched to the page's objects that have text of the same class (then, for a title or
   * an outline, to other non-empty objects LibreOffice would adopt: pictures, embedded objects, tables), missing
   * ones are created as empty placeholders at the end, and empty placeholders the layout does not use are removed.
   */
  private applyLayout(page: Element, layoutId: number): void {
    page.setAttributeNS(NS.presentation, 'presentation:presentation-page-layout-name', this.ensureLayoutStyle(layoutId));
    const wanted = presentationObjectsOfLayout(layoutId) ?? [];
    const shapes = shapesOf(page);
    const used = new Set<Element>();
    const missing: typeof wanted = [];
    for (const w of wanted) {
      const hit = shapes.find((s) => !used.has(s) && s.getAttribute('presentation:class') === w.cls && !isEmptyPlaceholder(s));
      if (hit) used.add(hit);
      else missing.push(w);
    }
    const stillMissing = missing.filter((w) => {
      if (w.cls !== 'title' && w.cls !== 'outline') return true;
      const hit = shapes.find((s) => !used.has(s) && adoptable(s, w.cls));
      if (hit) used.add(hit);
      return !hit;
    });
    for (const s of shapes)
      if (
        !used.has(s) &&
        s.getAttribute('presentation:class') &&
        isEmptyPlaceholder(s) &&
        ['title', 'subtitle', 'outline', 'chart', 'table', 'graphic', 'object', 'orgchart', 'text'].includes(s.getAttribute('presentation:class')!)
      )
        s.parentNode!.removeChild(s);
    const master = this.masterOf(page.getAttribute('draw:master-page-name'));
    const anchor =
      childElements(page).find(
        (el) =>
          (el.namespaceURI === NS.presentation && (el.localName === 'notes' || el.localName === 'animations')) ||
          el.namespaceURI === 'urn:oasis:names:tc:opendocument:xmlns:animation:1.0',
      ) ?? null;
    for (const w of stillMissing) page.insertBefore(this.placeholder(master, w), anchor);
  }

  /** An empty presentation object of a class, placed in the master's title or outline area. */
  private placeholder(master: Master | undefined, w: { cls: string; x: number; y: number; w: number; h: number }): Element {
    const dom = domOf(this.doc, CONTENT);
    const frame = dom.createElementNS(NS.draw, 'draw:frame');
    const styleName = master ? `${master.styleName}-${w.cls === 'outline' ? 'outline1' : w.cls}` : undefined;
    if (styleName && this.styles.find('presentation', styleName)) frame.setAttributeNS(NS.presentation, 'presentation:style-name', styleName);
    frame.setAttributeNS(NS.draw, 'draw:layer', 'layout');
    const area = this.areaOf(master, w.cls === 'title' ? 'title' : 'outline');
    frame.setAttributeNS(NS.svg, 'svg:width', cm(area.w * (w.cls === 'title' ? 1 : w.w)));
    frame.setAttributeNS(NS.svg, 'svg:height', cm(area.h * (w.cls === 'title' ? 1 : w.h)));
    frame.setAttributeNS(NS.svg, 'svg:x', cm(area.x + (w.cls === 'title' ? 0 : area.w * w.x)));
    frame.setAttributeNS(NS.svg, 'svg:y', cm(area.y + (w.cls === 'title' ? 0 : area.h * w.y)));
    frame.setAttributeNS(NS.presentation, 'presentation:class', w.cls);
    frame.setAttributeNS(NS.presentation, 'presentation:placeholder', 'true');
    frame.appendChild(dom.createElementNS(NS.draw, 'draw:text-box'));
    return frame;
  }

  /** The master's title or outline frame box in cm, or a box in proportion to the page when it has none. */
  private areaOf(master: Master | undefined, cls: 'title' | 'outline'): { x: number; y: number; w: number; h: number } {
    const frame = master ? childElements(this.masterEl(master), NS.draw, 'frame').find((f) => f.getAttribute('presentation:class') === cls) : undefined;
    if (frame)
      return {
        x: lengthToCm(frame.getAttribute('svg:x') ?? ''),
        y: lengthToCm(frame.getAttribute('svg:y') ?? ''),
        w: lengthToCm(frame.getAttribute('svg:width') ?? ''),
        h: lengthToCm(frame.getAttribute('svg:height') ?? ''),
      };
    const { width, height } = this.pageSize(master);
    return cls === 'title'
      ? { x: width * 0.05, y: height * 0.04, w: width * 0.9, h: height * 0.175 }
      : { x: width * 0.05, y: height * 0.25, w: width * 0.9, h: height * 0.68 };
  }

  private pageSize(master: Master | undefined): { width: number; height: number } {
    const layoutName = master ? this.masterEl(master).getAttribute('style:page-layout-name') : undefined;
    const auto = this.doc.has(STYLES) ? firstChild(domOf(this.doc, STYLES).documentElement!, NS.office, 'automatic-styles') : undefined;
    const pl = auto && layoutName ? childElements(auto, NS.style, 'page-layout').find((e) => e.getAttribute('style:name') === layoutName) : undefined;
    const props = pl && firstChild(pl, NS.style, 'page-layout-properties');
    return { width: lengthToCm(props?.getAttribute('fo:page-width') ?? '') || 28, height: lengthToCm(props?.getAttribute('fo:page-height') ?? '') || 15.75 };
  }

  /** The name of a style:presentation-page-layout LibreOffice reads as `layoutId`, made in styles.xml when missing. */
  private ensureLayoutStyle(layoutId: number): string {
    for (const [name, id] of this.layoutStyles()) if (id === layoutId) return name;
    const dom = domOf(this.doc, STYLES);
    let styles = firstChild(dom.documentElement!, NS.office, 'styles');
    if (!styles) {
      styles = dom.createElementNS(NS.office, 'office:styles');
      dom.documentElement!.insertBefore(styles, childElements(dom.documentElement!)[0]?.nextSibling ?? null);
    }
    const taken = this.layoutStyles();
    let n = taken.size;
    while (taken.has(`AL${n}T${layoutId}`)) n++;
    const name = `AL${n}T${layoutId}`;
    const layout = dom.createElementNS(NS.style, 'style:presentation-page-layout');
    layout.setAttributeNS(NS.style, 'style:name', name);
    for (const p of placeholdersOfLayout(layoutId) ?? []) {
      const el = dom.createElementNS(NS.presentation, 'presentation:placeholder');
      el.setAttributeNS(NS.presentation, 'presentation:object', p.object);
      el.setAttributeNS(NS.svg, 'svg:x', cm(2 + 24 * p.x));
      el.setAttributeNS(NS.svg, 'svg:y', cm(p.object === 'title' || p.object === 'vertical_title' ? 1 : 4 + 12 * p.y));
      el.setAttributeNS(NS.svg, 'svg:width', cm(p.object === 'title' || p.object === 'vertical_title' ? 24 : 24 * p.w));
      el.setAttributeNS(NS.svg, 'svg:height', cm(p.object === 'title' || p.object === 'vertical_title' ? 2.5 : 12 * p.h));
      layout.appendChild(el);
    }
    styles.appendChild(layout);
    taken.set(name, layoutId);
    this.doc.markChanged(STYLES);
    return name;
  }
}

/** True for LibreOffice's default names: "page<n>" at 1-based position n, or "Slide ..." (SdGenericDrawPage::setName). */
function isDefaultName(name: string, index: number): boolean {
  if (name === '') return true;
  const m = /^page([0-9]*)$/.exec(name);
  if (m) return m[1] !== '' && Number(m[1]) === index + 1;
  return name.startsWith('Slide ');
}

/** Where slides go when there is none: before presentation:settings, if any. */
function firstSlideAnchor(presentation: Element): Element | null {
  return childElements(presentation, NS.presentation, 'settings')[0] ?? null;
}
