/**
 * The pure parts of LibreOffice's dialog windows (no DOM): LOK_CALLBACK_WINDOW payloads, rectangles, and browser
 * keys and mouse buttons as LibreOffice's window events take them. Key codes are vcl's (include/vcl/keycodes.hxx):
 * KEY_0 256, KEY_A 512, KEY_F1 768, cursor keys from 1024, Return/Escape/Tab... from 1280; modifiers ORed in
 * (KEY_SHIFT 0x1000, KEY_MOD1 0x2000 = Ctrl/Cmd, KEY_MOD2 0x4000 = Alt). The key-code tables are the view's
 * (view/keys.ts); the modifier bits and KeyLike are re-exported from there for the dialog window.
 */

import { KEY_0, KEY_A, letterOf, modifiers, namedKey, type KeyLike } from '../view/keys.ts';

export { MOD1, MOD2, SHIFT, type KeyLike } from '../view/keys.ts';

/** A rectangle in px of a window. */
export interface PxRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One LOK_CALLBACK_WINDOW payload (desktop/source/lib/init.cxx; LibreOffice 7.4 sends every number as a string). */
export interface WindowEvent {
  id: number;
  action: string;
  /** `dialog`, `child` (a list's drop-down, a popup of a dialog), `deck` (sidebar), `tooltip`, ... */
  type?: string;
  title?: string;
  /** `size` of created / size_changed. */
  size?: { width: number; height: number };
  /** `rectangle` of invalidate / cursor_invalidate; undefined for the whole window. */
  rect?: PxRect;
  /** `position` of a child window, in px of its parent. */
  position?: { x: number; y: number };
  parentId?: number;
  visible?: boolean;
}

const numbers = (s: unknown): number[] | undefined => {
  if (typeof s !== 'string' && typeof s !== 'number') return undefined;
  const parts = String(s)
    .split(',')
    .map((p) => Number(p.trim()));
  return parts.every((n) => Number.isFinite(n)) ? parts : undefined;
};

/** Reads a `window` message's `json`; undefined when it is not a window event with an id and an action. */
export function parseWindowEvent(json: unknown): WindowEvent | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const j = json as Record<string, unknown>;
  const id = Number(j.id);
  if (!Number.isInteger(id) || typeof j.action !== 'string') return undefined;
  const out: WindowEvent = { id, action: j.action };
  if (typeof j.type === 'string') out.type = j.type;
  if (typeof j.title === 'string') out.title = j.title;
  const size = numbers(j.size);
  if (size?.length === 2 && size[0] > 0 && size[1] > 0) out.size = { width: size[0], height: size[1] };
  const rect = numbers(j.rectangle);
  if (rect?.length === 4) out.rect = { x: rect[0], y: rect[1], width: rect[2], height: rect[3] };
  const position = numbers(j.position);
  if (position?.length === 2) out.position = { x: position[0], y: position[1] };
  const parent = Number(j.parentId);
  if (j.parentId !== undefined && Number.isInteger(parent)) out.parentId = parent;
  if (j.visible !== undefined) out.visible = j.visible === true || j.visible === 'true';
  return out;
}

/** The smallest rectangle holding both (either may be undefined). */
export function union(a: PxRect | undefined, b: PxRect): PxRect {
  if (!a) return { ...b };
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

/** `r` cut to a `width` x `height` window with whole pixels; undefined when nothing is left. */
export function clip(r: PxRect, width: number, height: number): PxRect | undefined {
  const x0 = Math.max(0, Math.floor(r.x));
  const y0 = Math.max(0, Math.floor(r.y));
  const x1 = Math.min(width, Math.ceil(r.x + r.width));
  const y1 = Math.min(height, Math.ceil(r.y + r.height));
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : undefined;
}

/**
 * The window key event of a browser key (`charCode`, `keyCode` with modifiers), or undefined for keys a dialog
 * does not take (lone modifiers, dead keys). Text goes as its character with key code 0; Ctrl and Alt with a letter
 * or digit go as vcl codes with the modifier (Ctrl+A selects a field, Alt+O is a mnemonic), keeping the character.
 */
export function windowKey(e: KeyLike): { charCode: number; keyCode: number } | undefined {
  const mods = modifiers(e);
  const named = namedKey(e, mods);
  if (named) return named;
  if ([...e.key].length !== 1) return undefined;
  const ch = e.key.charCodeAt(0);
  const ctrlOrAlt = (e.ctrlKey || e.metaKey || e.altKey) && !(e.ctrlKey && e.altKey); // AltGr (Ctrl+Alt) types text
  if (ctrlOrAlt) {
    const letter = letterOf(e);
    if (letter) return { charCode: e.ctrlKey || e.metaKey ? 0 : ch, keyCode: (KEY_A + letter.charCodeAt(0) - 65) | mods };
    const digit = /^(?:Digit|Numpad)(\d)$/.exec(e.code)?.[1];
    if (digit) return { charCode: e.ctrlKey || e.metaKey ? 0 : ch, keyCode: (KEY_0 + Number(digit)) | mods };
  }
  if (e.key === ' ') return { charCode: 32, keyCode: 1284 };
  return { charCode: ch, keyCode: 0 };
}

/** LibreOffice's mouse buttons (MOUSE_LEFT 1, MOUSE_MIDDLE 2, MOUSE_RIGHT 4) from MouseEvent.buttons / button. */
export function mouseButtons(buttons: number): number {
  return (buttons & 1 ? 1 : 0) | (buttons & 4 ? 2 : 0) | (buttons & 2 ? 4 : 0);
}

/** The button of a MouseEvent.button (0 left, 1 middle, 2 right) as LibreOffice's. */
export function mouseButton(button: number): number {
  return button === 1 ? 2 : button === 2 ? 4 : 1;
}
