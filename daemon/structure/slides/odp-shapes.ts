/**
 * The objects of an ODP page as LibreOffice's import makes them (ODF 1.3 Part 3, 10.3-10.9 shapes; 10.4.2
 * draw:frame content): the shapes in document order with draw:a unwrapped, the element holding each one's text,
 * its texts as paragraph strings (odp-text.ts), and the tests SetAutoLayout applies to them.
 */
import type { Element } from '@xmldom/xmldom';
import { NS, childElements } from '../xml/dom.ts';
import { readChild, readChildren, type ReadElement } from '../xml/read-tree.ts';
import { paragraphText, paragraphsOf } from './odp-text.ts';

/*
 * The reading rules take a ReadElement: a page of content.xml's stream-built tree (the extraction, shared with the
 * charts filter) or of its DOM (the commands), and give back elements of the type they were given.
 */

/** draw: elements that are shapes on a page (ODF 1.3 Part 3, 10.3-10.9). */
export const SHAPES: ReadonlySet<string> = new Set([
  'rect',
  'line',
  'polyline',
  'polygon',
  'regular-polygon',
  'path',
  'circle',
  'ellipse',
  'g',
  'page-thumbnail',
  'frame',
  'measure',
  'caption',
  'connector',
  'control',
  'custom-shape',
  'a',
]);

/** The shapes of a page in document order (draw:a unwrapped to its shape). */
export function shapesOf<E extends ReadElement>(page: E): E[] {
  const out: E[] = [];
  for (const el of readChildren(page)) {
    const isShape =
      (el.namespaceURI === NS.draw && SHAPES.has(el.localName ?? '')) ||
      (el.localName === 'scene' && el.namespaceURI === 'urn:oasis:names:tc:opendocument:xmlns:dr3d:1.0');
    if (!isShape) continue;
    if (el.localName === 'a' && el.namespaceURI === NS.draw) {
      const inner = readChildren(el).find((c) => c.namespaceURI === NS.draw && SHAPES.has(c.localName ?? ''));
      if (inner) out.push(inner);
      continue;
    }
    out.push(el);
  }
  return out;
}

/** The element holding a shape's paragraphs, or undefined when the shape cannot hold text. */
export function textContainerOf<E extends ReadElement>(shape: E): E | undefined {
  const local = shape.localName;
  if (local === 'g' || local === 'page-thumbnail' || local === 'control' || local === 'scene') return undefined;
  if (local !== 'frame') return shape;
  // the frame's first content element decides what it is (ODF 1.3 Part 3, 10.4.2): a text box or a picture
  // holds text; an embedded object, plugin, applet, floating frame or table does not
  const first = readChildren(shape).find(
    (k) =>
      (k.namespaceURI === NS.draw && ['text-box', 'image', 'object', 'object-ole', 'plugin', 'applet', 'floating-frame'].includes(k.localName ?? '')) ||
      (k.namespaceURI === NS.table && k.localName === 'table'),
  );
  return first && first.namespaceURI === NS.draw && (first.localName === 'text-box' || first.localName === 'image') ? first : undefined;
}

/** The texts of a shape (a table: one per cell with text), each as its paragraph strings; empty texts left out. */
export function textsOf(shape: ReadElement): string[][] {
  if (shape.localName === 'frame') {
    const table = readChild(shape, NS.table, 'table');
    if (table) {
      const out: string[][] = [];
      for (const row of readChildren(table, NS.table, 'table-row')) for (const cell of readChildren(row, NS.table, 'table-cell')) pushText(out, cell);
      return out;
    }
  }
  const container = textContainerOf(shape);
  const out: string[][] = [];
  if (container) pushText(out, container);
  return out;
}

function pushText(out: string[][], container: ReadElement): void {
  const paras = paragraphsOf(container).map(paragraphText);
  if (paras.length > 1 || (paras.length === 1 && paras[0] !== '')) out.push(paras);
}

/** An empty presentation object: a placeholder, or one whose text is empty. */
export function isEmptyPlaceholder(shape: Element): boolean {
  if (shape.getAttribute('presentation:placeholder') === 'true') return true;
  return textsOf(shape).length === 0 && !!textContainerOf(shape) && textContainerOf(shape)!.localName === 'text-box';
}

/**
 * Objects LibreOffice adopts for a missing outline (findAutoLayoutShapesImpl): non-empty text objects with a
 * presentation style (subtitle, text, outline), pictures, embedded objects, tables and media.
 */
export function adoptable(shape: Element, cls: string): boolean {
  if (cls !== 'outline') return false;
  const pres = shape.getAttribute('presentation:class');
  if (pres) return ['subtitle', 'text', 'outline'].includes(pres) && !isEmptyPlaceholder(shape);
  if (shape.localName !== 'frame') return false;
  return childElements(shape).some(
    (k) =>
      (k.namespaceURI === NS.draw && ['image', 'object', 'object-ole', 'plugin'].includes(k.localName ?? '')) ||
      (k.namespaceURI === NS.table && k.localName === 'table'),
  );
}
