/**
 * Validation of `net.content_security_policy` and of its `frame-ancestors` sources before an admin edit is
 * written (spec: Authentication 6; grammar of W3C Content Security Policy Level 3, section 2.3.1 "Source
 * Lists" and 6.4.2 "frame-ancestors"). Each problem is one line `key: value: what is allowed`.
 */
import { parsePolicy } from '../editor-page/csp.ts';

/** Directives of CSP Level 3 (and the still-supported ones of CSP2) whose value is a source list. */
const SOURCE_LIST_DIRECTIVES = new Set([
  'default-src',
  'child-src',
  'connect-src',
  'font-src',
  'frame-src',
  'img-src',
  'manifest-src',
  'media-src',
  'object-src',
  'prefetch-src',
  'script-src',
  'script-src-elem',
  'script-src-attr',
  'style-src',
  'style-src-elem',
  'style-src-attr',
  'worker-src',
  'base-uri',
  'form-action',
  'frame-ancestors',
]);
/** Directives whose value is not a source list (checked loosely: tokens, or nothing). */
const OTHER_DIRECTIVES: Record<string, (values: string[]) => string | undefined> = {
  sandbox: (v) => (v.every((t) => /^allow-[a-z-]+$/.test(t)) ? undefined : 'sandbox takes allow-* tokens only (e.g. allow-scripts)'),
  'report-uri': (v) => (v.length > 0 && v.every((t) => /^[^\s;,]+$/.test(t)) ? undefined : 'report-uri takes one or more URI references'),
  'report-to': (v) => (v.length === 1 && /^[A-Za-z0-9_-]+$/.test(v[0]) ? undefined : 'report-to takes one endpoint name'),
  'upgrade-insecure-requests': (v) => (v.length === 0 ? undefined : 'upgrade-insecure-requests takes no value'),
  'block-all-mixed-content': (v) => (v.length === 0 ? undefined : 'block-all-mixed-content takes no value'),
  'require-trusted-types-for': (v) => (v.length === 1 && v[0] === "'script'" ? undefined : "require-trusted-types-for takes 'script'"),
  'trusted-types': (v) =>
    v.every((t) => /^([A-Za-z0-9\-#=_/@.%]+|\*|'none'|'allow-duplicates')$/.test(t))
      ? undefined
      : "trusted-types takes policy names, *, 'none' or 'allow-duplicates'",
  webrtc: (v) => (v.length === 1 && ["'allow'", "'block'"].includes(v[0]) ? undefined : "webrtc takes 'allow' or 'block'"),
};
/** Directives where script/style keywords, nonces and hashes mean something. */
const SCRIPT_STYLE_DIRECTIVES = new Set(['default-src', 'script-src', 'script-src-elem', 'script-src-attr', 'style-src', 'style-src-elem', 'style-src-attr']);
const SCRIPT_STYLE_KEYWORDS = new Set([
  "'unsafe-inline'",
  "'unsafe-eval'",
  "'strict-dynamic'",
  "'unsafe-hashes'",
  "'report-sample'",
  "'wasm-unsafe-eval'",
  "'unsafe-allow-redirects'",
]);

const SCHEME_SOURCE = /^[A-Za-z][A-Za-z0-9+.-]*:$/;
// host-source = [ scheme-part "://" ] host-part [ ":" port-part ] [ path-part ]
const HOST_SOURCE = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/)?(?:\*|(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?)(?::(?:\d{1,5}|\*))?(?:\/[^\s;,]*)?$/;
const NONCE_SOURCE = /^'nonce-[A-Za-z0-9+/_-]+={0,2}'$/;
const HASH_SOURCE = /^'(?:sha256|sha384|sha512)-[A-Za-z0-9+/_-]+={0,2}'$/;

/** Why `source` is not allowed in `directive`, or undefined when it is a valid source expression there. */
export function sourceProblem(directive: string, source: string): string | undefined {
  const lower = source.toLowerCase();
  if (directive === 'frame-ancestors') {
    // frame-ancestors takes ancestor-source-list: scheme-source, host-source, 'self' (or 'none' alone).
    // `*`, `https:` and `https://*` all let any site embed the editor (clickjacking); `*.example.org` stays allowed.
    if (source === '*' || /^(?:https?|wss?):$/i.test(source) || /^[A-Za-z][A-Za-z0-9+.-]*:\/\/\*(?::|\/|$)/.test(source)) {
      return "a wildcard lets any site embed the editor (the spec strongly discourages it): list the hosts' origins, e.g. https://cloud.example.org or https://*.example.org";
    }
    if (lower === "'none'")
      return "'none' is not allowed here: Ode always adds the WOPI host's origin to frame-ancestors, and 'none' may not be combined with other sources";
    if (lower === "'self'" || SCHEME_SOURCE.test(source) || HOST_SOURCE.test(source)) return undefined;
    return "frame-ancestors takes a scheme (https:), a host source ([scheme://][*.]host[:port][/path]) or 'self'";
  }
  if (lower === "'self'" || lower === "'none'") return undefined;
  if (SCRIPT_STYLE_KEYWORDS.has(lower) || NONCE_SOURCE.test(source) || HASH_SOURCE.test(source)) {
    return SCRIPT_STYLE_DIRECTIVES.has(directive) ? undefined : `${source} is only allowed in default-src, script-src* and style-src*`;
  }
  if (source.startsWith("'"))
    return `unknown keyword ${source}: allowed are 'self', 'none', and in script/style directives 'unsafe-inline', 'unsafe-eval', 'strict-dynamic', 'unsafe-hashes', 'report-sample', 'wasm-unsafe-eval', 'nonce-…', 'sha256-…'`;
  if (SCHEME_SOURCE.test(source) || HOST_SOURCE.test(source)) return undefined;
  return 'not a CSP source expression: a scheme (https:), a host source ([scheme://][*.]host[:port][/path]) or a quoted keyword';
}

/** Problems of a source list of `directive` (`key` names it in the messages): each source, 'none' alone, duplicates. */
export function sourceListProblems(key: string, directive: string, sources: readonly string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  sources.forEach((s, i) => {
    const why = sourceProblem(directive, s);
    if (why) problems.push(`${key}[${i}]: ${JSON.stringify(s)}: ${why}`);
    if (seen.has(s.toLowerCase())) problems.push(`${key}[${i}]: ${JSON.stringify(s)}: listed twice; each source once`);
    seen.add(s.toLowerCase());
  });
  if (sources.length > 1 && sources.some((s) => s.toLowerCase() === "'none'"))
    problems.push(`${key}: ${JSON.stringify(sources.join(' '))}: 'none' must stand alone`);
  return problems;
}

/**
 * Problems of a whole policy in HTTP header format (`a b; c d`): known directive names, each once, valid sources.
 * `key` names the configuration key in the messages.
 */
export function policyProblems(key: string, policy: string): string[] {
  if (policy.includes(',')) return [`${key}: ${JSON.stringify(policy)}: one policy only (directives separated by ";"), no commas`];
  if (/[^\x20-\x7e]/.test(policy)) return [`${key}: ${JSON.stringify(policy)}: printable ASCII only`];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const part of policy.split(';')) {
    const [rawName, ...values] = part.trim().split(/\s+/).filter(Boolean);
    if (!rawName) continue;
    const name = rawName.toLowerCase();
    const at = `${key} ${name}`;
    if (seen.has(name)) problems.push(`${at}: ${JSON.stringify(part.trim())}: the directive appears twice; browsers ignore the second, so give it once`);
    seen.add(name);
    if (SOURCE_LIST_DIRECTIVES.has(name)) {
      if (values.length === 0) problems.push(`${at}: "": give at least one source, or 'none'`);
      problems.push(...sourceListProblems(at, name, values));
    } else if (name in OTHER_DIRECTIVES) {
      const why = OTHER_DIRECTIVES[name](values);
      if (why) problems.push(`${at}: ${JSON.stringify(values.join(' '))}: ${why}`);
    } else {
      problems.push(`${at}: ${JSON.stringify(rawName)}: not a CSP Level 3 directive (e.g. frame-ancestors, img-src, connect-src, default-src)`);
    }
  }
  return problems;
}

/** The frame-ancestors sources of a policy (empty when the directive is absent). */
export function frameAncestorsOf(policy: string): string[] {
  return parsePolicy(policy).get('frame-ancestors') ?? [];
}

/** `policy` with its frame-ancestors directive replaced by `sources` (removed when empty); other directives keep their text and order. */
export function withFrameAncestors(policy: string, sources: readonly string[]): string {
  const directive = sources.length ? `frame-ancestors ${sources.join(' ')}` : '';
  const parts = policy
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  const at = parts.findIndex((p) => p.split(/\s+/)[0].toLowerCase() === 'frame-ancestors');
  const kept = parts.filter((p) => p.split(/\s+/)[0].toLowerCase() !== 'frame-ancestors');
  if (directive) kept.splice(at < 0 ? kept.length : at, 0, directive);
  return kept.join('; ');
}
