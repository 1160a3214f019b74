import type { Element } from '@xmldom/xmldom';
import { childElements } from '../xml/dom.ts';

/**
 * Detaches `elements` (descendants of `root`) and returns them in document order, found by one pre-order walk of
 * `root` (only when there is more than one to order).
 */
export function detachInDocumentOrder(root: Element, elements: Element[]): Element[] {
  if (elements.length > 1) {
    const order = new Map<Element, number>();
    let n = 0;
    const walk = (e: Element) => {
      for (const c of childElements(e)) {
        order.set(c, n++);
        walk(c);
      }
    };
    walk(root);
    elements.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  }
  for (const m of elements) m.parentNode!.removeChild(m);
  return elements;
}
