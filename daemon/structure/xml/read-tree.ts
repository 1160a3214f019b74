import type { Element } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { StructureError } from '../errors.ts';
import { relsPartName, resolveTarget, type Relationship } from '../package/opc-relationships.ts';
import { EXTRACTION_ATTRIBUTES, EXTRACTION_FULL_ATTRIBUTES_UNDER, type Attrs, type KeptAttributes } from './extraction-attributes.ts';
import { parseFragments, streamXml, type StreamAttribute, type StreamElement, type XmlSource } from './stream.ts';

/**
 * Read-only trees of XML parts built from the stream (stream.ts), for extraction paths whose rules look around
 * (next sibling, last block of a story, an ancestor's name) and so want a tree, not events: the tracked-changes,
 * content-control and chart readers. A tree costs one saxes pass plus small plain objects, about a quarter of an
 * @xmldom/xmldom parse, and is built once per part and document however many filters read it.
 *
 * `ReadNode` / `ReadElement` are the subset of the DOM those readers use; @xmldom/xmldom's `Node` and `Element`
 * satisfy them, so a reader written against them runs on a parsed DOM (transformations, and the equivalence tests)
 * and on a stream-built tree alike. Differences from a DOM: no comment or processing-instruction nodes; CDATA
 * sections are text nodes (nodeType 3); `getAttribute` takes unprefixed, `xml:` and `xmlns` names only; a tree
 * made for extraction keeps only the attributes the readers read (extraction-attributes.ts) and throws when asked
 * for another.
 */

/** A node as the readers see it: element (nodeType 1) or text (3). */
export interface ReadNode {
  readonly nodeType: number;
  readonly firstChild: ReadNode | null;
  readonly nextSibling: ReadNode | null;
  readonly parentNode: ReadNode | null;
  readonly namespaceURI: string | null;
  readonly localName: string | null;
  /** A text node's text; null for elements. */
  readonly nodeValue: string | null;
  /** The text of every descendant text node, in document order. */
  readonly textContent: string | null;
}

/** An element as the readers see it. */
export interface ReadElement extends ReadNode {
  /** The value of an attribute by qualified name (in a tree: unprefixed, `xml:` or `xmlns`), or null. */
  getAttribute(qualifiedName: string): string | null;
  /** The value of an attribute by namespace URI (null or '' for none) and local name, or null. */
  getAttributeNS(namespace: string | null, localName: string): string | null;
  /** Descendant elements (not the element itself) in document order; `'*'` matches any local name. */
  getElementsByTagNameNS(namespace: string | null, localName: string): ArrayLike<ReadElement>;
  /**
   * Every attribute in document order (namespace declarations included). In a tree made for extraction only
   * elements under an element of `EXTRACTION_FULL_ATTRIBUTES_UNDER` have it (others throw).
   */
  readonly attributes: ArrayLike<{ readonly namespaceURI: string | null; readonly localName: string | null; readonly value: string }>;
}

/** Where a reader gets a part's root element: a stream-built tree (`streamedParts`) or the DOM (`domParts`). */
export type PartReader = (doc: StructureDocument, part: string) => ReadElement;

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

class TreeText implements ReadNode {
  readonly nodeType = 3;
  readonly firstChild = null;
  nextSibling: ReadNode | null = null;
  readonly namespaceURI = null;
  readonly localName = null;
  constructor(
    readonly parentNode: TreeElement,
    readonly nodeValue: string,
  ) {}
  get textContent(): string {
    return this.nodeValue;
  }
}

class TreeElement implements ReadElement {
  readonly nodeType = 1;
  firstChild: ReadNode | null = null;
  lastChild: ReadNode | null = null;
  nextSibling: ReadNode | null = null;
  readonly nodeValue = null;
  constructor(
    readonly tree: Tree,
    readonly parentNode: TreeElement | null,
    readonly namespaceURI: string,
    readonly localName: string,
    /**
     * Where the attributes are: the start tag (every attribute kept), the names kept with their values (copied at
     * the start tag), or undefined when the tree keeps none of this element's attributes.
     */
    private readonly attrs: StreamElement | KeptValues | undefined,
    /** Every attribute, when the tree keeps them all for this element. */
    private readonly list?: StreamAttribute[],
  ) {}

  get attributes(): StreamAttribute[] {
    if (!this.list)
      throw new Error(
        `read-tree: ${this.tree.part} keeps the full attribute list only under the elements of EXTRACTION_FULL_ATTRIBUTES_UNDER, not for {${this.namespaceURI}}${this.localName}`,
      );
    return this.list;
  }

  private attr(ns: string, local: string): string | undefined {
    const attrs = this.attrs;
    if (!attrs) throw notKept(this, ns, local);
    if (!(attrs instanceof KeptValues)) return attrs.attr(ns, local);
    const i = attrs.names.findIndex(([n, l]) => n === ns && l === local);
    if (i < 0) throw notKept(this, ns, local);
    return attrs.values[i];
  }

  append(node: ReadNode): void {
    if (this.lastChild) (this.lastChild as TreeElement | TreeText).nextSibling = node;
    else this.firstChild = node;
    this.lastChild = node;
  }

  getAttribute(qualifiedName: string): string | null {
    const colon = qualifiedName.indexOf(':');
    const prefix = colon < 0 ? '' : qualifiedName.slice(0, colon);
    const local = qualifiedName.slice(colon + 1);
    if (qualifiedName === 'xmlns' || prefix === 'xmlns') return this.attr(XMLNS_NS, local) ?? null;
    if (prefix === 'xml') return this.attr(XML_NS, local) ?? null;
    return prefix === '' ? (this.attr('', local) ?? null) : null;
  }

  getAttributeNS(namespace: string | null, localName: string): string | null {
    return this.attr(namespace ?? '', localName) ?? null;
  }

  getElementsByTagNameNS(namespace: string | null, localName: string): ReadElement[] {
    const out: ReadElement[] = [];
    const ns = namespace ?? '';
    const walk = (el: TreeElement): void => {
      for (let n = el.firstChild; n; n = n.nextSibling) {
        if (n.nodeType !== 1) continue;
        const c = n as TreeElement;
        if ((ns === '*' || c.namespaceURI === ns) && (localName === '*' || c.localName === localName)) out.push(c);
        walk(c);
      }
    };
    walk(this);
    return out;
  }

  get textContent(): string {
    let out = '';
    const walk = (el: TreeElement): void => {
      for (let n = el.firstChild; n; n = n.nextSibling) {
        if (n.nodeType === 3) out += n.nodeValue;
        else walk(n as TreeElement);
      }
    };
    walk(this);
    return out;
  }
}

function notKept(el: TreeElement, ns: string, local: string): Error {
  return new Error(
    `read-tree: ${el.tree.part} was read keeping only the attributes in extraction-attributes.ts, and {${ns}}${local} of {${el.namespaceURI}}${el.localName} is not one of them`,
  );
}

/** The attributes an element of a tree keeps: the names of extraction-attributes.ts and their values. */
class KeptValues {
  constructor(
    readonly names: Attrs,
    readonly values: Array<string | undefined>,
  ) {}
}

/** What an element of a tree keeping `kept` holds of its attributes: the listed values, copied now (not the parser's tag). */
function keptValues(kept: KeptAttributes, e: StreamElement): KeptValues | undefined {
  const names = kept.get(e.ns)?.get(e.local);
  return names ? new KeptValues(names, e.pick(names)) : undefined;
}

/** One part's tree, with what it takes to parse pieces of it into a DOM on demand. */
class Tree {
  root: TreeElement | undefined;
  private readonly doms = new Map<TreeElement, Element>();
  private decoded?: string;
  constructor(
    readonly source: XmlSource,
    readonly part: string,
  ) {}

  /** The part's text (decoded on first use when the tree was built from bytes). */
  get text(): string {
    if (typeof this.source === 'string') return this.source;
    this.decoded ??= new TextDecoder('utf-8').decode(this.source);
    return this.decoded;
  }

  /** The DOMs of `els` (see `domsOf`): those not parsed yet are parsed together, in one pass over the part. */
  fragments(els: readonly TreeElement[]): Element[] {
    const missing = [...new Set(els.filter((e) => !this.doms.has(e)))];
    if (missing.length > 0) {
      const { namespaceURI: ns, localName: local } = missing[0]!;
      const root = this.root!;
      const all = [...(root.namespaceURI === ns && root.localName === local ? [root] : []), ...root.getElementsByTagNameNS(ns, local)];
      for (const m of missing) {
        if (m.namespaceURI !== ns || m.localName !== local) throw new Error(`read-tree: DOMs of ${local} and ${m.localName} elements asked for together`);
        // parseFragments does not look inside a selected element, so the count of this name would go wrong
        if (m.getElementsByTagNameNS(ns, local).length > 0)
          throw new Error(`read-tree: a ${local} element of ${this.part} that holds another one has no fragment of its own`);
      }
      const ordinals = new Set(missing.map((m) => all.indexOf(m)));
      let n = 0;
      const doms = parseFragments(this.text, this.part, (ns2, local2) => ns2 === ns && local2 === local && ordinals.has(n++));
      const inOrder = [...missing].sort((x, y) => all.indexOf(x) - all.indexOf(y));
      if (doms.length !== inOrder.length) throw new Error(`read-tree: ${inOrder.length} ${local} elements asked for in ${this.part}, ${doms.length} parsed`);
      inOrder.forEach((m, i) => this.doms.set(m, doms[i]!));
    }
    return els.map((e) => this.doms.get(e)!);
  }
}

/**
 * What a pruned tree does with an element, asked at its start tag with its parent in the tree (null for the
 * root): `'keep'` (or undefined) it and its content; `'leaf'`: keep it without its content; `'drop'` it and its
 * content; `'stop'`: keep it without content and read no further (the rest of the part is neither read nor
 * checked). The content of a `'leaf'` or `'drop'` element is skipped without being parsed, so it is not checked
 * either (xml/stream.ts `'skip'`). For readers that need a few elements of a large part (an odp's styles.xml, a slide layout's head).
 */
export type Prune = (el: StreamElement, parent: ReadElement | null) => 'keep' | 'leaf' | 'drop' | 'stop' | undefined;

/**
 * Builds the read-only tree of an XML part (its text or its bytes, see stream.ts `XmlSource`) from the stream, keeping every attribute (`'all'`) or only those of
 * `kept` (what extraction reads: far less to hold, see extraction-attributes.ts), except inside the elements of
 * `fullUnder` (themselves included), which keep every attribute and their list (`attributes`). `prune` leaves
 * elements out (see `Prune`).
 * @returns its root element.
 * @throws StructureError bad_package naming `part` when the XML is not well formed.
 */
export function buildReadTree(
  source: XmlSource,
  part: string,
  kept: KeptAttributes | 'all' = 'all',
  fullUnder: ReadonlyArray<readonly [string, string]> = [],
  prune?: Prune,
  dropByName?: DropByName,
): ReadElement {
  const tree = new Tree(source, part);
  let current: TreeElement | undefined;
  let fullFrom = -1;
  streamXml(source, part, {
    onOpen: (e) => {
      const verdict = prune?.(e, current ?? null);
      if (verdict === 'drop') return 'skip';
      if (fullFrom < 0) for (const [ns, local] of fullUnder) if (ns === e.ns && local === e.local) fullFrom = e.depth;
      const full = kept === 'all' || fullFrom >= 0;
      const el = new TreeElement(tree, current ?? null, e.ns, e.local, full ? e : keptValues(kept, e), fullFrom >= 0 ? e.attrs() : undefined);
      if (current) current.append(el);
      else tree.root = el;
      if (verdict === 'leaf' || verdict === 'stop') {
        // its content is not read: no close event comes for it
        if (fullFrom === e.depth) fullFrom = -1;
        return verdict === 'leaf' ? 'skip' : 'stop';
      }
      current = el;
      return undefined;
    },
    onClose: (_ns, _local, d) => {
      if (fullFrom === d) fullFrom = -1;
      current = current!.parentNode ?? undefined;
    },
    onText: (t) => {
      if (t !== '' && current) current.append(new TreeText(current, t));
    },
    dropByName: dropByName && ((ns, local, depth) => current !== undefined && dropByName(ns, local, depth, current)),
  });
  return tree.root!;
}

const trees = new WeakMap<StructureDocument, Map<string, ReadElement>>();

/**
 * The read-only tree of a part of `doc` (leading `/` allowed), built from the part's text as stored in the package,
 * keeping the attributes extraction reads (extraction-attributes.ts), and cached for the life of `doc`. For
 * extraction: it does not see changes made to the part's DOM (`doc.xml`).
 * @throws StructureError bad_package when the part is missing or not well-formed.
 */
export const streamedParts: PartReader = (doc, part) => {
  const name = part.replace(/^\//, '');
  let byPart = trees.get(doc);
  if (!byPart) trees.set(doc, (byPart = new Map()));
  const hit = byPart.get(name);
  if (hit) return hit;
  const source = doc.pkg.sourceOf(name);
  if (source === undefined) throw new StructureError('bad_package', `the package has no part ${name}`, name);
  const root = buildReadTree(source, name, EXTRACTION_ATTRIBUTES, EXTRACTION_FULL_ATTRIBUTES_UNDER);
  byPart.set(name, root);
  return root;
};

/**
 * Elements a pruned tree drops whatever their attributes, by name, asked with their depth and their parent in the tree
 * (xml/stream.ts `dropByName`): the stream then passes over them without reading them, when it can. It must agree
 * with the view's `Prune`, which gives `'drop'` for each of them (the stream cannot pass over every one).
 */
export type DropByName = (ns: string, local: string, depth: number, parent: ReadElement) => boolean;

/** A pruned way of reading a part (see `Prune`, `DropByName`), named for the cache: one name, one `prune`. */
export interface PrunedView {
  readonly name: string;
  readonly prune: Prune;
  readonly dropByName?: DropByName;
}

/**
 * The tree of a part of `doc` as `streamedParts` gives it, but pruned by `view`, cached per document and view
 * (unless `keep` is false: then a tree built now is not kept); when the whole tree of the part was built already,
 * that tree (it holds everything the view keeps).
 * @throws StructureError bad_package when the part is missing or not well-formed (in what was read of it).
 */
export function streamedView(doc: StructureDocument, part: string, view: PrunedView, keep = true): ReadElement {
  const name = part.replace(/^\//, '');
  let byPart = trees.get(doc);
  if (!byPart) trees.set(doc, (byPart = new Map()));
  const hit = byPart.get(name) ?? byPart.get(`${view.name}\u0000${name}`);
  if (hit) return hit;
  const source = doc.pkg.sourceOf(name, keep);
  if (source === undefined) throw new StructureError('bad_package', `the package has no part ${name}`, name);
  const root = buildReadTree(source, name, EXTRACTION_ATTRIBUTES, EXTRACTION_FULL_ATTRIBUTES_UNDER, view.prune, view.dropByName);
  if (keep) byPart.set(`${view.name}\u0000${name}`, root);
  return root;
}

/**
 * The root element of a part as it is now, for transformations that read a part without changing it (where the
 * embedded objects are, before a chart command): its DOM when the document has parsed it (`doc.xml`: a command
 * may have changed it), else its stream-built tree (`streamedParts`), which costs a fraction of a DOM.
 * @throws StructureError bad_package when the part is missing or not well-formed.
 */
export const currentParts: PartReader = (doc, part) => (doc.hasDom(part) || !doc.has(part) ? doc.xml(part).documentElement! : streamedParts(doc, part));

/**
 * The root element of a part's parsed DOM (`doc.xml`), as a reader sees it: what transformations and the
 * equivalence tests read.
 * @throws StructureError bad_package when the part is missing or not well-formed.
 */
export const domParts: PartReader = (doc, part) => doc.xml(part).documentElement!;

/**
 * The @xmldom/xmldom elements for `els`, in the same order: an element that is one already is itself; elements of
 * a stream-built tree get their DOM parsed from the part's text, those not parsed before all in one pass (so ask
 * for every element needed at once), for what needs a real DOM, e.g. serialising. Elements of one tree must share
 * a name, and none may hold another element of that name.
 * @throws StructureError bad_package when the part is not well-formed.
 */
export function domsOf(els: readonly ReadElement[]): Element[] {
  const byTree = new Map<Tree, TreeElement[]>();
  for (const el of els) if (el instanceof TreeElement) byTree.set(el.tree, [...(byTree.get(el.tree) ?? []), el]);
  for (const [tree, mine] of byTree) tree.fragments(mine);
  return els.map((el) => (el instanceof TreeElement ? el.tree.fragments([el])[0]! : (el as unknown as Element)));
}

/** `domsOf([el])[0]`: the @xmldom/xmldom element for one element (see `domsOf`). */
export function domOf(el: ReadElement): Element {
  return domsOf([el])[0]!;
}

/**
 * Element children of `parent` with namespace `ns` and local name `name` (any when omitted), as dom.ts's
 * childElements. The children of a DOM element are DOM elements, those of a tree element tree elements: they
 * have `parent`'s type.
 */
export function readChildren<E extends ReadElement>(parent: E, ns?: string, name?: string): E[] {
  const out: E[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    if ((ns === undefined || n.namespaceURI === ns) && (name === undefined || n.localName === name)) out.push(n as E);
  }
  return out;
}

/** True when `parent` has an element child. */
export function hasElementChild(parent: ReadElement): boolean {
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) return true;
  return false;
}

const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006';

/**
 * The child elements of `parent` as a reader that takes mc:Choice sees them (ECMA-376 Part 3, markup
 * compatibility): an mc:AlternateContent stands for the elements of its mc:Choice (recursively), and other mc:
 * elements (mc:Fallback outside AlternateContent) are left out.
 */
export function* childrenThroughAlternates(parent: ReadElement): Generator<ReadElement> {
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const c = n as ReadElement;
    if (c.namespaceURI !== MC) yield c;
    else if (c.localName === 'AlternateContent') {
      const choice = readChild(c, MC, 'Choice');
      if (choice) yield* childrenThroughAlternates(choice);
    }
  }
}

/** The first child element with that namespace and local name, if any (of `parent`'s type, as `readChildren`). */
export function readChild<E extends ReadElement>(parent: E, ns: string, name: string): E | undefined {
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 && n.namespaceURI === ns && n.localName === name) return n as E;
  return undefined;
}

/**
 * The relationships of `source` (`''` for the package), read through `parts` so a stream-built tree of the .rels
 * part is made once per document: what opc-relationships.ts's `relationshipsOf` gives (ECMA-376 Part 2, 9.3).
 * Empty when there is no .rels part.
 * @throws StructureError bad_package when the .rels part is not well-formed.
 */
export function readRelationships(doc: StructureDocument, source: string, parts: PartReader = streamedParts): readonly Relationship[] {
  const name = relsPartName(source);
  if (!doc.pkg.textOf(name)) return [];
  const root = parts(doc, name);
  // a stream-built tree does not change: its list is made once (the slide decks ask for a slide's many times)
  const hit = root instanceof TreeElement ? relationshipLists.get(root) : undefined;
  if (hit) return hit;
  const list = readChildren(root, REL_NS, 'Relationship').map((r) => {
    const external = r.getAttribute('TargetMode') === 'External';
    const target = r.getAttribute('Target') ?? '';
    return { id: r.getAttribute('Id') ?? '', type: r.getAttribute('Type') ?? '', target: external ? target : resolveTarget(source, target), external };
  });
  if (root instanceof TreeElement) relationshipLists.set(root, list);
  return list;
}

/** The relationships read from each stream-built .rels tree (`readRelationships`). */
const relationshipLists = new WeakMap<TreeElement, readonly Relationship[]>();
