/**
 * LibreOffice's AutoLayouts as ODP stores them (ODF 1.3 Part 3, 16.41 style:presentation-page-layout with
 * presentation:placeholder children): the ids and names of LibreOffice's AutoLayout enum (sd/inc/pres.hxx), the
 * rule by which LibreOffice's ODF import turns a layout's placeholder list into an id (xmloff ximpstyl.cxx,
 * SdXMLPresentationPageLayoutContext), and, for writing, a placeholder list per id that the import maps back to
 * that same id, plus the presentation objects LibreOffice puts on a slide of that layout (sd sdpage.cxx,
 * LayoutDescriptor).
 */
import { NS } from '../xml/dom.ts';
import { readChildren, type ReadElement } from '../xml/read-tree.ts';

import { AUTOLAYOUT_NAMES } from './autolayout.ts';

export { AUTOLAYOUT_NAMES };

/** AutoLayout ids used by name in the code. */
export const AUTOLAYOUT = { TITLE: 0, TITLE_CONTENT: 1, TITLE_ONLY: 19, NONE: 20 } as const;

/** The name of an AutoLayout id ("unknown" outside the enum). */
export function autoLayoutName(id: number): string {
  return AUTOLAYOUT_NAMES[id] ?? 'unknown';
}

/**
 * One placeholder of a presentation-page-layout: its presentation:object and its position as fractions of the
 * layout area (x, y, width, height in 0..1); LibreOffice's import reads only the object names and the x order.
 */
interface PlaceholderSpec {
  object: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

const T: PlaceholderSpec = { object: 'title', x: 0, y: 0, w: 1, h: 1 };
const ph = (object: string, x: number, y: number, w: number, h: number): PlaceholderSpec => ({ object, x, y, w, h });
const FULL = (o: string) => ph(o, 0, 0, 1, 1);
const LEFT = (o: string) => ph(o, 0, 0, 0.488, 1);
const RIGHT = (o: string) => ph(o, 0.512, 0, 0.488, 1);
const TOP = (o: string) => ph(o, 0, 0, 1, 0.476);
const BOTTOM = (o: string) => ph(o, 0, 0.524, 1, 0.476);
const TL = (o: string) => ph(o, 0, 0, 0.488, 0.476);
const TR = (o: string) => ph(o, 0.512, 0, 0.488, 0.476);
const BL = (o: string) => ph(o, 0, 0.524, 0.488, 0.476);
const BR = (o: string) => ph(o, 0.512, 0.524, 0.488, 0.476);

/**
 * For each AutoLayout a slide can take, the placeholder list written in styles.xml: chosen so that LibreOffice's
 * import (`layoutIdOfPlaceholders`) maps it back to the same id. AUTOLAYOUT_ORG (5), the notes and handout
 * layouts and AUTOLAYOUT_4CLIPART have no such list (the import never yields them for a slide), so they are not
 * offered.
 */
const LAYOUT_PLACEHOLDERS: ReadonlyMap<number, readonly PlaceholderSpec[]> = new Map<number, PlaceholderSpec[]>([
  [0, [T, FULL('subtitle')]],
  [1, [T, FULL('outline')]],
  [2, [T, FULL('chart')]],
  [3, [T, LEFT('outline'), RIGHT('outline')]],
  [4, [T, LEFT('outline'), RIGHT('chart')]],
  [6, [T, LEFT('outline'), RIGHT('graphic')]],
  [7, [T, LEFT('chart'), RIGHT('outline')]],
  [8, [T, FULL('table')]],
  [9, [T, LEFT('graphic'), RIGHT('outline')]],
  [10, [T, LEFT('outline'), RIGHT('object')]],
  [11, [T, FULL('object')]],
  [12, [T, LEFT('outline'), TR('outline'), BR('outline')]],
  [13, [T, LEFT('object'), RIGHT('outline')]],
  [14, [T, TOP('object'), BOTTOM('object')]],
  [15, [T, TL('object'), BL('object'), RIGHT('object')]],
  [16, [T, TL('object'), TR('object'), BOTTOM('object')]],
  [17, [T, TOP('outline'), BOTTOM('object')]],
  [18, [T, TL('object'), TR('object'), BL('object'), BR('object')]],
  [19, [T]],
  [20, []],
  [27, [{ ...T, object: 'vertical_title' }, TOP('vertical_outline'), BOTTOM('vertical_outline')]],
  [28, [{ ...T, object: 'vertical_title' }, FULL('vertical_outline')]],
  [29, [T, FULL('vertical_outline')]],
  [30, [T, LEFT('graphic'), RIGHT('vertical_outline')]],
  [32, [FULL('subtitle')]],
  [
    34,
    [
      T,
      ph('outline', 0, 0, 0.32, 0.476),
      ph('outline', 0.34, 0, 0.32, 0.476),
      ph('outline', 0.68, 0, 0.32, 0.476),
      ph('outline', 0, 0.524, 0.32, 0.476),
      ph('outline', 0.34, 0.524, 0.32, 0.476),
      ph('outline', 0.68, 0.524, 0.32, 0.476),
    ],
  ],
]);

/** The AutoLayouts a slide of an odp can be given (ChangeLayout / ChangeLayoutByName), in id order. */
export const ODP_LAYOUTS: ReadonlyArray<{ id: number; name: string }> = [...LAYOUT_PLACEHOLDERS.keys()].map((id) => ({ id, name: autoLayoutName(id) }));

/** The placeholder list to write for a layout id, if the id can be written. */
export function placeholdersOfLayout(id: number): readonly PlaceholderSpec[] | undefined {
  return LAYOUT_PLACEHOLDERS.get(id);
}

/**
 * The AutoLayout id LibreOffice's import gives a style:presentation-page-layout, from its presentation:placeholder
 * children (their presentation:object and svg:x), as SdXMLPresentationPageLayoutContext does. An empty layout is
 * AUTOLAYOUT_NONE.
 */
export function layoutIdOfElement(layout: ReadElement): number {
  const list = readChildren(layout, NS.presentation, 'placeholder').map((p) => ({
    name: p.getAttributeNS(NS.presentation, 'object') ?? '',
    x: lengthToCm(p.getAttributeNS(NS.svg, 'x') ?? '0'),
  }));
  return layoutIdOfPlaceholders(list);
}

/**
 * The AutoLayout id of a placeholder list (presentation:object of each presentation:placeholder, and its svg:x in
 * cm), in order, as SdXMLPresentationPageLayoutContext gives it (layoutIdOfElement reads the list from an element).
 */
export function layoutIdOfPlaceholders(list: ReadonlyArray<{ name: string; x: number }>): number {
  if (list.length === 0) return 20;
  const [o0, o1, o2] = list;
  if (o0.name === 'handout') return ({ 1: 22, 2: 23, 3: 24, 4: 25, 9: 31 } as Record<number, number>)[list.length] ?? 26;
  switch (list.length) {
    case 1:
      return o0.name === 'title' ? 19 : 32;
    case 2:
      switch (o1.name) {
        case 'subtitle':
          return 0;
        case 'outline':
          return 1;
        case 'chart':
          return 2;
        case 'table':
          return 8;
        case 'object':
          return 11;
        case 'vertical_outline':
          return o0.name === 'vertical_title' ? 28 : 29;
        default:
          return 21;
      }
    case 3:
      if (o1.name === 'outline') {
        if (o2.name === 'outline') return 3;
        if (o2.name === 'chart') return 4;
        if (o2.name === 'graphic') return 6;
        return o1.x < o2.x ? 10 : 17;
      }
      if (o1.name === 'chart') return 7;
      if (o1.name === 'graphic') return o2.name === 'vertical_outline' ? 30 : 9;
      if (o1.name === 'vertical_outline') return 27;
      return o1.x < o2.x ? 13 : 14;
    case 4:
      if (o1.name === 'object') return o1.x < o2.x ? 16 : 15;
      return 12;
    case 5:
      return o1.name === 'object' ? 18 : 33;
    case 7:
      return 34;
    default:
      return 20;
  }
}

/**
 * The presentation objects (presentation:class values) LibreOffice puts on a slide of a layout, in order, with
 * their placeholder box (fractions of the layout area, as written in styles.xml); undefined for ids that cannot be
 * written. The vertical variants are plain title/outline objects here (vertical writing is a style matter).
 */
export function presentationObjectsOfLayout(id: number): Array<{ cls: string; x: number; y: number; w: number; h: number }> | undefined {
  const list = LAYOUT_PLACEHOLDERS.get(id);
  if (!list) return undefined;
  return list.map((p) => ({ cls: presentationClassOf(p.object), x: p.x, y: p.y, w: p.w, h: p.h }));
}

/**
 * The presentation:class of the slide object LibreOffice makes for a layout placeholder: a title, a subtitle
 * (AutoLayout "text" objects), else an outline: LibreOffice's current layouts merged the chart, clip-art, table and
 * object places into "content", which is an outline object (sd sdpage.cxx, LayoutDescriptor).
 */
function presentationClassOf(object: string): string {
  if (object === 'title' || object === 'vertical_title') return 'title';
  if (object === 'subtitle') return 'subtitle';
  return 'outline';
}

/** An ODF length (cm, mm, in, pt, pc, px) in centimetres; 0 when unreadable. */
export function lengthToCm(value: string): number {
  const m = /^\s*(-?[0-9.]+)\s*(cm|mm|in|pt|pc|px)?\s*$/.exec(value);
  if (!m) return 0;
  const n = Number(m[1]);
  switch (m[2]) {
    case 'mm':
      return n / 10;
    case 'in':
      return n * 2.54;
    case 'pt':
      return (n * 2.54) / 72;
    case 'pc':
      return (n * 2.54) / 6;
    case 'px':
      return (n * 2.54) / 96;
    default:
      return n;
  }
}

/** A length in centimetres written the way LibreOffice writes it ("1.4cm"). */
export function cm(value: number): string {
  return `${Math.round(value * 1000) / 1000}cm`;
}
