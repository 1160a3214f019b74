import type { CalcFunction, Rect, ServerMessage } from '../../protocol/editor.ts';
import {
  LOK_CALLBACK_CALC_FUNCTION_LIST,
  LOK_CALLBACK_CELL_ADDRESS,
  LOK_CALLBACK_CELL_AUTO_FILL_AREA,
  LOK_CALLBACK_CELL_CURSOR,
  LOK_CALLBACK_CELL_FORMULA,
  LOK_CALLBACK_CELL_VIEW_CURSOR,
  LOK_CALLBACK_COMMENT,
  LOK_CALLBACK_CONTEXT_MENU,
  LOK_CALLBACK_CURSOR_VISIBLE,
  LOK_CALLBACK_DOCUMENT_SIZE_CHANGED,
  LOK_CALLBACK_ERROR,
  LOK_CALLBACK_GRAPHIC_SELECTION,
  LOK_CALLBACK_GRAPHIC_VIEW_SELECTION,
  LOK_CALLBACK_HYPERLINK_CLICKED,
  LOK_CALLBACK_INVALIDATE_HEADER,
  LOK_CALLBACK_INVALIDATE_SHEET_GEOMETRY,
  LOK_CALLBACK_INVALIDATE_TILES,
  LOK_CALLBACK_INVALIDATE_VIEW_CURSOR,
  LOK_CALLBACK_INVALIDATE_VISIBLE_CURSOR,
  LOK_CALLBACK_JSDIALOG,
  LOK_CALLBACK_RULER_UPDATE,
  LOK_CALLBACK_SEARCH_NOT_FOUND,
  LOK_CALLBACK_SEARCH_RESULT_SELECTION,
  LOK_CALLBACK_SET_PART,
  LOK_CALLBACK_STATE_CHANGED,
  LOK_CALLBACK_TEXT_SELECTION,
  LOK_CALLBACK_TEXT_SELECTION_END,
  LOK_CALLBACK_TEXT_SELECTION_START,
  LOK_CALLBACK_TEXT_VIEW_SELECTION,
  LOK_CALLBACK_UNO_COMMAND_RESULT,
  LOK_CALLBACK_VIEW_CURSOR_VISIBLE,
  LOK_CALLBACK_WINDOW,
} from '../../protocol/lok-enums.ts';

/** What one callback means for the document: messages for the view's socket, and facts the document tracks. */
export interface TranslatedCallback {
  message?: ServerMessage;
  /** `.uno:ModifiedStatus` changed. */
  modified?: boolean;
  /** An area whose cached tiles are stale (`all` drops every tile of the part, or of every part when part is -1). */
  invalidated?: { part: number; x: number; y: number; width: number; height: number; all: boolean };
}

/** "x, y, w, h" (twips) to a Rect; undefined when it is not four numbers. */
export function parseRect(text: string): Rect | undefined {
  const n = text.split(',').map((s) => Number(s.trim()));
  return n.length >= 4 && n.slice(0, 4).every(Number.isFinite) ? [n[0], n[1], n[2], n[3]] : undefined;
}

/** A rectangle, or null for "EMPTY", an empty string or anything that is not four numbers. */
function optionalRect(text: string): Rect | null {
  return parseRect(text) ?? null;
}

/** "x, y, w, h; x, y, w, h" to Rects (an empty string is no rectangle). */
export function parseRects(text: string): Rect[] {
  return text
    .split(';')
    .map((r) => parseRect(r))
    .filter((r): r is Rect => r !== undefined);
}

function json(payload: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(payload) as unknown;
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The functions of a LOK_CALLBACK_CALC_FUNCTION_LIST payload: a JSON array of `{index, signature, description}`
 * (LibreOffice's ScInputHandler::ShowFuncList; newer versions add `name` and `category`, or wrap the array in an
 * object). The name is LibreOffice's `name`, else the signature up to its parenthesis. Items without a name are
 * left out; anything that is not such JSON gives an empty list.
 */
export function parseFunctionList(payload: string): CalcFunction[] {
  let v: unknown;
  try {
    v = JSON.parse(payload);
  } catch {
    return [];
  }
  const list = Array.isArray(v) ? v : typeof v === 'object' && v !== null ? Object.values(v).find(Array.isArray) : undefined;
  const out: CalcFunction[] = [];
  for (const item of (list ?? []) as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const f = item as Record<string, unknown>;
    const signature = typeof f.signature === 'string' ? f.signature : '';
    const name = (typeof f.name === 'string' && f.name ? f.name : signature.split('(')[0]).trim();
    if (name) out.push({ name, signature, description: typeof f.description === 'string' ? f.description : '' });
  }
  return out;
}

/**
 * Translates one LibreOfficeKit callback of a view into the editor protocol (editor.md, "Daemon -> client"),
 * following LibreOffice's payload forms, the same in 7.4 and 25.2 for these callbacks (plain "x, y, w, h"
 * strings, or JSON objects for the view callbacks). Callbacks the editor does not use translate to nothing.
 */
export function translateCallback(type: number, payload: string): TranslatedCallback {
  switch (type) {
    case LOK_CALLBACK_INVALIDATE_TILES: {
      const parts = payload.split(',').map((s) => s.trim());
      if (parts[0] === 'EMPTY') {
        const part = parts[1] !== undefined ? Number(parts[1]) : -1;
        return {
          message: { type: 'invalidate', part, x: 0, y: 0, width: 0, height: 0, all: true },
          invalidated: { part, x: 0, y: 0, width: 0, height: 0, all: true },
        };
      }
      const r = parseRect(payload);
      if (!r) return {};
      const part = Number(parts[4] ?? 0) || 0;
      return {
        message: { type: 'invalidate', part, x: r[0], y: r[1], width: r[2], height: r[3] },
        invalidated: { part, x: r[0], y: r[1], width: r[2], height: r[3], all: false },
      };
    }
    case LOK_CALLBACK_INVALIDATE_VISIBLE_CURSOR: {
      const j = json(payload);
      const r = parseRect(typeof j?.rectangle === 'string' ? j.rectangle : payload);
      return r ? { message: { type: 'cursor', rect: r, visible: true } } : {};
    }
    case LOK_CALLBACK_TEXT_SELECTION:
      return { message: { type: 'selection', rects: parseRects(payload) } };
    case LOK_CALLBACK_TEXT_SELECTION_START:
    case LOK_CALLBACK_TEXT_SELECTION_END:
      return { message: { type: 'selectionHandle', handle: type === LOK_CALLBACK_TEXT_SELECTION_START ? 'start' : 'end', rect: optionalRect(payload) } };
    case LOK_CALLBACK_GRAPHIC_SELECTION: {
      // "x, y, w, h, angle, id" or "EMPTY", optionally followed by a JSON object (handles, rotation); 7.4 as 25.2.
      const brace = payload.indexOf('{');
      return {
        message: {
          type: 'graphicSelection',
          rect: optionalRect(brace >= 0 ? payload.slice(0, brace) : payload),
          extra: brace >= 0 ? json(payload.slice(brace)) : undefined,
        },
      };
    }
    case LOK_CALLBACK_GRAPHIC_VIEW_SELECTION:
    case LOK_CALLBACK_CELL_VIEW_CURSOR: {
      const j = json(payload);
      if (!j) return {};
      const rect = optionalRect(String(j.selection ?? j.rectangle ?? 'EMPTY'));
      const common = { viewId: Number(j.viewId), part: Number(j.part ?? 0), rect };
      return { message: type === LOK_CALLBACK_CELL_VIEW_CURSOR ? { type: 'viewCellCursor', ...common } : { type: 'viewGraphicSelection', ...common } };
    }
    case LOK_CALLBACK_CELL_CURSOR:
      return { message: { type: 'cellCursor', rect: optionalRect(payload) } };
    case LOK_CALLBACK_CELL_AUTO_FILL_AREA:
      return { message: { type: 'cellAutoFillArea', rect: optionalRect(payload) } };
    case LOK_CALLBACK_CELL_FORMULA:
      return { message: { type: 'cellFormula', formula: payload } };
    case LOK_CALLBACK_CELL_ADDRESS:
      return { message: { type: 'cellAddress', address: payload } };
    case LOK_CALLBACK_INVALIDATE_HEADER:
      return { message: { type: 'headerInvalidated', header: payload.trim() || 'all' } };
    case LOK_CALLBACK_INVALIDATE_SHEET_GEOMETRY:
      return { message: { type: 'sheetGeometryInvalidated', what: payload.trim() || 'all' } };
    case LOK_CALLBACK_SET_PART:
      return Number.isInteger(Number(payload)) ? { message: { type: 'part', part: Number(payload) } } : {};
    case LOK_CALLBACK_SEARCH_NOT_FOUND:
      return { message: { type: 'searchNotFound', searchString: payload } };
    case LOK_CALLBACK_SEARCH_RESULT_SELECTION: {
      const j = json(payload);
      return j ? { message: { type: 'searchResult', result: j } } : {};
    }
    case LOK_CALLBACK_HYPERLINK_CLICKED:
      return { message: { type: 'hyperlinkClicked', url: payload } };
    case LOK_CALLBACK_CONTEXT_MENU: {
      const j = json(payload);
      return j ? { message: { type: 'contextMenu', menu: j } } : {};
    }
    case LOK_CALLBACK_WINDOW: {
      const j = json(payload);
      return j ? { message: { type: 'window', json: j } } : {};
    }
    case LOK_CALLBACK_RULER_UPDATE: {
      const j = json(payload);
      return j ? { message: { type: 'rulerUpdate', ruler: j } } : {};
    }
    case LOK_CALLBACK_CURSOR_VISIBLE:
      return { message: { type: 'cursor', rect: [0, 0, 0, 0], visible: payload.trim() === 'true' } };
    case LOK_CALLBACK_STATE_CHANGED: {
      const j = json(payload);
      const command = typeof j?.commandName === 'string' ? j.commandName : payload.split('=')[0];
      const value = j ? JSON.stringify(j.state ?? '') : payload.slice(payload.indexOf('=') + 1);
      if (command === '.uno:ModifiedStatus') return { modified: value === 'true', message: { type: 'modified', modified: value === 'true' } };
      return { message: { type: 'stateChanged', command, value } };
    }
    case LOK_CALLBACK_DOCUMENT_SIZE_CHANGED: {
      // LibreOffice 25.2 sends this with an empty payload after `.uno:DeletePage` (test/kit-editing/delete-page.test.ts):
      // the size is then not said (0 x 0), but the parts changed all the same, so the message is kept (the document
      // reads the parts and size again on it, document-parts.ts, and sends the views what it read, not this).
      const [w, h] = payload.split(',').map((s) => Number(s.trim()));
      const said = payload.trim() !== '' && Number.isFinite(w) && Number.isFinite(h);
      return { message: { type: 'documentSize', width: said ? w : 0, height: said ? h : 0, parts: -1, partNames: [] } };
    }
    case LOK_CALLBACK_UNO_COMMAND_RESULT: {
      const j = json(payload);
      return j
        ? { message: { type: 'unoResult', command: String(j.commandName ?? ''), success: j.success === true || j.success === 'true', result: j.result } }
        : {};
    }
    case LOK_CALLBACK_INVALIDATE_VIEW_CURSOR: {
      const j = json(payload);
      const r = typeof j?.rectangle === 'string' ? parseRect(j.rectangle) : undefined;
      return j && r ? { message: { type: 'viewCursor', viewId: Number(j.viewId), part: Number(j.part ?? 0), rect: r, visible: true } } : {};
    }
    case LOK_CALLBACK_TEXT_VIEW_SELECTION: {
      const j = json(payload);
      return j ? { message: { type: 'viewSelection', viewId: Number(j.viewId), part: Number(j.part ?? 0), rects: parseRects(String(j.selection ?? '')) } } : {};
    }
    case LOK_CALLBACK_VIEW_CURSOR_VISIBLE: {
      const j = json(payload);
      return j
        ? {
            message: {
              type: 'viewCursor',
              viewId: Number(j.viewId),
              part: Number(j.part ?? 0),
              rect: [0, 0, 0, 0],
              visible: j.visible === true || j.visible === 'true',
            },
          }
        : {};
    }
    case LOK_CALLBACK_COMMENT: {
      const j = json(payload);
      const c = (j?.comment ?? {}) as Record<string, unknown>;
      return j ? { message: { type: 'comments', action: String(c.action ?? ''), comment: c } } : {};
    }
    case LOK_CALLBACK_JSDIALOG:
      return { message: { type: 'dialog', json: payload } };
    case LOK_CALLBACK_CALC_FUNCTION_LIST:
      return { message: { type: 'calcFunctionList', functions: parseFunctionList(payload) } };
    case LOK_CALLBACK_ERROR: {
      const j = json(payload);
      return { message: { type: 'error', code: 'lok_error', message: String(j?.message ?? payload) } };
    }
    default:
      return {};
  }
}
