/**
 * The package's `[Content_Types].xml` (ECMA-376 Part 2, 10.1.2 "Content Types Stream Markup"): a part's content
 * type is its `Override` (by part name) or else the `Default` for its extension. The engine adds an Override for
 * every part it creates and removes it with the part, through the document's parsed-part cache, so the stream is
 * written once at save.
 */
import type { Element } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { NS, childElements } from '../xml/dom.ts';

/** The content-types part name. */
export const CONTENT_TYPES_PART = '[Content_Types].xml';

function root(doc: StructureDocument): Element {
  return doc.xml(CONTENT_TYPES_PART).documentElement!;
}

/**
 * The content type of `part` (no leading slash): its Override, else the Default of its extension, else undefined.
 * @throws StructureError bad_package when the package has no readable [Content_Types].xml.
 */
export function contentTypeOf(doc: StructureDocument, part: string): string | undefined {
  const types = root(doc);
  const name = `/${part.replace(/^\//, '')}`.toLowerCase();
  for (const o of childElements(types, NS.ct, 'Override'))
    if ((o.getAttribute('PartName') ?? '').toLowerCase() === name) return o.getAttribute('ContentType') ?? undefined;
  const ext = name.slice(name.lastIndexOf('.') + 1);
  for (const d of childElements(types, NS.ct, 'Default'))
    if ((d.getAttribute('Extension') ?? '').toLowerCase() === ext) return d.getAttribute('ContentType') ?? undefined;
  return undefined;
}

/**
 * Sets the Override of `part` to `contentType` (adds it, or replaces an existing one).
 * @throws StructureError bad_package when the package has no readable [Content_Types].xml.
 */
export function addOverride(doc: StructureDocument, part: string, contentType: string): void {
  const types = root(doc);
  const name = `/${part.replace(/^\//, '')}`;
  const existing = childElements(types, NS.ct, 'Override').find((o) => (o.getAttribute('PartName') ?? '').toLowerCase() === name.toLowerCase());
  if (existing) {
    existing.setAttribute('ContentType', contentType);
  } else {
    const o = types.ownerDocument!.createElementNS(NS.ct, 'Override');
    o.setAttribute('PartName', name);
    o.setAttribute('ContentType', contentType);
    types.appendChild(o);
  }
  doc.markChanged(CONTENT_TYPES_PART);
}

/** Removes the Override of `part`, if any (a Default for its extension stays). */
export function removeOverride(doc: StructureDocument, part: string): void {
  const types = root(doc);
  const name = `/${part.replace(/^\//, '')}`.toLowerCase();
  for (const o of childElements(types, NS.ct, 'Override')) {
    if ((o.getAttribute('PartName') ?? '').toLowerCase() === name) {
      types.removeChild(o);
      doc.markChanged(CONTENT_TYPES_PART);
    }
  }
}
