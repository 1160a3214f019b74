import { extname } from 'node:path';
import { actionFor } from '../discovery/discovery-xml.ts';
import { kindOfExtension, type DocumentKind } from '../formats/tables.ts';
import type { ListedFile } from './folder-watcher.ts';

/** One document row of the start page: its file, and the token to post (already issued for this page's user). */
export interface StartPageInput {
  /** The user the tokens were issued to. */
  userName: string;
  /** The editor page URL ending in `?` (discovery's urlsrc): `WOPISrc=` is appended. */
  editorUrl: string;
  /** The WOPISrc of a file name. */
  wopiSrc: (name: string) => string;
  /** The id of a file name (the form's `id`, used by `?open=<id>`). */
  idOf: (name: string) => string;
  files: ListedFile[];
  token: string;
  /** access_token_ttl: ms since the epoch. */
  tokenTtl: number;
  folder: string;
  /** A file id to open at once (the page submits its form on load): `ode open <file>`. */
  openId?: string;
  version: string;
  /** CSP nonce of the page's one script. */
  nonce: string;
}

/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const KIND_LABEL: Record<DocumentKind, { label: string; color: string }> = {
  text: { label: 'W', color: '#2b63c6' },
  spreadsheet: { label: 'S', color: '#1e8a4c' },
  presentation: { label: 'P', color: '#c4532d' },
  drawing: { label: 'D', color: '#8a4cc4' },
};

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The demo host's start page (issue 4, "Built-in host"): the documents of the folder, each a form that POSTs
 * `access_token` and `access_token_ttl` to the editor page with the file's WOPISrc (spec: "Iframe form-post
 * fields"), opening in the same tab; a name field to edit as another user. Every name is escaped. A small script
 * reloads the list when the folder changes (`/demo/events`) and, with `openId`, opens that document at once.
 */
export function renderStartPage(p: StartPageInput): string {
  const rows = p.files
    .map((f) => {
      const ext = extname(f.name).slice(1).toLowerCase();
      const kind = kindOfExtension(ext);
      const id = p.idOf(f.name);
      const badge = kind ? KIND_LABEL[kind] : { label: '?', color: '#888' };
      const modified = new Date(f.mtimeMs).toISOString().replace('T', ' ').slice(0, 16);
      const meta = `<span class="meta">${escapeHtml(size(f.size))} · ${escapeHtml(modified)} UTC</span>`;
      if (!kind)
        return `<li class="doc off"><span class="badge" style="background:${badge.color}">${badge.label}</span><span class="name">${escapeHtml(f.name)}</span>${meta}<span class="act">not a document Ode opens</span></li>`;
      const action = actionFor(kind, ext) === 'edit' ? 'Edit' : 'View';
      const target = `${p.editorUrl}WOPISrc=${encodeURIComponent(p.wopiSrc(f.name))}`;
      return `<li class="doc"><form id="f-${escapeHtml(id)}" method="post" action="${escapeHtml(target)}" target="_self">
<input type="hidden" name="access_token" value="${escapeHtml(p.token)}"><input type="hidden" name="access_token_ttl" value="${p.tokenTtl}">
<button type="submit"><span class="badge" style="background:${badge.color}">${badge.label}</span><span class="name">${escapeHtml(f.name)}</span>${meta}<span class="act">${action}</span></button></form></li>`;
    })
    .join('\n');
  const empty = `<li class="empty">No documents yet: copy a file into <code>${escapeHtml(p.folder)}</code> and it appears here.</li>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ode — documents</title>
<style>
  :root { color-scheme: light; --fg:#1d2330; --muted:#6b7280; --line:#e5e7eb; --accent:#2b63c6; }
  * { box-sizing: border-box; }
  body { margin:0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color:var(--fg); background:#f6f7f9; }
  main { max-width: 760px; margin: 48px auto; padding: 0 20px; }
  h1 { font-size: 24px; margin: 0 0 4px; font-weight: 600; }
  p.sub { margin: 0 0 24px; color: var(--muted); }
  form.user { display:flex; gap:8px; align-items:center; margin: 0 0 20px; color: var(--muted); }
  form.user input { font: inherit; padding: 5px 8px; border:1px solid var(--line); border-radius:6px; }
  form.user button { font: inherit; padding: 5px 12px; border:1px solid var(--line); border-radius:6px; background:#fff; cursor:pointer; }
  ul { list-style:none; margin:0; padding:0; background:#fff; border:1px solid var(--line); border-radius:10px; overflow:hidden; }
  li + li { border-top:1px solid var(--line); }
  li.doc form { margin:0; }
  li.doc button, li.off { all: unset; box-sizing: border-box; width:100%; display:flex; align-items:center; gap:14px; padding:12px 16px; cursor:pointer; }
  li.doc button:hover, li.doc button:focus-visible { background:#f0f4fc; }
  li.off { cursor: default; color: var(--muted); }
  li.empty { padding: 20px 16px; color: var(--muted); }
  .badge { flex:none; width:30px; height:30px; border-radius:6px; color:#fff; font-weight:700; display:grid; place-items:center; font-size:14px; }
  .name { flex:1; overflow:hidden; text-overflow:ellipsis; white-space:nowrap; font-weight:500; }
  .meta { color: var(--muted); font-size: 13px; white-space:nowrap; }
  .act { color: var(--accent); font-size: 13px; min-width: 40px; text-align:right; }
  li.off .act { color: var(--muted); }
  footer { margin-top: 20px; color: var(--muted); font-size: 13px; }
  code { font-size: 13px; }
</style></head>
<body><main>
<h1>Documents</h1>
<p class="sub">Ode's built-in demo host serves <code>${escapeHtml(p.folder)}</code>. Open a document to edit it; open it in a second tab under another name to edit together.</p>
<form class="user" method="get" action="/"><label for="user">Your name</label><input id="user" name="user" value="${escapeHtml(p.userName)}" maxlength="80"><button type="submit">Use</button></form>
<ul id="docs">
${rows || empty}
</ul>
<footer>Ode ${escapeHtml(p.version)} · demo WOPI host (turn it off with <code>demo_host.enabled: false</code>) · <a href="/hosting/discovery">discovery</a></footer>
</main>
<script nonce="${p.nonce}">
${p.openId ? `(function(){var f=document.getElementById(${JSON.stringify(`f-${p.openId}`).replace(/</g, '\\u003c')});if(f)f.submit();})();` : ''}
try { new EventSource('/demo/events').onmessage = function () { location.reload(); }; } catch (e) {}
</script>
</body></html>
`;
}
