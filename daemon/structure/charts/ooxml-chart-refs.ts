import type { StructureDocument } from '../document.ts';
import { relsPartName, resolveTarget } from '../package/opc-relationships.ts';
import { NS } from '../xml/dom.ts';
import { domParts, readChildren, type PartReader, type ReadElement } from '../xml/read-tree.ts';

// The two look-ups the chart reader, the chart writer and the embedded workbook share (kept apart so that none of
// them imports another at run time).

/** The internal target of relationship `id` of `source` (rels read through `parts`, default the document's DOM cache). */
export function relTarget(doc: StructureDocument, source: string, id: string, parts: PartReader = domParts): string | undefined {
  const rels = relsPartName(source);
  if (!doc.has(rels)) return undefined;
  for (const r of readChildren(parts(doc, rels), NS.rel, 'Relationship')) {
    if (r.getAttribute('Id') === id) return r.getAttribute('TargetMode') === 'External' ? undefined : resolveTarget(source, r.getAttribute('Target') ?? '');
  }
  return undefined;
}

/**
 * The data element (c:strRef, c:numRef, c:strLit, c:numLit, c:multiLvlStrRef) of a c:cat / c:val / c:tx, of the
 * holder's type (DOM or stream-built tree).
 */
export function dataOf<E extends ReadElement>(holder: E | undefined): E | undefined {
  return holder ? readChildren(holder, NS.c).find((e) => /^(strRef|numRef|strLit|numLit|multiLvlStrRef)$/.test(e.localName ?? '')) : undefined;
}
