/**
 * The menu bar (WAI-ARIA menubar pattern): role=menubar with one menuitem per menu, roving tabindex, menus and
 * submenus as role=menu lists built from command ids each time they open (hidden commands are left out, disabled
 * ones are aria-disabled, toggles are menuitemcheckbox with aria-checked) and kept up to date while open.
 * Keys: Left/Right between menus, Down/Up/Enter/Space open, Up/Down/Home/End and type-ahead inside, Right/Left
 * in and out of submenus, Enter/Space run, Escape closes (then goes back to the document). Alt or F10 (see
 * index.ts) focus the bar.
 */
import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';
import { commandChecked, onCommandsChanged } from './command-state.ts';
import { el, rove } from './dom.ts';
import { markLocked } from './locked.ts';
import { visibleEntries, type MenuDef, type MenuEntry } from './menus.ts';

function visible(app: App, items: MenuEntry[]): MenuEntry[] {
  return visibleEntries((id) => app.commands.isHidden(id), items);
}

const ITEM = '[role^=menuitem]';

export class MenuBar {
  readonly element: HTMLUListElement;
  private readonly tops: Array<{ def: MenuDef; li: HTMLLIElement; item: HTMLElement }> = [];
  private current = 0;
  /** Whether a menu is open (moving between menus then opens the next one). */
  private expanded = false;
  /**
   * The pointer has not moved since the last key: hover is ignored (Chromium fires mouseenter when a menu opens
   * under a still pointer, which would steal the focus from the keyboard).
   */
  private pointerStill = true;
  private pointer = { x: -1, y: -1 };

  constructor(
    private readonly app: App,
    defs: MenuDef[],
  ) {
    this.element = el('ul', { className: 'ode-menus' }, { role: 'menubar', 'aria-label': t('menu.bar') });
    for (const def of defs) {
      const item = el(
        'span',
        { className: 'ode-menu-top', tabIndex: -1 },
        { role: 'menuitem', 'aria-haspopup': 'menu', 'aria-expanded': 'false' },
        t(def.label),
      );
      const li = el('li', { className: 'ode-menu-top-li' }, { role: 'none' }, item);
      this.tops.push({ def, li, item });
      this.element.append(li);
      item.addEventListener('mousedown', (e) => {
        e.preventDefault();
        const i = this.tops.findIndex((x) => x.item === item);
        if (this.expanded && this.current === i) this.closeAll(true);
        else this.openTop(i, 'none');
      });
      item.addEventListener('mouseenter', () => {
        if (this.pointerStill) return;
        const i = this.tops.findIndex((x) => x.item === item);
        if (this.expanded && this.current !== i) this.openTop(i, 'none');
      });
    }
    this.element.addEventListener('keydown', (e) => {
      this.pointerStill = true;
      this.onKey(e);
    });
    document.addEventListener('mousemove', (e) => {
      if (e.clientX !== this.pointer.x || e.clientY !== this.pointer.y) this.pointerStill = false;
      this.pointer = { x: e.clientX, y: e.clientY };
    });
    this.element.addEventListener('focusout', (e) => {
      if (!this.element.contains(e.relatedTarget as Node | null) && e.relatedTarget !== null) this.closeAll(false);
    });
    document.addEventListener(
      'mousedown',
      (e) => {
        if (this.expanded && !this.element.contains(e.target as Node)) this.closeAll(false);
      },
      true,
    );
    this.updateTops();
    onCommandsChanged(app, () => this.refresh());
  }

  /** Focuses the bar on its first menu title. */
  focus(): void {
    const shown = this.shownTops();
    if (shown.length === 0) return;
    this.current = shown[0];
    this.updateTops();
    this.tops[this.current].item.focus();
  }

  /** True when the focus is in the bar or one of its menus. */
  hasFocus(): boolean {
    return this.element.contains(document.activeElement);
  }

  /** Closes every menu; with `toDocument` the focus goes back to the document. */
  closeAll(toDocument: boolean): void {
    for (const top of this.tops) {
      top.item.setAttribute('aria-expanded', 'false');
      top.li.querySelector(':scope > [role=menu]')?.remove();
    }
    this.expanded = false;
    if (toDocument) this.app.view?.focus();
  }

  private shownTops(): number[] {
    return this.tops.flatMap((top, i) => (top.li.hidden ? [] : [i]));
  }

  private updateTops(): void {
    for (const top of this.tops) top.li.hidden = visible(this.app, top.def.items).length === 0;
    const shown = this.shownTops();
    if (!shown.includes(this.current) && shown.length) this.current = shown[0];
    this.tops.forEach((top, i) => (top.item.tabIndex = i === this.current ? 0 : -1));
  }

  private openTop(i: number, focus: 'first' | 'last' | 'none'): void {
    this.closeAll(false);
    this.current = i;
    const top = this.tops[i];
    this.tops.forEach((x, j) => (x.item.tabIndex = j === i ? 0 : -1));
    const menu = this.renderMenu(top.def.items, t(top.def.label));
    top.li.append(menu);
    top.item.setAttribute('aria-expanded', 'true');
    this.expanded = true;
    this.focusIn(menu, focus, top.item);
  }

  private focusIn(menu: HTMLElement, focus: 'first' | 'last' | 'none', fallback: HTMLElement): void {
    const items = this.itemsOf(menu);
    if (focus === 'none' || items.length === 0) return fallback.focus();
    rove(items, focus === 'first' ? 0 : items.length - 1);
  }

  private itemsOf(menu: Element): HTMLElement[] {
    return [...menu.querySelectorAll<HTMLElement>(`:scope > li > ${ITEM}`)];
  }

  private renderMenu(entries: MenuEntry[], label: string): HTMLUListElement {
    const menu = el('ul', { className: 'ode-menu' }, { role: 'menu', 'aria-label': label });
    for (const entry of visible(this.app, entries)) {
      if (entry === '-') {
        menu.append(el('li', { className: 'ode-menu-sep' }, { role: 'separator' }));
        continue;
      }
      const li = el('li', {}, { role: 'none' });
      if (typeof entry !== 'string') {
        const item = el(
          'span',
          { className: 'ode-menu-item ode-has-sub', tabIndex: -1 },
          { role: 'menuitem', 'aria-haspopup': 'menu', 'aria-expanded': 'false' },
          el('span', { className: 'ode-menu-check' }, { 'aria-hidden': 'true' }),
          el('span', { className: 'ode-menu-label' }, {}, t(entry.label)),
          el('span', { className: 'ode-menu-arrow' }, { 'aria-hidden': 'true' }, '▸'),
        );
        (item as HTMLElement & { odeSub?: MenuEntry[] }).odeSub = entry.items;
        item.addEventListener('click', () => this.openSub(item, 'first'));
        item.addEventListener('mouseenter', () => {
          if (!this.pointerStill) this.openSub(item, 'none');
        });
        li.append(item);
      } else {
        const c = this.app.commands.get(entry)!;
        const item = el(
          'span',
          { className: 'ode-menu-item', tabIndex: -1 },
          { role: 'menuitem', 'data-command': entry },
          el('span', { className: 'ode-menu-check' }, { 'aria-hidden': 'true' }),
          el('span', { className: 'ode-menu-label' }, {}, t(c.label)),
        );
        if (c.shortcut) {
          item.setAttribute('aria-keyshortcuts', c.shortcut.replace(/Ctrl\+\+/, 'Control+Plus').replace(/Ctrl/g, 'Control'));
          item.append(el('span', { className: 'ode-menu-key' }, { 'aria-hidden': 'true' }, c.shortcut));
        }
        item.addEventListener('click', () => this.activate(item));
        item.addEventListener('mouseenter', () => {
          if (this.pointerStill) return;
          this.closeSubsAfter(menu);
          item.focus();
        });
        li.append(item);
        this.updateItem(item);
      }
      menu.append(li);
    }
    return menu;
  }

  private updateItem(item: HTMLElement): void {
    const id = item.dataset.command!;
    const checked = commandChecked(this.app, id);
    item.setAttribute('role', checked === undefined ? 'menuitem' : 'menuitemcheckbox');
    if (checked === undefined) item.removeAttribute('aria-checked');
    else item.setAttribute('aria-checked', String(checked));
    if (this.app.commands.isEnabled(id)) item.removeAttribute('aria-disabled');
    else item.setAttribute('aria-disabled', 'true');
    markLocked(item, this.app.commands.isLocked(id));
  }

  /** After a command or state change: hide/show menus; update open items, rebuilding a menu whose items changed. */
  private refresh(): void {
    this.updateTops();
    if (!this.expanded) return;
    const top = this.tops[this.current];
    const menu = top.li.querySelector<HTMLElement>(':scope > [role=menu]');
    if (!menu) return;
    const wanted = visible(this.app, top.def.items).filter((e) => e !== '-').length;
    if (top.li.hidden || this.itemsOf(menu).length !== wanted) {
      const focusedId = (document.activeElement as HTMLElement | null)?.dataset?.command;
      const wasIn = menu.contains(document.activeElement);
      this.openTop(this.current, 'none');
      if (top.li.hidden) return this.closeAll(false);
      const again = top.li.querySelector<HTMLElement>(':scope > [role=menu]')!;
      const items = this.itemsOf(again);
      if (wasIn && items.length)
        rove(
          items,
          Math.max(
            0,
            items.findIndex((x) => x.dataset.command === focusedId),
          ),
        );
      return;
    }
    for (const item of top.li.querySelectorAll<HTMLElement>('[data-command]')) this.updateItem(item);
  }

  private openSub(item: HTMLElement, focus: 'first' | 'last' | 'none'): void {
    const menu = item.closest('[role=menu]')!;
    this.closeSubsAfter(menu);
    const entries = (item as HTMLElement & { odeSub?: MenuEntry[] }).odeSub ?? [];
    const sub = this.renderMenu(entries, item.textContent?.replace('▸', '').trim() ?? '');
    sub.classList.add('ode-submenu');
    item.parentElement!.append(sub);
    item.setAttribute('aria-expanded', 'true');
    this.focusIn(sub, focus, item);
  }

  /** Closes the submenus opened from items of `menu`. */
  private closeSubsAfter(menu: Element): void {
    for (const li of menu.querySelectorAll(':scope > li')) {
      const sub = li.querySelector(':scope > [role=menu]');
      if (sub) {
        sub.remove();
        li.querySelector('[aria-expanded]')?.setAttribute('aria-expanded', 'false');
      }
    }
  }

  /** Closes the submenu `parentItem` opened and gives it the focus back (ArrowLeft or Escape in a submenu). */
  private backToParent(parentItem: HTMLElement): void {
    this.closeSubsAfter(parentItem.closest('[role=menu]')!);
    parentItem.focus();
  }

  private activate(item: HTMLElement): void {
    if ((item as HTMLElement & { odeSub?: MenuEntry[] }).odeSub) return this.openSub(item, 'first');
    const id = item.dataset.command;
    // A locked command (IsUserLocked) is disabled but may be chosen: the registry asks the host to unlock it.
    if (!id || (item.getAttribute('aria-disabled') === 'true' && !this.app.commands.isLocked(id))) return;
    this.closeAll(true);
    this.app.commands.run(id);
  }

  private moveTop(step: number, open: boolean): void {
    const shown = this.shownTops();
    const at = shown.indexOf(this.current);
    const next = shown[(at + step + shown.length) % shown.length];
    if (open) this.openTop(next, 'first');
    else {
      this.current = next;
      this.updateTops();
      this.tops[next].item.focus();
    }
  }

  private onKey(e: KeyboardEvent): void {
    const target = e.target as HTMLElement;
    const topIndex = this.tops.findIndex((x) => x.item === target);
    if (topIndex < 0 && !target.matches(ITEM)) return;
    if (topIndex >= 0) this.current = topIndex;
    let handled = true;
    if (e.key === 'Tab') {
      // Tab leaves the menu bar: the menus close and the browser moves the focus on.
      this.closeAll(false);
      handled = false;
    } else if (topIndex >= 0) {
      switch (e.key) {
        case 'ArrowRight':
          this.moveTop(1, this.expanded);
          break;
        case 'ArrowLeft':
          this.moveTop(-1, this.expanded);
          break;
        case 'ArrowDown':
        case 'Enter':
        case ' ':
          this.openTop(topIndex, 'first');
          break;
        case 'ArrowUp':
          this.openTop(topIndex, 'last');
          break;
        case 'Home':
          this.moveTop(this.shownTops()[0] - this.current, false);
          break;
        case 'End': {
          const s = this.shownTops();
          this.moveTop(s[s.length - 1] - this.current, false);
          break;
        }
        case 'Escape':
          this.closeAll(true);
          break;
        default:
          handled = this.typeAhead(
            e.key,
            this.shownTops().map((i) => this.tops[i].item),
            target,
          );
      }
    } else {
      const menu = target.closest('[role=menu]')!;
      const items = this.itemsOf(menu);
      const i = items.indexOf(target);
      const parentItem = menu.parentElement?.querySelector<HTMLElement>(`:scope > ${ITEM}`);
      const isSub = menu.classList.contains('ode-submenu');
      switch (e.key) {
        case 'ArrowDown':
          rove(items, i + 1);
          break;
        case 'ArrowUp':
          rove(items, i - 1);
          break;
        case 'Home':
          rove(items, 0);
          break;
        case 'End':
          rove(items, items.length - 1);
          break;
        case 'Enter':
        case ' ':
          this.activate(target);
          break;
        case 'ArrowRight':
          if (target.getAttribute('aria-haspopup') === 'menu') this.openSub(target, 'first');
          else this.moveTop(1, true);
          break;
        case 'ArrowLeft':
          if (isSub && parentItem) this.backToParent(parentItem);
          else this.moveTop(-1, true);
          break;
        case 'Escape':
          if (isSub && parentItem) this.backToParent(parentItem);
          else {
            this.closeAll(false);
            this.tops[this.current].item.focus();
          }
          break;
        default:
          handled = this.typeAhead(e.key, items, target);
      }
    }
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  }

  /** Moves to the next item whose label starts with the typed character. */
  private typeAhead(key: string, items: HTMLElement[], from: HTMLElement): boolean {
    if (key.length !== 1 || !/\S/.test(key)) return false;
    const k = key.toLocaleLowerCase();
    const start = items.indexOf(from);
    for (let n = 1; n <= items.length; n++) {
      const item = items[(start + n) % items.length];
      const label = (item.querySelector('.ode-menu-label') ?? item).textContent?.trim().toLocaleLowerCase() ?? '';
      if (label.startsWith(k)) {
        if (item.getAttribute('role') === 'menuitem' && item.classList.contains('ode-menu-top')) {
          this.current = this.tops.findIndex((x) => x.item === item);
          this.updateTops();
          if (this.expanded) this.openTop(this.current, 'first');
          else item.focus();
        } else rove(items, items.indexOf(item));
        return true;
      }
    }
    return true;
  }
}
