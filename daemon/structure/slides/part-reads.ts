/**
 * How the slide decks read a document's parts: as trees built by streaming the part's text (xml/read-tree.ts, about
 * 4x faster than building a DOM, and shared with the other filters) while nothing has parsed it for a change, and
 * through the DOM (StructureDocument.xml) once a command has. A part the decks took as DOM stays DOM for the life of the document (a later SlideCommands step opens
 * a new deck on the same document and must see the earlier changes), so every DOM access of the decks goes through
 * `domOf`, `putDom` or `tookAsDom` here.
 */
import type { Document } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { docRelationships, relsPartName, resolveTarget, type Relationship } from '../package/opc-relationships.ts';
import { NS, childElements } from '../xml/dom.ts';
import { readRelationships, streamedParts, streamedView, type PrunedView, type ReadElement } from '../xml/read-tree.ts';

/** Per document: the parts taken as DOM, or 'all' when every read must go through the DOM (readThroughDom). */
const domParts = new WeakMap<StructureDocument, Set<string> | 'all'>();
/** Per document: the parts the decks put in place (putDom) and have not removed since. */
const putParts = new WeakMap<StructureDocument, Set<string>>();

function putSet(doc: StructureDocument): Set<string> {
  let set = putParts.get(doc);
  if (!set) putParts.set(doc, (set = new Set()));
  return set;
}

function taken(doc: StructureDocument): Set<string> | 'all' {
  let set = domParts.get(doc);
  if (!set) domParts.set(doc, (set = new Set()));
  return set;
}

/** Records that `part` is read and changed through the DOM from now on (a helper changed it, e.g. a .rels part). */
export function tookAsDom(doc: StructureDocument, part: string): void {
  const set = taken(doc);
  if (set !== 'all') set.add(part.replace(/^\//, ''));
}

/**
 * The parsed DOM of `part` (StructureDocument.xml), recorded so that later reads of the part use it.
 * @throws StructureError bad_package when the part is missing or not well formed.
 */
export function domOf(doc: StructureDocument, part: string): Document {
  tookAsDom(doc, part);
  return doc.xml(part);
}

/** Puts a new parsed part in place (StructureDocument.putXml), recorded as DOM. */
export function putDom(doc: StructureDocument, part: string, dom: Document, standalone?: boolean): void {
  tookAsDom(doc, part);
  putSet(doc).add(part.replace(/^\//, ''));
  doc.putXml(part, dom, standalone);
}

/** Removes a part (StructureDocument.removePart), recorded as DOM so that nothing streams its old text. */
export function removeDom(doc: StructureDocument, part: string): void {
  tookAsDom(doc, part);
  putSet(doc).delete(part.replace(/^\//, ''));
  doc.removePart(part);
}

/**
 * Makes every later read of the decks on `doc` go through the DOM, as before streaming reads existed: the
 * equivalence tests compare both paths with it.
 */
export function readThroughDom(doc: StructureDocument): void {
  domParts.set(doc, 'all');
}

/**
 * The root element of `part` as the decks read it: the tree built from the part's text by streaming
 * (xml/read-tree.ts `streamedParts`, the same tree the charts filter reads) while no deck took the part as DOM,
 * else the root of its DOM. The slide rules (pptx-shapes.ts, odp-shapes.ts, ...) read either the same way.
 * @throws StructureError bad_package when the part is missing or not well formed.
 */
export function partRoot(doc: StructureDocument, part: string): ReadElement {
  return canStream(doc, part) ? streamedParts(doc, part) : domOf(doc, part).documentElement!;
}

/**
 * As `partRoot`, but a streamed read keeps only what `view` keeps (xml/read-tree.ts `streamedView`): for parts
 * of which the decks read a few elements (an odp's styles.xml, a slide layout's name and type). With `keep` false,
 * a tree built now is not kept for later reads (a reader that reads the part once).
 * @throws StructureError bad_package when the part is missing or not well formed.
 */
export function partView(doc: StructureDocument, part: string, view: PrunedView, keep = true): ReadElement {
  return canStream(doc, part) ? streamedView(doc, part, view, keep) : domOf(doc, part).documentElement!;
}

/**
 * The relationships of `source` (ECMA-376 Part 2, 9.3), read from the stream-built tree of its .rels part when it
 * can be, else through the DOM (docRelationships). Targets are resolved to part names; external targets are left
 * as they are.
 * @throws StructureError bad_package when the .rels part is not well formed.
 */
export function relationshipsOf(doc: StructureDocument, source: string): readonly Relationship[] {
  const name = relsPartName(source);
  if (canStream(doc, name) && doc.pkg.has(name)) return readRelationships(doc, source);
  // docRelationships sees the package's .rels parts and those addRelationship made, not those put in place
  if (!putSet(doc).has(name)) return docRelationships(doc, source);
  return childElements(doc.xml(name).documentElement!, NS.rel, 'Relationship').map((r) => {
    const external = r.getAttribute('TargetMode') === 'External';
    const target = r.getAttribute('Target') ?? '';
    return { id: r.getAttribute('Id') ?? '', type: r.getAttribute('Type') ?? '', target: external ? target : resolveTarget(source, target), external };
  });
}

/** True when `part` is read by streaming: no deck has taken it as DOM (it may still be missing from the package). */
export function canStream(doc: StructureDocument, part: string): boolean {
  const set = taken(doc);
  return set !== 'all' && !set.has(part.replace(/^\//, ''));
}
