/**
 * ISO/IEC 29500 Strict OOXML (ECMA-376 Part 1, Strict conformance) spells its namespaces and relationship types
 * under `http://purl.oclc.org/ooxml/` where Transitional uses `http://schemas.openxmlformats.org/.../2006/...`.
 * The engine reads one vocabulary: a Strict package's XML parts are read through `toTransitional` and the parts
 * it writes go through `toStrict`, so a Strict input stays Strict (LibreOffice's oox maps both spellings to the
 * same tokens the same way). Only the namespace and relationship-type URIs differ here; the few Strict value
 * spellings (ST_OnOff `true`/`false`) are the ones the readers accept anyway.
 */

const STRICT = 'http://purl.oclc.org/ooxml/';
const TRANSITIONAL = 'http://schemas.openxmlformats.org/';

/** Strict URI prefix -> Transitional URI prefix, longest first; relationship types extend the relationships URI. */
const PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['officeDocument/relationships/extendedProperties', 'officeDocument/2006/relationships/extended-properties'],
  ['officeDocument/relationships/customProperties', 'officeDocument/2006/relationships/custom-properties'],
  ['officeDocument/relationships', 'officeDocument/2006/relationships'],
  ['officeDocument/extendedProperties', 'officeDocument/2006/extended-properties'],
  ['officeDocument/customProperties', 'officeDocument/2006/custom-properties'],
  ['officeDocument/docPropsVTypes', 'officeDocument/2006/docPropsVTypes'],
  ['officeDocument/sharedTypes', 'officeDocument/2006/sharedTypes'],
  ['officeDocument/math', 'officeDocument/2006/math'],
  ['officeDocument/bibliography', 'officeDocument/2006/bibliography'],
  ['officeDocument/customXml', 'officeDocument/2006/customXml'],
  ['wordprocessingml/main', 'wordprocessingml/2006/main'],
  ['presentationml/main', 'presentationml/2006/main'],
  ['spreadsheetml/main', 'spreadsheetml/2006/main'],
  ['drawingml/wordprocessingDrawing', 'drawingml/2006/wordprocessingDrawing'],
  ['drawingml/spreadsheetDrawing', 'drawingml/2006/spreadsheetDrawing'],
  ['drawingml/chartDrawing', 'drawingml/2006/chartDrawing'],
  ['drawingml/chart', 'drawingml/2006/chart'],
  ['drawingml/picture', 'drawingml/2006/picture'],
  ['drawingml/diagram', 'drawingml/2006/diagram'],
  ['drawingml/lockedCanvas', 'drawingml/2006/lockedCanvas'],
  ['drawingml/compatibility', 'drawingml/2006/compatibility'],
  ['drawingml/main', 'drawingml/2006/main'],
  ['schemaLibrary/main', 'schemaLibrary/2006/main'],
];

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** A URI prefix ends at a quote, a slash (a relationship type after the relationships URI) or `#`. */
const pattern = (prefix: string, pairs: ReadonlyArray<readonly [string, string]>, side: 0 | 1) =>
  new RegExp(`${escapeRegExp(prefix)}(${pairs.map((p) => escapeRegExp(p[side])).join('|')})(?=["'/#<\\s])`, 'g');
const toTransitionalRe = pattern(STRICT, PAIRS, 0);
const toStrictRe = pattern(TRANSITIONAL, PAIRS, 1);
const transitionalOf = new Map(PAIRS.map(([s, t]) => [s, t]));
const strictOf = new Map(PAIRS.map(([s, t]) => [t, s]));

/** True when a package's root relationships (`_rels/.rels` text) name a Strict officeDocument. */
export function isStrictPackage(rootRels: string | undefined): boolean {
  return rootRels !== undefined && rootRels.includes(`${STRICT}officeDocument/relationships/officeDocument`);
}

/** An XML part's text with its Strict namespace and relationship-type URIs spelled as Transitional ones. */
export function toTransitional(xml: string): string {
  return xml.includes(STRICT) ? xml.replace(toTransitionalRe, (_, path: string) => TRANSITIONAL + transitionalOf.get(path)!) : xml;
}

/** The inverse of `toTransitional`: Transitional namespace and relationship-type URIs spelled as Strict ones. */
export function toStrict(xml: string): string {
  return xml.includes(TRANSITIONAL) ? xml.replace(toStrictRe, (_, path: string) => STRICT + strictOf.get(path)!) : xml;
}
