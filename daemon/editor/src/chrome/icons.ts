/**
 * The toolbar's icons: small inline SVGs (24×24 view box, drawn with `currentColor` so both themes colour them)
 * or a short text (B, I, U, S in their own style). Unknown names fall back to the text given.
 */
const SVG: Record<string, string> = {
  save: 'M5 3h11l3 3v15H5zM8 3v5h7V3M8 14h8v7H8z',
  undo: 'M9 7L4 12l5 5M4 12h10a5 5 0 0 1 0 10h-3',
  redo: 'M15 7l5 5-5 5M20 12H10a5 5 0 0 0 0 10h3',
  image: 'M3 5h18v14H3zM3 16l5-5 4 4 3-3 6 6M15 9.5a1.5 1.5 0 1 0 0-.01',
  table: 'M3 5h18v14H3zM3 10h18M3 14.5h18M9 5v14M15 5v14',
  link: 'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
  comment: 'M4 4h16v12H9l-5 4z',
  alignLeft: 'M4 6h16M4 10h10M4 14h16M4 18h10',
  alignCenter: 'M4 6h16M7 10h10M4 14h16M7 18h10',
  alignRight: 'M4 6h16M10 10h10M4 14h16M10 18h10',
  justify: 'M4 6h16M4 10h16M4 14h16M4 18h16',
  bulletList: 'M9 6h11M9 12h11M9 18h11M4.5 6h.01M4.5 12h.01M4.5 18h.01',
  numberedList: 'M10 6h10M10 12h10M10 18h10M4 4.5l1.5-.5v4M3.5 14h2.5l-2.5 3.5h2.5',
  fontColor: 'M6 16L12 4l6 12M8 12h8M4 20h16',
  highlight: 'M14 4l6 6-8 8H6v-6zM4 21h16',
  clear: 'M6 5h12M12 5l-3 14M4 20L20 4',
  zoomIn: 'M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM15.5 15.5L20 20M8 10.5h5M10.5 8v5',
  zoomOut: 'M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM15.5 15.5L20 20M8 10.5h5',
  print: 'M7 9V4h10v5M6 18H4v-8h16v8h-2M7 14h10v6H7z',
  merge: 'M3 5h18v14H3zM7 12h10M14 9l3 3-3 3M10 9l-3 3 3 3',
  slide: 'M3 5h18v12H3zM12 17v3M8 20h8',
};
const TEXT: Record<string, string> = {
  bold: 'B',
  italic: 'I',
  underline: 'U',
  strikethrough: 'S',
  omega: 'Ω',
  sum: 'Σ',
  currency: '¤',
  percent: '%',
  number: '0.0',
  theme: '◐',
};

/**
 * An icon element for `name` (aria-hidden: the button carries the accessible name). A text icon's glyph is drawn by
 * CSS (`data-glyph`, chrome.css) rather than being text: a picture of a symbol, not words that the button's name
 * must contain (WCAG 2.5.3 label in name; "0.0" for General number was flagged by axe otherwise).
 */
export function icon(name: string | undefined, fallback: string): Element {
  const path = name ? SVG[name] : undefined;
  if (path) {
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('class', 'ode-icon');
    const p = document.createElementNS(ns, 'path');
    p.setAttribute('d', path);
    svg.append(p);
    return svg;
  }
  const span = document.createElement('span');
  span.className = `ode-icon-text ode-icon-${name ?? 'none'}`;
  span.setAttribute('aria-hidden', 'true');
  span.dataset.glyph = (name && TEXT[name]) ?? fallback;
  return span;
}
