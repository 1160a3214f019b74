/** A small element builder for the settings page (plain DOM, no framework, as the editor). */

type Attrs = Record<string, string | boolean | undefined | ((e: Event) => void)>;

/**
 * Creates `<tag>` with attributes (`on<event>` keys add listeners, `true` sets an empty attribute, `false` or
 * undefined skips it) and children (strings become text).
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') node.addEventListener(name.slice(2), value);
    else if (value === true) node.setAttribute(name, '');
    else if (typeof value === 'string') node.setAttribute(name, value);
  }
  for (const c of children) if (c) node.append(c);
  return node;
}
