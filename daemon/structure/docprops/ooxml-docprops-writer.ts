import type { Document, Element } from '@xmldom/xmldom';
import { DOMImplementation } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { StructureError } from '../errors.ts';
import { REL, relationshipsOf } from '../package/opc-relationships.ts';
import { NS, childElements, firstChild } from '../xml/dom.ts';
import type { PropertyChanges, UserPropertyValue } from './transform-docprops.ts';

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
/** FMTID_UserDefinedProperties: the format id every custom property carries (ECMA-376 Part 1 22.3.2.2). */
const FMTID_USER = '{D5CDD505-2E9C-101B-9397-08002B2CF9AE}';

/** Where a core property lives: namespace and local name (ECMA-376 Part 2, 11 Core Properties). */
const CORE: Record<string, [string, string]> = {
  Title: [NS.dc, 'title'],
  Subject: [NS.dc, 'subject'],
  Author: [NS.dc, 'creator'],
  Description: [NS.dc, 'description'],
  Language: [NS.dc, 'language'],
  Identifier: [NS.dc, 'identifier'],
  ModifiedBy: [NS.cp, 'lastModifiedBy'],
  CreationDate: [NS.dcterms, 'created'],
  ModificationDate: [NS.dcterms, 'modified'],
  PrintDate: [NS.cp, 'lastPrinted'],
};
/** Extended properties (app.xml, ECMA-376 Part 1 22.2) the spec's properties map to. */
const APP: Record<string, string> = { Generator: 'Application', TemplateName: 'Template' };

/**
 * Writes validated DocumentProperties changes into an OOXML package, mirroring the reader
 * (ooxml-docprops.ts): core properties, app.xml (Application, Template, TotalTime in minutes), custom.xml (user
 * properties as vt:lpwstr, vt:bool, vt:r8, vt:r4, vt:i4). Missing parts are created with their relationship and
 * content type. `opts.incrementRevision` counts a save in cp:revision.
 * @throws StructureError unsupported_command for a property OOXML has no place for (the OPC core properties
 *   schema allows only its own elements; LibreOffice drops these on export too), no_match for Delete of a
 *   user-defined property that does not exist.
 */
export function writeOoxmlProperties(doc: StructureDocument, c: PropertyChanges, path: string, opts: { incrementRevision?: boolean } = {}): void {
  refuseUnstorable(c, path);
  const coreWanted =
    Object.keys(c.strings).some((k) => k in CORE) ||
    Object.keys(c.dates).length > 0 ||
    c.arrays.Keywords !== undefined ||
    c.numbers.EditingCycles !== undefined ||
    opts.incrementRevision;
  if (coreWanted) {
    const { part, root } = ensurePart(
      doc,
      REL.coreProperties,
      'docProps/core.xml',
      'application/vnd.openxmlformats-package.core-properties+xml',
      NS.cp,
      'cp:coreProperties',
    );
    for (const [name, value] of [...Object.entries(c.strings), ...Object.entries(c.dates)]) {
      const where = CORE[name];
      if (!where) continue;
      const el = setChild(root, where[0], where[1], name in c.dates ? `${value}Z` : (value as string));
      if (where[0] === NS.dcterms) el.setAttributeNS(XSI, 'xsi:type', 'dcterms:W3CDTF');
    }
    if (c.arrays.Keywords) setChild(root, NS.cp, 'keywords', c.arrays.Keywords.join(', '));
    if (c.numbers.EditingCycles !== undefined) setChild(root, NS.cp, 'revision', String(c.numbers.EditingCycles));
    if (opts.incrementRevision) {
      const current = Number.parseInt(firstChild(root, NS.cp, 'revision')?.textContent ?? '0', 10);
      setChild(root, NS.cp, 'revision', String((Number.isFinite(current) ? current : 0) + 1));
    }
    doc.markChanged(part);
  }
  const appWanted = Object.keys(c.strings).some((k) => k in APP) || c.numbers.EditingDuration !== undefined;
  if (appWanted) {
    const { part, root } = ensurePart(
      doc,
      REL.extendedProperties,
      'docProps/app.xml',
      'application/vnd.openxmlformats-officedocument.extended-properties+xml',
      NS.ep,
      'Properties',
    );
    for (const [name, local] of Object.entries(APP)) {
      const v = c.strings[name as keyof typeof c.strings];
      if (v !== undefined) setChild(root, NS.ep, local, v);
    }
    if (c.numbers.EditingDuration !== undefined) setChild(root, NS.ep, 'TotalTime', String(Math.round(c.numbers.EditingDuration / 60)));
    doc.markChanged(part);
  }
  if (c.userDefined.length > 0) writeCustom(doc, c);
}

const UNSTORABLE = [
  'PrintedBy',
  'TemplateURL',
  'AutoloadURL',
  'DefaultTarget',
  'Coverage',
  'Rights',
  'Source',
  'Type',
  'TemplateDate',
  'AutoloadSecs',
  'Contributor',
  'Publisher',
  'Relation',
];

function refuseUnstorable(c: PropertyChanges, path: string): void {
  const all: Record<string, unknown> = { ...c.strings, ...c.dates, ...c.numbers, ...c.arrays };
  const bad = UNSTORABLE.find((k) => all[k] !== undefined);
  if (bad)
    throw new StructureError(
      'unsupported_command',
      `${path}.${bad}: OOXML documents have no place for ${bad} (ECMA-376 Part 2 core properties; LibreOffice drops it on export too); store it as a user-defined property, or transform an ODF document`,
      `${path}.${bad}`,
    );
}

/** Replaces the text of the first (ns, local) child of root, creating it at the end when missing. */
function setChild(root: Element, ns: string, local: string, text: string): Element {
  let el = firstChild(root, ns, local);
  if (!el) {
    const prefix = Object.entries(NS).find(([, uri]) => uri === ns)?.[0];
    el = root.ownerDocument!.createElementNS(ns, prefix && ns !== NS.ep ? `${prefix}:${local}` : local);
    root.appendChild(el);
  }
  el.textContent = text;
  return el;
}

/** The package-level part of one of `types`, created (with relationship and content type) when missing. */
function ensurePart(
  doc: StructureDocument,
  types: readonly string[],
  fallback: string,
  contentType: string,
  ns: string,
  rootName: string,
): { part: string; root: Element } {
  const rel = relationshipsOf(doc.pkg, '').find((r) => !r.external && types.includes(r.type) && doc.has(r.target));
  if (rel) return { part: rel.target, root: doc.xml(rel.target).documentElement! };
  const created = new DOMImplementation().createDocument(ns, rootName, null);
  doc.putXml(fallback, created);
  addPackageRelationship(doc, types[0], fallback);
  addOverride(doc, `/${fallback}`, contentType);
  return { part: fallback, root: created.documentElement! };
}

function addPackageRelationship(doc: StructureDocument, type: string, target: string): void {
  const part = '_rels/.rels';
  const rels = doc.xml(part);
  const root = rels.documentElement!;
  const ids = new Set(childElements(root, NS.rel, 'Relationship').map((r) => r.getAttribute('Id')));
  let n = ids.size + 1;
  while (ids.has(`rId${n}`)) n++;
  const el = rels.createElementNS(NS.rel, 'Relationship');
  el.setAttribute('Id', `rId${n}`);
  el.setAttribute('Type', type);
  el.setAttribute('Target', target);
  root.appendChild(el);
  doc.markChanged(part);
}

function addOverride(doc: StructureDocument, partName: string, contentType: string): void {
  const part = '[Content_Types].xml';
  const types = doc.xml(part);
  const el = types.createElementNS(NS.ct, 'Override');
  el.setAttribute('PartName', partName);
  el.setAttribute('ContentType', contentType);
  types.documentElement!.appendChild(el);
  doc.markChanged(part);
}

/** vt: element of a user-defined value (ECMA-376 Part 1 22.4), as LibreOffice's OOXML export writes them. */
function vtName(v: UserPropertyValue): string {
  return { string: 'lpwstr', boolean: 'bool', double: 'r8', float: 'r4', long: 'i4' }[v.type];
}

function writeCustom(doc: StructureDocument, c: PropertyChanges): void {
  const { part, root } = ensurePart(
    doc,
    REL.customProperties,
    'docProps/custom.xml',
    'application/vnd.openxmlformats-officedocument.custom-properties+xml',
    NS.custom,
    'Properties',
  );
  const dom: Document = root.ownerDocument!;
  for (const u of c.userDefined) {
    const existing = childElements(root, NS.custom, 'property').find((p) => p.getAttribute('name') === u.name);
    if (u.value === null) {
      if (!existing) throw new StructureError('no_match', `${u.path}: there is no user-defined property "${u.name}" to delete`, u.path);
      root.removeChild(existing);
      continue;
    }
    const prop = existing ?? dom.createElementNS(NS.custom, 'property');
    if (!existing) {
      const pids = childElements(root, NS.custom, 'property').map((p) => Number(p.getAttribute('pid')) || 1);
      prop.setAttribute('fmtid', FMTID_USER);
      prop.setAttribute('pid', String(Math.max(1, ...pids) + 1));
      prop.setAttribute('name', u.name);
      root.appendChild(prop);
    }
    while (prop.firstChild) prop.removeChild(prop.firstChild);
    const val = dom.createElementNS(NS.vt, `vt:${vtName(u.value)}`);
    val.textContent = String(u.value.value);
    prop.appendChild(val);
  }
  doc.markChanged(part);
}
