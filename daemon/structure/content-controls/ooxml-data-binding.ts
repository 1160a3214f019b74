import type { Element } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { relationshipsOf } from '../package/opc-relationships.ts';
import { NS, childElements } from '../xml/dom.ts';

/**
 * Data-bound content controls (ECMA-376 Part 1 17.5.2.6 w:dataBinding, and 22.5 Custom XML Data Properties):
 * `w:storeItemID` names a custom XML part by the ds:itemID of its properties part, `w:xpath` a node in it, and
 * `w:prefixMappings` the prefixes the XPath uses. Word re-reads the bound node when it opens the file and shows
 * its value, so a new value written only into w:sdtContent would be lost in Word: it is written into the node too.
 *
 * XPaths handled: absolute location paths of element steps `/prefix:name` or `/name`, each with an optional
 * position predicate `[n]`, and an optional final attribute step `/@name` (what Word writes). Anything else, or a
 * node that does not exist, cannot be written; the binding is then removed from the control, so Word keeps the
 * control's own new content instead of restoring the old bound value.
 */

const DS = 'http://schemas.openxmlformats.org/officeDocument/2006/customXml';
const CUSTOM_XML_PROPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXmlProps';

const storesByDoc = new WeakMap<StructureDocument, Map<string, string>>();

/** Custom XML parts by their ds:itemID (upper case, with braces), found once per document. */
function customXmlStores(doc: StructureDocument): Map<string, string> {
  let stores = storesByDoc.get(doc);
  if (stores) return stores;
  stores = new Map();
  for (const name of doc.pkg.names()) {
    if (!/^customxml\/[^/]+\.xml$/i.test(name)) continue;
    const props = relationshipsOf(doc.pkg, name).find((r) => r.type === CUSTOM_XML_PROPS && !r.external);
    if (!props || !doc.has(props.target)) continue;
    const id = doc.xml(props.target).documentElement?.getAttributeNS(DS, 'itemID');
    if (id) stores.set(id.toUpperCase(), name);
  }
  storesByDoc.set(doc, stores);
  return stores;
}

/** `xmlns:ns0='uri' xmlns:ns1="uri"` as a prefix map (the attribute is a list of declarations, not XML). */
export function parsePrefixMappings(value: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const m of value.matchAll(/xmlns:([\w.-]+)\s*=\s*(['"])(.*?)\2/g)) map.set(m[1], m[3]);
  return map;
}

interface Step {
  attribute: boolean;
  ns: string | null;
  local: string;
  position: number;
}

/** The steps of a handled XPath (see the module comment), or undefined when it is not one. */
export function parseSimpleXPath(xpath: string, prefixes: Map<string, string>): Step[] | undefined {
  const steps: Step[] = [];
  const parts = xpath.trim().split('/');
  if (parts[0] !== '' || parts.length < 2) return undefined;
  for (let i = 1; i < parts.length; i++) {
    const m = /^(@)?(?:([\w.-]+):)?([\w.-]+)(?:\[(\d+)\])?$/.exec(parts[i]);
    if (!m) return undefined;
    const attribute = m[1] === '@';
    if (attribute && i !== parts.length - 1) return undefined;
    const ns = m[2] === undefined ? null : prefixes.get(m[2]);
    if (ns === undefined) return undefined;
    steps.push({ attribute, ns, local: m[3], position: m[4] ? Number(m[4]) : 1 });
  }
  return steps;
}

/**
 * Writes `value` into the node a w:dataBinding points at (see the module comment).
 * @returns true when written; false when the binding could not be followed (the caller then drops it).
 */
export function writeBoundValue(doc: StructureDocument, binding: Element, value: string): boolean {
  const storeId = (binding.getAttributeNS(NS.w, 'storeItemID') ?? '').toUpperCase();
  const part = customXmlStores(doc).get(storeId);
  const steps = parseSimpleXPath(binding.getAttributeNS(NS.w, 'xpath') ?? '', parsePrefixMappings(binding.getAttributeNS(NS.w, 'prefixMappings') ?? ''));
  if (!part || !steps) return false;
  const xml = doc.xml(part);
  let node: Element | undefined;
  for (const [i, step] of steps.entries()) {
    if (step.attribute) {
      if (!node) return false;
      if (step.ns) node.setAttributeNS(step.ns, step.local, value);
      else node.setAttribute(step.local, value);
      doc.markChanged(part);
      return true;
    }
    const candidates = i === 0 ? [xml.documentElement!] : childElements(node!);
    const matching = candidates.filter((c) => c.localName === step.local && (c.namespaceURI ?? null) === step.ns);
    node = matching[step.position - 1];
    if (!node) return false;
  }
  while (node!.firstChild) node!.removeChild(node!.firstChild);
  node!.appendChild(xml.createTextNode(value));
  doc.markChanged(part);
  return true;
}
