import type { Document } from '@xmldom/xmldom';
import { StructureError } from './errors.ts';
import { REL, relationshipsOf } from './package/opc-relationships.ts';
import { ZipPackage } from './package/zip-package.ts';
import { parseXml, serializeXml } from './xml/dom.ts';

/** Formats the engine reads and writes natively: text documents and presentations, OOXML and ODF. */
export type StructureFormat = 'docx' | 'odt' | 'pptx' | 'odp';

/** True for the OOXML formats (docx, pptx); false for ODF (odt, odp). */
export function isOoxml(format: StructureFormat): boolean {
  return format === 'docx' || format === 'pptx';
}

/** The main document part: ODF content.xml, or the target of the package's officeDocument relationship. */
function mainPart(pkg: ZipPackage, format: StructureFormat): string | undefined {
  if (!isOoxml(format)) return 'content.xml';
  return relationshipsOf(pkg, '').find((r) => !r.external && (REL.officeDocument as readonly string[]).includes(r.type))?.target;
}

/**
 * One document open in the structure engine: its package, its format, and a cache of parsed XML parts shared by
 * every domain (content controls, charts, ...), so a part is parsed once per request however many commands
 * touch it. A domain that changes a parsed part calls `markChanged`; `save()` serialises only those parts and
 * copies every other part of the package untouched.
 */
export class StructureDocument {
  readonly pkg: ZipPackage;
  readonly format: StructureFormat;
  private readonly parsed = new Map<string, { doc: Document; standalone: boolean }>();
  private readonly dirty = new Set<string>();

  constructor(pkg: ZipPackage, format: StructureFormat) {
    this.pkg = pkg;
    this.format = format;
  }

  /**
   * Opens a document from its bytes.
   * @throws StructureError bad_package when the bytes are not a readable zip package or the package has no main
   *   document part (ODF content.xml; the OOXML officeDocument target), whatever is asked of it afterwards, as
   *   LibreOffice cannot load such a package at all; encrypted when an ODF package's parts are encrypted
   *   (manifest:encryption-data, ODF 1.3 Part 2, 3.8): the engine cannot read them.
   */
  static open(bytes: Uint8Array, format: StructureFormat): StructureDocument {
    const pkg = ZipPackage.open(bytes);
    if (!isOoxml(format) && /<manifest:encryption-data\b/.test(pkg.textOf('META-INF/manifest.xml') ?? ''))
      throw new StructureError('encrypted', 'the document is encrypted (password-protected)');
    const main = mainPart(pkg, format);
    if (!main || !pkg.has(main)) throw new StructureError('bad_package', `the package has no main document part${main ? ` (${main})` : ''}`);
    return new StructureDocument(pkg, format);
  }

  /** True when the package has that part (leading `/` allowed). */
  has(part: string): boolean {
    return this.pkg.has(part);
  }

  /**
   * The parsed XML of a part, cached for the life of this object.
   * @throws StructureError bad_package when the part is missing or not well-formed.
   */
  xml(part: string): Document {
    const name = part.replace(/^\//, '');
    const hit = this.parsed.get(name);
    if (hit) return hit.doc;
    const text = this.pkg.textOf(name);
    if (text === undefined) throw new StructureError('bad_package', `the package has no part ${name}`, name);
    const doc = parseXml(text, name);
    this.parsed.set(name, { doc, standalone: /^<\?xml[^>]*standalone\s*=\s*["']yes["']/.test(text) });
    return doc;
  }

  /**
   * True when the part's DOM is held (`xml` parsed it, or `putXml` put it): a command may have changed it, so a
   * reader of the part's current state reads the DOM, not the package's text.
   */
  hasDom(part: string): boolean {
    return this.parsed.has(part.replace(/^\//, ''));
  }

  /** Puts a new parsed part in place (for parts created by a command); it is written at save. */
  putXml(part: string, doc: Document, standalone = true): void {
    const name = part.replace(/^\//, '');
    this.parsed.set(name, { doc, standalone });
    this.dirty.add(name);
  }

  /** Records that the parsed DOM of `part` (from `xml()`) was changed and must be written at save. */
  markChanged(part: string): void {
    this.dirty.add(part.replace(/^\//, ''));
  }

  /** Removes a part from the package (and from the parse cache). */
  removePart(part: string): void {
    const name = part.replace(/^\//, '');
    this.parsed.delete(name);
    this.dirty.delete(name);
    this.pkg.removePart(name);
  }

  /**
   * Serialises the changed parts and writes the package (untouched parts copied as they were).
   * @returns the new document's bytes.
   */
  async save(): Promise<Uint8Array> {
    for (const name of this.dirty) {
      const entry = this.parsed.get(name);
      if (entry) this.pkg.setPart(name, serializeXml(entry.doc, entry.standalone));
    }
    this.dirty.clear();
    return this.pkg.save();
  }
}
