/**
 * The pure parts of LibreOffice's JSDialogs (no DOM): the LOK_CALLBACK_JSDIALOG payloads the daemon forwards as
 * `dialog` messages (daemon/protocol/editor.md), their widget trees, and the `dialogEvent`s that answer them.
 * Shapes as LibreOffice's vcl/jsdialog (jsdialogbuilder.cxx writes them, executor.cxx reads the events) and as
 * Collabora's browser (Control.JSDialogBuilder.js) reads them; learnt from both and from LibreOffice 25.2's own
 * payloads for Format > Paragraph.
 */
import type { DialogEvent } from '../../../protocol/editor.ts';

/** One widget of a JSDialog's tree. Unknown fields are kept for the renderer (`entries`, `tabs`, `image`...). */
export interface JsWidget {
  /** The widget's id (not unique: unnamed containers have '', tab pages may repeat names such as `frame1`). */
  id: string;
  /** `container`, `grid`, `frame`, `fixedtext`, `formattedfield`, `listbox`, `checkbox`, `pushbutton`, ... */
  type: string;
  text?: string;
  enabled?: boolean;
  visible?: boolean;
  children?: JsWidget[];
  [field: string]: unknown;
}

/** The response buttons of a dialog: widget id and its response code (vcl RET_OK 1, RET_CANCEL 0, RET_HELP 10). */
export interface JsResponse {
  id: string;
  response: number;
}

/** A whole dialog (`{id, type: 'dialog', title, children, responses, init_focus_id, jsontype}`). */
export interface JsDialogTree extends JsWidget {
  title?: string;
  responses?: JsResponse[];
  init_focus_id?: string;
}

/** One `dialog` message, read. `windowId` is what `dialogEvent.windowId` answers with. */
export type JsDialogMessage =
  | { kind: 'full'; windowId: number; jsontype: string; dialog: JsDialogTree }
  | { kind: 'update'; windowId: number; jsontype: string; control: JsWidget }
  | { kind: 'action'; windowId: number; jsontype: string; controlId: string; actionType: string; data: Record<string, unknown> }
  | { kind: 'close'; windowId: number; jsontype: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isWidget = (v: unknown): v is JsWidget =>
  isObject(v) && typeof v.type === 'string' && (v.id === undefined || typeof v.id === 'string' || typeof v.id === 'number');

/** The widget with its id as a string and its children checked (widgets without a type are dropped). */
function normalise(w: JsWidget): JsWidget {
  const out: JsWidget = { ...w, id: w.id === undefined ? '' : String(w.id) };
  if (Array.isArray(w.children)) out.children = w.children.filter(isWidget).map(normalise);
  else delete out.children;
  return out;
}

/**
 * Reads a `dialog` message's `json` (a string, as LibreOffice wrote it). Returns undefined for what is not a
 * JSDialog message with a numeric window id (LibreOffice writes the id as a number or as a string of digits).
 */
export function parseJsDialog(json: string): JsDialogMessage | undefined {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!isObject(v)) return undefined;
  const windowId = Number(v.id);
  if (!Number.isSafeInteger(windowId) || windowId < 0) return undefined;
  const jsontype = typeof v.jsontype === 'string' ? v.jsontype : 'dialog';
  switch (v.action) {
    case 'close':
      return { kind: 'close', windowId, jsontype };
    case 'update':
      return isWidget(v.control) ? { kind: 'update', windowId, jsontype, control: normalise(v.control) } : undefined;
    case 'action': {
      const data = isObject(v.data) ? v.data : {};
      if (typeof data.control_id !== 'string' || typeof data.action_type !== 'string') return undefined;
      return { kind: 'action', windowId, jsontype, controlId: data.control_id, actionType: data.action_type, data };
    }
    case undefined:
      if (!isWidget({ ...v, id: '' })) return undefined;
      return { kind: 'full', windowId, jsontype, dialog: normalise({ ...(v as JsWidget), id: String(v.id) }) as JsDialogTree };
    default:
      return undefined;
  }
}

/**
 * A label's text without LibreOffice's mnemonic marker: `~Before text:` -> `Before text:` with key `B` (the
 * character after the first `~`; `~~` is a literal tilde).
 */
export function mnemonic(text: string): { label: string; key?: string } {
  let label = '';
  let key: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '~' && text[i + 1] === '~') {
      label += '~';
      i++;
    } else if (c === '~') {
      if (key === undefined && i + 1 < text.length) key = text[i + 1].toUpperCase();
    } else label += c;
  }
  return key === undefined ? { label } : { label, key };
}

/**
 * A widget or dialog id as words: the last part of a path (`cui/ui/splitcellsdialog`), its camel case and
 * underscores split, the first letter capital (`SplitCellsDialog` -> `Split cells dialog`, `chart_wizard` ->
 * `Chart wizard`). Empty for an empty or numeric id (a window id says nothing to a user).
 */
export function humanise(id: string): string {
  const last = id.split('/').at(-1) ?? '';
  if (/^\d*$/.test(last)) return '';
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The accessible name of a JSDialog (WCAG 4.1.2; axe `aria-dialog-name`): LibreOffice's `title` (mnemonic marker
 * removed), else its `text`, else its `dialogid` (the .ui file and dialog LibreOffice built it from) humanised, else
 * its widget tree's first child's id humanised. Empty when none says anything; the caller then names it itself.
 */
export function dialogName(tree: JsDialogTree): string {
  const given = mnemonic(typeof tree.title === 'string' ? tree.title : typeof tree.text === 'string' ? tree.text : '').label.trim();
  if (given) return given;
  if (typeof tree.dialogid === 'string' && humanise(tree.dialogid)) return humanise(tree.dialogid);
  return humanise(tree.children?.[0]?.id ?? '');
}

/** The widget of `root`'s tree with `id` (the first in document order), or undefined. */
export function findWidget(root: JsWidget, id: string): JsWidget | undefined {
  if (id === '') return undefined;
  if (root.id === id) return root;
  for (const c of root.children ?? []) {
    const hit = findWidget(c, id);
    if (hit) return hit;
  }
  return undefined;
}

/** Replaces, in place, the first widget of `root`'s tree with `control.id` and the same type. False when none. */
export function replaceWidget(root: JsWidget, control: JsWidget): boolean {
  const children = root.children ?? [];
  for (let i = 0; i < children.length; i++) {
    if (children[i].id === control.id && control.id !== '' && children[i].type === control.type) {
      children[i] = control;
      return true;
    }
    if (replaceWidget(children[i], control)) return true;
  }
  return false;
}

/**
 * The number a spin field's text means, as the text of `dialogEvent.data` (LibreOffice's executor reads it with
 * its own toDouble, in the field's unit): `1"` -> `1`, `0,5 cm` -> `0.5`, `-1.25″` -> `-1.25`. Undefined when the
 * text has no number.
 */
export function spinValue(text: string): string | undefined {
  const m = /[-+−]?\d+(?:[.,]\d*)?|[-+−]?[.,]\d+/.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[0].replace('−', '-').replace(',', '.'));
  return Number.isFinite(n) ? String(n) : undefined;
}

/** Widget types LibreOffice's executor takes `change`/`value` with a number for (metric and formatted fields too). */
export const SPIN_TYPES: ReadonlySet<string> = new Set(['spinfield', 'formattedfield', 'metricfield']);

/** The response code of widget `id` in `dialog`, or undefined when it is not a response button. */
export function responseOf(dialog: JsDialogTree, id: string): number | undefined {
  return dialog.responses?.find((r) => r.id === id)?.response;
}

/** vcl's response codes (vcl/vclenum.hxx RET_*). */
export const RESPONSE = { cancel: 0, ok: 1, close: 7, help: 10, reset: 101 } as const;

/**
 * The event of a click on button `id` of `dialog`: a response button goes as `responsebutton` with its response
 * code as `data` (`{id: 'ok', cmd: 'click', data: '1', type: 'responsebutton'}`, as Collabora's JSDialogBuilder
 * sends it), others as `pushbutton`. LibreOffice 25.2's executor runs the button's own click handler when it has
 * one (Format > Paragraph's OK), else ends the dialog with the response read from `data`: without `data` that
 * response is 0, RET_CANCEL, and a dialog whose OK has no handler of its own (Table > Split cells) closed as
 * cancelled.
 */
export function clickEvent(dialog: JsDialogTree, id: string): DialogEvent {
  const response = responseOf(dialog, id);
  return response !== undefined ? { id, cmd: 'click', data: String(response), type: 'responsebutton' } : { id, cmd: 'click', type: 'pushbutton' };
}

/**
 * The id of the button that ends `dialog` with `response` (RESPONSE.ok for Enter, RESPONSE.cancel or, in dialogs
 * without Cancel such as Word count, RESPONSE.close for Escape): the response table first, then a button named
 * `ok` / `cancel` / `close`. Undefined when the dialog has none.
 */
export function responseButton(dialog: JsDialogTree, response: number): string | undefined {
  const byTable = dialog.responses?.find((r) => r.response === response)?.id;
  if (byTable) return byTable;
  const name = response === RESPONSE.ok ? 'ok' : response === RESPONSE.cancel ? 'cancel' : response === RESPONSE.close ? 'close' : undefined;
  return name && findWidget(dialog, name)?.type === 'pushbutton' ? name : undefined;
}
