import { t } from '../core/i18n.ts';

/** One entry of LibreOffice's context menu (LOK CONTEXT_MENU JSON; booleans come as "true"/"false" strings). */
export interface LokMenuItem {
  type?: 'command' | 'separator' | 'menu';
  text?: string;
  command?: string;
  enabled?: string | boolean;
  checktype?: 'checkmark' | 'radio' | 'auto';
  checked?: string | boolean;
  menu?: LokMenuItem[];
}

const yes = (v: string | boolean | undefined) => v === true || v === 'true';

/** LibreOffice's label without its mnemonic marks (`~Paste` -> `Paste`). */
export function menuLabel(text: string): string {
  return text.replace(/~(.)/g, '$1').replace(/~$/, '');
}

/** The items of a CONTEXT_MENU payload (`{menu: [...]}`), without leading, trailing and doubled separators. */
export function menuItems(payload: unknown): LokMenuItem[] {
  const raw = (payload as { menu?: unknown })?.menu;
  if (!Array.isArray(raw)) return [];
  const out: LokMenuItem[] = [];
  for (const item of raw as LokMenuItem[]) {
    if (!item || typeof item !== 'object') continue;
    if (item.type === 'separator' && (out.length === 0 || out[out.length - 1].type === 'separator')) continue;
    if (item.type === 'menu' && menuItems(item).length === 0) continue;
    if (item.type !== 'separator' && !item.text) continue;
    // LibreOffice lists the entries its desktop menu would hide as disabled: left out, as they are there.
    if (item.type === 'command' && item.enabled !== undefined && !yes(item.enabled)) continue;
    out.push(item);
  }
  while (out.length > 0 && out[out.length - 1].type === 'separator') out.pop();
  return out;
}

/**
 * The context menu LibreOffice sends after a right click, rendered as an accessible menu (role=menu, menuitem,
 * menuitemcheckbox, menuitemradio; submenus with aria-haspopup): arrows move, Right/Enter open a submenu,
 * Left/Escape close, Enter/Space choose, Home/End jump; a click outside or Escape on the top menu closes it.
 * Choosing an item calls `choose` with its UNO command.
 */
export class ContextMenu {
  private root: HTMLElement | undefined;
  private restoreFocus: (() => void) | undefined;

  constructor(
    private readonly host: HTMLElement,
    private readonly choose: (command: string) => void,
  ) {
    document.addEventListener(
      'pointerdown',
      (e) => {
        if (this.root && !this.root.contains(e.target as Node)) this.close(false);
      },
      true,
    );
  }

  get open(): boolean {
    return this.root !== undefined;
  }

  /** Shows `payload`'s menu at client px (x, y); `restoreFocus` runs when it closes. */
  show(payload: unknown, x: number, y: number, restoreFocus: () => void): void {
    this.close(false);
    const items = menuItems(payload);
    if (items.length === 0) return;
    this.restoreFocus = restoreFocus;
    const menu = this.build(items, t('view.contextMenu'), 0);
    this.root = menu;
    this.host.append(menu);
    this.place(menu, x, y);
    this.focusItem(menu, 0);
  }

  /** Closes the menu (and gives the focus back to the document when `refocus`). */
  close(refocus = true): void {
    if (!this.root) return;
    this.root.remove();
    this.root = undefined;
    if (refocus) this.restoreFocus?.();
  }

  private place(menu: HTMLElement, x: number, y: number): void {
    menu.style.left = '0px';
    menu.style.top = '0px';
    const r = menu.getBoundingClientRect();
    menu.style.left = `${Math.max(0, Math.min(x, innerWidth - r.width - 4))}px`;
    menu.style.top = `${Math.max(0, Math.min(y, innerHeight - r.height - 4))}px`;
  }

  private entries(menu: HTMLElement): HTMLElement[] {
    return [...menu.children].filter((c): c is HTMLElement => c instanceof HTMLElement && c.getAttribute('role')?.startsWith('menuitem') === true);
  }

  private focusItem(menu: HTMLElement, index: number): void {
    const all = this.entries(menu);
    if (all.length === 0) return;
    const i = ((index % all.length) + all.length) % all.length;
    for (const [n, el] of all.entries()) el.tabIndex = n === i ? 0 : -1;
    all[i].focus();
  }

  private build(items: LokMenuItem[], label: string, depth: number): HTMLElement {
    const menu = Object.assign(document.createElement('div'), { className: 'ode-context-menu' });
    menu.setAttribute('role', 'menu');
    menu.setAttribute('aria-label', label);
    for (const item of items) {
      if (item.type === 'separator') {
        const sep = Object.assign(document.createElement('div'), { className: 'ode-menu-separator' });
        sep.setAttribute('role', 'separator');
        menu.append(sep);
        continue;
      }
      const el = Object.assign(document.createElement('div'), { className: 'ode-menu-item', tabIndex: -1 });
      const text = menuLabel(item.text ?? '');
      const enabled = item.type === 'menu' || item.enabled === undefined || yes(item.enabled);
      const check =
        item.checktype === 'radio'
          ? 'menuitemradio'
          : item.checktype === 'checkmark' || (item.checktype === 'auto' && item.checked !== undefined)
            ? 'menuitemcheckbox'
            : 'menuitem';
      el.setAttribute('role', check);
      if (check !== 'menuitem') el.setAttribute('aria-checked', String(yes(item.checked)));
      if (!enabled) el.setAttribute('aria-disabled', 'true');
      el.append(
        Object.assign(document.createElement('span'), {
          className: 'ode-menu-check',
          ariaHidden: 'true',
          textContent: yes(item.checked) ? (check === 'menuitemradio' ? '•' : '✓') : '',
        }),
      );
      el.append(Object.assign(document.createElement('span'), { className: 'ode-menu-text', textContent: text }));
      if (item.command) el.dataset.command = item.command;
      if (item.type === 'menu') {
        el.setAttribute('aria-haspopup', 'menu');
        el.setAttribute('aria-expanded', 'false');
        el.append(Object.assign(document.createElement('span'), { className: 'ode-menu-arrow', ariaHidden: 'true', textContent: '▸' }));
      }
      const activate = () => {
        if (item.type === 'menu') return this.openSub(el, item, depth);
        if (!enabled || !item.command) return;
        this.close();
        this.choose(item.command);
      };
      el.addEventListener('click', (e) => (e.stopPropagation(), activate()));
      el.addEventListener('mouseenter', () => {
        this.closeSubs(menu);
        el.focus();
        if (item.type === 'menu') this.openSub(el, item, depth);
      });
      el.addEventListener('keydown', (e) => {
        const all = this.entries(menu);
        const i = all.indexOf(el);
        const moves: Record<string, number> = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: all.length - 1 };
        if (e.key in moves) this.focusItem(menu, moves[e.key]);
        else if (e.key === 'Enter' || e.key === ' ' || (e.key === 'ArrowRight' && item.type === 'menu')) activate();
        else if (e.key === 'Escape' || e.key === 'ArrowLeft') {
          if (depth === 0) {
            if (e.key === 'Escape') this.close();
          } else {
            const owner = menu.previousElementSibling as HTMLElement | null;
            menu.remove();
            owner?.setAttribute('aria-expanded', 'false');
            owner?.focus();
          }
        } else if (e.key === 'Tab') this.close();
        else return;
        e.preventDefault();
        e.stopPropagation();
      });
      menu.append(el);
    }
    return menu;
  }

  /** Removes the submenus opened from `menu`'s items. */
  private closeSubs(menu: HTMLElement): void {
    for (const sub of menu.querySelectorAll(':scope > .ode-menu-item > .ode-context-menu, :scope > .ode-context-menu')) sub.remove();
    for (const el of menu.querySelectorAll(':scope > [aria-expanded="true"]')) el.setAttribute('aria-expanded', 'false');
  }

  private openSub(owner: HTMLElement, item: LokMenuItem, depth: number): void {
    if (owner.getAttribute('aria-expanded') === 'true') {
      const sub = owner.nextElementSibling;
      if (sub instanceof HTMLElement && sub.classList.contains('ode-context-menu')) this.focusItem(sub, 0);
      return;
    }
    const parent = owner.parentElement!;
    this.closeSubs(parent);
    const sub = this.build(menuItems(item), menuLabel(item.text ?? ''), depth + 1);
    owner.setAttribute('aria-expanded', 'true');
    owner.after(sub);
    const r = owner.getBoundingClientRect();
    sub.style.position = 'fixed';
    this.place(sub, r.right, r.top);
    this.focusItem(sub, 0);
  }
}
