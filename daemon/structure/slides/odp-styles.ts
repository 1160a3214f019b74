/**
 * Styles of an ODP for text editing (ODF 1.3 Part 3, 16.2 style:style, 16.27 text properties, 16.28 paragraph
 * properties, 16.30 text:list-style): reads the formatting in force through a chain of styles (automatic styles
 * of content.xml and styles.xml, common styles, parents), and creates new automatic styles in content.xml with
 * unique names (T<n> text, P<n> paragraph, L<n> list, as LibreOffice names them), reusing an identical one.
 */
import type { Element } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import type { CharFormat, CharState } from './deck.ts';
import { NS, childElements, firstChild } from '../xml/dom.ts';
import { domOf } from './part-reads.ts';

const CONTENT = 'content.xml';
const STYLES = 'styles.xml';

/** Character properties the edit commands read and write, as text-properties attributes. */
export type TextProps = Record<string, string>;

/** The style index and style factory of one open odp. */
export class OdpStyles {
  private readonly doc: StructureDocument;
  private index?: Map<string, Element>;
  private names?: Set<string>;
  private readonly made = new Map<string, string>();

  constructor(doc: StructureDocument) {
    this.doc = doc;
  }

  /** The style:style (or text:list-style) of a family and name, searched in content.xml then styles.xml. */
  find(family: string, name: string): Element | undefined {
    return this.styleIndex().get(`${family}:${name}`);
  }

  private styleIndex(): Map<string, Element> {
    if (this.index) return this.index;
    const index = new Map<string, Element>();
    const names = new Set<string>();
    const add = (container: Element | undefined) => {
      if (!container) return;
      for (const el of childElements(container)) {
        const name = el.getAttribute('style:name');
        if (!name) continue;
        names.add(name);
        const family = el.localName === 'list-style' ? 'list' : (el.getAttribute('style:family') ?? '');
        const key = `${family}:${name}`;
        if (!index.has(key)) index.set(key, el);
      }
    };
    add(this.automaticStyles());
    if (this.doc.has(STYLES)) {
      const root = domOf(this.doc, STYLES).documentElement!;
      add(firstChild(root, NS.office, 'automatic-styles'));
      add(firstChild(root, NS.office, 'styles'));
    }
    this.index = index;
    this.names = names;
    return index;
  }

  /** office:automatic-styles of content.xml, created when missing. */
  automaticStyles(): Element {
    const dom = domOf(this.doc, CONTENT);
    const root = dom.documentElement!;
    let auto = firstChild(root, NS.office, 'automatic-styles');
    if (!auto) {
      auto = dom.createElementNS(NS.office, 'office:automatic-styles');
      root.insertBefore(auto, firstChild(root, NS.office, 'body') ?? null);
    }
    return auto;
  }

  /**
   * The text-properties attributes in force for a chain of styles, each `[family, name]`, later entries
   * overriding earlier ones; each style contributes its parents first.
   */
  textProps(chain: ReadonlyArray<readonly [string, string | undefined]>): TextProps {
    const out: TextProps = {};
    for (const [family, name] of chain) if (name) this.collect(family, name, out, 0);
    return out;
  }

  private collect(family: string, name: string, out: TextProps, depth: number): void {
    const style = this.find(family, name);
    if (!style || depth > 20) return;
    const parent = style.getAttribute('style:parent-style-name');
    if (parent) this.collect(family, parent, out, depth + 1);
    const props = firstChild(style, NS.style, 'text-properties');
    if (!props) return;
    for (let i = 0; i < props.attributes.length; i++) {
      const a = props.attributes.item(i)!;
      out[a.name] = a.value;
    }
  }

  /**
   * An automatic text style (family "text") holding the properties of the span styles `spans` (merged, inner
   * wins) changed by `change`; an identical style made before is reused.
   */
  textStyle(spans: readonly string[], change: CharFormat): string {
    const props = this.textProps(spans.map((s) => ['text', s] as const));
    applyCharFormat(props, change);
    const key = `text|${Object.keys(props)
      .sort()
      .map((k) => `${k}=${props[k]}`)
      .join(';')}`;
    const hit = this.made.get(key);
    if (hit) return hit;
    const dom = domOf(this.doc, CONTENT);
    const name = this.uniqueName('T');
    const style = dom.createElementNS(NS.style, 'style:style');
    style.setAttribute('style:name', name);
    style.setAttribute('style:family', 'text');
    const tp = dom.createElementNS(NS.style, 'style:text-properties');
    for (const [k, v] of Object.entries(props)) tp.setAttributeNS(nsOfAttr(k), k, v);
    style.appendChild(tp);
    this.register(style, 'text', name);
    this.made.set(key, name);
    return name;
  }

  /** An automatic paragraph style like `base` (or deriving from a common style `base`) with fo:text-align set. */
  paragraphStyle(base: string | undefined, align: string): string {
    const key = `paragraph|${base ?? ''}|${align}`;
    const hit = this.made.get(key);
    if (hit) return hit;
    const dom = domOf(this.doc, CONTENT);
    const name = this.uniqueName('P');
    const auto = this.automaticStyles();
    const existing = base ? this.find('paragraph', base) : undefined;
    let style: Element;
    if (existing && existing.parentNode === auto) {
      style = existing.cloneNode(true) as Element;
      style.setAttribute('style:name', name);
    } else {
      style = dom.createElementNS(NS.style, 'style:style');
      style.setAttribute('style:name', name);
      style.setAttribute('style:family', 'paragraph');
      if (base && existing) style.setAttribute('style:parent-style-name', base);
    }
    let pp = firstChild(style, NS.style, 'paragraph-properties');
    if (!pp) {
      pp = dom.createElementNS(NS.style, 'style:paragraph-properties');
      // paragraph-properties precede text-properties (ODF 1.3 Part 3, 16.2)
      style.insertBefore(pp, firstChild(style, NS.style, 'text-properties') ?? null);
    }
    pp.setAttributeNS(NS.fo, 'fo:text-align', align);
    this.register(style, 'paragraph', name);
    this.made.set(key, name);
    return name;
  }

  /** An automatic list style with bullets (●) or arabic numbering ("1.") on all ten levels. */
  listStyle(kind: 'bullet' | 'number'): string {
    const key = `list|${kind}`;
    const hit = this.made.get(key);
    if (hit) return hit;
    const dom = domOf(this.doc, CONTENT);
    const name = this.uniqueName('L');
    const list = dom.createElementNS(NS.text, 'text:list-style');
    list.setAttribute('style:name', name);
    for (let level = 1; level <= 10; level++) {
      const ls = dom.createElementNS(NS.text, kind === 'bullet' ? 'text:list-level-style-bullet' : 'text:list-level-style-number');
      ls.setAttribute('text:level', String(level));
      if (kind === 'bullet') ls.setAttribute('text:bullet-char', '●');
      else {
        ls.setAttributeNS(NS.style, 'style:num-suffix', '.');
        ls.setAttributeNS(NS.style, 'style:num-format', '1');
      }
      const lp = dom.createElementNS(NS.style, 'style:list-level-properties');
      lp.setAttribute('text:space-before', `${(0.8 * (level - 1)).toFixed(1)}cm`);
      lp.setAttribute('text:min-label-width', '0.8cm');
      ls.appendChild(lp);
      if (kind === 'bullet') {
        const tp = dom.createElementNS(NS.style, 'style:text-properties');
        tp.setAttributeNS(NS.fo, 'fo:font-family', 'OpenSymbol');
        tp.setAttribute('style:use-window-font-color', 'true');
        tp.setAttributeNS(NS.fo, 'fo:font-size', '45%');
        ls.appendChild(tp);
      }
      list.appendChild(ls);
    }
    this.register(list, 'list', name);
    this.made.set(key, name);
    return name;
  }

  /** The list style's kind at a level (1-based): 'bullet', 'number', or undefined (no style / image bullets). */
  listKind(name: string | undefined, level: number): 'bullet' | 'number' | undefined {
    if (!name) return undefined;
    const style = this.find('list', name);
    if (!style) return undefined;
    for (const ls of childElements(style, NS.text)) {
      if (Number(ls.getAttribute('text:level')) !== level) continue;
      if (ls.localName === 'list-level-style-bullet') return 'bullet';
      if (ls.localName === 'list-level-style-number') return (ls.getAttribute('style:num-format') ?? '') === '' ? undefined : 'number';
    }
    return undefined;
  }

  private register(style: Element, family: string, name: string): void {
    this.automaticStyles().appendChild(style);
    this.styleIndex().set(`${family}:${name}`, style);
    this.names!.add(name);
    this.doc.markChanged(CONTENT);
  }

  private uniqueName(prefix: string): string {
    this.styleIndex();
    let n = 1;
    while (this.names!.has(`${prefix}${n}`)) n++;
    return `${prefix}${n}`;
  }
}

function nsOfAttr(qname: string): string | null {
  const prefix = qname.slice(0, qname.indexOf(':'));
  return (NS as Record<string, string>)[prefix] ?? null;
}

const ON_OFF: ReadonlyArray<[keyof CharFormat, Array<[string, string, string]>]> = [
  [
    'bold',
    [
      ['fo:font-weight', 'bold', 'normal'],
      ['style:font-weight-asian', 'bold', 'normal'],
      ['style:font-weight-complex', 'bold', 'normal'],
    ],
  ],
  [
    'italic',
    [
      ['fo:font-style', 'italic', 'normal'],
      ['style:font-style-asian', 'italic', 'normal'],
      ['style:font-style-complex', 'italic', 'normal'],
    ],
  ],
  [
    'strikeout',
    [
      ['style:text-line-through-style', 'solid', 'none'],
      ['style:text-line-through-type', 'single', 'none'],
    ],
  ],
  ['shadowed', [['fo:text-shadow', '1pt 1pt', 'none']]],
  [
    'underline',
    [
      ['style:text-underline-style', 'solid', 'none'],
      ['style:text-underline-width', 'auto', 'auto'],
      ['style:text-underline-color', 'font-color', 'font-color'],
    ],
  ],
];

/** Applies a character format change to text-properties attributes (ODF 1.3 Part 3, 20 formatting attributes). */
export function applyCharFormat(props: TextProps, change: CharFormat): void {
  for (const [key, attrs] of ON_OFF) {
    const v = change[key];
    if (v === undefined) continue;
    for (const [attr, on, off] of attrs) props[attr] = v ? on : off;
  }
  if (change.escapement) props['style:text-position'] = change.escapement === 'super' ? 'super 58%' : change.escapement === 'sub' ? 'sub 58%' : '0% 100%';
  if (change.color !== undefined) {
    if (change.color < 0) {
      delete props['fo:color'];
      props['style:use-window-font-color'] = 'true';
    } else {
      props['fo:color'] = hexColor(change.color);
      delete props['style:use-window-font-color'];
    }
  }
  if (change.backColor !== undefined) props['fo:background-color'] = change.backColor < 0 ? 'transparent' : hexColor(change.backColor);
}

/** 0xRRGGBB as "#rrggbb". */
export function hexColor(value: number): string {
  return `#${(value & 0xffffff).toString(16).padStart(6, '0')}`;
}

/** The toggles and escapement in force according to text-properties attributes. */
export function charStateOf(props: TextProps): CharState {
  const weight = props['fo:font-weight'] ?? 'normal';
  const position = (props['style:text-position'] ?? '0% 100%').trim();
  const first = position.split(/\s+/)[0];
  const escapement =
    first === 'super' || (first.endsWith('%') && parseFloat(first) > 0)
      ? 'super'
      : first === 'sub' || (first.endsWith('%') && parseFloat(first) < 0)
        ? 'sub'
        : 'none';
  return {
    bold: weight === 'bold' || (/^[0-9]+$/.test(weight) && Number(weight) >= 600),
    italic: ['italic', 'oblique'].includes(props['fo:font-style'] ?? 'normal'),
    strikeout: (props['style:text-line-through-style'] ?? 'none') !== 'none',
    shadowed: (props['fo:text-shadow'] ?? 'none') !== 'none',
    underline: (props['style:text-underline-style'] ?? 'none') !== 'none',
    escapement,
  };
}
