import type { Element } from '@xmldom/xmldom';
import type { ZipPackage } from '../package/zip-package.ts';
import { NS, childElements, childText, firstChild, parseXml } from '../xml/dom.ts';
import {
  UNO_DATE_TYPES,
  count,
  durationSeconds,
  emptyDocumentProperties,
  isoDateTime,
  type DocumentProperties,
  type UserDefinedProperty,
} from './document-properties.ts';

/**
 * Reads DocumentProperties from an ODF package's `meta.xml` (ODF 1.3 Part 3, 4 "Metadata"): meta:initial-creator
 * -> Author, dc:creator -> ModifiedBy, dc:date -> ModificationDate, meta:creation-date, meta:print-date,
 * meta:printed-by, meta:editing-cycles, meta:editing-duration (seconds), meta:generator, meta:keyword (each),
 * meta:template (name, URL, date), meta:auto-reload (URL, delay in seconds), meta:hyperlink-behaviour (target
 * frame), meta:document-statistic, and meta:user-defined by meta:value-type.
 */
export function readOdfDocumentProperties(pkg: ZipPackage): DocumentProperties {
  const p = emptyDocumentProperties();
  const text = pkg.textOf('meta.xml');
  if (!text) return p;
  const meta = firstChild(parseXml(text, 'meta.xml').documentElement!, NS.office, 'meta');
  if (!meta) return p;
  const t = (ns: string, name: string) => childText(meta, ns, name) ?? '';
  p.Title = t(NS.dc, 'title');
  p.Subject = t(NS.dc, 'subject');
  p.Description = t(NS.dc, 'description');
  p.Language = t(NS.dc, 'language');
  p.Author = t(NS.meta, 'initial-creator');
  p.ModifiedBy = t(NS.dc, 'creator');
  p.PrintedBy = t(NS.meta, 'printed-by');
  p.Generator = t(NS.meta, 'generator');
  p.CreationDate = isoDateTime(childText(meta, NS.meta, 'creation-date'));
  p.ModificationDate = isoDateTime(childText(meta, NS.dc, 'date'));
  p.PrintDate = isoDateTime(childText(meta, NS.meta, 'print-date'));
  p.EditingCycles = count(childText(meta, NS.meta, 'editing-cycles'));
  p.EditingDuration = durationSeconds(childText(meta, NS.meta, 'editing-duration'));
  p.Keywords = childElements(meta, NS.meta, 'keyword').map((k) => k.textContent ?? '');
  for (const [field, name] of [
    ['Coverage', 'coverage'],
    ['Identifier', 'identifier'],
    ['Rights', 'rights'],
    ['Source', 'source'],
    ['Type', 'type'],
  ] as const)
    p[field] = t(NS.dc, name);
  for (const [field, name] of [
    ['Contributor', 'contributor'],
    ['Publisher', 'publisher'],
    ['Relation', 'relation'],
  ] as const)
    p[field] = childElements(meta, NS.dc, name).map((e) => e.textContent ?? '');
  const template = firstChild(meta, NS.meta, 'template');
  if (template) {
    p.TemplateName = template.getAttributeNS(NS.xlink, 'title') ?? '';
    p.TemplateURL = template.getAttributeNS(NS.xlink, 'href') ?? '';
    p.TemplateDate = isoDateTime(template.getAttributeNS(NS.meta, 'date') ?? undefined);
  }
  const reload = firstChild(meta, NS.meta, 'auto-reload');
  if (reload) {
    p.AutoloadURL = reload.getAttributeNS(NS.xlink, 'href') ?? '';
    p.AutoloadSecs = durationSeconds(reload.getAttributeNS(NS.meta, 'delay') ?? undefined);
  }
  p.DefaultTarget = firstChild(meta, NS.meta, 'hyperlink-behaviour')?.getAttributeNS(NS.office, 'target-frame-name') ?? '';
  const stats = firstChild(meta, NS.meta, 'document-statistic');
  if (stats) {
    const a = (name: string) => count(stats.getAttributeNS(NS.meta, name));
    p.DocumentStatistics = {
      PageCount: a('page-count'),
      TableCount: a('table-count'),
      ImageCount: a('image-count'),
      ObjectCount: a('object-count'),
      ParagraphCount: a('paragraph-count'),
      WordCount: a('word-count'),
      CharacterCount: a('character-count'),
      NonWhitespaceCharacterCount: a('non-whitespace-character-count'),
    };
  }
  for (const u of childElements(meta, NS.meta, 'user-defined')) {
    const name = u.getAttributeNS(NS.meta, 'name');
    if (name) p.UserDefinedProperties[name] = userDefined(u);
  }
  return p;
}

/** A meta:user-defined value by meta:value-type (string when absent), typed as LibreOffice loads it. */
function userDefined(u: Element): UserDefinedProperty {
  const text = u.textContent ?? '';
  switch (u.getAttributeNS(NS.meta, 'value-type')) {
    case 'float':
    case 'percentage':
    case 'currency':
      return { type: 'double', value: Number.parseFloat(text) };
    case 'boolean':
      return { type: 'boolean', value: text.trim() === 'true' };
    case 'date':
      return { type: text.includes('T') ? UNO_DATE_TYPES.dateTime : UNO_DATE_TYPES.date };
    case 'time':
      return { type: UNO_DATE_TYPES.duration };
    default:
      return { type: 'string', value: text };
  }
}
