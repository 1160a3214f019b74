/** Creates an element with properties, attributes (`attrs`, for ARIA and `data-*`) and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  attrs: Record<string, string> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const e = Object.assign(document.createElement(tag), props);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

/**
 * Roving tabindex over `items` (WAI-ARIA: one item of a composite widget is in the tab order): `current` gets
 * tabindex 0, the others -1. Returns the index made current.
 */
export function rove(items: HTMLElement[], current: number, focus = true): number {
  if (items.length === 0) return -1;
  const i = ((current % items.length) + items.length) % items.length;
  items.forEach((item, j) => (item.tabIndex = j === i ? 0 : -1));
  if (focus) items[i].focus();
  return i;
}

/**
 * A UNO state value as text: LOK gives most states as `.uno:Bold=true` (the value is the text after `=`) and some
 * as JSON (`"Liberation Serif"`, `{...}`): a JSON string is unquoted, anything else is returned as is.
 */
export function stateText(value: string | undefined): string {
  if (value === undefined) return '';
  if (value.startsWith('"')) {
    try {
      const v: unknown = JSON.parse(value);
      if (typeof v === 'string') return v;
    } catch {
      /* not JSON: the raw value */
    }
  }
  return value;
}

/**
 * Keeps Tab inside a modal (WAI-ARIA dialog pattern): Tab on the last of `items` goes to the first, Shift+Tab on
 * the first (or from outside them) to the last; other keys and Tab between items are left to the browser.
 */
export function wrapTab(e: KeyboardEvent, items: HTMLElement[]): void {
  if (e.key !== 'Tab' || items.length === 0) return;
  const i = items.indexOf(document.activeElement as HTMLElement);
  if (e.shiftKey && i <= 0) {
    e.preventDefault();
    items[items.length - 1].focus();
  } else if (!e.shiftKey && i === items.length - 1) {
    e.preventDefault();
    items[0].focus();
  }
}
