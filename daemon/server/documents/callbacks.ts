import type { Rect, ServerMessage } from '../../protocol/editor.ts';

/** LibreOfficeKit callback types the daemon translates (LibreOfficeKitEnums.h, 7.4 numbering). */
export const CB = {
  INVALIDATE_TILES: 0,
  INVALIDATE_VISIBLE_CURSOR: 1,
  TEXT_SELECTION: 2,
  TEXT_SELECTION_START: 3,
  TEXT_SELECTION_END: 4,
  CURSOR_VISIBLE: 5,
  STATE_CHANGED: 8,
  GRAPHIC_SELECTION: 6,
  HYPERLINK_CLICKED: 7,
  SEARCH_NOT_FOUND: 12,
  DOCUMENT_SIZE_CHANGED: 13,
  SET_PART: 14,
  SEARCH_RESULT_SELECTION: 15,
  UNO_COMMAND_RESULT: 16,
  CELL_CURSOR: 17,
  CELL_FORMULA: 19,
  ERROR: 22,
  CONTEXT_MENU: 23,
  INVALIDATE_VIEW_CURSOR: 24,
  TEXT_VIEW_SELECTION: 25,
  CELL_VIEW_CURSOR: 26,
  GRAPHIC_VIEW_SELECTION: 27,
  VIEW_CURSOR_VISIBLE: 28,
  COMMENT: 32,
  INVALIDATE_HEADER: 33,
  CELL_ADDRESS: 34,
  RULER_UPDATE: 35,
  WINDOW: 36,
  JSDIALOG: 46,
  INVALIDATE_SHEET_GEOMETRY: 50,
} as const;

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
 * Translates one LibreOfficeKit callback of a view into the editor protocol (editor.md, "Daemon -> client"),
 * following the payload forms of LibreOffice 7.4 (plain "x, y, w, h" strings, or JSON objects for the view
 * callbacks). Callbacks the editor does not use translate to nothing.
 */
export function translateCallback(type: number, payload: string): TranslatedCallback {
  switch (type) {
    case CB.INVALIDATE_TILES: {
      const parts = payload.split(',').map((s) => s.trim());
      if (parts[0] === 'EMPTY') {
        const part = parts[1] !== undefined ? Number(parts[1]) : -1;
        return { message: { type: 'invalidate', part, x: 0, y: 0, width: 0, height: 0, all: true }, invalidated: { part, x: 0, y: 0, width: 0, height: 0, all: true } };
      }
      const r = parseRect(payload);
      if (!r) return {};
      const part = Number(parts[4] ?? 0) || 0;
      return { message: { type: 'invalidate', part, x: r[0], y: r[1], width: r[2], height: r[3] }, invalidated: { part, x: r[0], y: r[1], width: r[2], height: r[3], all: false } };
    }
    case CB.INVALIDATE_VISIBLE_CURSOR: {
      const j = json(payload);
      const r = parseRect(typeof j?.rectangle === 'string' ? j.rectangle : payload);
      return r ? { message: { type: 'cursor', rect: r, visible: true } } : {};
    }
    case CB.TEXT_SELECTION:
      return { message: { type: 'selection', rects: parseRects(payload) } };
    case CB.TEXT_SELECTION_START:
    case CB.TEXT_SELECTION_END:
      return { message: { type: 'selectionHandle', handle: type === CB.TEXT_SELECTION_START ? 'start' : 'end', rect: optionalRect(payload) } };
    case CB.GRAPHIC_SELECTION: {
      // 7.4: "x, y, w, h, angle, id" or "EMPTY", optionally followed by a JSON object (handles, rotation).
      const brace = payload.indexOf('{');
      return { message: { type: 'graphicSelection', rect: optionalRect(brace >= 0 ? payload.slice(0, brace) : payload), extra: brace >= 0 ? json(payload.slice(brace)) : undefined } };
    }
    case CB.GRAPHIC_VIEW_SELECTION:
    case CB.CELL_VIEW_CURSOR: {
      const j = json(payload);
      if (!j) return {};
      const rect = optionalRect(String(j.selection ?? j.rectangle ?? 'EMPTY'));
      const common = { viewId: Number(j.viewId), part: Number(j.part ?? 0), rect };
      return { message: type === CB.CELL_VIEW_CURSOR ? { type: 'viewCellCursor', ...common } : { type: 'viewGraphicSelection', ...common } };
    }
    case CB.CELL_CURSOR:
      return { message: { type: 'cellCursor', rect: optionalRect(payload) } };
    case CB.CELL_FORMULA:
      return { message: { type: 'cellFormula', formula: payload } };
    case CB.CELL_ADDRESS:
      return { message: { type: 'cellAddress', address: payload } };
    case CB.INVALIDATE_HEADER:
      return { message: { type: 'headerInvalidated', header: payload.trim() || 'all' } };
    case CB.INVALIDATE_SHEET_GEOMETRY:
      return { message: { type: 'sheetGeometryInvalidated', what: payload.trim() || 'all' } };
    case CB.SET_PART:
      return Number.isInteger(Number(payload)) ? { message: { type: 'part', part: Number(payload) } } : {};
    case CB.SEARCH_NOT_FOUND:
      return { message: { type: 'searchNotFound', searchString: payload } };
    case CB.SEARCH_RESULT_SELECTION: {
      const j = json(payload);
      return j ? { message: { type: 'searchResult', result: j } } : {};
    }
    case CB.HYPERLINK_CLICKED:
      return { message: { type: 'hyperlinkClicked', url: payload } };
    case CB.CONTEXT_MENU: {
      const j = json(payload);
      return j ? { message: { type: 'contextMenu', menu: j } } : {};
    }
    case CB.WINDOW: {
      const j = json(payload);
      return j ? { message: { type: 'window', json: j } } : {};
    }
    case CB.RULER_UPDATE: {
      const j = json(payload);
      return j ? { message: { type: 'rulerUpdate', ruler: j } } : {};
    }
    case CB.CURSOR_VISIBLE:
      return { message: { type: 'cursor', rect: [0, 0, 0, 0], visible: payload.trim() === 'true' } };
    case CB.STATE_CHANGED: {
      const j = json(payload);
      const command = typeof j?.commandName === 'string' ? j.commandName : payload.split('=')[0];
      const value = j ? JSON.stringify(j.state ?? '') : payload.slice(payload.indexOf('=') + 1);
      if (command === '.uno:ModifiedStatus') return { modified: value === 'true', message: { type: 'modified', modified: value === 'true' } };
      return { message: { type: 'stateChanged', command, value } };
    }
    case CB.DOCUMENT_SIZE_CHANGED: {
      const [w, h] = payload.split(',').map((s) => Number(s.trim()));
      return Number.isFinite(w) && Number.isFinite(h) ? { message: { type: 'documentSize', width: w, height: h, parts: -1, partNames: [] } } : {};
    }
    case CB.UNO_COMMAND_RESULT: {
      const j = json(payload);
      return j ? { message: { type: 'unoResult', command: String(j.commandName ?? ''), success: j.success === true || j.success === 'true', result: j.result } } : {};
    }
    case CB.INVALIDATE_VIEW_CURSOR: {
      const j = json(payload);
      const r = typeof j?.rectangle === 'string' ? parseRect(j.rectangle) : undefined;
      return j && r ? { message: { type: 'viewCursor', viewId: Number(j.viewId), part: Number(j.part ?? 0), rect: r, visible: true } } : {};
    }
    case CB.TEXT_VIEW_SELECTION: {
      const j = json(payload);
      return j ? { message: { type: 'viewSelection', viewId: Number(j.viewId), part: Number(j.part ?? 0), rects: parseRects(String(j.selection ?? '')) } } : {};
    }
    case CB.VIEW_CURSOR_VISIBLE: {
      const j = json(payload);
      return j ? { message: { type: 'viewCursor', viewId: Number(j.viewId), part: Number(j.part ?? 0), rect: [0, 0, 0, 0], visible: j.visible === true || j.visible === 'true' } } : {};
    }
    case CB.COMMENT: {
      const j = json(payload);
      const c = (j?.comment ?? {}) as Record<string, unknown>;
      return j ? { message: { type: 'comments', action: String(c.action ?? ''), comment: c } } : {};
    }
    case CB.JSDIALOG:
      return { message: { type: 'dialog', json: payload } };
    case CB.ERROR: {
      const j = json(payload);
      return { message: { type: 'error', code: 'lok_error', message: String(j?.message ?? payload) } };
    }
    default:
      return {};
  }
}
