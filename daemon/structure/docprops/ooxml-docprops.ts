import { normalizeLineEndings } from '@xmldom/xmldom';
import type { ZipPackage } from '../package/zip-package.ts';
import { REL, targetOfType } from '../package/opc-relationships.ts';
import { NS } from '../xml/dom.ts';
import { buildReadTree, readChild, readChildren, type ReadElement } from '../xml/read-tree.ts';
import { UNO_DATE_TYPES, count, emptyDocumentProperties, isoDateTime, type DocumentProperties, type UserDefinedProperty } from './document-properties.ts';

/**
 * Reads DocumentProperties from an OOXML package (docx, pptx, xlsx): the core properties part (ECMA-376 Part 2
 * 11), the extended properties (app.xml, Part 1 22.2) and the custom properties (Part 1 22.3), mapped the way
 * LibreOffice's OOXML import maps them (docs/structure/document-properties.md):
 * dc:creator -> Author, cp:lastModifiedBy -> ModifiedBy, cp:revision -> EditingCycles, cp:keywords split on
 * white space, commas and semicolons -> Keywords, cp:lastPrinted -> PrintDate, app.xml Application ->
 * Generator, Template -> TemplateName, TotalTime (minutes) -> EditingDuration (seconds), Company, Manager,
 * AppVersion, PresentationFormat and cp:category/cp:contentStatus -> user-defined properties; Slides and Notes
 * (when not zero) -> user-defined longs, as LibreOffice 25.2 imports them.
 * Statistics are the ones stored in app.xml (Pages or Slides, Words, CharactersWithSpaces, Characters,
 * Paragraphs); LibreOffice recounts them on load (see the analysis page).
 * The three parts are read as stream-built trees (xml/read-tree.ts), a fraction of a DOM's cost, with line endings
 * normalised as the DOM parse does (xml/dom.ts parseXml).
 * @throws StructureError bad_package when one of the parts is not well-formed XML.
 */
export function readOoxmlDocumentProperties(pkg: ZipPackage): DocumentProperties {
  const p = emptyDocumentProperties();
  const corePart = targetOfType(pkg, '', REL.coreProperties);
  const core = corePart ? pkg.textOf(corePart) : undefined;
  if (core && corePart) readCore(part(core, corePart), p);
  const appPart = targetOfType(pkg, '', REL.extendedProperties);
  const app = appPart ? pkg.textOf(appPart) : undefined;
  if (app && appPart) readApp(part(app, appPart), p);
  const customPart = targetOfType(pkg, '', REL.customProperties);
  const custom = customPart ? pkg.textOf(customPart) : undefined;
  if (custom && customPart) readCustom(part(custom, customPart), p);
  return p;
}

/** A part's tree (every attribute kept), its text's line endings normalised as parseXml does. */
function part(text: string, name: string): ReadElement {
  return buildReadTree(normalizeLineEndings(text), name);
}

/** The text of the first child element with that namespace and local name, or undefined when there is none. */
function childText(parent: ReadElement, ns: string, name: string): string | undefined {
  const el = readChild(parent, ns, name);
  return el ? (el.textContent ?? '') : undefined;
}

function readCore(root: ReadElement, p: DocumentProperties): void {
  const text = (ns: string, name: string) => childText(root, ns, name)?.trim() ?? '';
  p.Title = text(NS.dc, 'title');
  p.Subject = text(NS.dc, 'subject');
  p.Author = text(NS.dc, 'creator');
  p.Description = childText(root, NS.dc, 'description') ?? '';
  p.Language = text(NS.dc, 'language');
  p.Identifier = text(NS.dc, 'identifier');
  p.ModifiedBy = text(NS.cp, 'lastModifiedBy');
  p.EditingCycles = count(childText(root, NS.cp, 'revision'));
  p.Keywords = text(NS.cp, 'keywords')
    .split(/[\s,;]+/)
    .filter(Boolean);
  p.CreationDate = isoDateTime(childText(root, NS.dcterms, 'created'));
  p.ModificationDate = isoDateTime(childText(root, NS.dcterms, 'modified'));
  p.PrintDate = isoDateTime(childText(root, NS.cp, 'lastPrinted'));
  const category = text(NS.cp, 'category');
  if (category) p.UserDefinedProperties.OOXMLCorePropertyCategory = { type: 'string', value: category };
  const status = text(NS.cp, 'contentStatus');
  if (status) p.UserDefinedProperties.OOXMLCorePropertyContentStatus = { type: 'string', value: status };
}

function readApp(root: ReadElement, p: DocumentProperties): void {
  const text = (name: string) => childText(root, NS.ep, name)?.trim() ?? '';
  p.Generator = text('Application');
  p.TemplateName = text('Template');
  p.EditingDuration = count(text('TotalTime')) * 60;
  const s = p.DocumentStatistics;
  s.PageCount = count(text('Pages') || text('Slides'));
  s.WordCount = count(text('Words'));
  s.CharacterCount = count(text('CharactersWithSpaces'));
  s.NonWhitespaceCharacterCount = count(text('Characters'));
  s.ParagraphCount = count(text('Paragraphs'));
  for (const name of ['AppVersion', 'Company', 'Manager', 'PresentationFormat']) {
    const v = text(name);
    if (v) p.UserDefinedProperties[name] = { type: 'string', value: v };
  }
  // LibreOffice 25.2 keeps a presentation's slide and notes counts as user-defined longs (not when zero)
  for (const name of ['Slides', 'Notes']) {
    const n = count(text(name));
    if (n > 0) p.UserDefinedProperties[name] = { type: 'long', value: n };
  }
}

/** A custom property's value by its vt: element (ECMA-376 Part 1 22.4), typed as LibreOffice imports it. */
function customValue(el: ReadElement): UserDefinedProperty | undefined {
  const text = el.textContent ?? '';
  switch (el.localName) {
    case 'lpwstr':
    case 'lpstr':
    case 'bstr':
      return { type: 'string', value: text };
    case 'bool':
      return { type: 'boolean', value: text.trim() === 'true' || text.trim() === '1' };
    case 'i1':
    case 'i2':
    case 'i4':
    case 'int':
    case 'ui1':
    case 'ui2':
    case 'ui4':
    case 'uint':
      return { type: 'long', value: Number.parseInt(text, 10) };
    case 'i8':
    case 'ui8':
      return { type: 'hyper', value: Number.parseInt(text, 10) };
    case 'r4':
    case 'r8':
    case 'decimal':
      return { type: 'double', value: Number.parseFloat(text) };
    case 'filetime':
    case 'date':
      return { type: UNO_DATE_TYPES.dateTime };
    default:
      return undefined;
  }
}

function readCustom(root: ReadElement, p: DocumentProperties): void {
  for (const prop of readChildren(root, NS.custom, 'property')) {
    const name = prop.getAttribute('name');
    const valueEl = readChildren(prop, NS.vt)[0];
    const value = valueEl ? customValue(valueEl) : undefined;
    if (name && value) p.UserDefinedProperties[name] = value;
  }
}
