/**
 * How the slide decks read a document's parts: by streaming the part's text (xml/stream.ts, about 5x faster than
 * building a DOM) while nothing has parsed it for a change, and through the DOM (StructureDocument.xml) once a
 * command has. A part the decks took as DOM stays DOM for the life of the document (a later SlideCommands step opens
 * a new deck on the same document and must see the earlier changes), so every DOM access of the decks goes through
 * `domOf`, `putDom` or `tookAsDom` here.
 */
import type { Document } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { docRelationships, relsPartName, resolveTarget, type Relationship } from '../package/opc-relationships.ts';
import { NS, childElements } from '../xml/dom.ts';
import { streamXml } from '../xml/stream.ts';

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

/** Per document: what was read by streaming, by kind of read and part (valid while the part is not DOM). */
const streamed = new WeakMap<StructureDocument, Map<string, unknown>>();

/**
 * `read` of the text of `part`, once per document and `kind`, when the part can be streamed; undefined when it is
 * read through the DOM (taken as DOM, or missing from the package). Errors of `read` propagate.
 */
export function readStreamed<T>(doc: StructureDocument, part: string, kind: string, read: (text: string) => T): T | undefined {
  if (!canStream(doc, part)) return undefined;
  let cache = streamed.get(doc);
  if (!cache) streamed.set(doc, (cache = new Map()));
  const key = `${kind}\u0000${part}`;
  if (cache.has(key)) return cache.get(key) as T;
  const text = streamableText(doc, part);
  if (text === undefined) return undefined;
  const value = read(text);
  cache.set(key, value);
  return value;
}

/**
 * The text of `part` when it can be streamed (it is in the package and no deck has taken it as DOM), else
 * undefined: the caller reads the DOM instead.
 */
export function streamableText(doc: StructureDocument, part: string): string | undefined {
  const set = taken(doc);
  const name = part.replace(/^\//, '');
  if (set === 'all' || set.has(name)) return undefined;
  return doc.pkg.textOf(name);
}

/**
 * The relationships of `source` (ECMA-376 Part 2, 9.3), streamed from its .rels part when it can be, else read
 * through the DOM (docRelationships). Targets are resolved to part names; external targets are left as they are.
 * @throws StructureError bad_package when the .rels part is not well formed.
 */
export function relationshipsOf(doc: StructureDocument, source: string): Relationship[] {
  const name = relsPartName(source);
  const read = readStreamed(doc, name, `rels:${source}`, (text) => streamRelationships(text, name, source));
  if (read) return read;
  // docRelationships sees the package's .rels parts and those addRelationship made, not those put in place
  if (!putSet(doc).has(name)) return docRelationships(doc, source);
  return childElements(doc.xml(name).documentElement!, NS.rel, 'Relationship').map((r) => {
    const external = r.getAttribute('TargetMode') === 'External';
    const target = r.getAttribute('Target') ?? '';
    return { id: r.getAttribute('Id') ?? '', type: r.getAttribute('Type') ?? '', target: external ? target : resolveTarget(source, target), external };
  });
}

function streamRelationships(text: string, name: string, source: string): Relationship[] {
  const out: Relationship[] = [];
  streamXml(text, name, {
    onOpen: (el) => {
      if (el.depth === 0) return undefined;
      if (el.depth === 1 && el.ns === NS.rel && el.local === 'Relationship') {
        const external = el.attr('', 'TargetMode') === 'External';
        const target = el.attr('', 'Target') ?? '';
        out.push({ id: el.attr('', 'Id') ?? '', type: el.attr('', 'Type') ?? '', target: external ? target : resolveTarget(source, target), external });
      }
      return 'skip';
    },
  });
  return out;
}

/** True when `part` is read by streaming: no deck has taken it as DOM (it may still be missing from the package). */
export function canStream(doc: StructureDocument, part: string): boolean {
  const set = taken(doc);
  return set !== 'all' && !set.has(part.replace(/^\//, ''));
}
