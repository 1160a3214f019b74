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
        // F6 / Shift+F6: menu bar -> toolbar -> document, as in LibreOffice.
        const at = menubar?.hasFocus() ? 0 : slots.toolbar.contains(document.activeElement) ? 1 : 2;
        const next = (at + (e.shiftKey ? 2 : 1)) % 3;
        menubar?.closeAll(false);
        if (next === 0) menubar?.focus();
        else if (next === 1) toolbar?.focus();
        else app.view.focus();
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
