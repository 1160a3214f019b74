/**
 * Small DOM helpers the panels share (status bar, users, comments, find and replace), and the dock of the `right`
 * slot: one panel shown at a time, each with a heading and a close button, Escape closes it.
 */
import { registerMessages, t } from '../core/i18n.ts';

registerMessages({
  en: { 'panel.close': 'Close panel' },
  fr: { 'panel.close': 'Fermer le panneau' },
  de: { 'panel.close': 'Bereich schließen' },
});

/** Creates an element with properties (`className`, `type`, `title`, ...), attributes (`aria-*`, `role`) and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & { attrs?: Record<string, string> } = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const { attrs, ...rest } = props;
  const e = Object.assign(document.createElement(tag), rest);
  for (const [k, v] of Object.entries(attrs ?? {})) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

/** A button with a visible text or an icon, and an accessible name. */
export function button(label: string, text: string | Node, onClick: (e: MouseEvent) => void, className = 'ode-button'): HTMLButtonElement {
  const b = el('button', { type: 'button', className, title: label, attrs: { 'aria-label': label } }, text);
  b.addEventListener('click', onClick);
  return b;
}

/** The initials of a user name (at most two letters) for an avatar without an image. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const letters = words.length === 1 ? [...words[0]].slice(0, 1) : [[...words[0]][0], [...words[words.length - 1]][0]];
  return letters.join('').toUpperCase();
}

/** One panel of the right dock. */
interface DockPanel {
  section: HTMLElement;
  onOpen?: () => void;
}

/**
 * The `right` slot as a dock of panels: at most one is visible; the slot is hidden when none is. Listeners of
 * `onChange` learn which panel is open (menus show `view.comments` and `view.users` checked from it).
 */
export class RightDock {
  private readonly panels = new Map<string, DockPanel>();
  private open: string | undefined;
  private readonly listeners: Array<(open: string | undefined) => void> = [];

  constructor(private readonly slot: HTMLElement) {
    slot.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.open && !(e.target instanceof HTMLTextAreaElement)) {
        e.preventDefault();
        this.toggle(this.open, false);
      }
    });
  }

  /** Adds a panel: a labelled region with `title` as heading and a close button; `body` is its content. */
  add(id: string, title: string, body: HTMLElement, onOpen?: () => void): HTMLElement {
    const headingId = `ode-panel-${id}-title`;
    const heading = el('h2', { className: 'ode-panel-title', id: headingId }, title);
    const close = button(t('panel.close'), '×', () => this.toggle(id, false), 'ode-icon-button');
    const section = el(
      'section',
      { className: `ode-panel ode-panel-${id}`, hidden: true, attrs: { 'aria-labelledby': headingId } },
      el('header', { className: 'ode-panel-header' }, heading, close),
      body,
    );
    this.slot.append(section);
    this.panels.set(id, { section, onOpen });
    return section;
  }

  isOpen(id: string): boolean {
    return this.open === id;
  }

  /** Shows `id` (hiding the others) or hides it; without `show`, flips it. */
  toggle(id: string, show = !this.isOpen(id)): void {
    const panel = this.panels.get(id);
    if (!panel) return;
    if (show) {
      for (const [other, p] of this.panels) p.section.hidden = other !== id;
      this.open = id;
      this.slot.hidden = false;
      panel.onOpen?.();
    } else if (this.open === id) {
      panel.section.hidden = true;
      this.open = undefined;
      this.slot.hidden = true;
    }
    for (const fn of this.listeners) fn(this.open);
  }

  onChange(fn: (open: string | undefined) => void): void {
    this.listeners.push(fn);
  }
}

/** A popup menu (role=menu) under or above `anchor` in the `popups` slot: arrow keys move, Enter picks, Escape closes. */
export function popupMenu(popups: HTMLElement, anchor: HTMLElement, label: string, items: Array<{ text: string; checked?: boolean; run: () => void }>): void {
  const menu = el('div', { className: 'ode-panel-menu', attrs: { role: 'menu', 'aria-label': label } });
  const close = () => {
    menu.remove();
    document.removeEventListener('mousedown', outside, true);
    anchor.setAttribute('aria-expanded', 'false');
    anchor.focus();
  };
  const outside = (e: MouseEvent) => {
    if (!menu.contains(e.target as Node) && e.target !== anchor) close();
  };
  const buttons = items.map((item) => {
    const b = el(
      'button',
      { type: 'button', className: 'ode-panel-menu-item', attrs: { role: item.checked === undefined ? 'menuitem' : 'menuitemradio', tabindex: '-1' } },
      item.text,
    );
    if (item.checked !== undefined) b.setAttribute('aria-checked', String(item.checked));
    b.addEventListener('click', () => (close(), item.run()));
    return b;
  });
  menu.append(...buttons);
  menu.addEventListener('keydown', (e) => {
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      buttons[(i + (e.key === 'ArrowDown' ? 1 : buttons.length - 1)) % buttons.length]?.focus();
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      buttons[e.key === 'Home' ? 0 : buttons.length - 1]?.focus();
    } else if (e.key === 'Escape' || e.key === 'Tab') {
      e.preventDefault();
      close();
    }
  });
  popups.append(menu);
  const r = anchor.getBoundingClientRect();
  const h = menu.offsetHeight;
  menu.style.left = `${Math.max(4, Math.min(r.left, window.innerWidth - menu.offsetWidth - 4))}px`;
  menu.style.top = `${r.top - h - 4 >= 0 ? r.top - h - 4 : r.bottom + 4}px`;
  anchor.setAttribute('aria-expanded', 'true');
  document.addEventListener('mousedown', outside, true);
  (buttons.find((b) => b.getAttribute('aria-checked') === 'true') ?? buttons[0])?.focus();
}
