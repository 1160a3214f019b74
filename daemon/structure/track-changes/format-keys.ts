/**
 * When two format changes (w:rPrChange, ECMA-376 Part 1, 17.13.5.31) may combine: LibreOffice joins format
 * redlines only with identical old attributes, which the engine takes as "the old properties (w:rPrChange/w:rPr)
 * serialise alike". That needs every attribute, so a DOM; deciding in two steps keeps the DOM out of most of it:
 * the shape (element names and text, which a stream-built tree has) tells most old properties apart, and only the
 * w:rPrChange elements whose shape another one of the part shares are parsed as DOM, together in one pass.
 */
import type { ReadElement, ReadNode } from '../xml/read-tree.ts';
import { domsOf } from '../xml/read-tree.ts';
import { W, childW } from './wml.ts';

/** The keys of the w:rPrChange elements of one document, made on demand and cached. */
export class FormatKeys {
  private readonly shapes = new Map<ReadElement, string>();
  private readonly serialisations = new Map<ReadElement, string>();

  /** Element names and text of the old properties: equal whenever the serialisations are equal. */
  shape(rPrChange: ReadElement): string {
    let shape = this.shapes.get(rPrChange);
    if (shape === undefined) {
      const old = childW(rPrChange, 'rPr');
      shape = old ? shapeOf(old) : '';
      this.shapes.set(rPrChange, shape);
    }
    return shape;
  }

  /**
   * The old properties serialised as @xmldom/xmldom writes them ('' when there are none). The first call for a
   * part parses, in one pass, every w:rPrChange of that part whose shape is shared (the others never need it).
   * @throws StructureError bad_package when the part is not well-formed.
   */
  serialised(rPrChange: ReadElement): string {
    let key = this.serialisations.get(rPrChange);
    if (key === undefined) {
      const all = Array.from(rootOf(rPrChange).getElementsByTagNameNS(W, 'rPrChange'));
      const count = new Map<string, number>();
      for (const c of all) count.set(this.shape(c), (count.get(this.shape(c)) ?? 0) + 1);
      const wanted = all.filter((c) => c === rPrChange || (!this.serialisations.has(c) && count.get(this.shape(c))! > 1));
      if (!wanted.includes(rPrChange)) wanted.push(rPrChange);
      domsOf(wanted).forEach((dom, i) => {
        const old = childW(dom, 'rPr');
        this.serialisations.set(wanted[i]!, old ? old.toString() : '');
      });
      key = this.serialisations.get(rPrChange)!;
    }
    return key;
  }
}

function rootOf(el: ReadElement): ReadElement {
  let root = el;
  for (let p = el.parentNode; p && p.nodeType === 1; p = p.parentNode) root = p as ReadElement;
  return root;
}

function shapeOf(node: ReadNode): string {
  if (node.nodeType !== 1) return JSON.stringify(node.nodeValue ?? '');
  let out = `<${node.namespaceURI ?? ''} ${node.localName}>`;
  for (let n = node.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 || n.nodeType === 3 || n.nodeType === 4) out += shapeOf(n);
  return `${out}</>`;
}
