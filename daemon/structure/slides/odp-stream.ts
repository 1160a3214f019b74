/**
 * Streaming reads of ODP parts for the slides extraction and the commands' lookups: the same results as the DOM
 * reads of odp-deck.ts without a DOM of the whole part. styles.xml (often 300 kB of styles) is streamed for the
 * master pages' names and the presentation page layouts' AutoLayout ids; content.xml for each draw:page's names
 * and its objects' texts, read from a light tree of the page's shapes with the rules of odp-shapes.ts and
 * odp-text.ts (the automatic styles, notes, forms and animations are skipped).
 */
import { NS } from '../xml/dom.ts';
import { streamXml, type StreamElement } from '../xml/stream.ts';
import { layoutIdOfPlaceholders, lengthToCm } from './odp-layouts.ts';
import { SHAPES } from './odp-shapes.ts';
import { ATOMS, FEATURE, FIELDS, SKIPPED } from './odp-text.ts';

/** What the slides extraction needs of styles.xml. */
export interface OdpStylesSummary {
  /** style:master-page of the first office:master-styles, in order: style:name and the reported name. */
  masters: Array<{ styleName: string; name: string }>;
  /** style:presentation-page-layout of the first office:styles by style:name (the last one of a name wins), with its AutoLayout id. */
  layouts: Map<string, number>;
}

/**
 * Reads the master pages and the presentation page layouts of an ODP styles.xml by streaming (ODF 1.3 Part 3,
 * 16.9 style:master-page, 16.41 style:presentation-page-layout).
 * @throws StructureError bad_package when the part is not well formed.
 */
export function readOdpStyles(text: string, part: string): OdpStylesSummary {
  const out: OdpStylesSummary = { masters: [], layouts: new Map() };
  let seenStyles = false;
  let seenMasters = false;
  let section: 'styles' | 'masters' | undefined;
  let layout: { name: string; list: Array<{ name: string; x: number }> } | undefined;
  streamXml(text, part, {
    onOpen: (el) => {
      if (el.depth === 0) return undefined;
      if (el.depth === 1) {
        section = undefined;
        if (el.ns === NS.office && el.local === 'styles' && !seenStyles) section = 'styles';
        else if (el.ns === NS.office && el.local === 'master-styles' && !seenMasters) section = 'masters';
        if (section === 'styles') seenStyles = true;
        if (section === 'masters') seenMasters = true;
        return section ? undefined : 'skip';
      }
      if (el.depth === 2) {
        if (section === 'masters' && el.ns === NS.style && el.local === 'master-page') {
          const styleName = el.attr(NS.style, 'name') ?? '';
          out.masters.push({ styleName, name: el.attr(NS.style, 'display-name') || styleName });
        } else if (section === 'styles' && el.ns === NS.style && el.local === 'presentation-page-layout') {
          layout = { name: el.attr(NS.style, 'name') ?? '', list: [] };
          out.layouts.set(layout.name, 20);
          return undefined;
        }
        return 'skip';
      }
      if (el.depth === 3 && layout && el.ns === NS.presentation && el.local === 'placeholder') {
        layout.list.push({ name: el.attr(NS.presentation, 'object') ?? '', x: lengthToCm(el.attr(NS.svg, 'x') ?? '0') });
      }
      return 'skip';
    },
    onClose: (ns, local, depth) => {
      if (depth === 2 && layout) {
        out.layouts.set(layout.name, layoutIdOfPlaceholders(layout.list));
        layout = undefined;
      }
    },
  });
  return out;
}

/** One draw:page as the extraction reads it: its attributes and, per object, its texts as paragraph strings. */
export interface OdpPageSummary {
  /** draw:name, draw:master-page-name, presentation:presentation-page-layout-name (null when absent). */
  name: string | null;
  master: string | null;
  layout: string | null;
  /** Per object (odp-shapes.ts shapesOf), its texts (odp-shapes.ts textsOf). */
  objects: string[][][];
}

/** An element of the light tree of a page: name, attributes, and children in order (text as strings). */
interface LNode {
  ns: string;
  local: string;
  attr: StreamElement['attr'];
  children: Array<LNode | string>;
}

const DR3D = 'urn:oasis:names:tc:opendocument:xmlns:dr3d:1.0';

function elements(n: LNode): LNode[] {
  return n.children.filter((c): c is LNode => typeof c !== 'string');
}

function isShape(n: LNode): boolean {
  return n.ns === NS.draw && SHAPES.has(n.local);
}

/** odp-shapes.ts shapesOf. */
function shapesOf(page: LNode): LNode[] {
  const out: LNode[] = [];
  for (const el of elements(page)) {
    if (!isShape(el) && !(el.local === 'scene' && el.ns === DR3D)) continue;
    if (el.local === 'a' && el.ns === NS.draw) {
      const inner = elements(el).find(isShape);
      if (inner) out.push(inner);
      continue;
    }
    out.push(el);
  }
  return out;
}

/** odp-shapes.ts textContainerOf. */
function textContainerOf(shape: LNode): LNode | undefined {
  const local = shape.local;
  if (local === 'g' || local === 'page-thumbnail' || local === 'control' || local === 'scene') return undefined;
  if (local !== 'frame') return shape;
  const first = elements(shape).find((k) => (k.ns === NS.draw && ['text-box', 'image', 'object', 'object-ole', 'plugin', 'applet', 'floating-frame'].includes(k.local)) || (k.ns === NS.table && k.local === 'table'));
  return first && first.ns === NS.draw && (first.local === 'text-box' || first.local === 'image') ? first : undefined;
}

/** odp-shapes.ts textsOf. */
function textsOf(shape: LNode): string[][] {
  const out: string[][] = [];
  const table = shape.local === 'frame' ? elements(shape).find((k) => k.ns === NS.table && k.local === 'table') : undefined;
  if (table) {
    for (const row of elements(table)) {
      if (row.ns !== NS.table || row.local !== 'table-row') continue;
      for (const cell of elements(row)) if (cell.ns === NS.table && cell.local === 'table-cell') pushText(out, cell);
    }
    return out;
  }
  const container = textContainerOf(shape);
  if (container) pushText(out, container);
  return out;
}

function pushText(out: string[][], container: LNode): void {
  const paras: string[] = [];
  const walk = (parent: LNode) => {
    for (const el of elements(parent)) {
      if (el.ns !== NS.text) continue;
      if (el.local === 'p' || el.local === 'h') paras.push(paragraphText(el));
      else if (el.local === 'list' || el.local === 'list-item' || el.local === 'list-header') walk(el);
    }
  };
  walk(container);
  if (paras.length > 1 || (paras.length === 1 && paras[0] !== '')) out.push(paras);
}

/** odp-text.ts paragraphText (readPieces): white space collapsed as LibreOffice's import does, features as U+0001. */
function paragraphText(p: LNode): string {
  let out = '';
  let ignoreLeadingSpace = true;
  const walk = (parent: LNode) => {
    for (const n of parent.children) {
      if (typeof n === 'string') {
        for (const ch of n) {
          if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
            if (!ignoreLeadingSpace) out += ' ';
            ignoreLeadingSpace = true;
          } else {
            out += ch;
            ignoreLeadingSpace = false;
          }
        }
        continue;
      }
      if (n.ns === NS.text) {
        if (n.local === 's') {
          out += ' '.repeat(Math.max(1, Number(n.attr(NS.text, 'c') ?? '1') || 1));
          ignoreLeadingSpace = false;
        } else if (ATOMS.has(n.local) || FIELDS.has(n.local)) {
          out += FEATURE;
          ignoreLeadingSpace = false;
        } else if (!SKIPPED.has(n.local)) {
          walk(n);
        }
      } else if (n.ns === NS.presentation && (n.local === 'header' || n.local === 'footer' || n.local === 'date-time')) {
        out += FEATURE;
        ignoreLeadingSpace = false;
      } else if (!(n.ns === NS.office && n.local === 'annotation') && n.ns !== NS.draw) {
        walk(n);
      }
    }
  };
  walk(p);
  return out;
}

/**
 * Reads the draw:page elements of an ODP content.xml (the first office:presentation of the first office:body) by
 * streaming: each page's names and its objects' texts, as the DOM reads of odp-deck.ts give them. `presentation`
 * is false when there is no office:presentation.
 * @throws StructureError bad_package when the part is not well formed.
 */
export function readOdpPageSummaries(text: string, part: string): { presentation: boolean; pages: OdpPageSummary[] } {
  let seenBody = false;
  let inBody = false;
  let seenPresentation = false;
  let inPresentation = false;
  const pages: LNode[] = [];
  const stack: LNode[] = [];
  streamXml(text, part, {
    onOpen: (el) => {
      if (el.depth === 0) return undefined;
      if (el.depth === 1) {
        inBody = !seenBody && el.ns === NS.office && el.local === 'body';
        seenBody ||= inBody;
        return inBody ? undefined : 'skip';
      }
      if (el.depth === 2) {
        inPresentation = inBody && !seenPresentation && el.ns === NS.office && el.local === 'presentation';
        seenPresentation ||= inPresentation;
        return inPresentation ? undefined : 'skip';
      }
      const node: LNode = { ns: el.ns, local: el.local, attr: el.attr, children: [] };
      if (el.depth === 3) {
        if (el.ns !== NS.draw || el.local !== 'page') return 'skip';
        pages.push(node);
      } else {
        // a page's children that are not shapes (notes, forms, animations) are not read
        if (el.depth === 4 && !(el.ns === NS.draw && SHAPES.has(el.local)) && !(el.ns === DR3D && el.local === 'scene')) return 'skip';
        stack[el.depth - 4].children.push(node);
      }
      stack[el.depth - 3] = node;
      return undefined;
    },
    onText: (t, depth) => {
      if (depth >= 4) stack[depth - 3].children.push(t);
    },
  });
  return {
    presentation: seenPresentation,
    pages: pages.map((page) => ({
      name: page.attr(NS.draw, 'name') ?? null,
      master: page.attr(NS.draw, 'master-page-name') ?? null,
      layout: page.attr(NS.presentation, 'presentation-page-layout-name') ?? null,
      objects: shapesOf(page).map(textsOf),
    })),
  };
}
