import { SaxesParser } from 'saxes';

/**
 * Namespace processing (Namespaces in XML 1.0) over saxes's plain mode, for the streaming reads (stream.ts) and
 * the DOM parse (dom.ts). saxes's own `xmlns` mode does the same checks but costs about twice the parse here: it
 * resolves each prefix by walking the open tags and allocates objects per attribute and tag; this makes a scope
 * only where namespaces are declared and resolves a prefix by one lookup. Same checks and messages as saxes.
 */

export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/**
 * The namespace bindings in scope at an element, prefix to URI ('' for the default namespace): an object whose
 * prototype is the parent element's scope, made only for an element that declares namespaces.
 */
export type Scope = Record<string, string | undefined>;

/** The bindings every document starts with (Namespaces in XML 1.0, 3: xml and xmlns). */
const ROOT_SCOPE: Scope = Object.assign(Object.create(null) as Scope, { xml: XML_NS, xmlns: XMLNS_NS });

/** One attribute of a start tag as saxes reads it: qualified name and value. */
export interface PlainAttribute {
  name: string;
  value: string;
}

/**
 * A start tag as `plainParser` gives it without namespace processing: its qualified name and its attributes in
 * document order (no object by name: saxes's is a dictionary-mode object, slow to fill and to enumerate).
 */
export interface PlainTag {
  name: string;
  list: readonly PlainAttribute[];
  /** True for `<a/>`, false for `<a>` (saxes sets it before reporting the tag). */
  isSelfClosing: boolean;
}

/** What plainParser replaces of saxes's plain mode: the step that turns a start tag's attribute list into its object. */
interface AttributeStep {
  attribList: PlainAttribute[];
  tag: { list?: PlainAttribute[] };
  processAttribs(): void;
  fail(message: string): void;
}

/**
 * A saxes parser without its namespace processing (done by `Namespaces`), with or without positions. Its start tags
 * carry their attributes as a list (`PlainTag`), checked for repeated names with saxes's own message.
 */
export function plainParser(position = false): SaxesParser<{ xmlns: false }> {
  const parser = new SaxesParser({ xmlns: false, position });
  (parser as unknown as AttributeStep).processAttribs = listAttributes;
  return parser;
}

/** Listens to the start tags of a `plainParser` parser, as `PlainTag`s. */
export function onStartTag(parser: SaxesParser<{ xmlns: false }>, handler: (tag: PlainTag) => void): void {
  parser.on('opentag', handler as unknown as Parameters<typeof parser.on<'opentag'>>[1]);
}

/** saxes's processAttribsPlain, keeping the list instead of filling an object by name (XML 1.0, 3.1: Unique Att Spec). */
function listAttributes(this: AttributeStep): void {
  const list = this.attribList;
  const n = list.length;
  if (n > 1) {
    if (n <= 16) {
      for (let i = 1; i < n; i++) {
        const name = list[i]!.name;
        for (let j = 0; j < i; j++) if (list[j]!.name === name) this.fail(`duplicate attribute: ${name}.`);
      }
    } else {
      const seen = new Set<string>();
      for (const { name } of list) {
        if (seen.has(name)) this.fail(`duplicate attribute: ${name}.`);
        seen.add(name);
      }
    }
  }
  this.tag.list = list;
  this.attribList = [];
}

/**
 * The namespaces of one parse: give it each start tag (`open`) and end tag (`close`) in order; it gives each start
 * tag its scope, namespace URI and local name, or throws as saxes's `fail` does.
 */
export class Namespaces {
  private readonly scopes: Scope[] = [];
  constructor(private readonly parser: SaxesParser<{ xmlns: false }>) {}

  private fail(message: string): never {
    throw this.parser.makeError(message);
  }

  /** The scope of the start tag `open` was last given. */
  scope: Scope = ROOT_SCOPE;
  /** Its namespace URI ('' for none). */
  uri = '';
  /** Its local name. */
  local = '';

  /**
   * Opens a start tag: its scope (declarations applied and checked), then the tag's and its attributes' names
   * checked; the tag's scope, namespace URI and local name are then in `scope`, `uri` and `local`.
   */
  open(tag: PlainTag): void {
    const parent = this.scopes.length > 0 ? this.scopes[this.scopes.length - 1]! : ROOT_SCOPE;
    let scope = parent;
    const list = tag.list;
    // prefixed attributes other than namespace declarations are checked once the tag's declarations are in scope
    let prefixed = 0;
    for (let i = 0; i < list.length; i++) {
      const name = list[i]!.name;
      const colon = name.indexOf(':');
      if (colon < 0) {
        if (name === 'xmlns') scope = this.declare(scope, parent, '', list[i]!.value);
        continue;
      }
      if (colon === 0 || colon === name.length - 1 || name.indexOf(':', colon + 1) >= 0) this.fail(`malformed name: ${name}.`);
      if (colon === 5 && name.startsWith('xmlns')) scope = this.declare(scope, parent, name.slice(6), list[i]!.value);
      else prefixed++;
    }
    this.scopes.push(scope);
    const known = this.known(scope);
    const name = tag.name;
    const hit = known.tags.get(name);
    if (hit) {
      this.uri = hit.uri;
      this.local = hit.local;
    } else this.resolveTag(scope, name, known);
    if (prefixed > 0) this.checkAttributes(list, scope, known, prefixed > 1);
    this.scope = scope;
  }

  /** Resolves and checks a tag name not seen before in `scope`, into `uri` and `local`, and notes it in `known`. */
  private resolveTag(scope: Scope, name: string, known: KnownNames): void {
    const colon = name.indexOf(':');
    let uri: string;
    let local = name;
    if (colon < 0) uri = scope[''] ?? '';
    else {
      local = name.slice(colon + 1);
      const prefix = name.slice(0, colon);
      if (prefix === '' || local === '' || local.includes(':')) this.fail(`malformed name: ${name}.`);
      if (prefix === 'xmlns') this.fail('tags may not have "xmlns" as prefix.');
      uri = scope[prefix] ?? '';
      if (uri === '') this.fail(`unbound namespace prefix: ${JSON.stringify(prefix)}.`);
    }
    known.tags.set(name, { uri, local });
    this.uri = uri;
    this.local = local;
  }

  /**
   * The names resolved in `scope` so far (a scope's bindings never change once its tag is open): looking a name up
   * in a Map costs less than slicing its prefix and finding it in the scope, a dictionary whose keys V8 would first
   * look up in its string table.
   */
  private known(scope: Scope): KnownNames {
    if (scope === this.lastScope) return this.lastKnown!;
    let known = this.knownByScope.get(scope);
    if (!known) {
      known = { tags: new Map(), attributes: new Map() };
      this.knownByScope.set(scope, known);
    }
    this.lastScope = scope;
    this.lastKnown = known;
    return known;
  }

  private lastScope: Scope | undefined;
  private lastKnown: KnownNames | undefined;
  private readonly knownByScope = new Map<Scope, KnownNames>();

  /**
   * The namespace URI of a start tag's attribute in `scope`, the scope given with that tag: '' for an unprefixed
   * one, the xmlns namespace for `xmlns`, else its prefix's binding (checked bound when the tag was opened).
   */
  attributeUri(scope: Scope, name: string): string {
    const known = this.known(scope);
    const hit = known.attributes.get(name);
    if (hit !== undefined) return hit;
    const colon = name.indexOf(':');
    const uri = colon < 0 ? (name === 'xmlns' ? XMLNS_NS : '') : (scope[name.slice(0, colon)] ?? '');
    known.attributes.set(name, uri);
    return uri;
  }

  /** A processing instruction's target has no colon (saxes's xmlns mode checks it so). */
  checkTarget(target: string): void {
    if (target.includes(':')) this.fail('disallowed character in processing instruction name.');
  }

  /** True for the bindings of `prefix` every document has (xml, xmlns), not declared by the document. */
  static isBuiltIn(prefix: string, uri: string): boolean {
    return (prefix === 'xml' && uri === XML_NS) || prefix === 'xmlns';
  }

  /** The scope of the innermost open tag (the document's own when none is open). */
  innermost(): Scope {
    return this.scopes.length > 0 ? this.scopes[this.scopes.length - 1]! : ROOT_SCOPE;
  }

  /** Closes the innermost open tag. */
  close(): void {
    this.scopes.pop();
  }

  /** The scope with `prefix` bound to `value` (trimmed), a new one over `parent` if `scope` is still it. */
  private declare(scope: Scope, parent: Scope, prefix: string, value: string): Scope {
    const uri = value.trim();
    if (prefix !== '' && uri === '' && (this.parser.xmlDecl.version ?? '1.0') === '1.0') this.fail('invalid attempt to undefine prefix in XML 1.0');
    if (prefix === 'xml' && uri !== XML_NS) this.fail(`xml prefix must be bound to ${XML_NS}.`);
    if (prefix === 'xmlns' && uri !== XMLNS_NS) this.fail(`xmlns prefix must be bound to ${XMLNS_NS}.`);
    if (uri === XMLNS_NS)
      this.fail(prefix === '' ? `the default namespace may not be set to ${uri}.` : `may not assign a prefix (even "xmlns") to the URI ${XMLNS_NS}.`);
    if (uri === XML_NS && prefix !== 'xml')
      this.fail(prefix === '' ? `the default namespace may not be set to ${uri}.` : 'may not assign the xml namespace to another prefix.');
    const own = scope === parent ? (Object.create(parent) as Scope) : scope;
    own[prefix] = uri;
    return own;
  }

  /**
   * Every prefixed attribute's prefix is bound, and no two attributes have the same namespace and local name, in
   * attribute order (of `list`, the start tag's attributes: its prefixed ones other than xmlns:*, whose prefix is
   * always bound and whose namespace no other prefix may take; `several` when there are two or more of them). Two attributes of different names can share both only when two prefixes
   * in scope are bound to one URI (saxes refuses a repeated name), so the pairs are compared only then.
   */
  private checkAttributes(list: readonly PlainAttribute[], scope: Scope, known: KnownNames, several: boolean): void {
    let seen: string[] | undefined;
    const aliased = several && aliases(scope);
    for (let i = 0; i < list.length; i++) {
      const name = list[i]!.name;
      const colon = name.indexOf(':');
      if (colon < 0 || (colon === 5 && name.startsWith('xmlns'))) continue;
      let uri = known.attributes.get(name);
      if (uri === undefined) {
        uri = scope[name.slice(0, colon)];
        if (uri === undefined || uri === '') this.fail(`unbound namespace prefix: ${JSON.stringify(name.slice(0, colon))}.`);
        known.attributes.set(name, uri);
      }
      if (aliased) {
        const eq = `{${uri}}${name.slice(colon + 1)}`;
        seen ??= [];
        if (seen.includes(eq)) this.fail(`duplicate attribute: ${eq}.`);
        seen.push(eq);
      }
    }
  }
}
/** The names resolved in one scope: tag names to namespace URI and local name, attribute names to namespace URI. */
interface KnownNames {
  tags: Map<string, { uri: string; local: string }>;
  attributes: Map<string, string>;
}

/** Per scope: true when two prefixes in it are bound to the same URI (computed once the scope's tag declared all). */
const aliasedScopes = new WeakMap<Scope, boolean>();

function aliases(scope: Scope): boolean {
  let known = aliasedScopes.get(scope);
  if (known === undefined) {
    const uris = new Set<string>();
    let count = 0;
    for (const prefix in scope) {
      const uri = scope[prefix];
      if (prefix === '' || !uri) continue;
      uris.add(uri);
      count++;
    }
    known = uris.size < count;
    aliasedScopes.set(scope, known);
  }
  return known;
}
