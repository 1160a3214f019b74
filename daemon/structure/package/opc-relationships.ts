import type { ZipPackage } from './zip-package.ts';
import type { Element } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { NS, childElements, parseXml } from '../xml/dom.ts';

/** OPC relationship types the engine follows (ECMA-376 Part 2; transitional and strict spellings). */
export const REL = {
  coreProperties: [
    'http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties',
    'http://schemas.openxmlformats.org/officedocument/2006/relationships/metadata/core-properties',
  ],
  extendedProperties: [
    'http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties',
    'http://purl.oclc.org/ooxml/officeDocument/relationships/extendedProperties',
  ],
  customProperties: [
    'http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties',
    'http://purl.oclc.org/ooxml/officeDocument/relationships/customProperties',
  ],
  officeDocument: [
    'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument',
    'http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument',
  ],
} as const;

/** One relationship of a part: its id, type, and target resolved to a part name (no leading slash). */
export interface Relationship {
  id: string;
  type: string;
  target: string;
  external: boolean;
}

/** The `_rels/<name>.rels` part name of a source part (`''` for the package itself). */
export function relsPartName(source: string): string {
  if (source === '') return '_rels/.rels';
  const slash = source.lastIndexOf('/');
  return `${source.slice(0, slash + 1)}_rels/${source.slice(slash + 1)}.rels`;
}

/** Resolves a relative target against the source part's folder (OPC part-name rules). */
export function resolveTarget(source: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const base = source.includes('/') ? source.slice(0, source.lastIndexOf('/')).split('/') : [];
  for (const seg of target.split('/')) {
    if (seg === '..') base.pop();
    else if (seg !== '.' && seg !== '') base.push(seg);
  }
  return base.join('/');
}

/**
 * The relationships of `source` (package-level when `''`) as the package's .rels part says now; empty when it has
 * none. The list is made once per text of the part (opening a document and reading its properties ask for the
 * package's several times), so it is shared and readonly.
 * @throws StructureError bad_package when the .rels part is not well-formed.
 */
export function relationshipsOf(pkg: ZipPackage, source: string): readonly Relationship[] {
  const name = relsPartName(source);
  const text = pkg.textOf(name);
  if (!text) return [];
  let lists = packageLists.get(pkg);
  if (!lists) packageLists.set(pkg, (lists = new Map()));
  const hit = lists.get(name);
  if (hit && hit.text === text) return hit.list;
  const root = parseXml(text, name).documentElement!;
  const list = childElements(root, NS.rel, 'Relationship').map((r) => {
    const external = r.getAttribute('TargetMode') === 'External';
    const target = r.getAttribute('Target') ?? '';
    return { id: r.getAttribute('Id') ?? '', type: r.getAttribute('Type') ?? '', target: external ? target : resolveTarget(source, target), external };
  });
  lists.set(name, { text, list });
  return list;
}

/** Per package and .rels part: the text `relationshipsOf` last read and the list it made of it. */
const packageLists = new WeakMap<ZipPackage, Map<string, { text: string; list: readonly Relationship[] }>>();

/** The first internal target of `source` with one of the relationship `types`, if any. */
export function targetOfType(pkg: ZipPackage, source: string, types: readonly string[]): string | undefined {
  return relationshipsOf(pkg, source).find((r) => !r.external && types.includes(r.type))?.target;
}

/*
 * Writing relationships (ECMA-376 Part 2, 9.3 "Relationships"): through the document's parsed-part cache, so a
 * command sees the relationships earlier commands added or removed, and each .rels part is written once at save.
 */

/** The relationships of `source` read through `doc` (sees earlier writes); empty when it has no .rels part. */
export function docRelationships(doc: StructureDocument, source: string): Relationship[] {
  const name = relsPartName(source);
  if (!doc.has(name) && !docRelsCache.has(doc, name)) return [];
  return childElements(doc.xml(name).documentElement!, NS.rel, 'Relationship').map((r) => {
    const external = r.getAttribute('TargetMode') === 'External';
    const target = r.getAttribute('Target') ?? '';
    return { id: r.getAttribute('Id') ?? '', type: r.getAttribute('Type') ?? '', target: external ? target : resolveTarget(source, target), external };
  });
}

/** The path of part `target` relative to the folder of part `source` (both without leading slash). */
export function relativeTarget(source: string, target: string): string {
  const from = source.includes('/') ? source.slice(0, source.lastIndexOf('/')).split('/') : [];
  const to = target.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  return [...from.slice(common).map(() => '..'), ...to.slice(common)].join('/');
}

/**
 * Adds a relationship from `source` to the internal part `target` (or an external URI when `external`), creating
 * the .rels part when needed, and returns its new id (`rId<n>`, n one more than the highest numeric id).
 */
export function addRelationship(doc: StructureDocument, source: string, type: string, target: string, external = false): string {
  const name = relsPartName(source);
  let root: Element;
  if (doc.has(name) || docRelsCache.has(doc, name)) {
    root = doc.xml(name).documentElement!;
  } else {
    const dom = parseXml(`<Relationships xmlns="${NS.rel}"/>`, name);
    doc.putXml(name, dom);
    docRelsCache.add(doc, name);
    root = dom.documentElement!;
  }
  let max = 0;
  for (const r of childElements(root, NS.rel, 'Relationship')) {
    const m = /^rId(\d+)$/.exec(r.getAttribute('Id') ?? '');
    if (m) max = Math.max(max, Number(m[1]));
  }
  const id = `rId${max + 1}`;
  const el = root.ownerDocument!.createElementNS(NS.rel, 'Relationship');
  el.setAttribute('Id', id);
  el.setAttribute('Type', type);
  el.setAttribute('Target', external ? target : relativeTarget(source, target));
  if (external) el.setAttribute('TargetMode', 'External');
  root.appendChild(el);
  doc.markChanged(name);
  return id;
}

/** Removes relationship `id` of `source`, if present. */
export function removeRelationship(doc: StructureDocument, source: string, id: string): void {
  const name = relsPartName(source);
  if (!doc.has(name) && !docRelsCache.has(doc, name)) return;
  const root = doc.xml(name).documentElement!;
  for (const r of childElements(root, NS.rel, 'Relationship')) {
    if (r.getAttribute('Id') === id) {
      root.removeChild(r);
      doc.markChanged(name);
    }
  }
}

/** .rels parts created in this request (not yet in the package, only in the parse cache). */
const docRelsCache = {
  created: new WeakMap<StructureDocument, Set<string>>(),
  has(doc: StructureDocument, name: string): boolean {
    return this.created.get(doc)?.has(name) ?? false;
  },
  add(doc: StructureDocument, name: string): void {
    const set = this.created.get(doc) ?? new Set<string>();
    set.add(name);
    this.created.set(doc, set);
  },
};

/** Removes the .rels part of `source` (when it exists), e.g. with the part itself. */
export function removeRelsPart(doc: StructureDocument, source: string): void {
  const name = relsPartName(source);
  doc.removePart(name);
  docRelsCache.created.get(doc)?.delete(name);
}
