import type { ClientMessage } from '../../../protocol/editor.ts';
import type { CommandRegistry } from '../core/commands.ts';
import { t } from '../core/i18n.ts';
import { ALIGN_SHORTCUTS, CLIPBOARD_KEYS, COMMAND_SHORTCUTS, comboOf, MOD1, SHIFT, UNO_SHORTCUTS, vclKey } from './keys.ts';
import { textEdit } from './text-edit.ts';
import type { TileView } from './tile-view.ts';

/** What the input needs besides the view. */
export interface InputDeps {
  send(msg: ClientMessage): void;
  commands: CommandRegistry;
  /** Ctrl+S when no `file.save` command is registered. */
  save(): void;
  /** The document type (alignment shortcuts are not the spreadsheet's). */
  docType(): string | undefined;
  /** A key or text went to LibreOffice: the caret is followed into view. */
  typed(): void;
  /** Ctrl+C (false) or Ctrl+X (true). */
  copy(cut: boolean): void;
  /** A mouse press at client px (a context menu or link popup LibreOffice answers opens there). */
  pressed(clientX: number, clientY: number): void;
}

/** Copy (false) and cut (true) keys. */
const COPY_KEYS: Record<string, boolean> = { 'Ctrl+C': false, 'Ctrl+Insert': false, 'Ctrl+X': true, 'Shift+Delete': true };

/** LOK mouse buttons (vcl MOUSE_LEFT, MOUSE_MIDDLE, MOUSE_RIGHT) by MouseEvent.button. */
const BUTTONS = [1, 2, 4];

/**
 * Keyboard, text, IME composition, mouse and wheel input of the document view, as editor messages. A hidden
 * textarea that follows the caret takes the focus, so typed text and compositions come from the browser's own
 * text input (the IME popup shows at the caret); keys without text go as vcl key codes (keys.ts); shortcuts of
 * editor commands run the command; mouse positions go as twips, moves while a button is held throttled to
 * animation frames; Ctrl+wheel and pinch zoom around the pointer. Marks `ode:key` when a key or text is sent.
 * On-screen keyboards (no key events, autocorrect, suggestions): the textarea keeps the text typed since the caret
 * was placed and each change to it is replayed (text-edit.ts); touch gestures are touch.ts's.
 */
export function attachInput(view: TileView, deps: InputDeps): HTMLTextAreaElement {
  const { send } = deps;
  const input = Object.assign(document.createElement('textarea'), { className: 'ode-input', autocapitalize: 'off', spellcheck: false });
  input.setAttribute('aria-label', t('view.input'));
  input.setAttribute('autocomplete', 'off');
  input.setAttribute('autocorrect', 'off');
  view.layer.append(input);
  let composing = false;
  const typed = (msg: ClientMessage) => {
    performance.mark('ode:key');
    send(msg);
    deps.typed();
  };
  const key = (charCode: number, keyCode: number) => {
    typed({ type: 'key', event: 'input', charCode, keyCode });
    send({ type: 'key', event: 'up', charCode, keyCode });
  };

  input.addEventListener('focus', () => view.setFocused(true));
  input.addEventListener('blur', () => view.setFocused(false));
  view.onCaretMoved = (rect) => {
    const l = view.local(rect);
    input.style.left = `${l.left}px`;
    input.style.top = `${l.top}px`;
    input.style.height = `${Math.max(l.height, 12)}px`;
  };

  // On-screen keyboards: the input keeps the text typed since the caret was placed (`context`), so autocorrect and
  // suggestions can replace a word in it; each change is replayed from the difference (text-edit.ts).
  let context = '';
  const forget = () => {
    context = '';
    if (!composing) input.value = '';
  };
  input.addEventListener('keydown', (e) => {
    if (composing || e.isComposing || e.key === 'Process' || e.key === 'Dead') return;
    const combo = comboOf(e);
    const id = COMMAND_SHORTCUTS[combo];
    if (id && (deps.commands.get(id) || id === 'file.save')) {
      e.preventDefault();
      forget();
      if (deps.commands.get(id)) deps.commands.run(id);
      else deps.save();
      return;
    }
    // Copy and cut: written with the async clipboard API (Chromium fires no copy event without a DOM selection);
    // paste: the browser's paste event on this element (clipboard.ts).
    if (COPY_KEYS[combo] !== undefined) {
      e.preventDefault();
      forget();
      return deps.copy(COPY_KEYS[combo]);
    }
    if (CLIPBOARD_KEYS.has(combo)) return forget();
    const uno = UNO_SHORTCUTS[combo] ?? (deps.docType() === 'spreadsheet' ? undefined : ALIGN_SHORTCUTS[combo]);
    if (uno) {
      e.preventDefault();
      forget();
      return typed({ type: 'uno', command: uno });
    }
    const k = vclKey(e);
    if (!k) return; // text: arrives through the input event
    e.preventDefault();
    forget();
    key(k.charCode, k.keyCode);
  });
  /** Sends the edit that made `after` of `before`. */
  const replay = (before: string, after: string) => {
    const edit = textEdit(before, after);
    if (!edit) return;
    for (let i = 0; i < edit.left; i++) key(0, 1026);
    for (let i = 0; i < edit.back; i++) key(8, 1283);
    if (edit.text) typed({ type: 'textInput', text: edit.text });
    for (let i = 0; i < edit.left; i++) key(0, 1027);
  };
  input.addEventListener('beforeinput', (e) => {
    if (composing || e.isComposing) return;
    const atStart = input.selectionStart === 0 && input.selectionEnd === 0;
    const atEnd = input.selectionStart === input.value.length && input.selectionEnd === input.value.length;
    // Nothing in the input to delete or a new line: the key goes to LibreOffice as such.
    const keyOf: Record<string, [number, number] | undefined> = {
      insertParagraph: [13, 1280],
      insertLineBreak: [13, 1280 | SHIFT],
      deleteContentBackward: atStart ? [8, 1283] : undefined,
      deleteWordBackward: atStart ? [8, 1283 | MOD1] : undefined,
      deleteContentForward: atEnd ? [0, 1286] : undefined,
      deleteWordForward: atEnd ? [0, 1286 | MOD1] : undefined,
    };
    const k = keyOf[e.inputType];
    if (!k) return;
    e.preventDefault();
    if (e.inputType.startsWith('insert')) forget();
    key(k[0], k[1]);
  });
  input.addEventListener('input', () => {
    if (composing) return;
    replay(context, input.value);
    context = input.value;
    // Long runs of typing: only the last words stay (a keyboard corrects the word it just saw).
    if (context.length > 200) input.value = context = context.slice(-80);
  });
  input.addEventListener('compositionstart', (e) => {
    composing = true;
    // A keyboard that composes a word already typed (back into a word, a suggestion): it goes, the composition retypes it.
    if (e.data && context.endsWith(e.data)) {
      for (let i = 0; i < Array.from(e.data).length; i++) key(8, 1283);
      context = context.slice(0, context.length - e.data.length);
    }
  });
  input.addEventListener('compositionupdate', (e) => send({ type: 'composition', text: e.data, stage: 'update' }));
  input.addEventListener('compositionend', (e) => {
    composing = false;
    typed({ type: 'composition', text: e.data, stage: 'end' });
    context = input.value;
  });

  // Mouse: press, moves while held (one per frame), release; the release may happen outside the view.
  const modifier = (e: MouseEvent) => (e.shiftKey ? SHIFT : 0) | (e.ctrlKey || e.metaKey ? MOD1 : 0);
  const mouse = (event: 'buttondown' | 'buttonup' | 'move', e: MouseEvent, buttons: number, count: number) => {
    const [x, y] = view.toTwips(e.clientX, e.clientY);
    send({ type: 'mouse', event, x, y, count, buttons, modifier: modifier(e) });
  };
  let held = 0;
  let count = 1;
  let moveFrame = 0;
  let lastMove: MouseEvent | undefined;
  const onMove = (e: MouseEvent) => {
    lastMove = e;
    if (!moveFrame) moveFrame = requestAnimationFrame(() => ((moveFrame = 0), lastMove && mouse('move', lastMove, held, 1)));
  };
  const onUp = (e: MouseEvent) => {
    if (!BUTTONS[e.button] || BUTTONS[e.button] !== held) return;
    cancelAnimationFrame(moveFrame);
    moveFrame = 0;
    mouse('buttonup', e, held, count);
    held = 0;
    window.removeEventListener('mousemove', onMove);
    window.removeEventListener('mouseup', onUp);
  };
  view.scroller.addEventListener('mousedown', (e) => {
    if (e.target === input || held || !BUTTONS[e.button]) return;
    // Clicks on the scrollbars are the browser's.
    const box = view.scroller.getBoundingClientRect();
    if (e.clientX - box.left >= view.scroller.clientWidth || e.clientY - box.top >= view.scroller.clientHeight) return;
    e.preventDefault();
    forget();
    input.focus({ preventScroll: true });
    held = BUTTONS[e.button];
    count = Math.min(Math.max(1, e.detail), 4);
    mouse('buttondown', e, held, count);
    deps.pressed(e.clientX, e.clientY);
    window.addEventListener('mousemove', onMove);
    window.addEventListener('mouseup', onUp);
  });
  view.scroller.addEventListener('contextmenu', (e) => e.preventDefault());

  // Ctrl+wheel (and trackpad pinch, which Chromium reports as a ctrlKey wheel) zooms around the pointer.
  view.scroller.addEventListener(
    'wheel',
    (e) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      const delta = e.deltaMode === 1 ? e.deltaY * 20 : e.deltaMode === 2 ? e.deltaY * 400 : e.deltaY;
      view.setZoom(view.zoom * Math.exp(-delta * 0.002), { clientX: e.clientX, clientY: e.clientY }, true);
    },
    { passive: false },
  );
  return input;
}
