import { button } from '../chrome/panels-dom.ts';
import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';
import { bool, long, str } from './uno.ts';

/** The sheet commands, in menu order. */
export const SHEET_COMMANDS = ['sheet.insert', 'sheet.rename', 'sheet.delete', 'sheet.moveLeft', 'sheet.moveRight'] as const;

/**
 * Sheet operations through LibreOffice's own commands (sc tabvwshf.cxx; `Index` arguments are 1-based):
 * insert `.uno:Insert` (Name, Index), delete `.uno:Remove` (Index), rename `.uno:Name` (Index, Name), move
 * `.uno:Move` (Index = the moved sheet's 1-based position afterwards, Copy false, UseCurrentDocument true; 7.4
 * took the position to insert before, so moving right needed one more, which 25.2 takes as one place too far).
 * LibreOffice makes the new or moved sheet current without telling the view (no SET_PART), so once the daemon's
 * `documentSize` shows the new sheet list the view is moved there with `setPart`.
 */
export class Sheets {
  /** The sheet to show once the sheet list changed. */
  private follow: number | undefined;

  constructor(private readonly app: App) {
    app.session.on('documentSize', (m) => {
      if (this.follow === undefined || m.parts < 0) return;
      const part = Math.min(this.follow, m.parts - 1);
      this.follow = undefined;
      this.show(part);
    });
  }

  get names(): string[] {
    return this.app.session.state.status?.partNames ?? [];
  }

  get current(): number {
    return this.app.session.state.part;
  }

  show(part: number): void {
    this.app.session.send({ type: 'setPart', part });
  }

  /** A name no sheet has yet: Sheet4, Sheet5, ... */
  newName(): string {
    const taken = new Set(this.names.map((n) => n.toLowerCase()));
    for (let n = this.names.length + 1; ; n++) {
      const name = t('calc.newSheetName', { n });
      if (!taken.has(name.toLowerCase())) return name;
    }
  }

  insert(name = this.newName()): void {
    const at = this.current + 1;
    this.follow = at;
    this.app.session.uno('.uno:Insert', { Name: str(name), Index: long(at + 1) });
  }

  remove(): void {
    if (this.names.length <= 1) return this.app.notify(t('calc.lastSheet'), 'error');
    this.follow = Math.max(0, this.current - 1);
    this.app.session.uno('.uno:Remove', { Index: long(this.current + 1) });
  }

  rename(name: string): void {
    const trimmed = name.trim();
    if (!trimmed || trimmed === this.names[this.current]) return;
    this.app.session.uno('.uno:Name', { Index: long(this.current + 1), Name: str(trimmed) });
  }

  /** Moves the current sheet one place left (-1) or right (+1). */
  move(by: -1 | 1): void {
    const from = this.current;
    const to = from + by;
    if (to < 0 || to >= this.names.length) return;
    this.follow = to;
    // LibreOffice 25.2 puts the sheet at 0-based Index - 1, either way (measured: from 1 with Index 4 it went to 3).
    this.app.session.uno('.uno:Move', { Index: long(to + 1), Copy: bool(false), UseCurrentDocument: bool(true) });
  }
}

/**
 * The sheet tabs (issue 5 "Spreadsheets: sheet tabs"; slot `bottomBar`): a tablist with one tab per sheet
 * (`partNames`), the current one selected; clicking or the arrow keys show another sheet (`setPart`), Home/End the
 * first/last; a double click or F2 renames in place (Enter keeps, Escape cancels); the context menu (right click,
 * Shift+F10, the menu key) and the buttons run the sheet commands.
 */
export function mountSheetTabs(app: App, sheets: Sheets): { render(): void; rename(): void } {
  const bar = app.slots.bottomBar;
  bar.classList.add('ode-sheet-bar');
  const add = button(t('sheet.insert'), '+', () => app.commands.run('sheet.insert'), 'ode-button ode-sheet-add');
  const list = Object.assign(document.createElement('div'), { className: 'ode-sheet-tabs' });
  list.setAttribute('role', 'tablist');
  list.setAttribute('aria-label', t('calc.sheets'));
  const more = button(
    t('calc.sheetActions'),
    '⋯',
    () => {
      const r = more.getBoundingClientRect();
      openMenu(app, r.left, r.top, more);
    },
    'ode-button ode-sheet-more',
  );
  more.setAttribute('aria-haspopup', 'menu');
  bar.append(add, list, more);

  const tabs = () => [...list.querySelectorAll<HTMLElement>('[role=tab]')];
  /** What the tabs show: re-rendering only when it changed keeps a double click's target in place. */
  let shown = '';
  const render = () => {
    const readonly = !!app.session.state.status?.readonly;
    // While a tab is renamed in place its field stays: a re-render (a state change, the sheet list coming again)
    // would drop it with what was typed, without a blur to keep it (issue 23: the typed name was lost once).
    if (list.querySelector('input.ode-sheet-rename')) return;
    const now = JSON.stringify([sheets.names, sheets.current, readonly, app.commands.isHidden('sheet.insert')]);
    if (now === shown) return;
    shown = now;
    add.hidden = readonly || app.commands.isHidden('sheet.insert');
    more.hidden = readonly;
    const focused = list.contains(document.activeElement);
    list.replaceChildren(
      ...sheets.names.map((name, i) => {
        const tab = Object.assign(document.createElement('button'), { type: 'button', className: 'ode-sheet-tab', textContent: name || `${i + 1}` });
        tab.setAttribute('role', 'tab');
        tab.setAttribute('aria-selected', String(i === sheets.current));
        tab.tabIndex = i === sheets.current ? 0 : -1;
        tab.dataset.part = String(i);
        return tab;
      }),
    );
    if (focused) tabs()[sheets.current]?.focus();
  };

  list.addEventListener('click', (e) => {
    const tab = (e.target as HTMLElement).closest<HTMLElement>('[role=tab]');
    if (tab && Number(tab.dataset.part) !== sheets.current) sheets.show(Number(tab.dataset.part));
  });
  list.addEventListener('dblclick', (e) => {
    const tab = (e.target as HTMLElement).closest<HTMLElement>('[role=tab]');
    if (tab && Number(tab.dataset.part) === sheets.current) app.commands.run('sheet.rename');
  });
  list.addEventListener('contextmenu', (e) => {
    const tab = (e.target as HTMLElement).closest<HTMLElement>('[role=tab]');
    if (!tab) return;
    e.preventDefault();
    if (Number(tab.dataset.part) !== sheets.current) sheets.show(Number(tab.dataset.part));
    openMenu(app, e.clientX, e.clientY, tab);
  });
  list.addEventListener('keydown', (e) => {
    const all = tabs();
    const at = all.indexOf(document.activeElement as HTMLElement);
    if (at < 0) return;
    const go = (i: number) => {
      e.preventDefault();
      const n = (i + all.length) % all.length;
      all[n].focus();
      if (n !== sheets.current) sheets.show(n);
    };
    if (e.key === 'ArrowRight') go(at + 1);
    else if (e.key === 'ArrowLeft') go(at - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(all.length - 1);
    else if (e.key === 'F2') e.preventDefault(), app.commands.run('sheet.rename');
    else if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
      e.preventDefault();
      const r = all[at].getBoundingClientRect();
      openMenu(app, r.left, r.top, all[at]);
    }
  });

  /** Renames the current sheet in place: its tab becomes a text field. */
  const renameInPlace = () => {
    const tab = tabs()[sheets.current];
    if (!tab) return;
    const input = Object.assign(document.createElement('input'), { className: 'ode-sheet-rename', value: sheets.names[sheets.current] ?? '' });
    input.setAttribute('aria-label', t('calc.sheetName'));
    tab.replaceWith(input);
    input.focus();
    input.select();
    let done = false;
    const finish = (keep: boolean) => {
      if (done) return;
      done = true;
      if (keep) sheets.rename(input.value);
      input.remove();
      shown = '';
      render();
      app.view.focus();
    };
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') e.preventDefault(), finish(true);
      else if (e.key === 'Escape') e.preventDefault(), finish(false);
    });
    input.addEventListener('blur', () => finish(true));
  };
  return { render, rename: renameInPlace };
}

/** The sheet context menu at (x, y); gives the focus back to `returnTo` when closed. */
function openMenu(app: App, x: number, y: number, returnTo: HTMLElement): void {
  const menu = Object.assign(document.createElement('div'), { className: 'ode-sheet-menu' });
  menu.setAttribute('role', 'menu');
  menu.setAttribute('aria-label', t('calc.sheetActions'));
  const items = SHEET_COMMANDS.filter((id) => !app.commands.isHidden(id)).map((id) => {
    const item = Object.assign(document.createElement('button'), {
      type: 'button',
      className: 'ode-sheet-menu-item',
      textContent: t(id),
      disabled: !app.commands.isEnabled(id),
    });
    item.dataset.command = id;
    item.setAttribute('role', 'menuitem');
    item.tabIndex = -1;
    item.addEventListener('click', () => {
      close(false);
      app.commands.run(id);
    });
    return item;
  });
  menu.append(...items);
  app.slots.popups.append(menu);
  const h = menu.offsetHeight;
  menu.style.left = `${Math.min(x, innerWidth - menu.offsetWidth - 4)}px`;
  menu.style.top = `${Math.max(4, y - h)}px`;
  const enabled = () => items.filter((i) => !i.disabled);
  enabled()[0]?.focus();
  const onDown = (e: MouseEvent) => {
    if (!menu.contains(e.target as Node)) close(false);
  };
  // A right click on another tab opens the menu while that sheet is being shown: states follow.
  const offChanged = app.commands.on('changed', () => {
    for (const item of items) item.disabled = !app.commands.isEnabled(item.dataset.command!);
  });
  const close = (refocus: boolean) => {
    menu.remove();
    offChanged();
    document.removeEventListener('mousedown', onDown, true);
    if (refocus) returnTo.focus();
  };
  document.addEventListener('mousedown', onDown, true);
  menu.addEventListener('keydown', (e) => {
    const list = enabled();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'Escape' || e.key === 'Tab') e.preventDefault(), close(true);
    else if (e.key === 'ArrowDown') e.preventDefault(), list[(at + 1) % list.length]?.focus();
    else if (e.key === 'ArrowUp') e.preventDefault(), list[(at - 1 + list.length) % list.length]?.focus();
  });
}
