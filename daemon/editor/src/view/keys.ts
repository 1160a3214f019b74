/**
 * Browser keys to what LibreOffice takes (pure: no DOM). Key codes are vcl's (include/vcl/keycodes.hxx, the same
 * numbers as css::awt::Key): KEY_0 256, KEY_A 512, KEY_F1 768, the cursor block from 1024, the function group
 * from 1280; modifiers are ORed in (KEY_SHIFT 0x1000, KEY_MOD1 0x2000 = Ctrl/Cmd, KEY_MOD2 0x4000 = Alt).
 */

/** The fields of a KeyboardEvent this module reads. */
export interface KeyLike {
  key: string;
  code: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

export const SHIFT = 0x1000;
export const MOD1 = 0x2000;
export const MOD2 = 0x4000;
export const KEY_0 = 256;
export const KEY_A = 512;
const KEY_F1 = 768;
/** KEY_CONTEXTMENU: taken by the document view only (dialogs send no key for it). */
const KEY_CONTEXTMENU = 1305;

/** Keys that are never text, by KeyboardEvent.key: vcl code and the character LibreOffice expects with it. */
const NAMED: Record<string, [number, number]> = {
  ArrowDown: [1024, 0],
  ArrowUp: [1025, 0],
  ArrowLeft: [1026, 0],
  ArrowRight: [1027, 0],
  Home: [1028, 0],
  End: [1029, 0],
  PageUp: [1030, 0],
  PageDown: [1031, 0],
  Enter: [1280, 13],
  Escape: [1281, 27],
  Tab: [1282, 9],
  Backspace: [1283, 8],
  Insert: [1285, 0],
  Delete: [1286, 0],
};

/** Punctuation keys by KeyboardEvent.code (layout-independent position), for Ctrl/Alt combinations. */
const PUNCTUATION: Record<string, number> = {
  NumpadAdd: 1287,
  Minus: 1288,
  NumpadSubtract: 1288,
  NumpadMultiply: 1289,
  Slash: 1290,
  NumpadDivide: 1290,
  Period: 1291,
  NumpadDecimal: 1309,
  Comma: 1292,
  IntlBackslash: 1293,
  Equal: 1295,
  Backquote: 1311,
  BracketLeft: 1315,
  BracketRight: 1316,
  Semicolon: 1317,
  Quote: 1318,
};

/** The modifier bits of a key event. */
export function modifiers(e: Pick<KeyLike, 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey'>): number {
  return (e.shiftKey ? SHIFT : 0) | (e.ctrlKey || e.metaKey ? MOD1 : 0) | (e.altKey ? MOD2 : 0);
}

/**
 * The key event of a key that is never text (cursor keys, Home/End, PageUp/PageDown, Enter, Escape, Tab, Backspace,
 * Insert, Delete, F1-F24), with `mods` (modifier bits, see `modifiers`) ORed into the key code; undefined for any
 * other key. Shared by the document view and dialog windows.
 */
export function namedKey(e: Pick<KeyLike, 'key'>, mods: number): { charCode: number; keyCode: number } | undefined {
  const named = NAMED[e.key];
  if (named) return { charCode: named[1], keyCode: named[0] | mods };
  const f = /^F(\d{1,2})$/.exec(e.key);
  if (f && Number(f[1]) >= 1 && Number(f[1]) <= 24) return { charCode: 0, keyCode: (KEY_F1 + Number(f[1]) - 1) | mods };
  return undefined;
}

/**
 * The upper-case letter A-Z of a key, by its position (`KeyA`...) or else its character; undefined for other keys.
 * Its vcl code is `KEY_A + letter.charCodeAt(0) - 65`.
 */
export function letterOf(e: Pick<KeyLike, 'key' | 'code'>): string | undefined {
  return /^Key([A-Z])$/.exec(e.code)?.[1] ?? (/^[a-z]$/i.test(e.key) ? e.key.toUpperCase() : undefined);
}

/**
 * The LibreOffice key event of a browser key (`charCode`, `keyCode` with modifiers), or undefined when the key is
 * text that arrives through the input element's `input` event (letters, digits, space, AltGr characters) or a key
 * LibreOffice does not take.
 */
export function vclKey(e: KeyLike): { charCode: number; keyCode: number } | undefined {
  const mods = modifiers(e);
  const named = namedKey(e, mods);
  if (named) return named;
  if (e.key === 'ContextMenu') return { charCode: 0, keyCode: KEY_CONTEXTMENU | mods };
  const ctrl = e.ctrlKey || e.metaKey;
  // AltGr reports Ctrl+Alt on Windows: what it types is text. Alt alone types text on macOS.
  if (!ctrl || (e.ctrlKey && e.altKey && e.key.length === 1 && !/^[a-z0-9 ]$/i.test(e.key))) return undefined;
  if (e.key === ' ' || e.code === 'Space') return { charCode: 32, keyCode: 1284 | mods };
  const letter = letterOf(e);
  if (letter) return { charCode: 0, keyCode: (KEY_A + letter.charCodeAt(0) - 65) | mods };
  const digit = /^(?:Digit|Numpad)(\d)$/.exec(e.code)?.[1] ?? (/^\d$/.test(e.key) ? e.key : undefined);
  if (digit) return { charCode: 0, keyCode: (KEY_0 + Number(digit)) | mods };
  const p = PUNCTUATION[e.code];
  return p ? { charCode: 0, keyCode: p | mods } : undefined;
}

/** A combination written as `Ctrl+Shift+S` (Ctrl stands for Cmd on macOS too). */
export function comboOf(e: KeyLike): string {
  const letter = /^Key([A-Z])$/.exec(e.code)?.[1];
  const key = letter ?? (e.key.length === 1 ? e.key.toUpperCase() : e.key);
  return `${e.ctrlKey || e.metaKey ? 'Ctrl+' : ''}${e.altKey ? 'Alt+' : ''}${e.shiftKey ? 'Shift+' : ''}${key}`;
}

/**
 * Shortcuts that belong to editor commands (menus and the host may hide or disable them): run through the command
 * registry; when the command is not registered the key goes to LibreOffice. Ctrl+Shift+C (Record changes, text
 * documents' Edit > Track changes): LibreOffice 25.2 under LibreOfficeKit does not run this accelerator (the key reaches
 * Writer and `.uno:TrackChanges` stays false: issue 16), so the command sends `.uno:TrackChanges` itself.
 */
export const COMMAND_SHORTCUTS: Record<string, string> = {
  'Ctrl+S': 'file.save',
  'Ctrl+Shift+C': 'review.trackChanges',
  'Ctrl+Shift+S': 'file.saveAs',
  'Ctrl+P': 'file.print',
  'Ctrl+F': 'edit.findReplace',
  'Ctrl+H': 'edit.findReplace',
  'Ctrl+Alt+Shift+D': 'help.debug',
};

/** Shortcuts sent as UNO commands (explicit, so they do not depend on LibreOffice's accelerator configuration). */
export const UNO_SHORTCUTS: Record<string, string> = {
  'Ctrl+B': '.uno:Bold',
  'Ctrl+I': '.uno:Italic',
  'Ctrl+U': '.uno:Underline',
  'Ctrl+Z': '.uno:Undo',
  'Ctrl+Y': '.uno:Redo',
  'Ctrl+Shift+Z': '.uno:Redo',
  'Ctrl+A': '.uno:SelectAll',
};

/** Paragraph alignment shortcuts of text and presentations (spreadsheets take these keys as their own accelerators). */
export const ALIGN_SHORTCUTS: Record<string, string> = {
  'Ctrl+E': '.uno:CenterPara',
  'Ctrl+L': '.uno:LeftPara',
  'Ctrl+R': '.uno:RightPara',
  'Ctrl+J': '.uno:JustifyPara',
};

/** The browser's own clipboard keys: they fire copy, cut and paste events on the input element. */
export const CLIPBOARD_KEYS = new Set(['Ctrl+C', 'Ctrl+X', 'Ctrl+V', 'Ctrl+Shift+V', 'Ctrl+Insert', 'Shift+Insert', 'Shift+Delete']);
