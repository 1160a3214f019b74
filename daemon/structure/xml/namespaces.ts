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

/** A start tag as saxes gives it without namespace processing: its qualified name and attributes by name. */
export interface PlainTag {
  name: string;
  attributes: Record<string, string>;
}

/** A saxes parser without its namespace processing (done by `Namespaces`), with or without positions. */
export function plainParser(position = false): SaxesParser<{ xmlns: false }> {
  return new SaxesParser({ xmlns: false, position });
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
    const all = tag.attributes;
    // the prefixed attributes other than namespace declarations, checked once the tag's declarations are in scope
    const prefixed = this.prefixed;
    prefixed.length = 0;
    for (const name in all) {
      const colon = name.indexOf(':');
      if (colon < 0) {
        if (name === 'xmlns') scope = this.declare(scope, parent, '', all[name]!);
        continue;
      }
      if (colon === 0 || colon === name.length - 1 || name.indexOf(':', colon + 1) >= 0) this.fail(`malformed name: ${name}.`);
      if (colon === 5 && name.startsWith('xmlns')) scope = this.declare(scope, parent, name.slice(6), all[name]!);
      else prefixed.push(name);
    }
    this.scopes.push(scope);
    const name = tag.name;
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
    if (prefixed.length > 0) this.checkAttributes(prefixed, scope);
    this.scope = scope;
    this.uri = uri;
    this.local = local;
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
   * attribute order (`names`: the prefixed attributes other than xmlns:*, whose prefix is always bound and whose
   * namespace no other prefix may take). Two attributes of different names can share both only when two prefixes
   * in scope are bound to one URI (saxes refuses a repeated name), so the pairs are compared only then.
   */
  private checkAttributes(names: readonly string[], scope: Scope): void {
    const seen: string[] | undefined = names.length > 1 && aliases(scope) ? [] : undefined;
    for (const name of names) {
      const colon = name.indexOf(':');
      const uri = scope[name.slice(0, colon)];
      if (uri === undefined || uri === '') this.fail(`unbound namespace prefix: ${JSON.stringify(name.slice(0, colon))}.`);
      if (seen) {
        const eq = `{${uri}}${name.slice(colon + 1)}`;
        if (seen.includes(eq)) this.fail(`duplicate attribute: ${eq}.`);
        seen.push(eq);
      }
    }
  }

  /** The prefixed attributes of the tag being opened (reused from tag to tag). */
  private readonly prefixed: string[] = [];
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
