/**
 * How LibreOffice names the layout of a PPTX slide: the AutoLayout id its PPTX import derives from the slide
 * layout's `p:sldLayout/@type` (ECMA-376 Part 1, 19.7.15 ST_SlideLayoutType; LibreOffice
 * oox/source/ppt/slidepersist.cxx, getLayoutFromValueToken), and the AutoLayout names (sd/inc/pres.hxx). Checked
 * against LibreOffice 7.4: converting the corpus decks to ODP gives these ids (AL<n>T<id> page layouts).
 */

import { AUTOLAYOUT_NAMES, autoLayoutName } from './autolayout.ts';

export { AUTOLAYOUT_NAMES, autoLayoutName };

/**
 * ST_SlideLayoutType -> AutoLayout id as LibreOffice's PPTX import maps it; every other type (secHead, objTx,
 * picTx, twoTxTwoObj, cust, none) is AUTOLAYOUT_NONE (20).
 */
const TYPE_TO_AUTOLAYOUT: Readonly<Record<string, number>> = {
  blank: 20,
  chart: 2,
  chartAndTx: 7,
  clipArtAndTx: 9,
  clipArtAndVertTx: 24,
  fourObj: 18,
  obj: 11,
  objAndTx: 13,
  objOverTx: 14,
  tbl: 8,
  title: 0,
  titleOnly: 19,
  twoObj: 3,
  twoColTx: 3,
  twoObjAndObj: 15,
  twoObjAndTx: 15,
  twoObjOverTx: 16,
  tx: 1,
  txAndChart: 4,
  txAndClipArt: 6,
  txAndMedia: 6,
  txAndObj: 10,
  objAndTwoObj: 12,
  txAndTwoObj: 12,
  txOverObj: 17,
  vertTitleAndTx: 22,
  vertTitleAndTxOverChart: 21,
  vertTx: 23,
  objOnly: 32,
};

/** The AutoLayout id LibreOffice gives a slide whose layout has `p:sldLayout/@type` = `type` (default "cust"). */
export function autoLayoutOfType(type: string | null | undefined): number {
  return TYPE_TO_AUTOLAYOUT[type ?? 'cust'] ?? 20;
}

/**
 * The slide-layout types that give AutoLayout `id`, best first: what ChangeLayout looks for among the master's
 * layouts. AUTOLAYOUT_TITLE_CONTENT (1) also takes `obj`, PowerPoint's "Title and Content" (which LibreOffice
 * reports as 11, AUTOLAYOUT_OBJ), since PowerPoint's masters have no `tx` layout.
 */
export function layoutTypesFor(id: number): string[] {
  const exact = Object.entries(TYPE_TO_AUTOLAYOUT)
    .filter(([, v]) => v === id)
    .map(([k]) => k);
  if (id === 1) exact.push('obj');
  if (id === 20) exact.push('cust');
  return exact;
}

/** The layouts ChangeLayout accepts: every AutoLayout id and name of the enum, except notes and handouts. */
export const SLIDE_LAYOUTS: ReadonlyArray<{ id: number; name: string }> = Object.entries(AUTOLAYOUT_NAMES)
  .map(([id, name]) => ({ id: Number(id), name }))
  .filter((l) => !/NOTES|HANDOUT/.test(l.name));
