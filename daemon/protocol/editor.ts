/**
 * daemon <-> editor messages, as written down in `editor.md` beside this file (the source of truth). Imports
 * nothing: the daemon and the browser editor share these shapes. Twips for document coordinates, px for tiles.
 */

/** A rectangle `[x, y, width, height]` in twips. */
export type Rect = [number, number, number, number];

/** Every message the editor sends, by type (editor.md, "Client -> daemon"). */
export type ClientMessage =
  | {
      type: 'load';
      token: string;
      tokenTtl?: number;
      lang?: string;
      readonly?: boolean;
      checkFileInfoOverride?: string;
      deviceFormFactor?: 'desktop' | 'tablet' | 'mobile';
      timestamp?: string;
      startPresentation?: boolean;
      timezone?: string;
      prefetch?: string;
    }
  | { type: 'clientZoom'; tilePixelWidth: number; tilePixelHeight: number; tileTwipWidth: number; tileTwipHeight: number }
  | { type: 'clientVisibleArea'; x: number; y: number; width: number; height: number }
  | {
      type: 'tiles';
      part: number;
      mode?: number;
      width: number;
      height: number;
      tileTwipWidth: number;
      tileTwipHeight: number;
      positions: Array<[number, number]>;
      fresh?: boolean;
    }
  | { type: 'key'; event: 'input' | 'up'; charCode: number; keyCode: number }
  | { type: 'textInput'; text: string }
  | { type: 'composition'; text: string; stage: 'update' | 'end' }
  | { type: 'mouse'; event: 'buttondown' | 'buttonup' | 'move'; x: number; y: number; count: number; buttons: number; modifier: number }
  | { type: 'selectText'; kind: 'start' | 'end' | 'reset'; x: number; y: number }
  | { type: 'uno'; command: string; args?: string; notify?: boolean }
  | { type: 'commandValues'; command: string }
  | { type: 'setPart'; part: number }
  | { type: 'save'; dontSaveIfUnmodified?: boolean; dontTerminateEdit?: boolean }
  | { type: 'sign' }
  | { type: 'saveAs'; name: string }
  | { type: 'rename'; name: string }
  | { type: 'download'; id: string; format: string; purpose: 'download' | 'print' | 'slideshow' }
  | { type: 'clipboardGet'; mimeTypes: string[] }
  | { type: 'paste'; mimeType: string; data: string }
  | { type: 'windowKey'; windowId: number; event: 'input' | 'up'; charCode: number; keyCode: number }
  | { type: 'windowMouse'; windowId: number; event: 'buttondown' | 'buttonup' | 'move'; x: number; y: number; count: number; buttons: number; modifier: number }
  | { type: 'dialogEvent'; windowId: number; event: DialogEvent }
  | { type: 'windowPaint'; windowId: number; x: number; y: number; width: number; height: number }
  | { type: 'resolveConflict'; choice: 'overwrite' | 'reload' }
  | { type: 'recoveryChoice'; id: string; choice: RecoveryChoice }
  | { type: 'resetAccessToken'; token: string; tokenTtl?: number }
  | { type: 'closeDocument' }
  | { type: 'eSignatureStart' }
  | { type: 'eSignatureCancel' }
  | { type: 'citationList'; style?: string }
  | { type: 'citationInsert'; itemKeys: string[]; style?: string }
  | { type: 'bibliographyInsert'; style?: string }
  | { type: 'close' }
  /**
   * The comment being written in the browser (a dialog's or a reply's text, not yet sent as `uno`): the daemon keeps
   * the latest and sends it as that `uno` in this view when the socket closes first (the tab closed: the exit save
   * has it). Without `command` it is dropped; a comment `uno` of the view drops it too (it was sent).
   */
  | { type: 'commentDraft'; command?: CommentDraftCommand; args?: string }
  | { type: 'ping'; id: number }
  | { type: 'pong'; id: number };

/**
 * An event on a widget of a JSDialog (editor.md `dialogEvent`), as LibreOffice's vcl/jsdialog executor reads it
 * (lok::Document::sendDialogEvent; Collabora's browser sends the same object as `dialogevent <windowId> <json>`).
 */
export interface DialogEvent {
  /** The widget's `id` in the dialog's JSON. */
  id: string;
  /** `click`, `change`, `value`, `toggle`, `select`, `selecttab`, `activate`, `close`, `response`, ... */
  cmd: string;
  /** The command's argument: new text, a value, an entry index, `true`/`false`, a tab index. */
  data?: string;
  /** The widget's `type` (`pushbutton`, `spinfield`, `listbox`, `checkbox`, `tabcontrol`, `dialog`, ...). */
  type?: string;
}

/**
 * What a user may do with a recovery copy (editor.md `recoveryOffer`): `restore` stores it as the document's new
 * version (PutFile without the timestamp: the stored version it replaces stays in the host's version history) and
 * reloads the document; `saveAs` stores it beside the document as a new file (PutRelativeFile).
 */
export type RecoveryChoice = 'restore' | 'saveAs';

/**
 * A copy of this document's edits that a previous run of the daemon could not store (after a crash, when the stored
 * file changed meanwhile, the token expired, or the host refused it), as offered to the document's users.
 */
export interface RecoveryOfferCopy {
  id: string;
  /** The document's name when the copy was made. */
  fileName: string;
  /** When the edits were made (ms since the epoch). */
  createdAt: number;
  bytes: number;
  /** Why it was not stored: `conflict` (the stored file changed meanwhile), `token_expired`, `failed`, `host_unavailable`. */
  reason: string;
}

/** The UNO commands a `commentDraft` may hold: a new comment, a reply (Writer's and the others'), an edit. */
export const COMMENT_DRAFT_COMMANDS = ['.uno:InsertAnnotation', '.uno:ReplyComment', '.uno:ReplyToAnnotation', '.uno:EditAnnotation'] as const;
/** One of COMMENT_DRAFT_COMMANDS. */
export type CommentDraftCommand = (typeof COMMENT_DRAFT_COMMANDS)[number];

/** One message type's name. */
export type ClientMessageType = ClientMessage['type'];

/** A view as every other view sees it. */
export interface ViewInfo {
  viewId: number;
  userId: string;
  userName: string;
  /** CSS colour of this user's cursor and selection. */
  color: string;
  readonly: boolean;
  extraInfo: Record<string, unknown>;
  /** IsAnonymousUser (or the deprecated is_guest): shown as a guest to every view. */
  anonymous?: boolean;
}

/**
 * One feature that CheckFileInfo's IsUserLocked or IsUserRestricted covers for this view (status.features): its
 * name (docs/postmessage.md, "Locked and restricted users") and the editor command ids (or `prefix.*` patterns) it
 * gates.
 */
export interface FeatureGate {
  feature: string;
  commands: string[];
}

/** LibreOffice's signature state of the document (editor.md, `signatureState`). */
export type SignatureStateName = 'unsigned' | 'valid' | 'broken' | 'invalid' | 'notValidated' | 'partial' | 'notValidatedPartial' | 'unknown';

/** One item of the user's citation library as the editor lists it (`citationList`). */
export interface CitationListItem {
  key: string;
  title: string;
  creators: string;
  date: string;
  itemType: string;
  /** The in-text citation in the list's style, plain text. */
  citation: string;
}

/**
 * One function LibreOffice suggests for the name being typed in a formula (LOK_CALLBACK_CALC_FUNCTION_LIST,
 * editor.md `calcFunctionList`): `name` (e.g. `SUM`, from LibreOffice's `name` or its signature up to the
 * parenthesis), `signature` (`SUM( Number 1; Number 2; ... )`), `description`.
 */
export interface CalcFunction {
  name: string;
  signature: string;
  description: string;
}

/** Every text message the daemon sends (editor.md, "Daemon -> client"). Tiles are binary frames. */
export type ServerMessage =
  | { type: 'loading'; stage: 'checkfileinfo' | 'download' | 'load'; postMessageOrigin?: string }
  | {
      type: 'status';
      viewId: number;
      docType: 'text' | 'spreadsheet' | 'presentation' | 'drawing';
      parts: number;
      part: number;
      partNames: string[];
      width: number;
      height: number;
      readonly: boolean;
      commentsOnly: boolean;
      fileInfo: Record<string, unknown>;
      features?: { locked: FeatureGate[]; restricted: FeatureGate[] };
    }
  | { type: 'invalidate'; part: number; x: number; y: number; width: number; height: number; all?: boolean }
  /** `mode`: the view's edit mode in a presentation (0 slides, 1 master slides, 2 notes: `width` x `height` is the notes page); absent: 0. */
  | { type: 'documentSize'; width: number; height: number; parts: number; partNames: string[]; mode?: number }
  | { type: 'cursor'; rect: Rect; visible: boolean }
  | { type: 'selection'; rects: Rect[]; start?: Rect; end?: Rect }
  | { type: 'views'; views: ViewInfo[] }
  | { type: 'viewCursor'; viewId: number; part: number; rect: Rect; visible: boolean }
  | { type: 'viewSelection'; viewId: number; part: number; rects: Rect[] }
  | { type: 'stateChanged'; command: string; value: string }
  | { type: 'part'; part: number }
  | { type: 'selectionHandle'; handle: 'start' | 'end'; rect: Rect | null }
  | { type: 'graphicSelection'; rect: Rect | null; extra?: unknown }
  | { type: 'viewGraphicSelection'; viewId: number; part: number; rect: Rect | null }
  | { type: 'cellCursor'; rect: Rect | null }
  /** Spreadsheets: where LibreOffice's fill handle of this view's selection is (CELL_AUTO_FILL_AREA); null: none. */
  | { type: 'cellAutoFillArea'; rect: Rect | null }
  | { type: 'viewCellCursor'; viewId: number; part: number; rect: Rect | null }
  | { type: 'cellFormula'; formula: string }
  | { type: 'cellAddress'; address: string }
  | { type: 'calcFunctionList'; functions: CalcFunction[] }
  | { type: 'headerInvalidated'; header: string }
  | { type: 'sheetGeometryInvalidated'; what: string }
  | { type: 'searchNotFound'; searchString: string }
  | { type: 'searchResult'; result: unknown }
  | { type: 'hyperlinkClicked'; url: string }
  | { type: 'contextMenu'; menu: unknown }
  | { type: 'window'; json: unknown }
  | { type: 'windowPaint'; windowId: number; x: number; y: number; width: number; height: number; png: string }
  | { type: 'rulerUpdate'; ruler: unknown }
  | { type: 'unoResult'; command: string; success: boolean; result?: unknown }
  | { type: 'commandValues'; command: string; value: unknown }
  | { type: 'modified'; modified: boolean }
  | {
      type: 'saved';
      ok: boolean;
      autosave: boolean;
      exitSave: boolean;
      lastModifiedTime?: string;
      /** A spreadsheet cell being edited stayed in edit mode: its text is not in the stored file (issue 16). */
      cellKept?: boolean;
      error?: { code: string; message: string };
    }
  | { type: 'savedAs'; ok: boolean; name?: string; url?: string; error?: { code: string; message: string } }
  | { type: 'renamed'; ok: boolean; name?: string; error?: { code: string; message: string } }
  | { type: 'conflict'; unsavedChanges: boolean }
  | { type: 'recoveryOffer'; copies: RecoveryOfferCopy[]; canSaveAs: boolean }
  | { type: 'recoveryResult'; id: string; choice: RecoveryChoice; ok: boolean; name?: string; url?: string; error?: { code: string; message: string } }
  | { type: 'signatureState'; state: SignatureStateName; canSign: boolean }
  | { type: 'signed'; ok: boolean; state?: SignatureStateName; error?: { code: string; message: string } }
  | { type: 'reloaded' }
  | { type: 'downloadReady'; id: string; url: string }
  | { type: 'clipboard'; items: Array<{ mimeType: string; data: string }> }
  | { type: 'dialog'; json: string }
  | { type: 'comments'; action: string; comment: unknown }
  | { type: 'tokenExpiring'; expiresAt: number }
  | { type: 'error'; code: string; message: string; feature?: string }
  | { type: 'storage'; state: 'ok' | 'retrying' | 'unauthorized' | 'too_large'; message: string }
  | { type: 'kitDied'; message: string }
  | { type: 'idle'; message: string }
  | { type: 'draining'; message: string }
  | { type: 'updateAvailable'; current: string; available: string }
  | { type: 'services'; eSignature: boolean; citations: boolean }
  | { type: 'eSignature'; state: 'signing' | 'signed' | 'failed' | 'cancelled'; url?: string; code?: string; message?: string }
  | { type: 'citationList'; style: string; items: CitationListItem[] }
  | {
      type: 'citationResult';
      action: 'list' | 'citation' | 'bibliography';
      ok: boolean;
      text?: string;
      count?: number;
      error?: { code: string; message: string };
    }
  | { type: 'ping'; id: number }
  | { type: 'pong'; id: number };

/**
 * Close codes of the editing socket (editor.md, "Close codes"; RFC 6455 section 7.4 for the 1xxx ones). Ode sends
 * 1000, 1001 and its 4xxx codes; `noStatus`, `abnormal`, `serverError` and `serviceRestart` are never sent by Ode but
 * reach the editor from the browser or a proxy (it reconnects after them).
 */
export const CLOSE = {
  normal: 1000,
  goingAway: 1001,
  noStatus: 1005,
  abnormal: 1006,
  serverError: 1011,
  serviceRestart: 1012,
  protocol: 4400,
  unauthorized: 4401,
  forbiddenHost: 4403,
  idle: 4408,
  ownerClosed: 4409,
  adminClosed: 4410,
  failed: 4500,
  draining: 4503,
} as const;

type FieldKind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'string?' | 'number?' | 'boolean?';

/** Required and optional fields of each client message (the rest of the shape is checked where used). */
const CLIENT_FIELDS: Record<ClientMessageType, Record<string, FieldKind>> = {
  load: {
    token: 'string',
    tokenTtl: 'number?',
    lang: 'string?',
    readonly: 'boolean?',
    checkFileInfoOverride: 'string?',
    deviceFormFactor: 'string?',
    timestamp: 'string?',
    startPresentation: 'boolean?',
    timezone: 'string?',
    prefetch: 'string?',
  },
  clientZoom: { tilePixelWidth: 'number', tilePixelHeight: 'number', tileTwipWidth: 'number', tileTwipHeight: 'number' },
  clientVisibleArea: { x: 'number', y: 'number', width: 'number', height: 'number' },
  tiles: {
    part: 'number',
    mode: 'number?',
    width: 'number',
    height: 'number',
    tileTwipWidth: 'number',
    tileTwipHeight: 'number',
    positions: 'array',
    fresh: 'boolean?',
  },
  key: { event: 'string', charCode: 'number', keyCode: 'number' },
  textInput: { text: 'string' },
  composition: { text: 'string', stage: 'string' },
  mouse: { event: 'string', x: 'number', y: 'number', count: 'number', buttons: 'number', modifier: 'number' },
  selectText: { kind: 'string', x: 'number', y: 'number' },
  uno: { command: 'string', args: 'string?', notify: 'boolean?' },
  commandValues: { command: 'string' },
  setPart: { part: 'number' },
  save: { dontSaveIfUnmodified: 'boolean?', dontTerminateEdit: 'boolean?' },
  sign: {},
  saveAs: { name: 'string' },
  rename: { name: 'string' },
  download: { id: 'string', format: 'string', purpose: 'string' },
  clipboardGet: { mimeTypes: 'array' },
  paste: { mimeType: 'string', data: 'string' },
  windowKey: { windowId: 'number', event: 'string', charCode: 'number', keyCode: 'number' },
  windowMouse: { windowId: 'number', event: 'string', x: 'number', y: 'number', count: 'number', buttons: 'number', modifier: 'number' },
  dialogEvent: { windowId: 'number', event: 'object' },
  windowPaint: { windowId: 'number', x: 'number', y: 'number', width: 'number', height: 'number' },
  resolveConflict: { choice: 'string' },
  recoveryChoice: { id: 'string', choice: 'string' },
  resetAccessToken: { token: 'string', tokenTtl: 'number?' },
  closeDocument: {},
  commentDraft: { command: 'string?', args: 'string?' },
  eSignatureStart: {},
  eSignatureCancel: {},
  citationList: { style: 'string?' },
  citationInsert: { itemKeys: 'array', style: 'string?' },
  bibliographyInsert: { style: 'string?' },
  close: {},
  ping: { id: 'number' },
  pong: { id: 'number' },
};

/** Allowed values of the string enumerations. */
const ENUMS: Record<string, readonly string[]> = {
  'commentDraft.command': COMMENT_DRAFT_COMMANDS,
  'key.event': ['input', 'up'],
  'windowKey.event': ['input', 'up'],
  'composition.stage': ['update', 'end'],
  'mouse.event': ['buttondown', 'buttonup', 'move'],
  'windowMouse.event': ['buttondown', 'buttonup', 'move'],
  'selectText.kind': ['start', 'end', 'reset'],
  'download.purpose': ['download', 'print', 'slideshow'],
  'resolveConflict.choice': ['overwrite', 'reload'],
  'recoveryChoice.choice': ['restore', 'saveAs'],
  'load.deviceFormFactor': ['desktop', 'tablet', 'mobile'],
};

/** A client message that breaks the protocol: the socket is closed with CLOSE.protocol and this reason. */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
}

/**
 * Parses and checks one text frame from the editor.
 * @throws ProtocolError naming the bad field (not JSON, unknown type, missing or mistyped field, bad enum value).
 */
export function parseClientMessage(text: string): ClientMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProtocolError('a text frame must be a JSON object');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ProtocolError('a text frame must be a JSON object');
  const msg = value as Record<string, unknown>;
  const type = msg.type;
  if (typeof type !== 'string' || !Object.hasOwn(CLIENT_FIELDS, type)) throw new ProtocolError(`unknown message type ${JSON.stringify(type)}`);
  for (const [field, kind] of Object.entries(CLIENT_FIELDS[type as ClientMessageType])) {
    const v = msg[field];
    const optional = kind.endsWith('?');
    if (v === undefined && optional) continue;
    const base = kind.replace('?', '');
    const ok =
      base === 'array'
        ? Array.isArray(v)
        : base === 'object'
          ? typeof v === 'object' && v !== null && !Array.isArray(v)
          : base === 'number'
            ? typeof v === 'number' && Number.isFinite(v)
            : typeof v === base;
    if (!ok) throw new ProtocolError(`${type}.${field} must be ${optional ? 'absent or ' : ''}a ${base}`);
    const allowed = ENUMS[`${type}.${field}`];
    if (allowed && !allowed.includes(v as string)) throw new ProtocolError(`${type}.${field} must be one of ${allowed.join(', ')}`);
  }
  if (type === 'dialogEvent') checkDialogEvent(msg.event as Record<string, unknown>);
  return msg as unknown as ClientMessage;
}

/** `dialogEvent.event`: string `id` and `cmd`, `data` and `type` absent or strings. @throws ProtocolError */
function checkDialogEvent(e: Record<string, unknown>): void {
  for (const f of ['id', 'cmd'] as const)
    if (typeof e[f] !== 'string' || e[f] === '') throw new ProtocolError(`dialogEvent.event.${f} must be a non-empty string`);
  for (const f of ['data', 'type'] as const)
    if (e[f] !== undefined && typeof e[f] !== 'string') throw new ProtocolError(`dialogEvent.event.${f} must be absent or a string`);
}

/** The header of a binary tile frame (editor.md, "Tiles"). */
export interface TileHeader {
  type: 'tile';
  part: number;
  mode: number;
  x: number;
  y: number;
  tileTwipWidth: number;
  tileTwipHeight: number;
  width: number;
  height: number;
  encoding: 'png' | 'unchanged';
  /** Wire id: identifies the tile's content; `unchanged` refers to an earlier one. */
  wid: number;
}

/** Encodes a tile frame: 4-byte big-endian header length, the JSON header, the payload. */
export function encodeTileFrame(header: TileHeader, payload: Uint8Array = new Uint8Array(0)): Uint8Array {
  const head = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(4 + head.length + payload.length);
  new DataView(out.buffer).setUint32(0, head.length);
  out.set(head, 4);
  out.set(payload, 4 + head.length);
  return out;
}

/**
 * Decodes a tile frame.
 * @throws ProtocolError when the frame is shorter than its header says.
 */
export function decodeTileFrame(frame: Uint8Array): { header: TileHeader; payload: Uint8Array } {
  if (frame.length < 4) throw new ProtocolError('tile frame too short');
  const len = new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getUint32(0);
  if (frame.length < 4 + len) throw new ProtocolError('tile frame shorter than its header length');
  const header = JSON.parse(new TextDecoder().decode(frame.subarray(4, 4 + len))) as TileHeader;
  return { header, payload: frame.subarray(4 + len) };
}
