import { create } from 'xmlbuilder2';
import type { ProofKeyValues } from '../../../certs/proof-signing.ts';
import { INPUT_EXTENSIONS, OUTPUT_FORMATS, type DocumentKind } from '../formats/tables.ts';
import { INPUT_MIME_TYPES } from '../formats/mime-types.ts';
import { EXTRA_INPUT_EXTENSIONS, EXTRA_MIME_TYPES, MIME_ALIASES, SAVES_IN_PLACE } from './mime-apps.ts';

/** What discovery needs: absolute base URL, the editor and settings page paths, icons, and the proof keys. */
export interface DiscoveryOptions {
  /** e.g. `https://office.example.com` or `http://127.0.0.1:9980`: no trailing slash. */
  baseUrl: string;
  /** Path of the editor page, ending in `?` so hosts can append `WOPISrc=` (e.g. `/browser/<hash>/ode.html?`). */
  editorPath: string;
  /** Path of the settings iframe page, ending in `?`. */
  settingsPath: string;
  /** Path prefix of the app icons (e.g. `/browser/<hash>/images`). */
  iconPath: string;
  proofKey: { current: ProofKeyValues; old: ProofKeyValues };
}

/** The WOPI action of an extension (spec: Discovery document). */
export type DiscoveryAction = 'edit' | 'view' | 'view_comment';

/** Discovery apps: Collabora's names, which hosts match on, and the icon of each. */
const APPS: Array<{ name: string; kind: DocumentKind; icon: string; only?: readonly string[] }> = [
  { name: 'writer', kind: 'text', icon: 'x-office-document.svg' },
  { name: 'writer-global', kind: 'text', icon: 'x-office-document.svg', only: ['odm', 'otm', 'sxg'] },
  { name: 'writer-web', kind: 'text', icon: 'x-office-document.svg', only: ['oth'] },
  { name: 'calc', kind: 'spreadsheet', icon: 'x-office-spreadsheet.svg' },
  { name: 'impress', kind: 'presentation', icon: 'x-office-presentation.svg' },
  { name: 'draw', kind: 'drawing', icon: 'x-office-drawing.svg' },
];
const SPECIAL_TEXT_APPS = new Set(['odm', 'otm', 'sxg', 'oth']);
/** Outputs that are exports, not a way to save the document back in its own format. */
const EXPORT_ONLY = new Set(['pdf', 'png', 'svg', 'swf', 'html', 'xhtml']);

/**
 * The action for an input extension: `view_comment` for pdf (spec: read-only with comments), `edit` when Ode can
 * save the document back in its own format (the extension is among the kind's outputs and is not an
 * export-only format, or LibreOffice writes it back with its import filter: mime-apps.ts SAVES_IN_PLACE), else
 * `view`.
 */
export function actionFor(kind: DocumentKind, ext: string): DiscoveryAction {
  if (ext === 'pdf') return 'view_comment';
  return (OUTPUT_FORMATS[kind].includes(ext) && !EXPORT_ONLY.has(ext)) || SAVES_IN_PLACE.has(ext) ? 'edit' : 'view';
}

function extensionsOf(app: (typeof APPS)[number]): readonly string[] {
  if (app.only) return app.only;
  return [...INPUT_EXTENSIONS[app.kind], ...EXTRA_INPUT_EXTENSIONS[app.kind]].filter((e) => app.kind !== 'text' || !SPECIAL_TEXT_APPS.has(e));
}

/** The MIME types a host may send for `ext`: the registered one first, then Collabora's and freedesktop's other names. */
function mimeTypesOf(ext: string): string[] {
  const first = INPUT_MIME_TYPES[ext] ?? EXTRA_MIME_TYPES[ext];
  return [...(first ? [first] : []), ...(MIME_ALIASES[ext] ?? [])];
}

/**
 * Builds the discovery XML (spec: host integration, "Discovery document"), laid out as Collabora Online's so
 * hosts written for it work unchanged: `<wopi-discovery><net-zone name="external-http">` with one `app` per
 * application (absolute `favIconUrl`) holding an `action` per input extension (the spec's tables and the formats
 * of mime-apps.ts), one app per MIME type (a superset of Collabora's: the registered names and Collabora's other
 * names, each with its extension's action), the `Capabilities` app (action `getinfo`) and the `Settings` app
 * (action `iframe`); then the `proof-key` element with the current and old key. No XML declaration, as Collabora
 * serves it: a strict parser reading the text as a string (lxml's `fromstring(str)`) refuses an encoding declaration.
 */
export function buildDiscoveryXml(o: DiscoveryOptions): string {
  const urlsrc = `${o.baseUrl}${o.editorPath}`;
  const doc = create({ version: '1.0', encoding: 'utf-8' }).ele('wopi-discovery');
  const zone = doc.ele('net-zone', { name: 'external-http' });
  const mimeApps = new Map<string, { action: DiscoveryAction; ext: string }>();
  for (const app of APPS) {
    const el = zone.ele('app', { name: app.name, favIconUrl: `${o.baseUrl}${o.iconPath}/${app.icon}` });
    for (const ext of extensionsOf(app)) {
      const action = actionFor(app.kind, ext);
      el.ele('action', { default: 'true', ext, name: action, urlsrc });
      for (const mime of mimeTypesOf(ext)) if (!mimeApps.has(mime)) mimeApps.set(mime, { action, ext });
    }
  }
  for (const [mime, { action, ext }] of mimeApps) zone.ele('app', { name: mime }).ele('action', { default: 'true', ext, name: action, urlsrc });
  zone.ele('app', { name: 'Capabilities' }).ele('action', { ext: '', name: 'getinfo', urlsrc: `${o.baseUrl}/hosting/capabilities` });
  zone.ele('app', { name: 'Settings' }).ele('action', { ext: '', name: 'iframe', urlsrc: `${o.baseUrl}${o.settingsPath}` });
  const { current, old } = o.proofKey;
  doc.ele('proof-key', {
    exponent: current.exponent,
    modulus: current.modulus,
    oldexponent: old.exponent,
    oldmodulus: old.modulus,
    oldvalue: old.value,
    value: current.value,
  });
  // No XML declaration, as Collabora: lxml's fromstring(str) refuses a str carrying an encoding declaration.
  return doc.end({ prettyPrint: true, headless: true });
}
