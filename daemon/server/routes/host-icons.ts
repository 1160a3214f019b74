/**
 * Icons at the paths of Collabora Online's own images, for hosts written for it (docs/hosts.md, EGroupware and
 * others): an Insert_Button `imgurl` relative to the editor page (`images/lc_saveas.svg`, EGroupware's collabora
 * app) resolves to `/browser/<hash>/images/...`; absolute ones name `/browser/dist/images/...` (RSpace's
 * `closedoc.svg`) or, written for the old LibreOffice Online, `/loleaflet/dist/images/...`. Ode has no copy of
 * Collabora's image set: the names hosts use are drawn here in the style of the editor's toolbar icons
 * (daemon/editor/src/chrome/icons.ts, 24x24, one stroke colour), and `favicon.ico` is Ode's document icon.
 */
import { OdeError } from '../errors.ts';
import { BASE_HEADERS } from '../http/respond.ts';
import { APP_ICONS } from './app-icons.ts';
import type { Handler } from './context.ts';

/** A stroked 24x24 SVG icon (grey, readable on light and dark toolbars). */
function stroked(path: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><path d="${path}" fill="none" stroke="#5f6368" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
}

const SAVE = 'M5 3h11l3 3v15H5zM8 3v5h7V3M8 14h8v7H8z';

/** Collabora's image names that hosts put in Insert_Button and their drawings. */
export const HOST_ICONS: Readonly<Record<string, string>> = {
  'lc_save.svg': stroked(SAVE),
  'lc_saveas.svg': stroked(`${SAVE}M17 15l4 4M21 15l-4 4`),
  'lc_print.svg': stroked('M7 9V4h10v5M6 18H4v-8h16v8h-2M7 14h10v6H7z'),
  'lc_exportpdf.svg': stroked('M6 2h9l4 4v16H6zM15 2v4h4M9 13h6M12 10v7M9.5 14.5L12 17l2.5-2.5'),
  'lc_downloadas.svg': stroked('M12 3v12M7 10l5 5 5-5M4 19h16'),
  'closedoc.svg': stroked('M6 6l12 12M18 6L6 18'),
  'lc_closedoc.svg': stroked('M6 6l12 12M18 6L6 18'),
  'lc_undo.svg': stroked('M9 7L4 12l5 5M4 12h10a5 5 0 0 1 0 10h-3'),
  'lc_redo.svg': stroked('M15 7l5 5-5 5M20 12H10a5 5 0 0 0 0 10h3'),
  'lc_insertgraphic.svg': stroked('M3 5h18v14H3zM3 16l5-5 4 4 3-3 6 6M15 9.5a1.5 1.5 0 1 0 0-.01'),
  'lc_hyperlinkdialog.svg': stroked('M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1'),
  'lc_insertannotation.svg': stroked('M4 4h16v12H9l-5 4z'),
  'lc_shareas.svg': stroked('M18 5a2.5 2.5 0 1 0 0 .01M6 12a2.5 2.5 0 1 0 0 .01M18 19a2.5 2.5 0 1 0 0 .01M8.2 10.8l7.6-4.4M8.2 13.2l7.6 4.4'),
  'lc_mail.svg': stroked('M3 6h18v12H3zM3 6l9 7 9-7'),
  'favicon.ico': APP_ICONS['x-office-document.svg'],
};

/**
 * Sends an icon: HOST_ICONS `name` as SVG (also `favicon.ico`: browsers take an SVG favicon), cached for a day (the
 * unversioned paths may change with Ode's version). HEAD gets the headers only.
 * @throws OdeError not_found for a name Ode does not draw.
 */
export function sendHostIcon(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, name: string): void {
  const svg = Object.hasOwn(HOST_ICONS, name) ? HOST_ICONS[name] : undefined;
  if (!svg) throw new OdeError('not_found', `No resource at ${req.url}: Ode draws ${Object.keys(HOST_ICONS).join(', ')} at Collabora's image paths.`);
  res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': 'image/svg+xml', 'Content-Length': Buffer.byteLength(svg), 'Cache-Control': 'public, max-age=86400' });
  res.end(req.method === 'HEAD' ? undefined : svg);
}

/** GET /favicon.ico: Ode's document icon (the browser asks for it on every page Ode serves at the top level). */
export const favicon: Handler = (req, res) => sendHostIcon(req, res, 'favicon.ico');

/** GET /loleaflet/dist/images/<name>: LibreOffice Online's image path, for hosts written for it. */
export const loleafletImage: Handler = (req, res, _ctx, { rest }) => {
  const m = /^\/dist\/images\/([A-Za-z0-9_.-]+)$/.exec(rest);
  if (!m) throw new OdeError('not_found', `No resource at ${req.url}.`);
  sendHostIcon(req, res, m[1]);
};
