import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { StructureError } from '../errors.ts';

/** Namespace URIs used by the engine, by their usual prefixes. */
export const NS = {
  // OPC and OOXML document properties (ECMA-376 Part 2 and Part 1 22.2, 22.3)
  rel: 'http://schemas.openxmlformats.org/package/2006/relationships',
  cp: 'http://schemas.openxmlformats.org/package/2006/metadata/core-properties',
  dc: 'http://purl.org/dc/elements/1.1/',
  dcterms: 'http://purl.org/dc/terms/',
  ep: 'http://schemas.openxmlformats.org/officeDocument/2006/extended-properties',
  custom: 'http://schemas.openxmlformats.org/officeDocument/2006/custom-properties',
  vt: 'http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes',
  // ODF 1.3
  office: 'urn:oasis:names:tc:opendocument:xmlns:office:1.0',
  meta: 'urn:oasis:names:tc:opendocument:xmlns:meta:1.0',
  xlink: 'http://www.w3.org/1999/xlink',
} as const;

/**
 * Parses XML text into a DOM.
 * @throws StructureError bad_package naming `part` when the XML is not well formed.
 */
export function parseXml(text: string, part: string): Document {
  const errors: string[] = [];
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') errors.push(message);
    },
  }).parseFromString(text, 'text/xml');
  if (errors.length > 0 || !doc.documentElement) throw new StructureError('bad_package', `the part ${part} is not well-formed XML: ${errors[0] ?? 'no root element'}`, part);
  return doc;
}

/** Element children of `parent` with namespace `ns` and local name `name` (any name when omitted). */
export function childElements(parent: Element, ns?: string, name?: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const el = n as Element;
    if ((ns === undefined || el.namespaceURI === ns) && (name === undefined || el.localName === name)) out.push(el);
  }
  return out;
}

/** The first child element with that namespace and local name, if any. */
export function firstChild(parent: Element, ns: string, name: string): Element | undefined {
  return childElements(parent, ns, name)[0];
}

/** The text of the first such child element, or undefined when there is none. */
export function childText(parent: Element, ns: string, name: string): string | undefined {
  const el = firstChild(parent, ns, name);
  return el ? (el.textContent ?? '') : undefined;
}
