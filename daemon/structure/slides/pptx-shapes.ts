/**
 * The objects of a PPTX slide as LibreOffice's PPTX import makes them (ECMA-376 Part 1, 19.3.1.45 p:spTree;
 * LibreOffice oox/source/ppt/pptshape.cxx): the top-level shapes of p:spTree in z-order (p:sp, p:pic,
 * p:graphicFrame, p:grpSp, p:cxnSp, p:contentPart; mc:AlternateContent resolved), except the footer, slide-number
 * and date placeholders that LibreOffice turns into the slide's header/footer settings instead of shapes:
 *  - ftr: one paragraph with one run of non-empty text and no own formatting;
 *  - sldNum: one paragraph whose one run is a slidenum field, no own formatting;
 *  - dt: one paragraph whose one run is a datetime field with an explicit format (datetime1..13), no own formatting.
 * "No own formatting" is LibreOffice's ShapeHasNoVisualPropertiesOnImport: empty p:spPr, no p:style, no run
 * properties beyond language/proofing flags, empty a:bodyPr and a:lstStyle, no a:pPr.
 */
import type { Document, Element } from '@xmldom/xmldom';
import { NS } from '../xml/dom.ts';
import { DRAWINGML_TEXT_ATTRIBUTES } from '../xml/extraction-attributes.ts';
import { hasElementChild, readChild, readChildren, type ReadElement } from '../xml/read-tree.ts';
import type { SlideObject, SlideText } from './index.ts';
import { paragraphText, paragraphsOf } from './pptx-text.ts';

/*
 * One reading of each rule, for both ways the deck reads a slide: the stream-built tree of the part as stored
 * (xml/read-tree.ts, shared with the charts filter) and the part's DOM once a command changed it. Functions take a
 * ReadElement and give back elements of the type they were given (DOM in, DOM out).
 */

const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006';
/** mc:Choice requirements LibreOffice's OOXML import understands (others fall back). */
export const MC_UNDERSTOOD: ReadonlySet<string> = new Set(['p14', 'p15', 'a14', 'v']);
/** The p: elements that are slide objects. */
export const SHAPES: ReadonlySet<string> = new Set(['sp', 'pic', 'graphicFrame', 'grpSp', 'cxnSp', 'contentPart']);
/** Run-property attributes that are not visual (LibreOffice's hasVisualRunProperties ignores them). */
export const NON_VISUAL_RPR: ReadonlySet<string> = new Set(['lang', 'altLang', 'dirty', 'smtClean', 'smtId', 'err', 'noProof', 'bmk']);
/** The visual attributes of a:rPr: the schema's (CT_TextCharacterProperties) less NON_VISUAL_RPR. */
const R_PR_VISUAL: readonly string[] = DRAWINGML_TEXT_ATTRIBUTES.rPr.filter((a) => !NON_VISUAL_RPR.has(a));
/** Placeholder types whose empty shape holds no text (pictures, tables, charts, media...). */
const NON_TEXT_PH = new Set(['pic', 'tbl', 'chart', 'clipArt', 'dgm', 'media', 'sldImg']);

/** The p:ph of a shape (p:sp, p:pic, p:graphicFrame, p:cxnSp), if it is a placeholder. */
export function placeholderOf<E extends ReadElement>(shape: E): E | undefined {
  const nv = readChildren(shape, NS.p).find((e) => e.localName?.startsWith('nv'));
  const nvPr = nv ? readChild(nv, NS.p, 'nvPr') : undefined;
  return nvPr ? readChild(nvPr, NS.p, 'ph') : undefined;
}

/** The placeholder type of a shape ("obj" when p:ph has no type), or undefined when it is not a placeholder. */
export function placeholderType(shape: ReadElement): string | undefined {
  const ph = placeholderOf(shape);
  return ph ? ph.getAttribute('type') || 'obj' : undefined;
}

/** The shape element an mc:AlternateContent stands for (the understood mc:Choice, else mc:Fallback). */
function resolveAlternate<E extends ReadElement>(ac: E): E | undefined {
  for (const choice of readChildren(ac, MC, 'Choice')) {
    const requires = (choice.getAttribute('Requires') ?? '').split(/\s+/).filter(Boolean);
    if (requires.every((r) => MC_UNDERSTOOD.has(r))) return readChildren(choice, NS.p).find((e) => SHAPES.has(e.localName ?? ''));
  }
  const fallback = readChild(ac, MC, 'Fallback');
  return fallback ? readChildren(fallback, NS.p).find((e) => SHAPES.has(e.localName ?? '')) : undefined;
}

/** True when `el` has one of the (unprefixed) attributes `names`. */
function hasAnyAttribute(el: ReadElement, names: readonly string[]): boolean {
  return names.some((a) => el.getAttribute(a) !== null);
}

/**
 * LibreOffice's ShapeHasNoVisualPropertiesOnImport: no p:spPr content, no p:style, and in the text body no a:bodyPr
 * attribute or content, no a:lstStyle content, no a:pPr attribute or content, and no run property (a:rPr content, or
 * an attribute other than language and proofing flags). Attributes are those the schema defines (an attribute
 * outside it is not imported by LibreOffice, so it is not formatting).
 */
function hasNoVisualProperties(sp: ReadElement): boolean {
  const spPr = readChild(sp, NS.p, 'spPr');
  if (spPr && hasElementChild(spPr)) return false;
  if (readChild(sp, NS.p, 'style')) return false;
  const tx = readChild(sp, NS.p, 'txBody');
  if (!tx) return true;
  const bodyPr = readChild(tx, NS.a, 'bodyPr');
  if (bodyPr && (hasElementChild(bodyPr) || hasAnyAttribute(bodyPr, DRAWINGML_TEXT_ATTRIBUTES.bodyPr))) return false;
  const lst = readChild(tx, NS.a, 'lstStyle');
  if (lst && hasElementChild(lst)) return false;
  for (const p of paragraphsOf(tx)) {
    const pPr = readChild(p, NS.a, 'pPr');
    if (pPr && (hasElementChild(pPr) || hasAnyAttribute(pPr, DRAWINGML_TEXT_ATTRIBUTES.pPr))) return false;
    for (const run of readChildren(p, NS.a)) {
      if (run.localName !== 'r' && run.localName !== 'fld') continue;
      const rPr = readChild(run, NS.a, 'rPr');
      if (rPr && (hasElementChild(rPr) || hasAnyAttribute(rPr, R_PR_VISUAL))) return false;
    }
  }
  return true;
}

/** The placeholder types LibreOffice may turn into header/footer settings (see `becomesHeaderFooter`). */
export const HEADER_FOOTER_TYPES: ReadonlySet<string> = new Set(['ftr', 'sldNum', 'dt']);

/** True when LibreOffice turns this slide placeholder into a header/footer setting instead of a shape. */
function becomesHeaderFooter(sp: ReadElement): boolean {
  if (sp.localName !== 'sp') return false;
  const type = placeholderType(sp);
  if (type === undefined || !HEADER_FOOTER_TYPES.has(type)) return false;
  const tx = readChild(sp, NS.p, 'txBody');
  if (!tx) return false;
  const paras = paragraphsOf(tx);
  if (paras.length !== 1) return false;
  const runs = readChildren(paras[0], NS.a).filter((e) => e.localName === 'r' || e.localName === 'br' || e.localName === 'fld');
  if (runs.length !== 1 || !hasNoVisualProperties(sp)) return false;
  const run = runs[0];
  if (type === 'ftr') return run.localName === 'r' && (readChild(run, NS.a, 't')?.textContent ?? '') !== '';
  const fieldType = run.localName === 'fld' ? (run.getAttribute('type') ?? '') : '';
  if (type === 'sldNum') return fieldType === 'slidenum';
  return /^datetime\d+$/.test(fieldType);
}

/** The shape a child of p:spTree stands for (mc:AlternateContent resolved), or undefined when it is no shape. */
export function resolveShape<E extends ReadElement>(child: E): E | undefined {
  if (child.namespaceURI === MC && child.localName === 'AlternateContent') return resolveAlternate(child);
  return child.namespaceURI === NS.p && SHAPES.has(child.localName ?? '') ? child : undefined;
}

/** The objects of a slide's p:spTree in LibreOffice's order. */
export function slideObjects<E extends ReadElement>(spTree: E): E[] {
  const out: E[] = [];
  for (const child of readChildren(spTree)) {
    const shape = resolveShape(child);
    if (shape && !becomesHeaderFooter(shape)) out.push(shape);
  }
  return out;
}

/** True when the object can hold text (a p:sp that is not an empty picture/table/chart placeholder). */
export function isTextShape(shape: ReadElement): boolean {
  if (shape.localName !== 'sp') return false;
  const type = placeholderType(shape);
  return !(type && NON_TEXT_PH.has(type) && !readChild(shape, NS.p, 'txBody'));
}

/**
 * The text of a text body, or undefined when it is a single empty paragraph: LibreOffice keeps no text object for
 * that (svx SvxTextEditSourceImpl::UpdateData drops an outliner holding one empty paragraph), as in ODP.
 */
function textOf(txBody: ReadElement): SlideText | undefined {
  const paragraphs = paragraphsOf(txBody).map(paragraphText);
  if (paragraphs.length === 0 || (paragraphs.length === 1 && paragraphs[0] === '')) return undefined;
  return { ParaCount: paragraphs.length, Paragraphs: paragraphs };
}

/**
 * The extraction of one object: a shape's text body as one text; a table (a:tbl in p:graphicFrame) as one text per
 * cell with text, row by row; `{}` for everything without text (pictures, charts, connectors, groups, shapes
 * without p:txBody or with one empty paragraph).
 */
export function describeObject(shape: ReadElement): SlideObject {
  const texts: SlideText[] = [];
  if (shape.localName === 'sp') {
    const tx = readChild(shape, NS.p, 'txBody');
    const t = tx ? textOf(tx) : undefined;
    if (t) texts.push(t);
  } else if (shape.localName === 'graphicFrame') {
    for (const tbl of Array.from(shape.getElementsByTagNameNS(NS.a, 'tbl'))) {
      for (const tr of readChildren(tbl, NS.a, 'tr')) {
        for (const tc of readChildren(tr, NS.a, 'tc')) {
          const tx = readChild(tc, NS.a, 'txBody');
          const t = tx ? textOf(tx) : undefined;
          if (t) texts.push(t);
        }
      }
    }
  }
  if (texts.length === 0) return {};
  const Texts: Record<string, SlideText> = {};
  texts.forEach((t, i) => (Texts[`Text ${i}`] = t));
  return { TextCount: texts.length, Texts };
}

/**
 * The title text LibreOffice names an unnamed slide after (oox importSlideNames): the text of the first title or
 * ctrTitle placeholder, line breaks and paragraph ends as "\n", at most 63 characters; "" when there is none.
 */
export function titleText(spTree: ReadElement): string {
  for (const shape of readChildren(spTree, NS.p, 'sp')) {
    const type = placeholderType(shape);
    if (type !== 'title' && type !== 'ctrTitle') continue;
    const tx = readChild(shape, NS.p, 'txBody');
    if (!tx) return '';
    const text = paragraphsOf(tx)
      .map((p) =>
        readChildren(p, NS.a)
          .map((r) => (r.localName === 'br' ? '\n' : r.localName === 'r' || r.localName === 'fld' ? (readChild(r, NS.a, 't')?.textContent ?? '') : ''))
          .join(''),
      )
      .join('\n');
    return text.slice(0, 63);
  }
  return '';
}

/** An empty slide placeholder for layout placeholder `src` (same p:ph, name, empty text), with an id unused in `tree`. */
export function emptyPlaceholder(dom: Document, src: Element, tree: Element): Element {
  const ids = Array.from(tree.getElementsByTagNameNS(NS.p, 'cNvPr')).map((e) => Number(e.getAttribute('id') ?? 0));
  const id = Math.max(1, ...ids) + 1;
  const sp = dom.createElementNS(NS.p, 'p:sp');
  const nvSpPr = dom.createElementNS(NS.p, 'p:nvSpPr');
  const cNvPr = dom.createElementNS(NS.p, 'p:cNvPr');
  cNvPr.setAttribute('id', String(id));
  const srcName = src.getElementsByTagNameNS(NS.p, 'cNvPr')[0]?.getAttribute('name') ?? '';
  cNvPr.setAttribute('name', srcName || `Placeholder ${id - 1}`);
  const cNvSpPr = dom.createElementNS(NS.p, 'p:cNvSpPr');
  const locks = dom.createElementNS(NS.a, 'a:spLocks');
  locks.setAttribute('noGrp', '1');
  cNvSpPr.appendChild(locks);
  const nvPr = dom.createElementNS(NS.p, 'p:nvPr');
  const ph = dom.createElementNS(NS.p, 'p:ph');
  const srcPh = placeholderOf(src)!;
  for (const attr of ['type', 'orient', 'sz', 'idx']) if (srcPh.hasAttribute(attr)) ph.setAttribute(attr, srcPh.getAttribute(attr)!);
  nvPr.appendChild(ph);
  nvSpPr.appendChild(cNvPr);
  nvSpPr.appendChild(cNvSpPr);
  nvSpPr.appendChild(nvPr);
  sp.appendChild(nvSpPr);
  sp.appendChild(dom.createElementNS(NS.p, 'p:spPr'));
  const tx = dom.createElementNS(NS.p, 'p:txBody');
  tx.appendChild(dom.createElementNS(NS.a, 'a:bodyPr'));
  tx.appendChild(dom.createElementNS(NS.a, 'a:lstStyle'));
  const p = dom.createElementNS(NS.a, 'a:p');
  const end = dom.createElementNS(NS.a, 'a:endParaRPr');
  end.setAttribute('lang', 'en-US');
  p.appendChild(end);
  tx.appendChild(p);
  sp.appendChild(tx);
  return sp;
}
