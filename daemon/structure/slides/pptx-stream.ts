/**
 * Streaming reads of PPTX parts for the slides extraction and the commands' lookups (names, object counts): the
 * same results as the DOM reads of pptx-deck.ts and pptx-shapes.ts, without building a DOM of the slide. The
 * p:spTree is read into a light tree of the elements the rules look at; of property elements (a:rPr, a:pPr,
 * a:bodyPr, p:spPr, ...) only the attributes and the number of children are kept. The footer, slide-number and date
 * placeholders that become header/footer settings have "no own formatting": the DOM rule counts every attribute,
 * the stream looks for each attribute the schema defines for a:bodyPr, a:pPr and a:rPr (ECMA-376 Part 1,
 * 21.1.2.1.1, 21.1.2.2.7, 21.1.2.3.9), so an attribute outside the schema is not counted here.
 */
import { NS } from '../xml/dom.ts';
import { streamXml, type StreamElement } from '../xml/stream.ts';
import type { SlideObject, SlideText } from './index.ts';
import { MC_UNDERSTOOD, NON_VISUAL_RPR, SHAPES } from './pptx-shapes.ts';
import { FEATURE } from './pptx-text.ts';

const MC = NS.mc;

/**
 * An element of the light tree: name, attributes (by namespace and local name), children (for property elements:
 * only their number, in `count`), and its own text.
 */
interface LNode {
  ns: string;
  local: string;
  attr: StreamElement['attr'];
  children: LNode[];
  /** A property element: its children are counted in `count`, not kept. */
  shallow: boolean;
  count: number;
  text: string;
}

/** Property elements: kept with their attributes and the number of their children, whose content is skipped. */
const SHALLOW_A = new Set(['rPr', 'pPr', 'endParaRPr', 'bodyPr', 'lstStyle', 'tcPr', 'tblPr', 'tblGrid']);
const SHALLOW_P = new Set(['spPr', 'style', 'blipFill']);
/** Objects whose content no rule reads (they report `{}`): kept without their children. */
const OPAQUE_P = new Set(['pic', 'grpSp', 'cxnSp', 'contentPart']);
/** The attributes of a:bodyPr (CT_TextBodyProperties) and a:pPr (CT_TextParagraphProperties). */
const BODY_PR_ATTRS = ['rot', 'spcFirstLastPara', 'vertOverflow', 'horzOverflow', 'vert', 'wrap', 'lIns', 'tIns', 'rIns', 'bIns', 'numCol', 'spcCol', 'rtlCol', 'fromWordArt', 'anchor', 'anchorCtr', 'forceAA', 'upright', 'compatLnSpc'];
const P_PR_ATTRS = ['marL', 'marR', 'lvl', 'indent', 'algn', 'defTabSz', 'rtl', 'eaLnBrk', 'fontAlgn', 'latinLnBrk', 'hangingPunct'];
/** The attributes of a:rPr (CT_TextCharacterProperties) that are visual (not in NON_VISUAL_RPR). */
const R_PR_VISUAL_ATTRS = ['kumimoji', 'lang', 'altLang', 'sz', 'b', 'i', 'u', 'strike', 'kern', 'cap', 'spc', 'normalizeH', 'baseline', 'noProof', 'dirty', 'err', 'smtClean', 'smtId', 'bmk'].filter((a) => !NON_VISUAL_RPR.has(a));

function hasAttr(n: LNode, names: readonly string[]): boolean {
  return names.some((a) => n.attr('', a) !== undefined);
}

/** What the slides extraction needs of one slide part. */
export interface SlideSummary {
  /** p:cSld/@name ("" when absent). */
  name: string;
  /** The title text (pptx-shapes.ts titleText); undefined when the slide has no p:cSld/p:spTree. */
  title?: string;
  /** The objects' extraction, in LibreOffice's order (pptx-shapes.ts slideObjects and describeObject); undefined without p:spTree. */
  objects?: SlideObject[];
}

/** What the masters need of a slide layout part: p:cSld/@name and p:sldLayout/@type. */
export interface LayoutSummary {
  name: string;
  type: string | null;
}

function kids(n: LNode, ns?: string, local?: string): LNode[] {
  return n.children.filter((c) => (ns === undefined || c.ns === ns) && (local === undefined || c.local === local));
}

function kid(n: LNode, ns: string, local: string): LNode | undefined {
  return n.children.find((c) => c.ns === ns && c.local === local);
}

/** The placeholder type of a shape ("obj" when p:ph has no type), undefined when it is not a placeholder. */
function placeholderType(shape: LNode): string | undefined {
  const nv = kids(shape, NS.p).find((e) => e.local.startsWith('nv'));
  const nvPr = nv ? kid(nv, NS.p, 'nvPr') : undefined;
  const ph = nvPr ? kid(nvPr, NS.p, 'ph') : undefined;
  return ph ? (ph.attr('', 'type') || 'obj') : undefined;
}

function runs(p: LNode): LNode[] {
  return kids(p, NS.a).filter((e) => e.local === 'r' || e.local === 'br' || e.local === 'fld');
}

/** The text of a run's first a:t ("" when none). */
function tText(run: LNode): string {
  return kid(run, NS.a, 't')?.text ?? '';
}

/** The paragraph as LibreOffice's edit engine holds it (pptx-text.ts paragraphText). */
function paragraphText(p: LNode): string {
  let s = '';
  for (const r of runs(p)) {
    if (r.local === 'br') s += FEATURE;
    else if (r.local === 'fld' && isLoField(r.attr('', 'type') ?? '')) s += FEATURE;
    else s += tText(r).replace(/\t/g, FEATURE);
  }
  return s;
}

function isLoField(type: string): boolean {
  return type === 'slidenum' || type.startsWith('datetime');
}

function textOf(txBody: LNode): SlideText | undefined {
  const paragraphs = kids(txBody, NS.a, 'p').map(paragraphText);
  if (paragraphs.length === 0 || (paragraphs.length === 1 && paragraphs[0] === '')) return undefined;
  return { ParaCount: paragraphs.length, Paragraphs: paragraphs };
}

/** Every a:tbl below `n`, in document order (getElementsByTagNameNS). */
function tables(n: LNode, out: LNode[] = []): LNode[] {
  for (const c of n.children) {
    if (c.ns === NS.a && c.local === 'tbl') out.push(c);
    tables(c, out);
  }
  return out;
}

function describeObject(shape: LNode): SlideObject {
  const texts: SlideText[] = [];
  if (shape.local === 'sp') {
    const tx = kid(shape, NS.p, 'txBody');
    const t = tx ? textOf(tx) : undefined;
    if (t) texts.push(t);
  } else if (shape.local === 'graphicFrame') {
    for (const tbl of tables(shape)) {
      for (const tr of kids(tbl, NS.a, 'tr')) {
        for (const tc of kids(tr, NS.a, 'tc')) {
          const tx = kid(tc, NS.a, 'txBody');
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

/** The shape an mc:AlternateContent stands for (pptx-shapes.ts resolveAlternate). */
function resolveAlternate(ac: LNode): LNode | undefined {
  for (const choice of kids(ac, MC, 'Choice')) {
    const requires = (choice.attr('', 'Requires') ?? '').split(/\s+/).filter(Boolean);
    if (requires.every((r) => MC_UNDERSTOOD.has(r))) return kids(choice, NS.p).find((e) => SHAPES.has(e.local));
  }
  const fallback = kid(ac, MC, 'Fallback');
  return fallback ? kids(fallback, NS.p).find((e) => SHAPES.has(e.local)) : undefined;
}

/** pptx-shapes.ts hasNoVisualProperties, attributes by the schema's names. */
function hasNoVisualProperties(sp: LNode): boolean {
  const spPr = kid(sp, NS.p, 'spPr');
  if (spPr && spPr.count > 0) return false;
  if (kid(sp, NS.p, 'style')) return false;
  const tx = kid(sp, NS.p, 'txBody');
  if (!tx) return true;
  const bodyPr = kid(tx, NS.a, 'bodyPr');
  if (bodyPr && (bodyPr.count > 0 || hasAttr(bodyPr, BODY_PR_ATTRS))) return false;
  const lst = kid(tx, NS.a, 'lstStyle');
  if (lst && lst.count > 0) return false;
  for (const p of kids(tx, NS.a, 'p')) {
    const pPr = kid(p, NS.a, 'pPr');
    if (pPr && (pPr.count > 0 || hasAttr(pPr, P_PR_ATTRS))) return false;
    for (const run of kids(p, NS.a)) {
      if (run.local !== 'r' && run.local !== 'fld') continue;
      const rPr = kid(run, NS.a, 'rPr');
      if (rPr && (rPr.count > 0 || hasAttr(rPr, R_PR_VISUAL_ATTRS))) return false;
    }
  }
  return true;
}

/** pptx-shapes.ts becomesHeaderFooter. */
function becomesHeaderFooter(sp: LNode): boolean {
  if (sp.local !== 'sp') return false;
  const type = placeholderType(sp);
  if (type !== 'ftr' && type !== 'sldNum' && type !== 'dt') return false;
  const tx = kid(sp, NS.p, 'txBody');
  if (!tx) return false;
  const paras = kids(tx, NS.a, 'p');
  if (paras.length !== 1) return false;
  const rs = runs(paras[0]);
  if (rs.length !== 1 || !hasNoVisualProperties(sp)) return false;
  const run = rs[0];
  if (type === 'ftr') return run.local === 'r' && tText(run) !== '';
  const fieldType = run.local === 'fld' ? (run.attr('', 'type') ?? '') : '';
  if (type === 'sldNum') return fieldType === 'slidenum';
  return /^datetime\d+$/.test(fieldType);
}

function titleText(tree: LNode): string {
  for (const shape of kids(tree, NS.p, 'sp')) {
    const type = placeholderType(shape);
    if (type !== 'title' && type !== 'ctrTitle') continue;
    const tx = kid(shape, NS.p, 'txBody');
    if (!tx) return '';
    const text = kids(tx, NS.a, 'p')
      .map((p) => kids(p, NS.a).map((r) => (r.local === 'br' ? '\n' : r.local === 'r' || r.local === 'fld' ? tText(r) : '')).join(''))
      .join('\n');
    return text.slice(0, 63);
  }
  return '';
}

/**
 * Reads a slide part (p:sld) by streaming: its name, title text and objects, as the DOM reads give them.
 * @throws StructureError bad_package when the part is not well formed.
 */
export function readSlideSummary(text: string, part: string): SlideSummary {
  let name = '';
  let seenCSld = false;
  let inCSld = false;
  let tree: LNode | undefined;
  const stack: LNode[] = [];
  streamXml(text, part, {
    onOpen: (el) => {
      if (el.depth === 1) {
        inCSld = !seenCSld && el.ns === NS.p && el.local === 'cSld';
        if (inCSld) {
          seenCSld = true;
          name = el.attr('', 'name') ?? '';
        }
        return inCSld ? undefined : 'skip';
      }
      if (el.depth === 2) {
        if (!inCSld || tree || el.ns !== NS.p || el.local !== 'spTree') return 'skip';
        tree = { ns: el.ns, local: el.local, attr: el.attr, children: [], shallow: false, count: 0, text: '' };
        stack.length = 0;
        stack.push(tree);
        return undefined;
      }
      if (el.depth < 2) return undefined;
      const parent = stack[el.depth - 3];
      if (parent.shallow) {
        parent.count++;
        return 'skip';
      }
      const shallow = (el.ns === NS.a && SHALLOW_A.has(el.local)) || (el.ns === NS.p && SHALLOW_P.has(el.local));
      const node: LNode = { ns: el.ns, local: el.local, attr: el.attr, children: [], shallow, count: 0, text: '' };
      parent.children.push(node);
      stack[el.depth - 2] = node;
      return el.ns === NS.p && OPAQUE_P.has(el.local) ? 'skip' : undefined;
    },
    onText: (t, depth) => {
      const n = depth >= 2 ? stack[depth - 2] : undefined;
      if (n && n.ns === NS.a && n.local === 't' && tree) n.text += t;
    },
  });
  if (!tree) return { name };
  const objects: SlideObject[] = [];
  for (const child of tree.children) {
    let shape: LNode | undefined = child;
    if (child.ns === MC && child.local === 'AlternateContent') shape = resolveAlternate(child);
    else if (child.ns !== NS.p || !SHAPES.has(child.local)) shape = undefined;
    if (shape && !becomesHeaderFooter(shape)) objects.push(describeObject(shape));
  }
  return { name, title: titleText(tree), objects };
}

/**
 * Reads a slide layout part's name (p:cSld/@name) and type (p:sldLayout/@type) by streaming.
 * @throws StructureError bad_package when the part is not well formed.
 */
export function readLayoutSummary(text: string, part: string): LayoutSummary {
  let name: string | undefined;
  let type: string | null = null;
  streamXml(text, part, {
    onOpen: (el) => {
      if (el.depth === 0) {
        type = el.attr('', 'type') ?? null;
        return undefined;
      }
      if (el.depth === 1 && name === undefined && el.ns === NS.p && el.local === 'cSld') {
        name = el.attr('', 'name') ?? '';
        return 'stop';
      }
      return 'skip';
    },
  });
  return { name: name ?? '', type };
}

/**
 * The r:id of each p:sldId of presentation.xml's p:sldIdLst, in order, with its @id, by streaming.
 * @throws StructureError bad_package when the part is not well formed.
 */
export function readSlideIds(text: string, part: string): Array<{ id: string | null; rId: string }> {
  const out: Array<{ id: string | null; rId: string }> = [];
  let seenLst = false;
  let inLst = false;
  streamXml(text, part, {
    onOpen: (el) => {
      if (el.depth === 0) return undefined;
      if (el.depth === 1) {
        inLst = !seenLst && el.ns === NS.p && el.local === 'sldIdLst';
        seenLst ||= inLst;
        return inLst ? undefined : 'skip';
      }
      if (el.depth === 2 && el.ns === NS.p && el.local === 'sldId') out.push({ id: el.attr('', 'id') ?? null, rId: el.attr(NS.r, 'id') ?? '' });
      return 'skip';
    },
  });
  return out;
}
