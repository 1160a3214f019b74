/**
 * Light and dark themes: `data-theme` on <html> selects the colour variables of editor.css. The first choice is
 * the user's remembered one, else the host's ui_defaults `UITheme`, else the system's (prefers-color-scheme); a
 * choice made with `view.theme` is remembered in localStorage. The host's css_variables: host/theming.ts.
 */
import type { App } from '../core/app.ts';

export type Theme = 'light' | 'dark';
const STORAGE_KEY = 'ode.theme';

function stored(): Theme | undefined {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    return v === 'light' || v === 'dark' ? v : undefined;
  } catch {
    return undefined; // storage blocked (third-party iframe): the system's choice
  }
}

/** The current theme. */
export function currentTheme(): Theme {
  return document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
}

/** Applies `theme`, remembers it when `remember`, and tells the modules (App event `themeChanged`). */
export function setTheme(app: App, theme: Theme, remember: boolean): void {
  document.documentElement.dataset.theme = theme;
  if (remember) {
    try {
      localStorage.setItem(STORAGE_KEY, theme);
    } catch {
      /* not remembered: storage blocked */
    }
  }
  app.events.emit('themeChanged', theme);
  app.commands.refresh();
}

/**
 * Sets the first theme and registers `view.theme` (a toggle, checked when dark). The first theme: the user's own
 * choice (unless the host's ui_defaults say `SavedUIState=false`), else the host's `UITheme`, else the system's.
 */
export function mountTheme(app: App): void {
  const media = matchMedia('(prefers-color-scheme: dark)');
  const defaults = app.config.uiDefaults ?? {};
  const own = () => (defaults.savedUIState === false ? undefined : stored());
  const host: Theme | undefined = defaults.darkTheme === undefined ? undefined : defaults.darkTheme ? 'dark' : 'light';
  setTheme(app, own() ?? host ?? (media.matches ? 'dark' : 'light'), false);
  media.addEventListener('change', (e) => {
    if (!own() && !host) setTheme(app, e.matches ? 'dark' : 'light', false);
  });
  app.commands.register({
    id: 'view.theme',
    label: 'view.theme',
    icon: 'theme',
    checked: () => currentTheme() === 'dark',
    run: () => setTheme(app, currentTheme() === 'dark' ? 'light' : 'dark', true),
  });
}
