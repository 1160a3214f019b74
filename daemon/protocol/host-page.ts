/**
 * What a host posts into the editor iframe beyond the spec's fields, in Collabora's dialect, as the editor page
 * hands it to the editor (daemon/server/routes/editor-page.ts writes it into `#ode-config`; daemon/editor reads it).
 * The form field formats are Collabora Online's (its SDK "Theming" and "ui_defaults" pages; FileServer's
 * `cssVarsToStyle` and `uiDefaultsToJSON`):
 * - `css_variables`: `--name=value;--other=value` pairs, e.g. `--co-primary-element=#0082c9;--co-text-accent=#fff`;
 * - `ui_defaults`: `Key=value` pairs, e.g. `UIMode=classic;TextRuler=false;SpreadsheetSidebar=false;UITheme=dark`.
 * Imports nothing.
 */

/**
 * `css_variables` parsed: custom property name (with its leading `--`) -> value, in the host's order. Pairs that
 * are not `name=value`, or hold a character Collabora refuses (`<>{}&|\"^\`'$[]`, controls, non-ASCII), are left out.
 */
export type CssVariables = Record<string, string>;

/** What `ui_defaults` says of one document kind's chrome (`Text*`, `Spreadsheet*`, `Presentation*`, `Drawing*`). */
export interface UiComponentDefaults {
  /** `<Kind>Ruler`: show the ruler. */
  ShowRuler?: boolean;
  /** `<Kind>Sidebar`: show the sidebar. */
  ShowSidebar?: boolean;
  /** `<Kind>Statusbar`: show the status bar. */
  ShowStatusbar?: boolean;
  /** `<Kind>Toolbar`: show the toolbar. */
  ShowToolbar?: boolean;
}

/**
 * `ui_defaults` parsed, with Collabora's JSON names: `uiMode` from `UIMode` (`classic`/`compact` -> classic,
 * `tabbed`/`notebookbar` -> notebookbar), `darkTheme` from `UITheme=dark|light`, `saveAsMode` from `SaveAsMode=group`,
 * `savedUIState` from `SavedUIState` (false: do not restore the user's stored UI state), and per kind the
 * Show* flags (`false`, `False` and `0` are false, anything else true). Unknown keys are left out.
 */
export interface UiDefaults {
  uiMode?: 'classic' | 'notebookbar';
  darkTheme?: boolean;
  saveAsMode?: 'group';
  savedUIState?: boolean;
  text?: UiComponentDefaults;
  spreadsheet?: UiComponentDefaults;
  presentation?: UiComponentDefaults;
  drawing?: UiComponentDefaults;
}

/** What the editor page's config (`#ode-config`) carries beyond the spec's fields. */
export interface HostPageConfig {
  /** From the `css_variables` form field. */
  cssVariables?: CssVariables;
  /** From the `ui_defaults` form field. */
  uiDefaults?: UiDefaults;
  /** `net.post_message_origin_required`: without CheckFileInfo PostMessageOrigin the editor posts nothing to its parent. */
  requirePostMessageOrigin?: boolean;
}

const CSS_FORBIDDEN = /[<>{}&|\\"^`'$[\]]|[^\x20-\x7e]/;

/** Parses Collabora's `css_variables` form field (format above); an empty or absent field is `{}`. */
export function parseCssVariables(field: string | undefined): CssVariables {
  const out: CssVariables = {};
  for (const token of (field ?? '').split(';')) {
    const pair = token.trim();
    if (!pair) continue;
    const parts = pair.split('=');
    if (parts.length !== 2 || CSS_FORBIDDEN.test(pair)) continue;
    const [name, value] = [parts[0].trim(), parts[1].trim()];
    if (!/^--[A-Za-z0-9_-]+$/.test(name) || !value) continue;
    out[name] = value;
  }
  return out;
}

const KINDS = [
  ['Text', 'text'],
  ['Spreadsheet', 'spreadsheet'],
  ['Presentation', 'presentation'],
  ['Drawing', 'drawing'],
] as const;

/** Parses Collabora's `ui_defaults` form field (format above); an empty or absent field is `{}`. */
export function parseUiDefaults(field: string | undefined): UiDefaults {
  const out: UiDefaults = {};
  for (const token of (field ?? '').split(';')) {
    const [key, value = ''] = token
      .trim()
      .split('=')
      .map((s) => s.trim());
    if (!key) continue;
    if (key === 'UIMode') {
      if (value === 'classic' || value === 'compact') out.uiMode = 'classic';
      else if (value === 'tabbed' || value === 'notebookbar') out.uiMode = 'notebookbar';
      continue;
    }
    if (key === 'UITheme') {
      if (value === 'dark' || value === 'light') out.darkTheme = value === 'dark';
      continue;
    }
    if (key === 'SaveAsMode') {
      if (value === 'group') out.saveAsMode = 'group';
      continue;
    }
    if (key === 'SavedUIState') {
      out.savedUIState = !(value === 'false' || value === 'False' || value === '0');
      continue;
    }
    const kind = KINDS.find(([prefix]) => key.startsWith(prefix));
    if (!kind) continue;
    const widget = key.slice(kind[0].length);
    if (widget !== 'Ruler' && widget !== 'Sidebar' && widget !== 'Statusbar' && widget !== 'Toolbar') continue;
    const defs = (out[kind[1]] ??= {});
    defs[`Show${widget}`] = !(value === 'false' || value === 'False' || value === '0');
  }
  return out;
}
