/**
 * The Content-Security-Policy of the editor page (spec: Authentication 6): Ode's own needs, merged with the
 * configured `net.content_security_policy` (HTTP header format, directives separated by `;`), and the WOPI host's
 * origin added to `frame-ancestors` so the host that posted the form may embed the page. As Collabora Online
 * (wsd/FileServer.cpp, preprocessFile): the frame ancestors are also image sources, so the host's avatars
 * (UserExtraInfo.avatar), Insert_Button icons and Action_InsertGraphic images load from an `http:` host too.
 */

/** Parses "a b; c d" into directive -> sources. */
export function parsePolicy(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of text.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/).filter(Boolean);
    if (name) out.set(name.toLowerCase(), [...(out.get(name.toLowerCase()) ?? []), ...sources]);
  }
  return out;
}

/**
 * The page's policy: `default-src 'self'`, WebSocket and image sources the editor needs (avatars: `https:`, as the
 * spec's image directive must allow avatar URLs), then every configured directive's sources added, the WOPI
 * host's origin in `frame-ancestors`, and every frame ancestor (the configured ones and the WOPI host's origin)
 * in `img-src` too, as Collabora does ("frame ancestors are also allowed for img-src in order to load the views
 * avatars").
 * @param configured net.content_security_policy
 * @param wopiOrigin e.g. `https://cloud.example.org`
 * @param inlineScripts CSP hash-sources (`'sha256-…'`) of the page's own inline scripts: `script-src 'self'` plus
 *   these (editor-page/bundle.ts's fallback); none: scripts fall back to `default-src 'self'`
 */
export function editorPagePolicy(configured: string, wopiOrigin: string, inlineScripts: string[] = []): string {
  const policy = parsePolicy(
    "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data: blob: https:; style-src 'self' 'unsafe-inline'; font-src 'self' data:; object-src 'none'; base-uri 'self'",
  );
  if (inlineScripts.length > 0) policy.set('script-src', ["'self'", ...inlineScripts]);
  for (const [name, sources] of parsePolicy(configured)) policy.set(name, [...new Set([...(policy.get(name) ?? []), ...sources])]);
  const ancestors = [...new Set([...(policy.get('frame-ancestors') ?? ["'self'"]), wopiOrigin])];
  policy.set('frame-ancestors', ancestors);
  policy.set('img-src', [...new Set([...(policy.get('img-src') ?? []), ...ancestors])]);
  return [...policy].map(([name, sources]) => [name, ...sources].join(' ')).join('; ');
}
