/**
 * When two format changes (w:rPrChange, ECMA-376 Part 1, 17.13.5.31) may combine: LibreOffice joins format
 * redlines only with identical old attributes, which the engine takes as "the old properties (w:rPrChange/w:rPr)
 * are alike": the same elements, attributes and text in the same order. Stream-built trees keep every attribute
 * under w:rPrChange for this (xml/extraction-attributes.ts), so no DOM is needed.
 */
import type { ReadElement, ReadNode } from '../xml/read-tree.ts';
import { childW } from './wml.ts';

/** The keys of the w:rPrChange elements of one document, made on demand and cached. */
export class FormatKeys {
  private readonly keys = new Map<ReadElement, string>();

  /** The old properties' element names, attributes and text, in order ('' when there are none). */
  shape(rPrChange: ReadElement): string {
    let key = this.keys.get(rPrChange);
    if (key === undefined) {
      const old = childW(rPrChange, 'rPr');
      key = old ? shapeOf(old) : '';
      this.keys.set(rPrChange, key);
    }
    return key;
  }

  /**
   * The exact key: the same as `shape`, which includes every attribute (trees keep them all under w:rPrChange,
   * xml/extraction-attributes.ts), so two keys are equal exactly when the old properties serialise alike.
   */
  serialised(rPrChange: ReadElement): string {
    return this.shape(rPrChange);
  }
}

function shapeOf(node: ReadNode): string {
  if (node.nodeType !== 1) return JSON.stringify(node.nodeValue ?? '');
  const el = node as ReadElement;
  let out = `<${node.namespaceURI ?? ''} ${node.localName}`;
  for (let i = 0; i < el.attributes.length; i++) {
    const a = el.attributes[i]!;
    out += ` ${a.namespaceURI ?? ''}|${a.localName}=${JSON.stringify(a.value)}`;
  }
  out += '>';
  for (let n = node.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 || n.nodeType === 3 || n.nodeType === 4) out += shapeOf(n);
  return `${out}</>`;
}
