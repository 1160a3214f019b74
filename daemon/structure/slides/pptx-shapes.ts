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
import { NS, childElements, firstChild } from '../xml/dom.ts';
import type { SlideObject, SlideText } from './index.ts';
import { paragraphText, paragraphsOf } from './pptx-text.ts';

const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006';
/** mc:Choice requirements LibreOffice's OOXML import understands (others fall back). */
export const MC_UNDERSTOOD: ReadonlySet<string> = new Set(['p14', 'p15', 'a14', 'v']);
/** The p: elements that are slide objects. */
export const SHAPES: ReadonlySet<string> = new Set(['sp', 'pic', 'graphicFrame', 'grpSp', 'cxnSp', 'contentPart']);
/** Run-property attributes that are not visual (LibreOffice's hasVisualRunProperties ignores them). */
export const NON_VISUAL_RPR: ReadonlySet<string> = new Set(['lang', 'altLang', 'dirty', 'smtClean', 'smtId', 'err', 'noProof', 'bmk']);
/** Placeholder types whose empty shape holds no text (pictures, tables, charts, media...). */
const NON_TEXT_PH = new Set(['pic', 'tbl', 'chart', 'clipArt', 'dgm', 'media', 'sldImg']);

/** The p:ph of a shape (p:sp, p:pic, p:graphicFrame, p:cxnSp), if it is a placeholder. */
export function placeholderOf(shape: Element): Element | undefined {
  const nv = childElements(shape, NS.p).find((e) => e.localName?.startsWith('nv'));
  const nvPr = nv ? firstChild(nv, NS.p, 'nvPr') : undefined;
  return nvPr ? firstChild(nvPr, NS.p, 'ph') : undefined;
}

/** The placeholder type of a shape ("obj" when p:ph has no type), or undefined when it is not a placeholder. */
export function placeholderType(shape: Element): string | undefined {
  const ph = placeholderOf(shape);
  return ph ? (ph.getAttribute('type') || 'obj') : undefined;
}

/** The shape element an mc:AlternateContent stands for (the understood mc:Choice, else mc:Fallback). */
function resolveAlternate(ac: Element): Element | undefined {
  for (const choice of childElements(ac, MC, 'Choice')) {
    const requires = (choice.getAttribute('Requires') ?? '').split(/\s+/).filter(Boolean);
    if (requires.every((r) => MC_UNDERSTOOD.has(r))) return childElements(choice, NS.p).find((e) => SHAPES.has(e.localName ?? ''));
  }
  const fallback = firstChild(ac, MC, 'Fallback');
  return fallback ? childElements(fallback, NS.p).find((e) => SHAPES.has(e.localName ?? '')) : undefined;
}

function hasNoVisualProperties(sp: Element): boolean {
  const spPr = firstChild(sp, NS.p, 'spPr');
  if (spPr && childElements(spPr).length > 0) return false;
  if (firstChild(sp, NS.p, 'style')) return false;
  const tx = firstChild(sp, NS.p, 'txBody');
  if (!tx) return true;
  const bodyPr = firstChild(tx, NS.a, 'bodyPr');
  if (bodyPr && (bodyPr.attributes.length > 0 || childElements(bodyPr).length > 0)) return false;
  const lst = firstChild(tx, NS.a, 'lstStyle');
  if (lst && childElements(lst).length > 0) return false;
  for (const p of paragraphsOf(tx)) {
    const pPr = firstChild(p, NS.a, 'pPr');
    if (pPr && (pPr.attributes.length > 0 || childElements(pPr).length > 0)) return false;
    for (const run of childElements(p, NS.a)) {
      if (run.localName !== 'r' && run.localName !== 'fld') continue;
      const rPr = firstChild(run, NS.a, 'rPr');
      if (!rPr) continue;
      if (childElements(rPr).length > 0) return false;
      for (let i = 0; i < rPr.attributes.length; i++) if (!NON_VISUAL_RPR.has(rPr.attributes[i].localName ?? rPr.attributes[i].name)) return false;
    }
  }
  return true;
}

/** True when LibreOffice turns this slide placeholder into a header/footer setting instead of a shape. */
function becomesHeaderFooter(sp: Element): boolean {
  if (sp.localName !== 'sp') return false;
  const type = placeholderType(sp);
  if (type !== 'ftr' && type !== 'sldNum' && type !== 'dt') return false;
  const tx = firstChild(sp, NS.p, 'txBody');
  if (!tx) return false;
  const paras = paragraphsOf(tx);
  if (paras.length !== 1) return false;
  const runs = childElements(paras[0], NS.a).filter((e) => e.localName === 'r' || e.localName === 'br' || e.localName === 'fld');
  if (runs.length !== 1 || !hasNoVisualProperties(sp)) return false;
  const run = runs[0];
  if (type === 'ftr') return run.localName === 'r' && (firstChild(run, NS.a, 't')?.textContent ?? '') !== '';
  const fieldType = run.localName === 'fld' ? (run.getAttribute('type') ?? '') : '';
  if (type === 'sldNum') return fieldType === 'slidenum';
  return /^datetime\d+$/.test(fieldType);
}

/** The shape a child of p:spTree stands for (mc:AlternateContent resolved), or undefined when it is no shape. */
export function resolveShape(child: Element): Element | undefined {
  if (child.namespaceURI === MC && child.localName === 'AlternateContent') return resolveAlternate(child);
  return child.namespaceURI === NS.p && SHAPES.has(child.localName ?? '') ? child : undefined;
}

/** The objects of a slide's p:spTree in LibreOffice's order. */
export function slideObjects(spTree: Element): Element[] {
  const out: Element[] = [];
  for (const child of childElements(spTree)) {
    const shape = resolveShape(child);
    if (shape && !becomesHeaderFooter(shape)) out.push(shape);
  }
  return out;
}

/** True when the object can hold text (a p:sp that is not an empty picture/table/chart placeholder). */
export function isTextShape(shape: Element): boolean {
  if (shape.localName !== 'sp') return false;
  const type = placeholderType(shape);
  return !(type && NON_TEXT_PH.has(type) && !firstChild(shape, NS.p, 'txBody'));
}

/**
 * The text of a text body, or undefined when it is a single empty paragraph: LibreOffice keeps no text object for
 * that (svx SvxTextEditSourceImpl::UpdateData drops an outliner holding one empty paragraph), as in ODP.
 */
function textOf(txBody: Element): SlideText | undefined {
  const paragraphs = paragraphsOf(txBody).map(paragraphText);
  if (paragraphs.length === 0 || (paragraphs.length === 1 && paragraphs[0] === '')) return undefined;
  return { ParaCount: paragraphs.length, Paragraphs: paragraphs };
}

/**
 * The extraction of one object: a shape's text body as one text; a table (a:tbl in p:graphicFrame) as one text per
 * cell with text, row by row; `{}` for everything without text (pictures, charts, connectors, groups, shapes
 * without p:txBody or with one empty paragraph).
 */
export function describeObject(shape: Element): SlideObject {
  const texts: SlideText[] = [];
  if (shape.localName === 'sp') {
    const tx = firstChild(shape, NS.p, 'txBody');
    const t = tx ? textOf(tx) : undefined;
    if (t) texts.push(t);
  } else if (shape.localName === 'graphicFrame') {
    for (const tbl of Array.from(shape.getElementsByTagNameNS(NS.a, 'tbl'))) {
      for (const tr of childElements(tbl, NS.a, 'tr')) {
        for (const tc of childElements(tr, NS.a, 'tc')) {
          const tx = firstChild(tc, NS.a, 'txBody');
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
export function titleText(spTree: Element): string {
  for (const shape of childElements(spTree, NS.p, 'sp')) {
    const type = placeholderType(shape);
    if (type !== 'title' && type !== 'ctrTitle') continue;
    const tx = firstChild(shape, NS.p, 'txBody');
    if (!tx) return '';
    const text = paragraphsOf(tx)
      .map((p) =>
        childElements(p, NS.a)
          .map((r) => (r.localName === 'br' ? '\n' : r.localName === 'r' || r.localName === 'fld' ? (firstChild(r, NS.a, 't')?.textContent ?? '') : ''))
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
