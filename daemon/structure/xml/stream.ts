import type { Element } from '@xmldom/xmldom';
import { StructureError } from '../errors.ts';
import { parseXml } from './dom.ts';
import { Namespaces, XMLNS_NS, plainParser, type PlainTag, type Scope } from './namespaces.ts';

/**
 * Streaming reads of XML parts, for the extraction paths where building a DOM costs too much: saxes (a
 * conformant, namespace-aware XML parser) reads about 40 MB/s here, @xmldom/xmldom about 10. Transformations keep
 * using the DOM (document.ts), which they need to change and write parts.
 */

/** A start tag: namespace URI, local name, depth (the root is 0), and its attributes. */
export interface StreamElement {
  ns: string;
  local: string;
  depth: number;
  /** The value of an attribute by namespace URI (`''` for no namespace) and local name. */
  attr(ns: string, local: string): string | undefined;
  /** Every attribute (namespace declarations included) in document order. */
  attrs(): StreamAttribute[];
  /** The values of the attributes `names` ([namespace URI or '', local name]), in that order, in one pass over the tag. */
  pick(names: ReadonlyArray<readonly [string, string]>): Array<string | undefined>;
}

/** One attribute of a start tag: namespace URI (`''` for none), local name, value. */
export interface StreamAttribute {
  readonly namespaceURI: string;
  readonly localName: string;
  readonly value: string;
}

/**
 * What a stream reports. `onOpen` may return `'skip'` to skip the element's whole content (no events inside), or
 * `'stop'` to end the read there (the rest of the part is neither read nor checked: for a reader that needs only
 * the first tags, such as a slide layout's name and type).
 */
export interface StreamHandlers {
  onOpen?(el: StreamElement): void | 'skip' | 'stop';
  onClose?(ns: string, local: string, depth: number): void;
  /** Character data (entities resolved; CDATA included). */
  onText?(text: string, depth: number): void;
}

/** Thrown from a handler to end a stream early; caught by streamXml. */
const STOP = Symbol('stop');

/** A start tag over saxes's tag object and the namespaces in scope: one allocation per tag, lookups on demand. */
class TagElement implements StreamElement {
  constructor(
    private readonly tag: PlainTag,
    private readonly scope: Scope,
    readonly ns: string,
    readonly local: string,
    readonly depth: number,
  ) {}

  /** The namespace URI of attribute `name` (its prefix bound in this scope; checked at the start tag). */
  private uriOf(name: string, colon: number): string {
    if (colon < 0) return name === 'xmlns' ? XMLNS_NS : '';
    return this.scope[name.slice(0, colon)]!;
  }

  attr(ns: string, local: string): string | undefined {
    const all = this.tag.attributes;
    for (const name in all) {
      const colon = name.indexOf(':');
      if (name.length - colon - 1 !== local.length || !name.endsWith(local)) continue;
      if (this.uriOf(name, colon) === ns) return all[name];
    }
    return undefined;
  }

  pick(names: ReadonlyArray<readonly [string, string]>): Array<string | undefined> {
    const out: Array<string | undefined> = new Array(names.length);
    const all = this.tag.attributes;
    for (const name in all) {
      const colon = name.indexOf(':');
      const local = colon < 0 ? name : name.slice(colon + 1);
      let uri: string | undefined;
      for (let i = 0; i < names.length; i++) {
        if (names[i]![1] !== local) continue;
        uri ??= this.uriOf(name, colon);
        if (names[i]![0] === uri) {
          out[i] = all[name];
          break;
        }
      }
    }
    return out;
  }

  attrs(): StreamAttribute[] {
    const all = this.tag.attributes;
    return Object.keys(all).map((name) => {
      const colon = name.indexOf(':');
      return { namespaceURI: this.uriOf(name, colon), localName: colon < 0 ? name : name.slice(colon + 1), value: all[name]! };
    });
  }
}

/**
 * Streams one XML part through `handlers`, in document order.
 * @throws StructureError bad_package naming `part` when the XML is not well formed.
 */
export function streamXml(text: string, part: string, handlers: StreamHandlers): void {
  const parser = plainParser();
  const names = new Namespaces(parser);
  let depth = -1;
  let skipUntil = -1;
  // the namespace URI and local name of each open element, for its end tag
  const uris: string[] = [];
  const locals: string[] = [];
  parser.on('opentag', (tag) => {
    depth++;
    names.open(tag);
    const { uri, local } = names;
    uris.push(uri);
    locals.push(local);
    if (skipUntil >= 0 || !handlers.onOpen) return;
    const verdict = handlers.onOpen(new TagElement(tag, names.scope, uri, local, depth));
    if (verdict === 'skip') {
      skipUntil = depth;
      // no text is reported inside: saxes then does not collect it
      if (handlers.onText) {
        parser.off('text');
        parser.off('cdata');
      }
    } else if (verdict === 'stop') throw STOP;
  });
  parser.on('closetag', () => {
    const uri = uris.pop()!;
    const local = locals.pop()!;
    names.close();
    if (skipUntil === depth) {
      skipUntil = -1;
      listenToText();
    } else if (skipUntil < 0) handlers.onClose?.(uri, local, depth);
    depth--;
  });
  parser.on('processinginstruction', (pi) => names.checkTarget(pi.target));
  const onText = handlers.onText;
  function listenToText(): void {
    if (!onText) return;
    parser.on('text', (t) => depth >= 0 && onText(t, depth));
    parser.on('cdata', (t) => onText(t, depth));
  }
  listenToText();
  try {
    parser.write(text).close();
  } catch (e) {
    if (e === STOP) return;
    throw new StructureError('bad_package', `the part ${part} is not well-formed XML: ${(e as Error).message.split('\n')[0]}`, part);
  }
}

/**
 * Parses only the elements of a part that `wanted` selects (and everything inside them) into DOM elements, in
 * document order, without building a DOM for the rest: e.g. the `style:master-page` elements of a 300 kB ODF
 * styles.xml. Each element is parsed on its own with the namespace declarations in scope at its place, so
 * `namespaceURI`, attributes and text are exactly what a full parse gives. Elements inside a selected element are
 * not selected again.
 * @throws StructureError bad_package when the XML is not well formed.
 */
export function parseFragments(text: string, part: string, wanted: (ns: string, local: string, depth: number) => boolean): Element[] {
  const parser = plainParser(true);
  const names = new Namespaces(parser);
  const starts: number[] = [];
  const out: Element[] = [];
  let depth = -1;
  let open: { depth: number; start: number; scope: Scope } | undefined;
  parser.on('opentagstart', () => {
    // position is just past the tag name: the tag starts at the last '<' before it.
    starts.push(text.lastIndexOf('<', parser.position - 1));
  });
  parser.on('opentag', (tag) => {
    depth++;
    names.open(tag);
    const start = starts.pop()!;
    if (!open && wanted(names.uri, names.local, depth)) open = { depth, start, scope: names.scope };
  });
  parser.on('closetag', () => {
    // position is just past the end tag's '>' (or the '/>' of a self-closing tag).
    if (open && open.depth === depth) finish(parser.position);
    names.close();
    depth--;
  });
  parser.on('processinginstruction', (pi) => names.checkTarget(pi.target));
  function finish(end: number): void {
    const o = open!;
    open = undefined;
    // the declarations in scope (the document's own: not the xml and xmlns prefixes every document has)
    let decls = '';
    for (const prefix in o.scope) {
      const uri = o.scope[prefix]!;
      if (Namespaces.isBuiltIn(prefix, uri)) continue;
      decls += prefix ? ` xmlns:${prefix}="${escapeAttr(uri)}"` : ` xmlns="${escapeAttr(uri)}"`;
    }
    // A wrapper carries the declarations in scope; the element itself keeps its own.
    const doc = parseXml(`<ode-fragment${decls}>${text.slice(o.start, end)}</ode-fragment>`, part);
    for (let n = doc.documentElement!.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  }
  try {
    parser.write(text).close();
  } catch (e) {
    throw new StructureError('bad_package', `the part ${part} is not well-formed XML: ${(e as Error).message.split('\n')[0]}`, part);
  }
  return out;
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
