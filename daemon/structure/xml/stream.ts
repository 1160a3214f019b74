import type { Element } from '@xmldom/xmldom';
import { StructureError } from '../errors.ts';
import { parseXml } from './dom.ts';
import { Namespaces, onStartTag, plainParser, type PlainTag, type Scope } from './namespaces.ts';

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
 * What a stream reports. `onOpen` may return `'skip'` to skip the element's whole content (no events inside; the
 * content is not parsed either, see `contentEnd`, so it is not checked for well-formedness), or `'stop'` to end the
 * read there (the rest of the part is neither read nor checked: for a reader that needs only the first tags, such
 * as a slide layout's name and type).
 */
export interface StreamHandlers {
  onOpen?(el: StreamElement): void | 'skip' | 'stop';
  onClose?(ns: string, local: string, depth: number): void;
  /** Character data (entities resolved; CDATA included). */
  onText?(text: string, depth: number): void;
  /**
   * Asked, before saxes reads it, of an element whose start tag follows a start or end tag with nothing between (its
   * namespace URI, local name and depth): true passes over the whole element (start tag, content, end tag) with no
   * events, neither its attributes nor its content read or checked. Only by name, so it must be the handler's answer for
   * every element of that name at that place: an element that cannot be passed over so (its start tag declares
   * namespaces, or its end is not in the piece being parsed, or its content holds markup that could hide its end) is
   * read as usual, and the handler's `onOpen` must then skip it itself.
   */
  dropByName?(ns: string, local: string, depth: number): boolean;
}

/** Thrown from a handler to end a stream early; caught by streamXml. */
const STOP = Symbol('stop');

/** A start tag over saxes's tag object and the namespaces in scope: one allocation per tag, lookups on demand. */
class TagElement implements StreamElement {
  constructor(
    private readonly tag: PlainTag,
    private readonly names: Namespaces,
    private readonly scope: Scope,
    readonly ns: string,
    readonly local: string,
    readonly depth: number,
  ) {}

  attr(ns: string, local: string): string | undefined {
    const list = this.tag.list;
    for (let i = 0; i < list.length; i++) {
      const name = list[i]!.name;
      if (!name.endsWith(local) || (name.length !== local.length && name.charCodeAt(name.length - local.length - 1) !== COLON)) continue;
      if (this.names.attributeUri(this.scope, name) === ns) return list[i]!.value;
    }
    return undefined;
  }

  pick(names: ReadonlyArray<readonly [string, string]>): Array<string | undefined> {
    const out: Array<string | undefined> = new Array(names.length);
    const list = this.tag.list;
    for (let a = 0; a < list.length; a++) {
      const name = list[a]!.name;
      const colon = name.indexOf(':');
      const local = colon < 0 ? name : name.slice(colon + 1);
      let uri: string | undefined;
      for (let i = 0; i < names.length; i++) {
        if (names[i]![1] !== local) continue;
        uri ??= this.names.attributeUri(this.scope, name);
        if (names[i]![0] === uri) {
          out[i] = list[a]!.value;
          break;
        }
      }
    }
    return out;
  }

  attrs(): StreamAttribute[] {
    return this.tag.list.map(({ name, value }) => {
      const colon = name.indexOf(':');
      return { namespaceURI: this.names.attributeUri(this.scope, name), localName: colon < 0 ? name : name.slice(colon + 1), value };
    });
  }
}

const COLON = 0x3a;

/**
 * A part to stream: its text, or its UTF-8 bytes, which `streamXml` decodes and parses piece by piece (pieces of
 * about `PIECE` bytes, cut before a `<`) so that no large string is made: V8 puts a string over 128 kB (64 k
 * characters when one is outside Latin-1) in its large-object space, and making one costs about ten times as much
 * per character as a smaller one (a 334 kB styles.xml: 6-8 ms to decode at once, against under 1 ms in pieces, on
 * this 2-core machine under load), then what skipped content (`'skip'`) is never decoded at all. A leading byte
 * order mark is dropped, as TextDecoder drops it.
 */
export type XmlSource = string | Uint8Array;

/** Bytes decoded and parsed at a time when streaming from bytes (see `XmlSource`). */
export const PIECE = 32 * 1024;

const UTF8 = new TextDecoder('utf-8');

/**
 * Streams one XML part through `handlers`, in document order.
 * @throws StructureError bad_package naming `part` when the XML is not well formed.
 */
export function streamXml(source: XmlSource, part: string, handlers: StreamHandlers): void {
  const parser = plainParser();
  const names = new Namespaces(parser);
  const feed = new Feed(parser, source);
  let depth = -1;
  let skipUntil = -1;
  // the namespace URI and local name of each open element, for its end tag
  const uris: string[] = [];
  const locals: string[] = [];
  onStartTag(parser, (tag) => {
    depth++;
    names.open(tag);
    const { uri, local } = names;
    uris.push(uri);
    locals.push(local);
    if (skipUntil >= 0 || !handlers.onOpen) return;
    const verdict = handlers.onOpen(new TagElement(tag, names, names.scope, uri, local, depth));
    if (verdict === 'skip') {
      skipUntil = depth;
      feed.skipContent(tag);
      // no text is reported inside: saxes then does not collect it
      if (handlers.onText) {
        parser.off('text');
        parser.off('cdata');
      }
    } else if (verdict === 'stop') throw STOP;
    else if (dropByName && tag.isSelfClosing === false) feed.dropAhead(names.scope, depth + 1, dropByName);
  });
  parser.on('closetag', () => {
    const uri = uris.pop()!;
    const local = locals.pop()!;
    names.close();
    if (skipUntil === depth) {
      skipUntil = -1;
      listenToText();
    } else if (skipUntil < 0) handlers.onClose?.(uri, local, depth);
    if (dropByName && skipUntil < 0 && depth > 0) feed.dropAhead(names.innermost(), depth, dropByName);
    depth--;
  });
  parser.on('processinginstruction', (pi) => names.checkTarget(pi.target));
  const onText = handlers.onText;
  const dropByName = handlers.dropByName?.bind(handlers);
  function listenToText(): void {
    if (!onText) return;
    parser.on('text', (t) => depth >= 0 && onText(t, depth));
    parser.on('cdata', (t) => onText(t, depth));
  }
  listenToText();
  try {
    feed.run();
  } catch (e) {
    if (e === STOP) return;
    throw new StructureError('bad_package', `the part ${part} is not well-formed XML: ${(e as Error).message.split('\n')[0]}`, part);
  }
}

/** What stream.ts touches of saxes's internals to skip an element's content: the chunk and the read position in it. */
interface ParserPosition {
  i: number;
  chunk: string;
}

/**
 * Writes a part to saxes (all at once from a string, in pieces from bytes) and moves saxes past the content of
 * skipped elements (`skipContent`).
 */
class Feed {
  /** Where the piece being parsed starts in the source (bytes), and the piece. */
  private pieceStart = 0;
  private piece = '';
  /** Where the next piece starts, when a skipped element's content ran past the end of the piece: its end tag. */
  private next = -1;
  /** Where the next `'` and `xmlns` are in the piece, for `dropAhead`. */
  private readonly marks = new NextMarks();

  constructor(
    private readonly parser: ReturnType<typeof plainParser>,
    private readonly source: XmlSource,
  ) {}

  /** Writes the whole part, then closes the parser. */
  run(): void {
    const src = this.source;
    if (typeof src === 'string') {
      this.piece = src;
      this.parser.write(src).close();
      return;
    }
    const bytes = Buffer.from(src.buffer, src.byteOffset, src.byteLength);
    for (let at = 0; at < bytes.length; ) {
      let end = at + PIECE >= bytes.length ? bytes.length : bytes.indexOf(LT, at + PIECE);
      if (end < 0) end = bytes.length;
      this.pieceStart = at;
      this.next = -1;
      // cut before a '<': never inside a UTF-8 sequence (a byte under 0x80 is a character of its own)
      this.piece = UTF8.decode(bytes.subarray(at, end));
      this.parser.write(this.piece);
      at = this.next >= 0 ? this.next : end;
    }
    this.parser.close();
  }

  /**
   * Moves saxes past the elements that start where it is (right after the start or end tag it just reported) and that
   * `drop` names (see StreamHandlers.dropByName), one after the other, each found whole in the piece being parsed.
   * `scope` is the scope they are in, `depth` their depth.
   */
  dropAhead(scope: Scope, depth: number, drop: (ns: string, local: string, depth: number) => boolean): void {
    const p = this.parser as unknown as ParserPosition;
    const piece = this.piece;
    if (typeof p.i !== 'number' || p.chunk !== piece) return;
    for (let end = elementEnd(piece, p.i, scope, depth, drop, this.marks); end >= 0; end = elementEnd(piece, p.i, scope, depth, drop, this.marks)) p.i = end;
  }

  /**
   * Moves saxes past the content of the element whose start tag it just reported (`tag`; not self-closing), to the
   * `<` of its end tag, so that a skipped element (a 300 kB ODF master page, a style the reader does not want)
   * costs a scan for its end tag instead of a parse: its content is neither reported nor checked. saxes then reads
   * the end tag as usual. Nothing moves when the content could hide its end (`contentEnd`) or saxes is not where
   * the start tag ends: saxes then parses the content, unreported, as before.
   */
  skipContent(tag: PlainTag): void {
    if (tag.isSelfClosing) return;
    const p = this.parser as unknown as ParserPosition;
    const piece = this.piece;
    if (typeof p.i !== 'number' || p.chunk !== piece || piece.charCodeAt(p.i - 1) !== GT) return;
    const end = contentEnd(piece, p.i, tag.name);
    if (end >= 0) {
      p.i = end;
      return;
    }
    const src = this.source;
    if (end === UNKNOWN || typeof src === 'string') return;
    // the end tag is past this piece: found in the bytes, the next piece starts there
    const from = this.pieceStart + Buffer.byteLength(piece.slice(0, p.i));
    const at = contentEndInBytes(Buffer.from(src.buffer, src.byteOffset, src.byteLength), from, Buffer.from(tag.name));
    if (at < 0) return;
    this.next = at;
    p.i = piece.length;
  }
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
/** `contentEnd`: the content holds markup that could hide the end tag. */
const UNKNOWN = -2;

/** True for the characters that may follow a name in a tag: white space, `>`, `/`. */
function endsName(c: number): boolean {
  return c === GT || c === SLASH || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * The index of the `<` of the end tag `</name>` that closes an element whose start tag ends at `from`; -1 when
 * `text` ends first; `UNKNOWN` (-2) when it cannot be told without parsing: the content holds markup other than
 * start and end tags (`<!`, `<?`) or a start tag of the same name. In well-formed XML every `<` of the content
 * starts markup (Extensible Markup Language 1.0, 2.4: `<` appears in neither character data nor attribute
 * values), so the first end tag of that name is the element's own.
 */
export function contentEnd(text: string, from: number, name: string): number {
  for (let at = text.indexOf('<', from); at >= 0; at = text.indexOf('<', at + 1)) {
    const c = text.charCodeAt(at + 1);
    if (c === SLASH) {
      if (text.startsWith(name, at + 2) && endsName(text.charCodeAt(at + 2 + name.length))) return at;
    } else if (c === BANG || c === QUESTION) return UNKNOWN;
    else if (text.startsWith(name, at + 1) && endsName(text.charCodeAt(at + 1 + name.length))) return UNKNOWN;
  }
  return -1;
}

/**
 * Where the element starting at `at` in `text` ends (the index after its end tag's `>`, or after its `/>`), when `drop`
 * names it (its prefix resolved in `scope`) and its end can be told without parsing: its start tag declares no
 * namespace and ends in `text` (the first `>` outside quoted attribute values), and `contentEnd` finds its end tag.
 * Else -1: nothing starts there, or it is not to be dropped, or it is to be read as usual. `next` keeps, per text,
 * where the next `'` and `xmlns` are, so that finding them does not scan the rest of the text each time.
 */
function elementEnd(
  text: string,
  at: number,
  scope: Scope,
  depth: number,
  drop: (ns: string, local: string, depth: number) => boolean,
  next: NextMarks,
): number {
  if (text.charCodeAt(at) !== LT) return -1;
  const c = text.charCodeAt(at + 1);
  if (c === SLASH || c === BANG || c === QUESTION) return -1;
  let k = at + 1;
  while (k < text.length && !endsName(text.charCodeAt(k))) k++;
  if (k >= text.length) return -1;
  const name = text.slice(at + 1, k);
  const colon = name.indexOf(':');
  const uri = scope[colon < 0 ? '' : name.slice(0, colon)] ?? '';
  if (colon >= 0 && uri === '') return -1;
  if (!drop(uri, colon < 0 ? name : name.slice(colon + 1), depth)) return -1;
  // the start tag's '>': the first one outside quoted attribute values (a value may hold '>', not '<')
  let q = k;
  for (;;) {
    const gt = text.indexOf('>', q);
    if (gt < 0) return -1;
    let dq = text.indexOf('"', q);
    if (dq < 0) dq = text.length;
    const quote = Math.min(dq, next.after(text, "'", q));
    if (gt < quote) {
      q = gt;
      break;
    }
    const close = text.indexOf(text[quote]!, quote + 1);
    if (close < 0) return -1;
    q = close + 1;
  }
  if (next.after(text, 'xmlns', k) < q) return -1;
  const lt = text.indexOf('<', at + 1);
  if (lt >= 0 && lt < q) return -1;
  if (text.charCodeAt(q - 1) === SLASH) return q + 1;
  const close = contentEnd(text, q + 1, name);
  if (close < 0) return -1;
  const gt = text.indexOf('>', close);
  return gt < 0 ? -1 : gt + 1;
}

/** Where the next occurrence of a mark is in a text, found once and kept while reads move forward (`elementEnd`). */
class NextMarks {
  private text = '';
  private readonly at = new Map<string, number>();

  /** The index of the first `mark` in `text` from `from` on, `text.length` when there is none. */
  after(text: string, mark: string, from: number): number {
    if (text !== this.text) {
      this.text = text;
      this.at.clear();
    }
    let at = this.at.get(mark);
    if (at === undefined || (at < from && at < text.length)) {
      at = text.indexOf(mark, from);
      if (at < 0) at = text.length;
      this.at.set(mark, at);
    }
    return at;
  }
}

/** `contentEnd` over UTF-8 bytes (`name` as UTF-8): the byte offset of the end tag's `<`, or -1 when unknown or absent. */
function contentEndInBytes(bytes: Buffer, from: number, name: Buffer): number {
  const nameAt = (at: number) =>
    at + name.length < bytes.length && bytes.compare(name, 0, name.length, at, at + name.length) === 0 && endsName(bytes[at + name.length]!);
  for (let at = bytes.indexOf(LT, from); at >= 0; at = bytes.indexOf(LT, at + 1)) {
    const c = bytes[at + 1];
    if (c === SLASH) {
      if (nameAt(at + 2)) return at;
    } else if (c === BANG || c === QUESTION || nameAt(at + 1)) return -1;
  }
  return -1;
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
  onStartTag(parser, (tag) => {
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
