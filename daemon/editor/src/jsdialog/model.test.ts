import { describe, expect, it } from 'vitest';
import {
  clickEvent,
  dialogName,
  findWidget,
  humanise,
  mnemonic,
  parseJsDialog,
  replaceWidget,
  RESPONSE,
  responseButton,
  spinValue,
  type JsDialogTree,
} from './model.ts';

/** A Paragraph dialog cut down to the shapes LibreOffice 25.2 sends (ids, types and fields as it writes them). */
const PARAGRAPH = JSON.stringify({
  id: 10,
  type: 'dialog',
  title: 'Paragraph',
  jsontype: 'dialog',
  init_focus_id: 'spinED_LEFTINDENT',
  responses: [
    { id: 'reset', response: 101 },
    { id: 'cancel', response: 0 },
    { id: 'help', response: 10 },
    { id: 'ok', response: 1 },
  ],
  children: [
    {
      id: 'tabcontrol',
      type: 'tabcontrol',
      selected: 1,
      tabs: [{ text: 'Indents & Spacing', id: 1, name: 'labelTP_PARA_STD' }],
      children: [
        {
          id: '',
          type: 'tabpage',
          children: [
            { id: 'labelFT_LEFTINDENT', type: 'fixedtext', text: '~Before text:', labelFor: 'spinED_LEFTINDENT', left: 0, top: 0 },
            {
              id: 'spinED_LEFTINDENT',
              type: 'formattedfield',
              text: '0.00″',
              labelledBy: 'labelFT_LEFTINDENT',
              min: -3936.61,
              max: 5.57,
              value: 0,
              step: 0.02,
            },
          ],
        },
      ],
    },
    { id: 'ok', type: 'pushbutton', text: '~OK' },
    { id: 'cancel', type: 'pushbutton', text: '~Cancel' },
  ],
});

describe('LibreOffice JSDialog payloads (jsdialog/model.ts)', () => {
  it('reads a whole dialog, an update, an action and a close as LibreOffice 25.2 writes them (ids as numbers or strings)', () => {
    const full = parseJsDialog(PARAGRAPH);
    expect(full).toMatchObject({
      kind: 'full',
      windowId: 10,
      jsontype: 'dialog',
      dialog: { id: '10', title: 'Paragraph', init_focus_id: 'spinED_LEFTINDENT' },
    });
    const update = parseJsDialog(
      '{ "jsontype": "dialog", "action": "update", "id": 10, "control": { "id": "spinED_LEFTINDENT", "type": "formattedfield", "text": "1.00″", "value": 1, "children": [{ "id": "", "type": "edit", "text": "1.00″" }] } }',
    );
    expect(update).toMatchObject({ kind: 'update', windowId: 10, control: { id: 'spinED_LEFTINDENT', text: '1.00″', children: [{ id: '', type: 'edit' }] } });
    expect(parseJsDialog('{ "jsontype": "dialog", "action": "action", "id": 10, "data": { "control_id": "reset", "action_type": "hide" } }')).toEqual({
      kind: 'action',
      windowId: 10,
      jsontype: 'dialog',
      controlId: 'reset',
      actionType: 'hide',
      data: { control_id: 'reset', action_type: 'hide' },
    });
    expect(parseJsDialog('{ "jsontype": "dialog", "type": "modalpopup", "action": "close", "id": "12"}')).toEqual({
      kind: 'close',
      windowId: 12,
      jsontype: 'dialog',
    });
    expect(parseJsDialog('{ "jsontype": "popup", "action": "update", "id": 11, "control": { "id": "x", "type": "toolbox" } }')).toMatchObject({
      kind: 'update',
      jsontype: 'popup',
    });
  });
  it('refuses what is not a JSDialog message', () => {
    for (const bad of [
      'nope',
      '[]',
      '{"action":"close"}',
      '{"id":"x","action":"close"}',
      '{"id":1,"action":"update","control":{"id":"a"}}',
      '{"id":1,"action":"action","data":{}}',
      '{"id":1,"action":"explode"}',
      '{"id":1}',
    ]) {
      expect(parseJsDialog(bad), bad).toBeUndefined();
    }
  });
  it('finds and replaces widgets by id (the first of a type; unnamed containers are never matched)', () => {
    const tree = (parseJsDialog(PARAGRAPH) as { dialog: JsDialogTree }).dialog;
    expect(findWidget(tree, 'spinED_LEFTINDENT')?.text).toBe('0.00″');
    expect(findWidget(tree, '')).toBeUndefined();
    expect(replaceWidget(tree, { id: 'spinED_LEFTINDENT', type: 'formattedfield', text: '1.00″' })).toBe(true);
    expect(findWidget(tree, 'spinED_LEFTINDENT')?.text).toBe('1.00″');
    expect(replaceWidget(tree, { id: 'spinED_LEFTINDENT', type: 'checkbox' })).toBe(false);
    expect(replaceWidget(tree, { id: 'nowhere', type: 'edit' })).toBe(false);
  });
  it('labels without the mnemonic marker, spin values as numbers, response buttons', () => {
    expect(mnemonic('~Before text:')).toEqual({ label: 'Before text:', key: 'B' });
    expect(mnemonic('Ab~ove paragraph:')).toEqual({ label: 'Above paragraph:', key: 'O' });
    expect(mnemonic('a ~~ b')).toEqual({ label: 'a ~ b' });
    expect(spinValue('1"')).toBe('1');
    expect(spinValue('0,5 cm')).toBe('0.5');
    expect(spinValue(' -1.25″')).toBe('-1.25');
    expect(spinValue('.5')).toBe('0.5');
    expect(spinValue('none')).toBeUndefined();
    const tree = (parseJsDialog(PARAGRAPH) as { dialog: JsDialogTree }).dialog;
    expect(responseButton(tree, RESPONSE.ok)).toBe('ok');
    expect(responseButton(tree, RESPONSE.cancel)).toBe('cancel');
    expect(clickEvent(tree, 'ok')).toEqual({ id: 'ok', cmd: 'click', data: '1', type: 'responsebutton' });
    expect(clickEvent(tree, 'other')).toEqual({ id: 'other', cmd: 'click', type: 'pushbutton' });
    // Without a response table, buttons named ok / cancel are the dialog's.
    const bare: JsDialogTree = { id: '3', type: 'dialog', children: [{ id: 'ok', type: 'pushbutton' }] };
    expect(responseButton(bare, RESPONSE.ok)).toBe('ok');
    expect(responseButton(bare, RESPONSE.cancel)).toBeUndefined();
    // A dialog without Cancel (Word count): its Close button (vcl RET_CLOSE 7, GTK's -7).
    const closing: JsDialogTree = {
      id: '4',
      type: 'dialog',
      responses: [
        { id: 'close', response: 7 },
        { id: 'help', response: 10 },
      ],
      children: [{ id: 'close', type: 'pushbutton' }],
    };
    expect(responseButton(closing, RESPONSE.cancel)).toBeUndefined();
    expect(responseButton(closing, RESPONSE.close)).toBe('close');
    expect(responseButton({ ...closing, responses: [] }, RESPONSE.close)).toBe('close');
  });
  it("names a dialog by its title, else by LibreOffice's dialog id or first child's id in words", () => {
    expect(humanise('SplitCellsDialog')).toBe('Split cells dialog');
    expect(humanise('cui/ui/splitcellsdialog')).toBe('Splitcellsdialog');
    expect(humanise('chart_wizard')).toBe('Chart wizard');
    expect(humanise('42')).toBe('');
    expect(humanise('')).toBe('');
    expect(dialogName({ id: '7', type: 'dialog', title: '~Split Cells' })).toBe('Split Cells');
    expect(dialogName({ id: '7', type: 'dialog', title: '', dialogid: 'ChartTypeDialog' })).toBe('Chart type dialog');
    expect(dialogName({ id: '7', type: 'modalpopup', children: [{ id: 'FloatingUnderline', type: 'container' }] })).toBe('Floating underline');
    expect(dialogName({ id: '7', type: 'dialog', children: [{ id: '', type: 'container' }] })).toBe('');
  });
});
