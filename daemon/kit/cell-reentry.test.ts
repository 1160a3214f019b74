import { describe, expect, it } from 'vitest';
import { LOK_CALLBACK_CURSOR_VISIBLE, LOK_CALLBACK_JSDIALOG } from '../protocol/lok-enums.ts';
import { CellEdits, looksLikeFormula } from './cell-reentry.ts';

/** The formula bar's setText as LibreOffice 25.2 sends it (LOK_CALLBACK_JSDIALOG, measured). */
const setText = (text: string, selection: string) =>
  JSON.stringify({ jsontype: 'formulabar', action: 'action', id: 0, data: { control_id: 'sc_input_window', selection, text, action_type: 'setText' } });

/** A view editing a cell with `text`, the caret as `selection`. */
function editing(edits: CellEdits, viewId: number, text: string, selection: string): void {
  edits.offer(viewId, LOK_CALLBACK_CURSOR_VISIBLE, 'true');
  edits.offer(viewId, LOK_CALLBACK_JSDIALOG, setText(text, selection));
}

describe('cell-reentry: which cell an idle save enters and where the caret goes back', () => {
  it('formulas (what LibreOffice reads as one) are not entered; numbers and text are', () => {
    for (const f of ['=SUM(A1:', '=', '+A1', '-B2*2']) expect(looksLikeFormula(f)).toBe(true);
    for (const t of ['Hello', '-5', '+3.5', '- 12', '1e5', '50%', 'a=b']) expect(looksLikeFormula(t)).toBe(false);
  });

  it('plans the re-entry with the caret counted from the end of the text', () => {
    const edits = new CellEdits();
    expect(edits.plan(1)).toBe('none');
    editing(edits, 1, 'Hello', '5;5;0;0');
    expect(edits.plan(1)).toEqual({ viewId: 1, fromEnd: 0 });
    edits.offer(1, LOK_CALLBACK_JSDIALOG, setText('YHello', '1;1;0;0'));
    expect(edits.plan(1)).toEqual({ viewId: 1, fromEnd: 5 });
    // The edit ended: nothing to enter, and the text of that edit is forgotten.
    edits.offer(1, LOK_CALLBACK_CURSOR_VISIBLE, 'false');
    expect(edits.plan(1)).toBe('none');
    edits.offer(1, LOK_CALLBACK_CURSOR_VISIBLE, 'true');
    expect(edits.plan(1)).toBe('keep');
  });

  it('keeps edit mode for a formula, a selection, several lines, another view editing, or another view saving', () => {
    const cases: Array<[string, string]> = [
      ['=SUM(A1:', '8;8;0;0'],
      ['Test spreadsheet', '2;16;0;0'],
      ['two\nlines', '3;3;1;1'],
    ];
    for (const [text, selection] of cases) {
      const edits = new CellEdits();
      editing(edits, 1, text, selection);
      expect(edits.plan(1)).toBe('keep');
    }
    const two = new CellEdits();
    editing(two, 1, 'Hello', '5;5;0;0');
    expect(two.plan(2)).toBe('keep');
    editing(two, 2, 'World', '5;5;0;0');
    expect(two.plan(1)).toBe('keep');
    two.forget(2);
    expect(two.plan(1)).toEqual({ viewId: 1, fromEnd: 0 });
  });
});
