/**
 * The chrome around the document (issue 5 "Chrome"): the document's name, the menu bar and the toolbar per
 * document type, the chrome's commands (commands.ts), light and dark themes, the ruler, and the keyboard ways in
 * (Alt or F10: menu bar; Ctrl+Alt+T: toolbar; the commands' shortcuts the document view leaves alone). The panels
 * (status bar, users, comments, find and replace) come from panels.ts and the panels' own files.
 */
import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';
import { registerChromeCommands } from './commands.ts';
import { el } from './dom.ts';
import { registerMenuCommands } from './menu-commands.ts';
import { MenuBar } from './menubar.ts';
import { menusFor } from './menus.ts';
import './messages.ts';
import { mountPanels } from './panels.ts';
import { Ruler } from './ruler.ts';
import { mountTheme } from './theme.ts';
import { Toolbar } from './toolbar.ts';

export { confirmModal, openModal, popover, promptText } from './modal.ts';

/** A key event as a shortcut string in the commands' notation (`Ctrl+K`, `Ctrl+Alt+C`, `Ctrl++`). */
function shortcutOf(e: KeyboardEvent): string | undefined {
  if (!(e.ctrlKey || e.metaKey)) return undefined;
  let key = e.key.length === 1 ? e.key.toUpperCase() : e.key;
  if (key === '=') key = '+';
  if (key === '_') key = '-';
  return `Ctrl+${e.altKey ? 'Alt+' : ''}${e.shiftKey && key.length > 1 ? 'Shift+' : ''}${key}`;
}

export function mountChrome(app: App): void {
  const { session, slots, commands } = app;
  const title = el('span', { className: 'ode-title' }, {}, t('title.loading'));
  // With file.rename available the title is a button that renames (as in online office suites).
  const titleAsButton = () => {
    const renamable = !commands.isHidden('file.rename') && commands.isEnabled('file.rename');
    if (renamable === (title.getAttribute('role') === 'button')) return;
    if (renamable) {
      title.setAttribute('role', 'button');
      title.tabIndex = 0;
      title.setAttribute('aria-label', `${t('file.rename').replace(/…$/, '')}: ${title.textContent}`);
    } else {
      title.removeAttribute('role');
      title.removeAttribute('tabindex');
      title.removeAttribute('aria-label');
    }
  };
  title.addEventListener('click', () => title.getAttribute('role') === 'button' && commands.run('file.rename'));
  title.addEventListener('keydown', (e) => {
    if (title.getAttribute('role') === 'button' && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      commands.run('file.rename');
    }
  });
  commands.on('changed', titleAsButton);
  slots.menubar.append(title);
  // The page's landmarks (axe's landmark rules, WCAG 1.3.1): the document in the main landmark, whose first child is
  // the page's level-one heading, the document's name, for assistive technology only (the title above shows it);
  // the two side panels named apart (both complementary landmarks), the bottom bar (sheet tabs) a named region.
  const heading = el('h1', { className: 'ode-visually-hidden' }, {}, t('title.loading'));
  slots.doc.prepend(heading);
  slots.left.setAttribute('aria-label', t('region.slidePanel'));
  slots.right.setAttribute('aria-label', t('region.sidePanels'));
  slots.bottomBar.setAttribute('aria-label', t('region.bottomBar'));
  mountTheme(app);
  const ruler = new Ruler(app);
  slots.toolbar.after(ruler.element);
  let menubar: MenuBar | undefined;
  let toolbar: Toolbar | undefined;

  session.once('status', (m) => {
    registerChromeCommands(app, m.docType, {
      focusControl: (name) => toolbar?.controls[name]?.focus(),
      anchorOf: (id) => toolbar?.buttonOf(id) ?? slots.toolbar,
      toggleRuler: () => ruler.toggle(),
      rulerShown: () => ruler.shown(),
    });
    registerMenuCommands(app, m.docType);
    menubar = new MenuBar(app, menusFor(m.docType));
    slots.menubar.append(menubar.element);
    toolbar = new Toolbar(app, m.docType, slots.toolbar);
    document.documentElement.dataset.docType = m.docType;
  });
  const showTitle = (name: string) => {
    title.textContent = name || t('title.document');
    title.title = title.textContent;
    heading.textContent = title.textContent;
    document.title = `${title.textContent} — Ode`;
    title.removeAttribute('role');
    titleAsButton();
  };
  session.on('status', (m) => showTitle(String(m.fileInfo.BaseFileName ?? '')));
  session.on('renamed', (m) => {
    if (!m.ok || !m.name) return;
    const ext = /\.[^.]+$/.exec(String(session.state.status?.fileInfo.BaseFileName ?? ''))?.[0] ?? '';
    showTitle(m.name.includes('.') ? m.name : `${m.name}${ext}`);
  });

  // Keyboard ways into the chrome, and the shortcuts of commands the document view does not handle itself.
  // F10 and Ctrl+Alt+T are taken before the document view sees them (it would send F10 to LibreOffice).
  let altAlone = false;
  window.addEventListener(
    'keydown',
    (e) => {
      altAlone = e.key === 'Alt' && !e.ctrlKey && !e.shiftKey && !e.metaKey;
      if (document.querySelector('.ode-modal-backdrop')) return;
      const plain = !e.ctrlKey && !e.altKey && !e.metaKey;
      const f10 = e.key === 'F10' && plain && !e.shiftKey;
      const f6 = e.key === 'F6' && plain;
      if (!f10 && !f6 && shortcutOf(e) !== 'Ctrl+Alt+T') return;
      e.preventDefault();
      e.stopPropagation();
      if (f6) {
        // F6 / Shift+F6: the next / previous region, as in LibreOffice and Collabora Online.
        menubar?.closeAll(false);
        cycleRegions(app, e.shiftKey ? -1 : 1, { menubar, toolbar });
      } else if (!f10) toolbar?.focus();
      else if (menubar?.hasFocus()) menubar.closeAll(true);
      else menubar?.focus();
    },
    true,
  );
  window.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || document.querySelector('.ode-modal-backdrop')) return;
    const shortcut = shortcutOf(e);
    if (!shortcut) return;
    const target = e.target as HTMLElement;
    const inField = target.matches('input, textarea, select') && !target.classList.contains('ode-input');
    if (inField) return;
    const c = commands.all().find((x) => x.shortcut === shortcut);
    if (c && !commands.isHidden(c.id)) {
      e.preventDefault();
      commands.run(c.id);
    }
  });
  window.addEventListener('keyup', (e) => {
    if (e.key !== 'Alt' || !altAlone) return;
    altAlone = false;
    if (document.querySelector('.ode-modal-backdrop')) return;
    e.preventDefault();
    if (menubar?.hasFocus()) menubar.closeAll(true);
    else menubar?.focus();
  });
  window.addEventListener('mousedown', () => (altAlone = false), true);
  window.addEventListener('blur', () => (altAlone = false)); // Alt+Tab away: its keyup never comes
  mountPanels(app);
}

/**
 * The regions F6 goes through, in order (issue 23 item 8): menu bar, toolbar, formula bar (spreadsheets), sheet
 * tabs (spreadsheets), slide panel (presentations), sidebar or other right panel (when open), document. A region
 * shows only when its slot is shown and has something to focus; the focus goes to the region's current control
 * (the one in its Tab order: the selected sheet tab, the current slide), else its first focusable element.
 */
export function f6Regions(
  app: App,
  parts: { menubar?: MenuBar; toolbar?: Toolbar },
): Array<{ name: string; has(el: Element | null): boolean; focus(): boolean }> {
  const { slots } = app;
  const shown = (slot: HTMLElement) => !slot.hidden && slot.getClientRects().length > 0;
  const focusIn = (slot: HTMLElement) => () => {
    if (!shown(slot)) return false;
    const candidates = [
      ...slot.querySelectorAll<HTMLElement>('[tabindex="0"], input:not([type=hidden]), button, select, textarea, [href], [tabindex]:not([tabindex="-1"])'),
    ].filter((x) => !(x as HTMLButtonElement).disabled && !x.hidden && x.getClientRects().length > 0);
    const target = candidates.find((x) => x.matches('[aria-selected="true"], [aria-current="true"], [aria-current="page"]')) ?? candidates[0];
    target?.focus();
    return !!target && slot.contains(document.activeElement);
  };
  const region = (name: string, slot: HTMLElement) => ({ name, has: (el: Element | null) => slot.contains(el), focus: focusIn(slot) });
  return [
    { name: 'menubar', has: () => !!parts.menubar?.hasFocus(), focus: () => (parts.menubar && shown(slots.menubar) ? (parts.menubar.focus(), true) : false) },
    {
      name: 'toolbar',
      has: (el) => slots.toolbar.contains(el),
      focus: () => (parts.toolbar && shown(slots.toolbar) ? (parts.toolbar.focus(), slots.toolbar.contains(document.activeElement)) : false),
    },
    region('formulaBar', slots.formulaBar),
    region('bottomBar', slots.bottomBar),
    region('left', slots.left),
    region('right', slots.right),
    { name: 'document', has: () => true, focus: () => (app.view.focus(), true) },
  ];
}

/** Moves the focus to the next (`by` 1) or previous (-1) F6 region that can take it. */
function cycleRegions(app: App, by: 1 | -1, parts: { menubar?: MenuBar; toolbar?: Toolbar }): void {
  const regions = f6Regions(app, parts);
  const active = document.activeElement;
  // The document is the region when no other holds the focus (its hidden input, the page).
  let at = regions.findIndex((r) => r.name !== 'document' && r.has(active));
  if (at < 0) at = regions.length - 1;
  for (let step = 1; step <= regions.length; step++) {
    const next = regions[(at + by * step + regions.length * 2) % regions.length];
    if (next.focus()) return;
  }
}
