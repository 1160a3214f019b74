/**
 * LibreOfficeKit enum numbers, copied from LibreOfficeKitEnums.h of LibreOffice 25.2 (the header installed
 * by libreofficekit-dev, under LOK_USE_UNSTABLE_API), with the header's names. One `as const` object per
 * C enum, plus each member as its own constant, so callers write `LOK_CALLBACK_INVALIDATE_TILES`.
 * A test (lok-enums.test.ts) checks every value against the installed header.
 *
 * The last section (key codes, modifiers, mouse buttons) is not from that header: those are VCL values
 * (vcl/keycodes.hxx, com/sun/star/awt/Key.idl, vcl/event.hxx) that postKeyEvent / postMouseEvent expect.
 */

/** Document types, as returned by getDocumentType(). C enum `LibreOfficeKitDocumentType`. */
export const LibreOfficeKitDocumentType = {
  LOK_DOCTYPE_TEXT: 0,
  LOK_DOCTYPE_SPREADSHEET: 1,
  LOK_DOCTYPE_PRESENTATION: 2,
  LOK_DOCTYPE_DRAWING: 3,
  LOK_DOCTYPE_OTHER: 4,
} as const;

/** `LOK_DOCTYPE_TEXT` (LibreOfficeKitDocumentType). */
export const LOK_DOCTYPE_TEXT = LibreOfficeKitDocumentType.LOK_DOCTYPE_TEXT;
/** `LOK_DOCTYPE_SPREADSHEET` (LibreOfficeKitDocumentType). */
export const LOK_DOCTYPE_SPREADSHEET = LibreOfficeKitDocumentType.LOK_DOCTYPE_SPREADSHEET;
/** `LOK_DOCTYPE_PRESENTATION` (LibreOfficeKitDocumentType). */
export const LOK_DOCTYPE_PRESENTATION = LibreOfficeKitDocumentType.LOK_DOCTYPE_PRESENTATION;
/** `LOK_DOCTYPE_DRAWING` (LibreOfficeKitDocumentType). */
export const LOK_DOCTYPE_DRAWING = LibreOfficeKitDocumentType.LOK_DOCTYPE_DRAWING;
/** `LOK_DOCTYPE_OTHER` (LibreOfficeKitDocumentType). */
export const LOK_DOCTYPE_OTHER = LibreOfficeKitDocumentType.LOK_DOCTYPE_OTHER;

/** Part modes of presentations (setPartMode / paintPartTile mode). C enum `LibreOfficeKitPartMode`. */
export const LibreOfficeKitPartMode = {
  LOK_PARTMODE_SLIDES: 0,
  LOK_PARTMODE_NOTES: 1,
} as const;

/** `LOK_PARTMODE_SLIDES` (LibreOfficeKitPartMode). */
export const LOK_PARTMODE_SLIDES = LibreOfficeKitPartMode.LOK_PARTMODE_SLIDES;
/** `LOK_PARTMODE_NOTES` (LibreOfficeKitPartMode). */
export const LOK_PARTMODE_NOTES = LibreOfficeKitPartMode.LOK_PARTMODE_NOTES;

/** Pixel layout of tile buffers (getTileMode); BGRA on Linux. C enum `LibreOfficeKitTileMode`. */
export const LibreOfficeKitTileMode = {
  LOK_TILEMODE_RGBA: 0,
  LOK_TILEMODE_BGRA: 1,
} as const;

/** `LOK_TILEMODE_RGBA` (LibreOfficeKitTileMode). */
export const LOK_TILEMODE_RGBA = LibreOfficeKitTileMode.LOK_TILEMODE_RGBA;
/** `LOK_TILEMODE_BGRA` (LibreOfficeKitTileMode). */
export const LOK_TILEMODE_BGRA = LibreOfficeKitTileMode.LOK_TILEMODE_BGRA;

/** Actions of postWindow(). C enum `LibreOfficeKitWindowAction`. */
export const LibreOfficeKitWindowAction = {
  LOK_WINDOW_CLOSE: 0,
  LOK_WINDOW_PASTE: 1,
} as const;

/** `LOK_WINDOW_CLOSE` (LibreOfficeKitWindowAction). */
export const LOK_WINDOW_CLOSE = LibreOfficeKitWindowAction.LOK_WINDOW_CLOSE;
/** `LOK_WINDOW_PASTE` (LibreOfficeKitWindowAction). */
export const LOK_WINDOW_PASTE = LibreOfficeKitWindowAction.LOK_WINDOW_PASTE;

/** Selection types (getSelectionType). C enum `LibreOfficeKitSelectionType`. */
export const LibreOfficeKitSelectionType = {
  LOK_SELTYPE_NONE: 0,
  LOK_SELTYPE_TEXT: 1,
  LOK_SELTYPE_LARGE_TEXT: 2,
  LOK_SELTYPE_COMPLEX: 3,
} as const;

/** `LOK_SELTYPE_NONE` (LibreOfficeKitSelectionType). */
export const LOK_SELTYPE_NONE = LibreOfficeKitSelectionType.LOK_SELTYPE_NONE;
/** `LOK_SELTYPE_TEXT` (LibreOfficeKitSelectionType). */
export const LOK_SELTYPE_TEXT = LibreOfficeKitSelectionType.LOK_SELTYPE_TEXT;
/** `LOK_SELTYPE_LARGE_TEXT` (LibreOfficeKitSelectionType). */
export const LOK_SELTYPE_LARGE_TEXT = LibreOfficeKitSelectionType.LOK_SELTYPE_LARGE_TEXT;
/** `LOK_SELTYPE_COMPLEX` (LibreOfficeKitSelectionType). */
export const LOK_SELTYPE_COMPLEX = LibreOfficeKitSelectionType.LOK_SELTYPE_COMPLEX;

/** Optional features for setOptionalFeatures(), as bigint bit flags. C enum `LibreOfficeKitOptionalFeatures`. */
export const LibreOfficeKitOptionalFeatures = {
  LOK_FEATURE_DOCUMENT_PASSWORD: 1n,
  LOK_FEATURE_DOCUMENT_PASSWORD_TO_MODIFY: 2n,
  LOK_FEATURE_PART_IN_INVALIDATION_CALLBACK: 4n,
  LOK_FEATURE_NO_TILED_ANNOTATIONS: 8n,
  LOK_FEATURE_RANGE_HEADERS: 16n,
  LOK_FEATURE_VIEWID_IN_VISCURSOR_INVALIDATION_CALLBACK: 32n,
} as const;

/** `LOK_FEATURE_DOCUMENT_PASSWORD` (LibreOfficeKitOptionalFeatures). */
export const LOK_FEATURE_DOCUMENT_PASSWORD = LibreOfficeKitOptionalFeatures.LOK_FEATURE_DOCUMENT_PASSWORD;
/** `LOK_FEATURE_DOCUMENT_PASSWORD_TO_MODIFY` (LibreOfficeKitOptionalFeatures). */
export const LOK_FEATURE_DOCUMENT_PASSWORD_TO_MODIFY = LibreOfficeKitOptionalFeatures.LOK_FEATURE_DOCUMENT_PASSWORD_TO_MODIFY;
/** `LOK_FEATURE_PART_IN_INVALIDATION_CALLBACK` (LibreOfficeKitOptionalFeatures). */
export const LOK_FEATURE_PART_IN_INVALIDATION_CALLBACK = LibreOfficeKitOptionalFeatures.LOK_FEATURE_PART_IN_INVALIDATION_CALLBACK;
/** `LOK_FEATURE_NO_TILED_ANNOTATIONS` (LibreOfficeKitOptionalFeatures). */
export const LOK_FEATURE_NO_TILED_ANNOTATIONS = LibreOfficeKitOptionalFeatures.LOK_FEATURE_NO_TILED_ANNOTATIONS;
/** `LOK_FEATURE_RANGE_HEADERS` (LibreOfficeKitOptionalFeatures). */
export const LOK_FEATURE_RANGE_HEADERS = LibreOfficeKitOptionalFeatures.LOK_FEATURE_RANGE_HEADERS;
/** `LOK_FEATURE_VIEWID_IN_VISCURSOR_INVALIDATION_CALLBACK` (LibreOfficeKitOptionalFeatures). */
export const LOK_FEATURE_VIEWID_IN_VISCURSOR_INVALIDATION_CALLBACK = LibreOfficeKitOptionalFeatures.LOK_FEATURE_VIEWID_IN_VISCURSOR_INVALIDATION_CALLBACK;

/** Callback types: the `type` argument of office and document callbacks. C enum `LibreOfficeKitCallbackType`. */
export const LibreOfficeKitCallbackType = {
  LOK_CALLBACK_INVALIDATE_TILES: 0,
  LOK_CALLBACK_INVALIDATE_VISIBLE_CURSOR: 1,
  LOK_CALLBACK_TEXT_SELECTION: 2,
  LOK_CALLBACK_TEXT_SELECTION_START: 3,
  LOK_CALLBACK_TEXT_SELECTION_END: 4,
  LOK_CALLBACK_CURSOR_VISIBLE: 5,
  LOK_CALLBACK_GRAPHIC_SELECTION: 6,
  LOK_CALLBACK_HYPERLINK_CLICKED: 7,
  LOK_CALLBACK_STATE_CHANGED: 8,
  LOK_CALLBACK_STATUS_INDICATOR_START: 9,
  LOK_CALLBACK_STATUS_INDICATOR_SET_VALUE: 10,
  LOK_CALLBACK_STATUS_INDICATOR_FINISH: 11,
  LOK_CALLBACK_SEARCH_NOT_FOUND: 12,
  LOK_CALLBACK_DOCUMENT_SIZE_CHANGED: 13,
  LOK_CALLBACK_SET_PART: 14,
  LOK_CALLBACK_SEARCH_RESULT_SELECTION: 15,
  LOK_CALLBACK_UNO_COMMAND_RESULT: 16,
  LOK_CALLBACK_CELL_CURSOR: 17,
  LOK_CALLBACK_MOUSE_POINTER: 18,
  LOK_CALLBACK_CELL_FORMULA: 19,
  LOK_CALLBACK_DOCUMENT_PASSWORD: 20,
  LOK_CALLBACK_DOCUMENT_PASSWORD_TO_MODIFY: 21,
  LOK_CALLBACK_ERROR: 22,
  LOK_CALLBACK_CONTEXT_MENU: 23,
  LOK_CALLBACK_INVALIDATE_VIEW_CURSOR: 24,
  LOK_CALLBACK_TEXT_VIEW_SELECTION: 25,
  LOK_CALLBACK_CELL_VIEW_CURSOR: 26,
  LOK_CALLBACK_GRAPHIC_VIEW_SELECTION: 27,
  LOK_CALLBACK_VIEW_CURSOR_VISIBLE: 28,
  LOK_CALLBACK_VIEW_LOCK: 29,
  LOK_CALLBACK_REDLINE_TABLE_SIZE_CHANGED: 30,
  LOK_CALLBACK_REDLINE_TABLE_ENTRY_MODIFIED: 31,
  LOK_CALLBACK_COMMENT: 32,
  LOK_CALLBACK_INVALIDATE_HEADER: 33,
  LOK_CALLBACK_CELL_ADDRESS: 34,
  LOK_CALLBACK_RULER_UPDATE: 35,
  LOK_CALLBACK_WINDOW: 36,
  LOK_CALLBACK_VALIDITY_LIST_BUTTON: 37,
  LOK_CALLBACK_CLIPBOARD_CHANGED: 38,
  LOK_CALLBACK_CONTEXT_CHANGED: 39,
  LOK_CALLBACK_SIGNATURE_STATUS: 40,
  LOK_CALLBACK_PROFILE_FRAME: 41,
  LOK_CALLBACK_CELL_SELECTION_AREA: 42,
  LOK_CALLBACK_CELL_AUTO_FILL_AREA: 43,
  LOK_CALLBACK_TABLE_SELECTED: 44,
  LOK_CALLBACK_REFERENCE_MARKS: 45,
  LOK_CALLBACK_JSDIALOG: 46,
  LOK_CALLBACK_CALC_FUNCTION_LIST: 47,
  LOK_CALLBACK_TAB_STOP_LIST: 48,
  LOK_CALLBACK_FORM_FIELD_BUTTON: 49,
  LOK_CALLBACK_INVALIDATE_SHEET_GEOMETRY: 50,
  LOK_CALLBACK_VALIDITY_INPUT_HELP: 51,
  LOK_CALLBACK_DOCUMENT_BACKGROUND_COLOR: 52,
  LOK_COMMAND_BLOCKED: 53,
  LOK_CALLBACK_SC_FOLLOW_JUMP: 54,
  LOK_CALLBACK_CONTENT_CONTROL: 55,
  LOK_CALLBACK_PRINT_RANGES: 56,
  LOK_CALLBACK_FONTS_MISSING: 57,
  LOK_CALLBACK_MEDIA_SHAPE: 58,
  LOK_CALLBACK_EXPORT_FILE: 59,
  LOK_CALLBACK_VIEW_RENDER_STATE: 60,
  LOK_CALLBACK_APPLICATION_BACKGROUND_COLOR: 61,
  LOK_CALLBACK_A11Y_FOCUS_CHANGED: 62,
  LOK_CALLBACK_A11Y_CARET_CHANGED: 63,
  LOK_CALLBACK_A11Y_TEXT_SELECTION_CHANGED: 64,
  LOK_CALLBACK_COLOR_PALETTES: 65,
  LOK_CALLBACK_DOCUMENT_PASSWORD_RESET: 66,
  LOK_CALLBACK_A11Y_FOCUSED_CELL_CHANGED: 67,
  LOK_CALLBACK_A11Y_EDITING_IN_SELECTION_STATE: 68,
  LOK_CALLBACK_A11Y_SELECTION_CHANGED: 69,
  LOK_CALLBACK_CORE_LOG: 70,
  LOK_CALLBACK_TOOLTIP: 71,
  LOK_CALLBACK_SHAPE_INNER_TEXT: 72,
  LOK_CALLBACK_VERTICAL_RULER_UPDATE: 73,
} as const;

/** `LOK_CALLBACK_INVALIDATE_TILES` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_INVALIDATE_TILES = LibreOfficeKitCallbackType.LOK_CALLBACK_INVALIDATE_TILES;
/** `LOK_CALLBACK_INVALIDATE_VISIBLE_CURSOR` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_INVALIDATE_VISIBLE_CURSOR = LibreOfficeKitCallbackType.LOK_CALLBACK_INVALIDATE_VISIBLE_CURSOR;
/** `LOK_CALLBACK_TEXT_SELECTION` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_TEXT_SELECTION = LibreOfficeKitCallbackType.LOK_CALLBACK_TEXT_SELECTION;
/** `LOK_CALLBACK_TEXT_SELECTION_START` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_TEXT_SELECTION_START = LibreOfficeKitCallbackType.LOK_CALLBACK_TEXT_SELECTION_START;
/** `LOK_CALLBACK_TEXT_SELECTION_END` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_TEXT_SELECTION_END = LibreOfficeKitCallbackType.LOK_CALLBACK_TEXT_SELECTION_END;
/** `LOK_CALLBACK_CURSOR_VISIBLE` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_CURSOR_VISIBLE = LibreOfficeKitCallbackType.LOK_CALLBACK_CURSOR_VISIBLE;
/** `LOK_CALLBACK_GRAPHIC_SELECTION` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_GRAPHIC_SELECTION = LibreOfficeKitCallbackType.LOK_CALLBACK_GRAPHIC_SELECTION;
/** `LOK_CALLBACK_HYPERLINK_CLICKED` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_HYPERLINK_CLICKED = LibreOfficeKitCallbackType.LOK_CALLBACK_HYPERLINK_CLICKED;
/** `LOK_CALLBACK_STATE_CHANGED` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_STATE_CHANGED = LibreOfficeKitCallbackType.LOK_CALLBACK_STATE_CHANGED;
/** `LOK_CALLBACK_STATUS_INDICATOR_START` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_STATUS_INDICATOR_START = LibreOfficeKitCallbackType.LOK_CALLBACK_STATUS_INDICATOR_START;
/** `LOK_CALLBACK_STATUS_INDICATOR_SET_VALUE` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_STATUS_INDICATOR_SET_VALUE = LibreOfficeKitCallbackType.LOK_CALLBACK_STATUS_INDICATOR_SET_VALUE;
/** `LOK_CALLBACK_STATUS_INDICATOR_FINISH` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_STATUS_INDICATOR_FINISH = LibreOfficeKitCallbackType.LOK_CALLBACK_STATUS_INDICATOR_FINISH;
/** `LOK_CALLBACK_SEARCH_NOT_FOUND` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_SEARCH_NOT_FOUND = LibreOfficeKitCallbackType.LOK_CALLBACK_SEARCH_NOT_FOUND;
/** `LOK_CALLBACK_DOCUMENT_SIZE_CHANGED` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_DOCUMENT_SIZE_CHANGED = LibreOfficeKitCallbackType.LOK_CALLBACK_DOCUMENT_SIZE_CHANGED;
/** `LOK_CALLBACK_SET_PART` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_SET_PART = LibreOfficeKitCallbackType.LOK_CALLBACK_SET_PART;
/** `LOK_CALLBACK_SEARCH_RESULT_SELECTION` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_SEARCH_RESULT_SELECTION = LibreOfficeKitCallbackType.LOK_CALLBACK_SEARCH_RESULT_SELECTION;
/** `LOK_CALLBACK_UNO_COMMAND_RESULT` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_UNO_COMMAND_RESULT = LibreOfficeKitCallbackType.LOK_CALLBACK_UNO_COMMAND_RESULT;
/** `LOK_CALLBACK_CELL_CURSOR` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_CELL_CURSOR = LibreOfficeKitCallbackType.LOK_CALLBACK_CELL_CURSOR;
/** `LOK_CALLBACK_MOUSE_POINTER` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_MOUSE_POINTER = LibreOfficeKitCallbackType.LOK_CALLBACK_MOUSE_POINTER;
/** `LOK_CALLBACK_CELL_FORMULA` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_CELL_FORMULA = LibreOfficeKitCallbackType.LOK_CALLBACK_CELL_FORMULA;
/** `LOK_CALLBACK_DOCUMENT_PASSWORD` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_DOCUMENT_PASSWORD = LibreOfficeKitCallbackType.LOK_CALLBACK_DOCUMENT_PASSWORD;
/** `LOK_CALLBACK_DOCUMENT_PASSWORD_TO_MODIFY` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_DOCUMENT_PASSWORD_TO_MODIFY = LibreOfficeKitCallbackType.LOK_CALLBACK_DOCUMENT_PASSWORD_TO_MODIFY;
/** `LOK_CALLBACK_ERROR` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_ERROR = LibreOfficeKitCallbackType.LOK_CALLBACK_ERROR;
/** `LOK_CALLBACK_CONTEXT_MENU` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_CONTEXT_MENU = LibreOfficeKitCallbackType.LOK_CALLBACK_CONTEXT_MENU;
/** `LOK_CALLBACK_INVALIDATE_VIEW_CURSOR` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_INVALIDATE_VIEW_CURSOR = LibreOfficeKitCallbackType.LOK_CALLBACK_INVALIDATE_VIEW_CURSOR;
/** `LOK_CALLBACK_TEXT_VIEW_SELECTION` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_TEXT_VIEW_SELECTION = LibreOfficeKitCallbackType.LOK_CALLBACK_TEXT_VIEW_SELECTION;
/** `LOK_CALLBACK_CELL_VIEW_CURSOR` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_CELL_VIEW_CURSOR = LibreOfficeKitCallbackType.LOK_CALLBACK_CELL_VIEW_CURSOR;
/** `LOK_CALLBACK_GRAPHIC_VIEW_SELECTION` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_GRAPHIC_VIEW_SELECTION = LibreOfficeKitCallbackType.LOK_CALLBACK_GRAPHIC_VIEW_SELECTION;
/** `LOK_CALLBACK_VIEW_CURSOR_VISIBLE` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_VIEW_CURSOR_VISIBLE = LibreOfficeKitCallbackType.LOK_CALLBACK_VIEW_CURSOR_VISIBLE;
/** `LOK_CALLBACK_VIEW_LOCK` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_VIEW_LOCK = LibreOfficeKitCallbackType.LOK_CALLBACK_VIEW_LOCK;
/** `LOK_CALLBACK_REDLINE_TABLE_SIZE_CHANGED` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_REDLINE_TABLE_SIZE_CHANGED = LibreOfficeKitCallbackType.LOK_CALLBACK_REDLINE_TABLE_SIZE_CHANGED;
/** `LOK_CALLBACK_REDLINE_TABLE_ENTRY_MODIFIED` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_REDLINE_TABLE_ENTRY_MODIFIED = LibreOfficeKitCallbackType.LOK_CALLBACK_REDLINE_TABLE_ENTRY_MODIFIED;
/** `LOK_CALLBACK_COMMENT` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_COMMENT = LibreOfficeKitCallbackType.LOK_CALLBACK_COMMENT;
/** `LOK_CALLBACK_INVALIDATE_HEADER` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_INVALIDATE_HEADER = LibreOfficeKitCallbackType.LOK_CALLBACK_INVALIDATE_HEADER;
/** `LOK_CALLBACK_CELL_ADDRESS` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_CELL_ADDRESS = LibreOfficeKitCallbackType.LOK_CALLBACK_CELL_ADDRESS;
/** `LOK_CALLBACK_RULER_UPDATE` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_RULER_UPDATE = LibreOfficeKitCallbackType.LOK_CALLBACK_RULER_UPDATE;
/** `LOK_CALLBACK_WINDOW` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_WINDOW = LibreOfficeKitCallbackType.LOK_CALLBACK_WINDOW;
/** `LOK_CALLBACK_VALIDITY_LIST_BUTTON` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_VALIDITY_LIST_BUTTON = LibreOfficeKitCallbackType.LOK_CALLBACK_VALIDITY_LIST_BUTTON;
/** `LOK_CALLBACK_CLIPBOARD_CHANGED` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_CLIPBOARD_CHANGED = LibreOfficeKitCallbackType.LOK_CALLBACK_CLIPBOARD_CHANGED;
/** `LOK_CALLBACK_CONTEXT_CHANGED` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_CONTEXT_CHANGED = LibreOfficeKitCallbackType.LOK_CALLBACK_CONTEXT_CHANGED;
/** `LOK_CALLBACK_SIGNATURE_STATUS` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_SIGNATURE_STATUS = LibreOfficeKitCallbackType.LOK_CALLBACK_SIGNATURE_STATUS;
/** `LOK_CALLBACK_PROFILE_FRAME` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_PROFILE_FRAME = LibreOfficeKitCallbackType.LOK_CALLBACK_PROFILE_FRAME;
/** `LOK_CALLBACK_CELL_SELECTION_AREA` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_CELL_SELECTION_AREA = LibreOfficeKitCallbackType.LOK_CALLBACK_CELL_SELECTION_AREA;
/** `LOK_CALLBACK_CELL_AUTO_FILL_AREA` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_CELL_AUTO_FILL_AREA = LibreOfficeKitCallbackType.LOK_CALLBACK_CELL_AUTO_FILL_AREA;
/** `LOK_CALLBACK_TABLE_SELECTED` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_TABLE_SELECTED = LibreOfficeKitCallbackType.LOK_CALLBACK_TABLE_SELECTED;
/** `LOK_CALLBACK_REFERENCE_MARKS` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_REFERENCE_MARKS = LibreOfficeKitCallbackType.LOK_CALLBACK_REFERENCE_MARKS;
/** `LOK_CALLBACK_JSDIALOG` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_JSDIALOG = LibreOfficeKitCallbackType.LOK_CALLBACK_JSDIALOG;
/** `LOK_CALLBACK_CALC_FUNCTION_LIST` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_CALC_FUNCTION_LIST = LibreOfficeKitCallbackType.LOK_CALLBACK_CALC_FUNCTION_LIST;
/** `LOK_CALLBACK_TAB_STOP_LIST` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_TAB_STOP_LIST = LibreOfficeKitCallbackType.LOK_CALLBACK_TAB_STOP_LIST;
/** `LOK_CALLBACK_FORM_FIELD_BUTTON` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_FORM_FIELD_BUTTON = LibreOfficeKitCallbackType.LOK_CALLBACK_FORM_FIELD_BUTTON;
/** `LOK_CALLBACK_INVALIDATE_SHEET_GEOMETRY` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_INVALIDATE_SHEET_GEOMETRY = LibreOfficeKitCallbackType.LOK_CALLBACK_INVALIDATE_SHEET_GEOMETRY;
/** `LOK_CALLBACK_VALIDITY_INPUT_HELP` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_VALIDITY_INPUT_HELP = LibreOfficeKitCallbackType.LOK_CALLBACK_VALIDITY_INPUT_HELP;
/** `LOK_CALLBACK_DOCUMENT_BACKGROUND_COLOR` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_DOCUMENT_BACKGROUND_COLOR = LibreOfficeKitCallbackType.LOK_CALLBACK_DOCUMENT_BACKGROUND_COLOR;
/** `LOK_COMMAND_BLOCKED` (LibreOfficeKitCallbackType). */
export const LOK_COMMAND_BLOCKED = LibreOfficeKitCallbackType.LOK_COMMAND_BLOCKED;
/** `LOK_CALLBACK_SC_FOLLOW_JUMP` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_SC_FOLLOW_JUMP = LibreOfficeKitCallbackType.LOK_CALLBACK_SC_FOLLOW_JUMP;
/** `LOK_CALLBACK_CONTENT_CONTROL` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_CONTENT_CONTROL = LibreOfficeKitCallbackType.LOK_CALLBACK_CONTENT_CONTROL;
/** `LOK_CALLBACK_PRINT_RANGES` (LibreOfficeKitCallbackType). */
export const LOK_CALLBACK_PRINT_RANGES = LibreOfficeKitCallbackType.LOK_CALLBACK_PRINT_RANGES;
/** `LOK_CALLBACK_FONTS_MISSING` (LibreOfficeKitCallbackType; LibreOffice 7.5 or later). */
export const LOK_CALLBACK_FONTS_MISSING = LibreOfficeKitCallbackType.LOK_CALLBACK_FONTS_MISSING;
/** `LOK_CALLBACK_MEDIA_SHAPE` (LibreOfficeKitCallbackType; LibreOffice 7.5 or later). */
export const LOK_CALLBACK_MEDIA_SHAPE = LibreOfficeKitCallbackType.LOK_CALLBACK_MEDIA_SHAPE;
/** `LOK_CALLBACK_EXPORT_FILE` (LibreOfficeKitCallbackType; LibreOffice 7.5 or later). */
export const LOK_CALLBACK_EXPORT_FILE = LibreOfficeKitCallbackType.LOK_CALLBACK_EXPORT_FILE;
/** `LOK_CALLBACK_VIEW_RENDER_STATE` (LibreOfficeKitCallbackType; LibreOffice 7.5 or later). */
export const LOK_CALLBACK_VIEW_RENDER_STATE = LibreOfficeKitCallbackType.LOK_CALLBACK_VIEW_RENDER_STATE;
/** `LOK_CALLBACK_APPLICATION_BACKGROUND_COLOR` (LibreOfficeKitCallbackType; LibreOffice 7.5 or later). */
export const LOK_CALLBACK_APPLICATION_BACKGROUND_COLOR = LibreOfficeKitCallbackType.LOK_CALLBACK_APPLICATION_BACKGROUND_COLOR;
/** `LOK_CALLBACK_A11Y_FOCUS_CHANGED` (LibreOfficeKitCallbackType; LibreOffice 7.5 or later). */
export const LOK_CALLBACK_A11Y_FOCUS_CHANGED = LibreOfficeKitCallbackType.LOK_CALLBACK_A11Y_FOCUS_CHANGED;
/** `LOK_CALLBACK_A11Y_CARET_CHANGED` (LibreOfficeKitCallbackType; LibreOffice 7.5 or later). */
export const LOK_CALLBACK_A11Y_CARET_CHANGED = LibreOfficeKitCallbackType.LOK_CALLBACK_A11Y_CARET_CHANGED;
/** `LOK_CALLBACK_A11Y_TEXT_SELECTION_CHANGED` (LibreOfficeKitCallbackType; LibreOffice 7.5 or later). */
export const LOK_CALLBACK_A11Y_TEXT_SELECTION_CHANGED = LibreOfficeKitCallbackType.LOK_CALLBACK_A11Y_TEXT_SELECTION_CHANGED;
/** `LOK_CALLBACK_COLOR_PALETTES` (LibreOfficeKitCallbackType; LibreOffice 7.5 or later). */
export const LOK_CALLBACK_COLOR_PALETTES = LibreOfficeKitCallbackType.LOK_CALLBACK_COLOR_PALETTES;
/** `LOK_CALLBACK_DOCUMENT_PASSWORD_RESET` (LibreOfficeKitCallbackType; LibreOffice 7.5 or later). */
export const LOK_CALLBACK_DOCUMENT_PASSWORD_RESET = LibreOfficeKitCallbackType.LOK_CALLBACK_DOCUMENT_PASSWORD_RESET;
/** `LOK_CALLBACK_A11Y_FOCUSED_CELL_CHANGED` (LibreOfficeKitCallbackType; LibreOffice 7.5 or later). */
export const LOK_CALLBACK_A11Y_FOCUSED_CELL_CHANGED = LibreOfficeKitCallbackType.LOK_CALLBACK_A11Y_FOCUSED_CELL_CHANGED;
/** `LOK_CALLBACK_A11Y_EDITING_IN_SELECTION_STATE` (LibreOfficeKitCallbackType; LibreOffice 7.5 or later). */
export const LOK_CALLBACK_A11Y_EDITING_IN_SELECTION_STATE = LibreOfficeKitCallbackType.LOK_CALLBACK_A11Y_EDITING_IN_SELECTION_STATE;
/** `LOK_CALLBACK_A11Y_SELECTION_CHANGED` (LibreOfficeKitCallbackType; LibreOffice 7.5 or later). */
export const LOK_CALLBACK_A11Y_SELECTION_CHANGED = LibreOfficeKitCallbackType.LOK_CALLBACK_A11Y_SELECTION_CHANGED;
/** `LOK_CALLBACK_CORE_LOG` (LibreOfficeKitCallbackType; LibreOffice 7.5 or later). */
export const LOK_CALLBACK_CORE_LOG = LibreOfficeKitCallbackType.LOK_CALLBACK_CORE_LOG;
/** `LOK_CALLBACK_TOOLTIP` (LibreOfficeKitCallbackType; LibreOffice 7.5 or later). */
export const LOK_CALLBACK_TOOLTIP = LibreOfficeKitCallbackType.LOK_CALLBACK_TOOLTIP;
/** `LOK_CALLBACK_SHAPE_INNER_TEXT` (LibreOfficeKitCallbackType; LibreOffice 7.5 or later). */
export const LOK_CALLBACK_SHAPE_INNER_TEXT = LibreOfficeKitCallbackType.LOK_CALLBACK_SHAPE_INNER_TEXT;
/** `LOK_CALLBACK_VERTICAL_RULER_UPDATE` (LibreOfficeKitCallbackType; LibreOffice 7.5 or later). */
export const LOK_CALLBACK_VERTICAL_RULER_UPDATE = LibreOfficeKitCallbackType.LOK_CALLBACK_VERTICAL_RULER_UPDATE;

/** Key event types for postKeyEvent / postWindowKeyEvent. C enum `LibreOfficeKitKeyEventType`. */
export const LibreOfficeKitKeyEventType = {
  LOK_KEYEVENT_KEYINPUT: 0,
  LOK_KEYEVENT_KEYUP: 1,
} as const;

/** `LOK_KEYEVENT_KEYINPUT` (LibreOfficeKitKeyEventType). */
export const LOK_KEYEVENT_KEYINPUT = LibreOfficeKitKeyEventType.LOK_KEYEVENT_KEYINPUT;
/** `LOK_KEYEVENT_KEYUP` (LibreOfficeKitKeyEventType). */
export const LOK_KEYEVENT_KEYUP = LibreOfficeKitKeyEventType.LOK_KEYEVENT_KEYUP;

/** Extended text input event types (postWindowExtTextInputEvent). C enum `LibreOfficeKitExtTextInputType`. */
export const LibreOfficeKitExtTextInputType = {
  LOK_EXT_TEXTINPUT: 0,
  LOK_EXT_TEXTINPUT_POS: 1,
  LOK_EXT_TEXTINPUT_END: 2,
} as const;

/** `LOK_EXT_TEXTINPUT` (LibreOfficeKitExtTextInputType). */
export const LOK_EXT_TEXTINPUT = LibreOfficeKitExtTextInputType.LOK_EXT_TEXTINPUT;
/** `LOK_EXT_TEXTINPUT_POS` (LibreOfficeKitExtTextInputType). */
export const LOK_EXT_TEXTINPUT_POS = LibreOfficeKitExtTextInputType.LOK_EXT_TEXTINPUT_POS;
/** `LOK_EXT_TEXTINPUT_END` (LibreOfficeKitExtTextInputType). */
export const LOK_EXT_TEXTINPUT_END = LibreOfficeKitExtTextInputType.LOK_EXT_TEXTINPUT_END;

/** Mouse event types for postMouseEvent / postWindowMouseEvent. C enum `LibreOfficeKitMouseEventType`. */
export const LibreOfficeKitMouseEventType = {
  LOK_MOUSEEVENT_MOUSEBUTTONDOWN: 0,
  LOK_MOUSEEVENT_MOUSEBUTTONUP: 1,
  LOK_MOUSEEVENT_MOUSEMOVE: 2,
} as const;

/** `LOK_MOUSEEVENT_MOUSEBUTTONDOWN` (LibreOfficeKitMouseEventType). */
export const LOK_MOUSEEVENT_MOUSEBUTTONDOWN = LibreOfficeKitMouseEventType.LOK_MOUSEEVENT_MOUSEBUTTONDOWN;
/** `LOK_MOUSEEVENT_MOUSEBUTTONUP` (LibreOfficeKitMouseEventType). */
export const LOK_MOUSEEVENT_MOUSEBUTTONUP = LibreOfficeKitMouseEventType.LOK_MOUSEEVENT_MOUSEBUTTONUP;
/** `LOK_MOUSEEVENT_MOUSEMOVE` (LibreOfficeKitMouseEventType). */
export const LOK_MOUSEEVENT_MOUSEMOVE = LibreOfficeKitMouseEventType.LOK_MOUSEEVENT_MOUSEMOVE;

/** Types for setTextSelection(). C enum `LibreOfficeKitSetTextSelectionType`. */
export const LibreOfficeKitSetTextSelectionType = {
  LOK_SETTEXTSELECTION_START: 0,
  LOK_SETTEXTSELECTION_END: 1,
  LOK_SETTEXTSELECTION_RESET: 2,
} as const;

/** `LOK_SETTEXTSELECTION_START` (LibreOfficeKitSetTextSelectionType). */
export const LOK_SETTEXTSELECTION_START = LibreOfficeKitSetTextSelectionType.LOK_SETTEXTSELECTION_START;
/** `LOK_SETTEXTSELECTION_END` (LibreOfficeKitSetTextSelectionType). */
export const LOK_SETTEXTSELECTION_END = LibreOfficeKitSetTextSelectionType.LOK_SETTEXTSELECTION_END;
/** `LOK_SETTEXTSELECTION_RESET` (LibreOfficeKitSetTextSelectionType). */
export const LOK_SETTEXTSELECTION_RESET = LibreOfficeKitSetTextSelectionType.LOK_SETTEXTSELECTION_RESET;

/** Types for setGraphicSelection(). C enum `LibreOfficeKitSetGraphicSelectionType`. */
export const LibreOfficeKitSetGraphicSelectionType = {
  LOK_SETGRAPHICSELECTION_START: 0,
  LOK_SETGRAPHICSELECTION_END: 1,
} as const;

/** `LOK_SETGRAPHICSELECTION_START` (LibreOfficeKitSetGraphicSelectionType). */
export const LOK_SETGRAPHICSELECTION_START = LibreOfficeKitSetGraphicSelectionType.LOK_SETGRAPHICSELECTION_START;
/** `LOK_SETGRAPHICSELECTION_END` (LibreOfficeKitSetGraphicSelectionType). */
export const LOK_SETGRAPHICSELECTION_END = LibreOfficeKitSetGraphicSelectionType.LOK_SETGRAPHICSELECTION_END;

/**
 * The header's name of a callback type (e.g. 0 -> 'LOK_CALLBACK_INVALIDATE_TILES'), for logs; for an
 * unknown number, `LOK_CALLBACK_<n>`.
 */
export function lokCallbackTypeName(type: number): string {
  for (const [name, value] of Object.entries(LibreOfficeKitCallbackType)) {
    if (value === type) return name;
  }
  return `LOK_CALLBACK_${type}`;
}
// ---- VCL values used with the event calls (not in LibreOfficeKitEnums.h) ----

/** Key codes (com::sun::star::awt::Key / vcl KEY_*) for the keyCode argument of postKeyEvent. */
export const VclKeyCode = {
  KEY_DOWN: 1024,
  KEY_UP: 1025,
  KEY_LEFT: 1026,
  KEY_RIGHT: 1027,
  KEY_HOME: 1028,
  KEY_END: 1029,
  KEY_PAGEUP: 1030,
  KEY_PAGEDOWN: 1031,
  KEY_RETURN: 1280,
  KEY_ESCAPE: 1281,
  KEY_TAB: 1282,
  KEY_BACKSPACE: 1283,
  KEY_SPACE: 1284,
  KEY_INSERT: 1285,
  KEY_DELETE: 1286,
} as const;

/**
 * Modifier bits (vcl/keycodes.hxx): OR'ed into postKeyEvent's keyCode, and the `modifier` argument of
 * postMouseEvent. KEY_MOD1 is Ctrl (Cmd on macOS), KEY_MOD2 Alt.
 */
export const VclKeyModifier = {
  KEY_SHIFT: 0x1000,
  KEY_MOD1: 0x2000,
  KEY_MOD2: 0x4000,
  KEY_MOD3: 0x8000,
} as const;

/** Mouse button bits (vcl/event.hxx MOUSE_*) for the `buttons` argument of postMouseEvent. */
export const VclMouseButton = {
  MOUSE_LEFT: 1,
  MOUSE_MIDDLE: 2,
  MOUSE_RIGHT: 4,
} as const;
