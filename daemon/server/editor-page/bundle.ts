/**
 * The browser editor's bundle as the editor page links it (issue 15: one download per browser, not per document).
 *
 * The files (daemon/editor/dist, built at set-up) are served under the versioned path `/browser/<hash>/` with a
 * content hash in the query (`editor.js?v=<sha256 of the file, 16 hex>`) and `Cache-Control: immutable`, so a
 * browser downloads and compiles editor.js once for all documents and again only when its bytes change (also in a
 * checkout rebuilt without a new commit). Collabora serves its bundle the same way (/browser/<hash>/ without the
 * WOPISrc).
 *
 * In a cluster the balancer hashes the WOPISrc (docs/deploy/cluster.md): the page comes from the document's node,
 * the bundle from any node. During a rolling upgrade a node of the other version answers 404 (another version hash or
 * content hash); the page then asks again with the document's WOPISrc added, which the balancer sends to the node
 * that served the page (`FALLBACK_SCRIPT`, an inline script allowed by its hash in the page's CSP).
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';

/** A bundle file read from disk: its bytes and content hash, kept until its size or modification time changes. */
interface BundleFile {
  body: Buffer;
  /** sha256 of the bytes, the first 16 hex digits. */
  hash: string;
  mtimeMs: number;
  size: number;
}

const files = new Map<string, BundleFile>();

/**
 * Reads a bundle file (memoised by path, size and modification time: a rebuild while the daemon runs is seen).
 * @param path absolute path of a file in daemon/editor/dist
 * @returns undefined when the file does not exist
 */
export function readBundleFile(path: string): BundleFile | undefined {
  let st: { mtimeMs: number; size: number };
  try {
    st = statSync(path);
  } catch {
    return undefined;
  }
  const known = files.get(path);
  if (known && known.mtimeMs === st.mtimeMs && known.size === st.size) return known;
  let body: Buffer;
  try {
    body = readFileSync(path);
  } catch {
    return undefined;
  }
  const file = { body, hash: createHash('sha256').update(body).digest('hex').slice(0, 16), mtimeMs: st.mtimeMs, size: st.size };
  files.set(path, file);
  return file;
}

/**
 * The page's fallback for a bundle file another node could not serve (see the module comment): on a load error of
 * an element carrying `data-fallback` (the stylesheet link, the module script), the same element is added again
 * with that URL (the bundle URL with the document's WOPISrc). A script element is created anew: a cloned one would
 * not run. Constant text, so that its CSP hash is constant.
 */
export const FALLBACK_SCRIPT =
  "addEventListener('error',function(e){var t=e.target,u=t&&t.getAttribute&&t.getAttribute('data-fallback');if(!u)return;t.removeAttribute('data-fallback');var n=document.createElement(t.tagName);if(t.tagName==='LINK'){n.rel='stylesheet';n.href=u}else{n.type='module';n.src=u}t.after(n)},true)";

/** The CSP source that allows FALLBACK_SCRIPT (CSP Level 3 hash-source). */
export const FALLBACK_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(FALLBACK_SCRIPT).digest('base64')}'`;
