/**
 * The manifest of an ODF package (ODF 1.3 Part 2, 3.2 META-INF/manifest.xml): one manifest:file-entry per file
 * (and per sub-document folder) with its full path and media type. Parts added to or removed from an ODF package
 * must be listed / unlisted here, or LibreOffice reports the package as broken.
 */
import type { Element } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { NS, childElements } from '../xml/dom.ts';

/** The manifest part's name. */
export const MANIFEST = 'META-INF/manifest.xml';

/** One entry: full path (folders end with `/`) and media type. */
export interface ManifestEntry {
  fullPath: string;
  mediaType: string;
}

function entries(doc: StructureDocument): Element[] {
  return childElements(doc.xml(MANIFEST).documentElement!, NS.manifest, 'file-entry');
}

/**
 * The entries of the manifest, in order; empty when the package has no manifest.
 * @throws StructureError bad_package when the manifest is not well-formed.
 */
export function manifestEntries(doc: StructureDocument): ManifestEntry[] {
  if (!doc.has(MANIFEST)) return [];
  return entries(doc).map((e) => ({ fullPath: e.getAttribute('manifest:full-path') ?? '', mediaType: e.getAttribute('manifest:media-type') ?? '' }));
}

/**
 * Adds an entry (or updates the media type of an existing one). Without a manifest nothing is done.
 * @throws StructureError bad_package when the manifest is not well-formed.
 */
export function addManifestEntry(doc: StructureDocument, fullPath: string, mediaType: string): void {
  if (!doc.has(MANIFEST)) return;
  const dom = doc.xml(MANIFEST);
  const existing = entries(doc).find((e) => e.getAttribute('manifest:full-path') === fullPath);
  if (existing) existing.setAttributeNS(NS.manifest, 'manifest:media-type', mediaType);
  else {
    const entry = dom.createElementNS(NS.manifest, 'manifest:file-entry');
    entry.setAttributeNS(NS.manifest, 'manifest:full-path', fullPath);
    entry.setAttributeNS(NS.manifest, 'manifest:media-type', mediaType);
    dom.documentElement!.appendChild(entry);
  }
  doc.markChanged(MANIFEST);
}

/**
 * Removes the entry of `fullPath`; a path ending with `/` (a sub-document folder) removes the folder's entry and
 * every entry below it. Returns the number of entries removed.
 * @throws StructureError bad_package when the manifest is not well-formed.
 */
export function removeManifestEntries(doc: StructureDocument, fullPath: string): number {
  if (!doc.has(MANIFEST)) return 0;
  let removed = 0;
  for (const e of entries(doc)) {
    const path = e.getAttribute('manifest:full-path') ?? '';
    if (path === fullPath || (fullPath.endsWith('/') && path.startsWith(fullPath))) {
      e.parentNode!.removeChild(e);
      removed++;
    }
  }
  if (removed > 0) doc.markChanged(MANIFEST);
  return removed;
}
