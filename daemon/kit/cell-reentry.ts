/**
 * A spreadsheet cell being edited, entered for a save and put back into edit mode (issue 16: what a user typed in a
 * cell is part of the idle save, and the user keeps typing in the cell where they were). The kit follows each view's
 * cell edit from its callbacks: LOK_CALLBACK_CURSOR_VISIBLE (true while the view edits a cell) and the formula bar's
 * LOK_CALLBACK_JSDIALOG `setText` (`{jsontype: 'formulabar', data: {control_id: 'sc_input_window', text, selection:
 * 'start;end;startPara;endPara'}}`, LibreOffice 25.2: the cell's text and the caret in it). A save that enters the cell
 * (`.uno:Save` without DontTerminateEdit) ends its edit mode; `reenter` then posts F2 (`.uno:SetInputMode`), which puts
 * LibreOffice 25.2 back into edit mode with the caret at the end of the text, and Left keys back to where it was
 * (measured with the kit alone; test/editing/autosave-cell-edit.test.ts proves it through the daemon).
 *
 * A cell is not entered, and stays in edit mode as Collabora's idle saves keep it (DontTerminateEdit), when entering
 * it could change what the user meant: a formula being typed (`=SUM(A1:` is not a formula yet: LibreOffice would
 * correct or refuse it), a selection in the text (an autocompletion LibreOffice proposes is selected: entering accepts
 * it), text on more than one line, a text the kit has not seen, or more than one view editing a cell.
 */
import type { LokDocument } from '../native/index.ts';
import { LOK_CALLBACK_CURSOR_VISIBLE, LOK_CALLBACK_JSDIALOG, LOK_KEYEVENT_KEYINPUT, LOK_KEYEVENT_KEYUP, VclKeyCode } from '../protocol/lok-enums.ts';

/** vcl KEY_F2 (vcl/keycodes.hxx): Calc's `.uno:SetInputMode`, edit mode in the current cell, caret at the end. */
const KEY_F2 = 769;

/** What the kit knows of one view's cell edit. */
interface CellEdit {
  /** LibreOffice shows the view's text cursor (a cell is being edited). */
  editing: boolean;
  /** The formula bar's text and caret as LibreOffice last sent them during this edit. */
  text?: string;
  selection?: [number, number, number, number];
}

/** How a save treats the cell a view is editing: enter it and restore the caret `fromEnd` characters before the end. */
export interface Reentry {
  viewId: number;
  fromEnd: number;
}

/**
 * A formula (or what LibreOffice would read as one): `=`, or `+`/`-` not followed by a number only. Entering a
 * formula half typed stores a corrected or broken formula, so such a cell stays in edit mode.
 */
export function looksLikeFormula(text: string): boolean {
  if (text.startsWith('=')) return true;
  return /^[+-]/.test(text) && !/^[+-]\s*\d[\d.,\s]*(e[+-]?\d+)?%?$/i.test(text);
}

/** Per document: the cell edit of each view (see the module docstring). */
export class CellEdits {
  readonly #views = new Map<number, CellEdit>();

  /** One callback of a view of a spreadsheet. */
  offer(viewId: number, type: number, payload: string): void {
    if (type === LOK_CALLBACK_CURSOR_VISIBLE) {
      const editing = payload.trim() === 'true';
      // A new edit starts from nothing the kit knows; an ended one is forgotten.
      this.#views.set(viewId, editing ? { ...this.#views.get(viewId), editing } : { editing });
      return;
    }
    if (type !== LOK_CALLBACK_JSDIALOG || !payload.includes('sc_input_window')) return;
    try {
      const msg = JSON.parse(payload) as { jsontype?: string; data?: { control_id?: string; action_type?: string; text?: unknown; selection?: unknown } };
      const d = msg.data;
      if (msg.jsontype !== 'formulabar' || d?.control_id !== 'sc_input_window' || d.action_type !== 'setText' || typeof d.text !== 'string') return;
      const sel = typeof d.selection === 'string' ? d.selection.split(';').map(Number) : [];
      const edit = this.#views.get(viewId) ?? { editing: false };
      edit.text = d.text;
      edit.selection = sel.length === 4 && sel.every(Number.isInteger) ? (sel as [number, number, number, number]) : undefined;
      this.#views.set(viewId, edit);
    } catch {
      // Not JSON: not the formula bar.
    }
  }

  /** True while LibreOffice shows the view's text cursor in a cell. */
  editing(viewId: number): boolean {
    return this.#views.get(viewId)?.editing === true;
  }

  /** The view left. */
  forget(viewId: number): void {
    this.#views.delete(viewId);
  }

  /**
   * How a save from `viewId` that may enter a cell treats the cells being edited: `none` (no view edits a cell: the
   * save changes nothing), `keep` (a cell stays in edit mode and its text is not in the file), or the re-entry.
   */
  plan(viewId: number): 'none' | 'keep' | Reentry {
    const editing = [...this.#views].filter(([, e]) => e.editing);
    if (editing.length === 0) return 'none';
    const [id, edit] = editing[0]!;
    if (editing.length > 1 || id !== viewId || edit.text === undefined || !edit.selection) return 'keep';
    const [start, end, startPara, endPara] = edit.selection;
    if (start !== end || startPara !== 0 || endPara !== 0 || /[\r\n]/.test(edit.text) || looksLikeFormula(edit.text)) return 'keep';
    if (end > edit.text.length) return 'keep';
    return { viewId, fromEnd: edit.text.length - end };
  }
}

/**
 * Puts the current view (the caller set it) back into edit mode in its cell (F2) and moves the caret `fromEnd`
 * characters left of the end. Posted keys, not user input: the edit journal never sees them (its replay types the
 * cell's text from the start of its edit). F2 runs through its accelerator, which posts `.uno:SetInputMode` in turn:
 * Left keys posted right behind it ran before it, in cell mode, and moved the cell cursor instead of the caret (the
 * next key then replaced another cell; autosave-cell-edit.test.ts, 2 runs of 3 at load). So `afterF2` is awaited
 * between the two (the kit's input fence, with hops: every event F2 posted has run). Resolves when the keys are posted.
 */
export async function reenter(doc: LokDocument, fromEnd: number, afterF2: () => Promise<void>): Promise<void> {
  doc.postKeyEvent(LOK_KEYEVENT_KEYINPUT, 0, KEY_F2);
  doc.postKeyEvent(LOK_KEYEVENT_KEYUP, 0, KEY_F2);
  if (fromEnd === 0) return;
  await afterF2();
  for (let i = 0; i < fromEnd; i++) {
    doc.postKeyEvent(LOK_KEYEVENT_KEYINPUT, 0, VclKeyCode.KEY_LEFT);
    doc.postKeyEvent(LOK_KEYEVENT_KEYUP, 0, VclKeyCode.KEY_LEFT);
  }
}
