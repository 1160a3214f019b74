import type { ClientMessage } from '../../../protocol/editor.ts';
import type { TileView } from './tile-view.ts';

/** vcl key codes LibreOfficeKit takes (include/vcl/keycodes.hxx) for the keys that are not text. */
const KEYS: Record<string, number> = {
  ArrowDown: 1024, ArrowUp: 1025, ArrowLeft: 1026, ArrowRight: 1027, Home: 1028, End: 1029, PageUp: 1030, PageDown: 1031,
  Enter: 1280, Escape: 1281, Tab: 1282, Backspace: 1283, Insert: 1285, Delete: 1286,
};
/** vcl modifier bits. */
const SHIFT = 0x1000;
const MOD1 = 0x2000;
const MOD2 = 0x4000;

/** Ctrl/Cmd shortcuts that are UNO commands (the rest go to LibreOffice as keys). */
const SHORTCUTS: Record<string, string> = { b: '.uno:Bold', i: '.uno:Italic', u: '.uno:Underline', z: '.uno:Undo', y: '.uno:Redo', a: '.uno:SelectAll' };

/**
 * Keyboard, text, IME composition and mouse input of the document view, as editor messages: a hidden textarea
 * takes the focus so that typed text and composition come from the browser's own text input (IME included);
 * keys without text go as vcl key codes; mouse positions as twips. Ctrl+S saves.
 */
export function attachInput(view: TileView, send: (msg: ClientMessage) => void, save: () => void): HTMLTextAreaElement {
  const input = Object.assign(document.createElement('textarea'), { className: 'ode-input', autocapitalize: 'off', spellcheck: false });
  input.setAttribute('aria-label', 'Document text input');
  view.scroller.append(input);
  let composing = false;

  input.addEventListener('keydown', (e) => {
    if (composing || e.isComposing) return;
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === 's') {
      e.preventDefault();
      return save();
    }
    if (mod && !e.altKey && SHORTCUTS[e.key.toLowerCase()]) {
      e.preventDefault();
      return send({ type: 'uno', command: SHORTCUTS[e.key.toLowerCase()] });
    }
    const code = KEYS[e.key];
    if (code === undefined) return; // text: arrives through the input event
    e.preventDefault();
    const keyCode = code | (e.shiftKey ? SHIFT : 0) | (mod ? MOD1 : 0) | (e.altKey ? MOD2 : 0);
    const charCode = e.key === 'Enter' ? 13 : e.key === 'Tab' ? 9 : e.key === 'Backspace' ? 8 : 0;
    send({ type: 'key', event: 'input', charCode, keyCode });
    send({ type: 'key', event: 'up', charCode, keyCode });
  });
  input.addEventListener('input', () => {
    if (composing || !input.value) return;
    send({ type: 'textInput', text: input.value });
    input.value = '';
  });
  input.addEventListener('compositionstart', () => (composing = true));
  input.addEventListener('compositionupdate', (e) => send({ type: 'composition', text: e.data, stage: 'update' }));
  input.addEventListener('compositionend', (e) => {
    composing = false;
    send({ type: 'composition', text: e.data, stage: 'end' });
    input.value = '';
  });

  const mouse = (event: 'buttondown' | 'buttonup' | 'move', e: MouseEvent) => {
    const [x, y] = view.toTwips(e.clientX, e.clientY);
    const buttons = e.buttons & 1 ? 1 : e.buttons & 2 ? 4 : event === 'buttonup' ? 1 : 0;
    send({ type: 'mouse', event, x, y, count: Math.max(1, e.detail), buttons, modifier: (e.shiftKey ? SHIFT : 0) | (e.ctrlKey || e.metaKey ? MOD1 : 0) });
  };
  view.scroller.addEventListener('mousedown', (e) => {
    if (e.target === input) return;
    e.preventDefault();
    input.focus({ preventScroll: true });
    mouse('buttondown', e);
  });
  view.scroller.addEventListener('mouseup', (e) => mouse('buttonup', e));
  view.scroller.addEventListener('mousemove', (e) => {
    if (e.buttons & 1) mouse('move', e);
  });
  return input;
}
