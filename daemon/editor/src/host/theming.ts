/**
 * The host's look for the editor, from its form post (Collabora Online's SDK "Theming" and "UI defaults"; parsed in
 * daemon/protocol/host-page.ts, carried in the page config):
 * - `css_variables`: every custom property is set on <html> (inline, so it holds in both themes); Collabora's
 *   names that have an Ode counterpart also set it (COLLABORA_TO_ODE), and Ode's own names (`--accent`, `--bg`,
 *   `--fg`, `--bar`, `--line`, `--muted`, `--hover`, `--pressed`) may be given directly.
 * - `ui_defaults`: per document type, `Statusbar=false` hides the status bar and `Toolbar=false` the toolbar
 *   (`Ruler`: chrome/ruler.ts; `UITheme`, `SavedUIState`: chrome/theme.ts). `Sidebar` and `UIMode` have no
 *   counterpart in Ode's editor (one layout, no sidebar deck): ignored (docs/hosts.md).
 */
import type { UiComponentDefaults } from '../../../protocol/host-page.ts';
import type { App } from '../core/app.ts';

/** Collabora's theming variables with an Ode counterpart: `--co-*` name -> Ode's editor.css variable. */
export const COLLABORA_TO_ODE: Readonly<Record<string, string>> = {
  '--co-primary-element': '--accent',
  '--co-primary-light': '--pressed',
  '--co-body-bg': '--bg',
  '--co-color-main-text': '--fg',
  '--co-color-main-background': '--bar',
  '--co-border-color': '--line',
  '--co-text-maxcontrast': '--muted',
  '--co-background-hover': '--hover',
};

/** Sets the host's custom properties (name -> value) on `root`, and their Ode counterparts. */
export function applyCssVariables(root: HTMLElement, vars: Record<string, string>): void {
  for (const [name, value] of Object.entries(vars)) {
    root.style.setProperty(name, value);
    const ode = COLLABORA_TO_ODE[name];
    // Ode's own name given directly wins over a Collabora name mapped to it.
    if (ode && vars[ode] === undefined) root.style.setProperty(ode, value);
  }
}

/** Applies css_variables at once and ui_defaults' status bar and toolbar once the document type is known. */
export function mountTheming(app: App): void {
  const { config, session, slots } = app;
  if (config.cssVariables) applyCssVariables(document.documentElement, config.cssVariables);
  session.once('status', (m) => {
    const defs: UiComponentDefaults = config.uiDefaults?.[m.docType] ?? {};
    if (defs.ShowStatusbar === false) slots.status.style.display = 'none';
    if (defs.ShowToolbar === false) slots.toolbar.style.display = 'none';
  });
}
