import type { LokDocument } from '../native/index.ts';
import {
  LOK_KEYEVENT_KEYINPUT,
  LOK_KEYEVENT_KEYUP,
  LOK_MOUSEEVENT_MOUSEBUTTONDOWN,
  LOK_MOUSEEVENT_MOUSEBUTTONUP,
  LOK_MOUSEEVENT_MOUSEMOVE,
  LOK_SETTEXTSELECTION_END,
  LOK_SETTEXTSELECTION_RESET,
  LOK_SETTEXTSELECTION_START,
  VclKeyCode,
  VclKeyModifier,
  LOK_EXT_TEXTINPUT,
  LOK_EXT_TEXTINPUT_END,
  LOK_DOCTYPE_PRESENTATION,
} from '../protocol/lok-enums.ts';
import type { KitEditEvent } from '../protocol/kit.ts';

const KEY_TYPE = { input: LOK_KEYEVENT_KEYINPUT, up: LOK_KEYEVENT_KEYUP } as const;
const MOUSE_TYPE = { buttondown: LOK_MOUSEEVENT_MOUSEBUTTONDOWN, buttonup: LOK_MOUSEEVENT_MOUSEBUTTONUP, move: LOK_MOUSEEVENT_MOUSEMOVE } as const;
const SELECT_TYPE = { start: LOK_SETTEXTSELECTION_START, end: LOK_SETTEXTSELECTION_END, reset: LOK_SETTEXTSELECTION_RESET } as const;

/** The key code without its modifier bits (vcl/keycodes.hxx: the low 12 bits). */
const KEY_CODE_MASK = 0x0fff;
const MODIFIERS = VclKeyModifier.KEY_SHIFT | VclKeyModifier.KEY_MOD1 | VclKeyModifier.KEY_MOD2 | VclKeyModifier.KEY_MOD3;
/** vcl KEY_A .. KEY_Z (512 + letter index). */
const KEY_A = 512;
const letter = (c: string) => KEY_A + c.charCodeAt(0) - 'A'.charCodeAt(0);

/** Keys that only move the cursor or the selection (with or without Shift/Ctrl), or leave a mode. */
const NAVIGATION_KEYS = new Set<number>([
  VclKeyCode.KEY_DOWN,
  VclKeyCode.KEY_UP,
  VclKeyCode.KEY_LEFT,
  VclKeyCode.KEY_RIGHT,
  VclKeyCode.KEY_HOME,
  VclKeyCode.KEY_END,
  VclKeyCode.KEY_PAGEUP,
  VclKeyCode.KEY_PAGEDOWN,
  VclKeyCode.KEY_ESCAPE,
]);
/** Ctrl+key shortcuts that do not modify: copy, select all, find. */
const SAFE_CTRL_KEYS = new Set<number>([letter('C'), letter('A'), letter('F'), VclKeyCode.KEY_INSERT]);

/**
 * UNO commands a read-only view may dispatch: copying, selecting, moving the cursor, searching without
 * replacing, zooming. Everything else may change the document.
 */
const SAFE_UNO =
  /^\.uno:(Copy|SelectAll|Select\w*|GoTo\w*|Go(Up|Down|Left|Right)\w*|Jump\w*|Word(Left|Right)\w*|(Start|End)Of\w*|Page(Up|Down)\w*|Zoom\w*|ExecuteSearch|SearchResultSelection)$/;

/** SvxSearchCmd values of `.uno:ExecuteSearch` that only find: FIND (0) and FIND_ALL (1). */
function isFindOnly(args: string | undefined): boolean {
  try {
    const parsed = JSON.parse(args ?? '{}') as Record<string, { value?: unknown }>;
    const command = Number(parsed['SearchItem.Command']?.value ?? 0);
    return command === 0 || command === 1;
  } catch {
    return false;
  }
}

/** The comment commands a comments-only view (a pdf opened with view_comment) may send (LibreOffice's UNO names). */
const COMMENT_UNO =
  /^\.uno:(InsertAnnotation|EditAnnotation|DeleteAnnotation|ReplyToAnnotation|ReplyComment|DeleteComment|DeleteAllAnnotation|DeleteAllAnnotationByAuthor)$/;

/** True for a comment command: the one change a comments-only view may make (kit.md `createView` `commentsOnly`). */
export function isCommentCommand(event: KitEditEvent): boolean {
  return event.type === 'uno' && COMMENT_UNO.test(event.command);
}

/**
 * True when `event` cannot change the document, so a read-only view may send it. The kit filters a read-only
 * view's input as well as making the view read-only in LibreOffice (setViewReadOnly, view-rights.ts; the filter is
 * the only wall on a LibreOffice without that call): typing, IME, dialogs and every UNO command outside a safe
 * list (copy, select, navigate, find, zoom) are dropped; navigation keys (with Shift to select), Ctrl+C/A/F,
 * mouse, selection handles, part switching, zoom and visible area pass (LibreOffice's read-only view stops what
 * the mouse could change, e.g. dragging a shape).
 */
export function allowedInReadOnly(event: KitEditEvent): boolean {
  switch (event.type) {
    case 'key': {
      const code = event.keyCode & KEY_CODE_MASK;
      const mods = event.keyCode & MODIFIERS;
      if (NAVIGATION_KEYS.has(code)) return (mods & (VclKeyModifier.KEY_MOD2 | VclKeyModifier.KEY_MOD3)) === 0;
      if (mods === VclKeyModifier.KEY_MOD1 && SAFE_CTRL_KEYS.has(code)) return true;
      return false;
    }
    case 'uno':
      return SAFE_UNO.test(event.command) && (event.command !== '.uno:ExecuteSearch' || isFindOnly(event.args));
    case 'mouse':
    case 'selectText':
    case 'setPart':
    case 'clientZoom':
    case 'clientVisibleArea':
      return true;
    default:
      return false;
  }
}

/**
 * Types `text` as key events (input then up for each character; '\n' as Return), the route for `textInput` that
 * holds line breaks. Characters outside the BMP go as their two UTF-16 units, which is what LibreOffice's key
 * input sees from a desktop IME too.
 */
export function typeText(doc: LokDocument, text: string): void {
  for (const ch of text) {
    if (ch === '\n' || ch === '\r') {
      if (ch === '\r') continue;
      doc.postKeyEvent(LOK_KEYEVENT_KEYINPUT, 13, VclKeyCode.KEY_RETURN);
      doc.postKeyEvent(LOK_KEYEVENT_KEYUP, 13, VclKeyCode.KEY_RETURN);
      continue;
    }
    for (let i = 0; i < ch.length; i++) {
      const unit = ch.charCodeAt(i);
      doc.postKeyEvent(LOK_KEYEVENT_KEYINPUT, unit, 0);
      doc.postKeyEvent(LOK_KEYEVENT_KEYUP, unit, 0);
    }
  }
}

/**
 * Commits `text` as IME input: LOK_EXT_TEXTINPUT with the final text, then LOK_EXT_TEXTINPUT_END (which commits
 * whatever pre-edit text is showing and ignores its own text argument, desktop/source/lib/init.cxx; 7.4 and 25.2: kit-editing/editing.test.ts).
 */
function commitText(doc: LokDocument, text: string): void {
  doc.postWindowExtTextInputEvent(0, LOK_EXT_TEXTINPUT, text);
  doc.postWindowExtTextInputEvent(0, LOK_EXT_TEXTINPUT_END, '');
}

/** True when the current view of a presentation shows the notes page (getEditMode 2 after `.uno:NotesMode`). */
function inNotesView(doc: LokDocument): boolean {
  if (doc.getDocumentType() !== LOK_DOCTYPE_PRESENTATION) return false;
  try {
    return doc.getEditMode() === 2;
  } catch {
    return false;
  }
}

/** Why an event was dropped instead of reaching LibreOffice. */
export type DroppedReason = 'read_only' | 'unsupported';

/**
 * Performs one input event (kit.md, Editing: `event`; fields as in editor.md) on the current view, which the
 * caller has set with setView (twip coordinates are rounded to integers). Returns the reason when the event was dropped: `read_only` for a read-only
 * view (allowedInReadOnly); `unsupported` is not returned by this function today (kept for calls a LibreOffice lacks).
 * Compositions and text go through postWindowExtTextInputEvent (pre-edit text while composing, then the commit).
 * LOK calls: postKeyEvent, postMouseEvent, setTextSelection, postUnoCommand, setPart, setClientZoom,
 * setClientVisibleArea, postWindowKeyEvent, postWindowMouseEvent, sendDialogEvent (a JSDialog widget's event).
 * @throws LokError invalid_argument for out-of-range numbers (bad JSON `args` included).
 */
export function dispatchEvent(doc: LokDocument, event: KitEditEvent, readOnly: boolean): DroppedReason | undefined {
  if (readOnly && !allowedInReadOnly(event)) return 'read_only';
  switch (event.type) {
    case 'key':
      doc.postKeyEvent(KEY_TYPE[event.event], event.charCode, event.keyCode);
      return;
    case 'textInput':
      // Text without line breaks goes in as one committed input (as an IME commits it); line breaks as Return keys.
      // A presentation view in View > Notes (edit mode 2) gets keys: LibreOffice 25.2 does not put committed input
      // of window 0 into the notes being edited (test/kit-editing/notes-probe.ts --ext: the notes stayed empty).
      if (/[\r\n]/.test(event.text) || inNotesView(doc)) typeText(doc, event.text);
      else commitText(doc, event.text);
      return;
    case 'composition':
      // IME: `update` shows the pre-edit text in the document, `end` commits the final text (window 0: the document).
      if (event.stage === 'end') commitText(doc, event.text);
      else doc.postWindowExtTextInputEvent(0, LOK_EXT_TEXTINPUT, event.text);
      return;
    case 'mouse':
      // A press on a selection can start a drag that moves the text: a read-only view's press drops its
      // selection first (Shift+click extends a selection and never drags).
      if (readOnly && event.event === 'buttondown' && event.modifier !== VclKeyModifier.KEY_SHIFT) doc.resetSelection();
      doc.postMouseEvent(MOUSE_TYPE[event.event], Math.round(event.x), Math.round(event.y), event.count, event.buttons, event.modifier);
      return;
    case 'selectText':
      doc.setTextSelection(SELECT_TYPE[event.kind], Math.round(event.x), Math.round(event.y));
      return;
    case 'uno':
      doc.postUnoCommand(event.command, event.args, event.notify === true);
      return;
    case 'setPart':
      doc.setPart(event.part);
      return;
    case 'clientZoom':
      doc.setClientZoom(event.tilePixelWidth, event.tilePixelHeight, Math.round(event.tileTwipWidth), Math.round(event.tileTwipHeight));
      return;
    case 'clientVisibleArea':
      doc.setClientVisibleArea(Math.round(event.x), Math.round(event.y), Math.round(event.width), Math.round(event.height));
      return;
    case 'windowKey':
      doc.postWindowKeyEvent(event.windowId, KEY_TYPE[event.event], event.charCode, event.keyCode);
      return;
    case 'windowMouse':
      doc.postWindowMouseEvent(event.windowId, MOUSE_TYPE[event.event], Math.round(event.x), Math.round(event.y), event.count, event.buttons, event.modifier);
      return;
    case 'dialogEvent':
      doc.sendDialogEvent(event.windowId, JSON.stringify(event.event));
      return;
  }
}
