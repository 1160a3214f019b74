import type { Element } from '@xmldom/xmldom';
import { DOMImplementation } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { StructureError } from '../errors.ts';
import { NS, childElements, firstChild } from '../xml/dom.ts';
import type { PropertyChanges } from './transform-docprops.ts';

/** Single-valued elements of office:meta (ODF 1.3 Part 3, 4.3) the spec's properties map to. */
const ELEMENTS: Record<string, [string, string]> = {
  Title: [NS.dc, 'title'],
  Subject: [NS.dc, 'subject'],
  Description: [NS.dc, 'description'],
  Language: [NS.dc, 'language'],
  Author: [NS.meta, 'initial-creator'],
  ModifiedBy: [NS.dc, 'creator'],
  PrintedBy: [NS.meta, 'printed-by'],
  Generator: [NS.meta, 'generator'],
  Coverage: [NS.dc, 'coverage'],
  Identifier: [NS.dc, 'identifier'],
  Rights: [NS.dc, 'rights'],
  Source: [NS.dc, 'source'],
  Type: [NS.dc, 'type'],
  CreationDate: [NS.meta, 'creation-date'],
  ModificationDate: [NS.dc, 'date'],
  PrintDate: [NS.meta, 'print-date'],
};
/** Repeated elements: one per array item. */
const LISTS: Record<string, [string, string]> = {
  Keywords: [NS.meta, 'keyword'],
  Contributor: [NS.dc, 'contributor'],
  Publisher: [NS.dc, 'publisher'],
  Relation: [NS.dc, 'relation'],
};

/**
 * Writes validated DocumentProperties changes into an ODF package's meta.xml (created with its manifest entry
 * when missing), mirroring the reader (odf-docprops.ts): single elements, repeated meta:keyword / dc:contributor /
 * dc:publisher / dc:relation, meta:template (TemplateName, TemplateURL, TemplateDate), meta:auto-reload
 * (AutoloadURL, AutoloadSecs), meta:hyperlink-behaviour (DefaultTarget), meta:editing-cycles,
 * meta:editing-duration, and meta:user-defined with meta:value-type string / boolean / float.
 * `opts.incrementRevision` counts a save in meta:editing-cycles.
 * @throws StructureError no_match for Delete of a user-defined property that does not exist.
 */
export function writeOdfProperties(doc: StructureDocument, c: PropertyChanges, opts: { incrementRevision?: boolean } = {}): void {
  const meta = officeMeta(doc);
  const dom = meta.ownerDocument!;
  const el = (ns: string, local: string): Element =>
    firstChild(meta, ns, local) ?? (meta.appendChild(dom.createElementNS(ns, `${prefixOf(ns)}:${local}`)) as Element);
  for (const [name, value] of [...Object.entries(c.strings), ...Object.entries(c.dates)]) {
    const where = ELEMENTS[name];
    if (where) el(where[0], where[1]).textContent = value as string;
  }
  for (const [name, values] of Object.entries(c.arrays)) {
    const [ns, local] = LISTS[name];
    for (const old of childElements(meta, ns, local)) meta.removeChild(old);
    for (const v of values ?? []) meta.appendChild(dom.createElementNS(ns, `${prefixOf(ns)}:${local}`)).textContent = v;
  }
  if (c.numbers.EditingCycles !== undefined) el(NS.meta, 'editing-cycles').textContent = String(c.numbers.EditingCycles);
  if (opts.incrementRevision) {
    const cycles = el(NS.meta, 'editing-cycles');
    const n = Number.parseInt(cycles.textContent ?? '0', 10);
    cycles.textContent = String((Number.isFinite(n) ? n : 0) + 1);
  }
  if (c.numbers.EditingDuration !== undefined) el(NS.meta, 'editing-duration').textContent = isoDuration(c.numbers.EditingDuration);
  if (c.strings.TemplateName !== undefined || c.strings.TemplateURL !== undefined || c.dates.TemplateDate !== undefined) {
    const t = el(NS.meta, 'template');
    t.setAttributeNS(NS.xlink, 'xlink:type', 'simple');
    t.setAttributeNS(NS.xlink, 'xlink:actuate', 'onRequest');
    if (c.strings.TemplateName !== undefined) t.setAttributeNS(NS.xlink, 'xlink:title', c.strings.TemplateName);
    if (c.strings.TemplateURL !== undefined) t.setAttributeNS(NS.xlink, 'xlink:href', c.strings.TemplateURL);
    if (c.dates.TemplateDate !== undefined) t.setAttributeNS(NS.meta, 'meta:date', c.dates.TemplateDate);
  }
  if (c.strings.AutoloadURL !== undefined || c.numbers.AutoloadSecs !== undefined) {
    const r = el(NS.meta, 'auto-reload');
    if (c.strings.AutoloadURL !== undefined) r.setAttributeNS(NS.xlink, 'xlink:href', c.strings.AutoloadURL);
    if (c.numbers.AutoloadSecs !== undefined) r.setAttributeNS(NS.meta, 'meta:delay', isoDuration(c.numbers.AutoloadSecs));
  }
  if (c.strings.DefaultTarget !== undefined) el(NS.meta, 'hyperlink-behaviour').setAttributeNS(NS.office, 'office:target-frame-name', c.strings.DefaultTarget);
  for (const u of c.userDefined) {
    const existing = childElements(meta, NS.meta, 'user-defined').find((x) => x.getAttributeNS(NS.meta, 'name') === u.name);
    if (u.value === null) {
      if (!existing) throw new StructureError('no_match', `${u.path}: there is no user-defined property "${u.name}" to delete`, u.path);
      meta.removeChild(existing);
      continue;
    }
    const prop = existing ?? (meta.appendChild(dom.createElementNS(NS.meta, 'meta:user-defined')) as Element);
    prop.setAttributeNS(NS.meta, 'meta:name', u.name);
    const type = u.value.type === 'string' ? 'string' : u.value.type === 'boolean' ? 'boolean' : 'float';
    prop.setAttributeNS(NS.meta, 'meta:value-type', type);
    prop.textContent = String(u.value.value);
  }
  doc.markChanged('meta.xml');
}

function prefixOf(ns: string): string {
  return Object.entries(NS).find(([, uri]) => uri === ns)![0];
}

/** `PT<h>H<m>M<s>S` for a number of seconds (xsd:duration as LibreOffice writes it). */
function isoDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `PT${h}H${m}M${seconds % 60}S`;
}

/** office:meta of meta.xml, creating meta.xml (and its manifest entry) when the package has none. */
function officeMeta(doc: StructureDocument): Element {
  if (!doc.has('meta.xml')) {
    const created = new DOMImplementation().createDocument(NS.office, 'office:document-meta', null);
    created.documentElement!.setAttributeNS(NS.office, 'office:version', '1.3');
    created.documentElement!.appendChild(created.createElementNS(NS.office, 'office:meta'));
    doc.putXml('meta.xml', created, false);
    addManifestEntry(doc, 'meta.xml', 'text/xml');
  }
  const root = doc.xml('meta.xml').documentElement!;
  return firstChild(root, NS.office, 'meta') ?? (root.appendChild(root.ownerDocument!.createElementNS(NS.office, 'office:meta')) as Element);
}

function addManifestEntry(doc: StructureDocument, path: string, mediaType: string): void {
  const part = 'META-INF/manifest.xml';
  if (!doc.has(part)) return;
  const manifest = doc.xml(part);
  const entry = manifest.createElementNS(NS.manifest, 'manifest:file-entry');
  entry.setAttributeNS(NS.manifest, 'manifest:full-path', path);
  entry.setAttributeNS(NS.manifest, 'manifest:media-type', mediaType);
  manifest.documentElement!.appendChild(entry);
  doc.markChanged(part);
}
