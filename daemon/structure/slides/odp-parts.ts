/**
 * Parts of an ODP that slides refer to: embedded objects (draw:object / draw:object-ole with xlink:href
 * "./Object N", a sub-document folder, and its replacement image ObjectReplacements/Object N) and pictures
 * (Pictures/...). Duplicating a slide copies its embedded objects (LibreOffice cannot share one object between two
 * shapes); deleting a slide removes the parts no other page or style refers to (ODF 1.3 Part 2, 3 packages and
 * manifest).
 */
import type { Element, Node } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { addManifestEntry, manifestEntries, removeManifestEntries } from '../package/odf-manifest.ts';
import { NS } from '../xml/dom.ts';
import { domOf } from './part-reads.ts';

/** A package-internal href as a part path or folder ("./Object 1" -> "Object 1"); undefined for external links. */
function internalPath(href: string): string | undefined {
  if (!href || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/') || href.startsWith('../') || href.startsWith('#')) return undefined;
  return href.replace(/^\.\//, '').replace(/\/$/, '');
}

/** Every element below `root` (itself included) with an xlink:href. */
function hrefElements(root: Element): Element[] {
  const out: Element[] = [];
  const walk = (el: Element) => {
    if (el.hasAttributeNS(NS.xlink, 'href')) out.push(el);
    for (let n: Node | null = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) walk(n as Element);
  };
  walk(root);
  return out;
}

/** The package paths referred to from `root` (embedded object folders without the slash, pictures). */
export function referencedPaths(root: Element): Set<string> {
  const out = new Set<string>();
  for (const el of hrefElements(root)) {
    const path = internalPath(el.getAttributeNS(NS.xlink, 'href') ?? '');
    if (path) out.add(path);
  }
  return out;
}

/**
 * Removes the parts `paths` (from a deleted slide) that neither content.xml nor styles.xml refers to any more,
 * with their manifest entries; a folder path removes the whole sub-document.
 */
export function removeUnreferenced(doc: StructureDocument, paths: ReadonlySet<string>): void {
  if (paths.size === 0) return;
  const still = referencedPaths(domOf(doc, 'content.xml').documentElement!);
  if (doc.has('styles.xml')) for (const p of referencedPaths(domOf(doc, 'styles.xml').documentElement!)) still.add(p);
  for (const path of paths) {
    if (still.has(path)) continue;
    const folder = `${path}/`;
    const names = doc.pkg.names().filter((n) => n === path || n.startsWith(folder));
    for (const name of names) doc.removePart(name);
    removeManifestEntries(doc, path);
    removeManifestEntries(doc, folder);
  }
}

/**
 * Gives the embedded objects of a copied page (`page`, already a deep copy) their own copies of the sub-document
 * folders and replacement images, with manifest entries, and points the copy's hrefs at them.
 */
export function copyEmbeddedObjects(doc: StructureDocument, page: Element): void {
  const manifest = manifestEntries(doc);
  const taken = new Set<string>();
  for (const n of doc.pkg.names()) taken.add(n.split('/')[0]);
  for (const e of manifest) taken.add(e.fullPath.split('/')[0]);
  let next = 1;
  const renamed = new Map<string, string>();
  const fresh = (): string => {
    while (taken.has(`Object ${next}`)) next++;
    const name = `Object ${next}`;
    taken.add(name);
    return name;
  };
  const els = hrefElements(page);
  for (const el of els) {
    if (el.namespaceURI !== NS.draw || (el.localName !== 'object' && el.localName !== 'object-ole')) continue;
    const path = internalPath(el.getAttributeNS(NS.xlink, 'href') ?? '');
    if (!path) continue;
    const isFolder = doc.pkg.names().some((n) => n.startsWith(`${path}/`));
    const target = renamed.get(path) ?? fresh();
    renamed.set(path, target);
    copyTree(doc, path, target, isFolder, manifest);
    el.setAttributeNS(NS.xlink, 'xlink:href', `./${target}`);
  }
  // replacement images of the copied objects
  for (const el of els) {
    if (el.namespaceURI !== NS.draw || el.localName !== 'image') continue;
    const path = internalPath(el.getAttributeNS(NS.xlink, 'href') ?? '');
    const m = path ? /^ObjectReplacements\/(.+)$/.exec(path) : null;
    if (!m || !renamed.has(m[1])) continue;
    const target = `ObjectReplacements/${renamed.get(m[1])}`;
    copyTree(doc, path!, target, false, manifest);
    el.setAttributeNS(NS.xlink, 'xlink:href', `./${target}`);
  }
}

function copyTree(doc: StructureDocument, from: string, to: string, folder: boolean, manifest: ReturnType<typeof manifestEntries>): void {
  const names = doc.pkg.names().filter((n) => (folder ? n.startsWith(`${from}/`) : n === from));
  for (const name of names) {
    const bytes = doc.pkg.bytesOf(name);
    if (bytes) doc.pkg.setPart(to + name.slice(from.length), bytes);
  }
  for (const e of manifest) {
    if (e.fullPath === from || e.fullPath === `${from}/` || (folder && e.fullPath.startsWith(`${from}/`)))
      addManifestEntry(doc, to + e.fullPath.slice(from.length), e.mediaType);
  }
}

/**
 * Gives the ids of a copied page (xml:id, draw:id) new unique values, and changes every attribute of the copy that
 * named an old id (connectors' draw:start-shape, animations' smil:targetElement, ...) to the new one.
 */
export function renewIds(page: Element, suffix: string): void {
  const all: Element[] = [];
  const walk = (el: Element) => {
    all.push(el);
    for (let n: Node | null = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) walk(n as Element);
  };
  walk(page);
  const map = new Map<string, string>();
  for (const el of all) {
    for (const attr of ['xml:id', 'draw:id']) {
      const v = el.getAttribute(attr);
      if (v && !map.has(v)) map.set(v, `${v}${suffix}`);
    }
  }
  if (map.size === 0) return;
  for (const el of all) {
    for (let i = 0; i < el.attributes.length; i++) {
      const a = el.attributes.item(i)!;
      const renamed = map.get(a.value);
      if (renamed) {
        a.value = renamed;
        a.nodeValue = renamed;
      }
    }
  }
}
