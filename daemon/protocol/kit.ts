/**
 * Daemon <-> kit IPC messages, as written down in `kit.md` beside this file (the source of truth).
 * Imports nothing outside protocol/: every process shares these shapes (editing events reuse the editor's).
 */
import type { ClientMessage } from './editor.ts';

/** A stable error carried across the IPC boundary: `code` from the list in kit.md. */
export interface KitErrorPayload {
  code: string;
  message: string;
}

/** Sent once by a kit when LibreOffice is initialised and warm. `initMs`: lok_init_2 time; `warmMs`: warm-up time (ms). */
export interface KitReady {
  type: 'ready';
  pid: number;
  version: string;
  initMs: number;
  warmMs: number;
  /** What the kit made of its settings manifest (ODE_KIT_SETTINGS; kit.md, "Settings"); absent without one. */
  settings?: KitSettingsReport;
}

/**
 * One settings file for a kit's LibreOffice profile (kit.md, "Settings"): `setting` is the host's setting name
 * (`autotext`, `wordbook`, `xcu`), `name` the plain file name it is installed as, `path` the absolute path of its
 * bytes on this machine, `source` the CheckFileInfo property it came from.
 */
export interface KitSettingsFile {
  setting: string;
  name: string;
  path: string;
  source: 'shared' | 'user';
}

/** The JSON file named by ODE_KIT_SETTINGS: the files in install order (shared first, user over them). */
export interface KitSettingsManifest {
  files: KitSettingsFile[];
}

/** Which files went into the profile (`<source>/<setting>/<name>`) and which were left out, with why. */
export interface KitSettingsReport {
  installed: string[];
  skipped: Array<{ file: string; reason: string }>;
  /** Time spent writing the profile (ms). */
  ms: number;
}

/** Sent by a kit whose start-up failed, just before it exits. */
export interface KitFatal {
  type: 'fatal';
  message: string;
}

/** Fields of a successful `convert` result: times in ms, `docType` a LOK_DOCTYPE_* number. */
export interface ConvertResult {
  loadMs: number;
  saveMs: number;
  docType: number;
}

/** One tracked change of LibreOffice's redline table and the 1-based page on which it starts (after layout). */
export interface RedlinePage {
  type: string;
  author: string;
  dateTime: string;
  /** LibreOffice's generated description, e.g. `Delete “text”` (long texts shortened with "..."). */
  description: string;
  page: number;
}

/**
 * Fields of a successful `inspect` result: `parts` is LOK getParts (pages of a text document, slides);
 * `redlines` (when asked for) the tracked changes in document order with their start pages.
 */
export interface InspectResult {
  loadMs: number;
  docType: number;
  parts: number;
  redlines?: RedlinePage[];
  /**
   * With `linkTargets`: LibreOffice's link targets (office extractRequest) as the JSON text it answers,
   * `{"Targets": {"Headings": {...}, "Tables": {...}, ...}}`; `docType` and `parts` are then 0.
   */
  linkTargets?: string;
}

/** Fields of a successful `open` result (kit.md, Editing): LOK_DOCTYPE_*, getParts and the part names, size in twips, the first view. */
export interface OpenResult {
  docType: number;
  parts: number;
  partNames: string[];
  width: number;
  height: number;
  viewId: number;
}

/**
 * Fields of a `docInfo` result (kit.md, Editing): the parts as they are now, their names, the size in twips, the
 * view's current part and its edit mode (presentations: 0 slides, 1 master slides, 2 notes; otherwise 0).
 */
export interface DocInfoResult {
  parts: number;
  partNames: string[];
  width: number;
  height: number;
  part: number;
  mode: number;
}

/** Fields of a `createView` result: the new view's id. */
export interface CreateViewResult {
  viewId: number;
}

/** Fields of a `tile` or `windowPaint` result: a PNG with straight alpha. */
export interface PngResult {
  png: Uint8Array;
}

/** Fields of a `commandValues` result: LOK getCommandValues' JSON text, or null where LibreOffice has none. */
export interface CommandValuesResult {
  value: string | null;
}

/**
 * Fields of a `saveDoc` result: `saved` false when `dontSaveIfUnmodified` and LibreOffice skipped an unmodified
 * document; `editKept` true when a `reenterCell` save left a cell in edit mode (its text is not in the file).
 */
export interface SaveDocResult {
  saved: boolean;
  editKept?: boolean;
}

/** One clipboard flavour (LOK getClipboard / paste): a mime type and its bytes. */
export interface ClipboardItem {
  mimeType: string;
  data: Uint8Array;
}

/** Fields of a `clipboardGet` result: the view's selection in the flavours LibreOffice could give. */
export interface ClipboardGetResult {
  items: ClipboardItem[];
}

/** Fields of a `paste` result: false when LibreOffice refused the paste. */
export interface PasteResult {
  pasted: boolean;
}

/** Fields of a `signatureState` result. */
export interface SignatureStateResult {
  /** LibreOffice's SignatureState number (0 none, 1 ok, 2 broken, 3 invalid, 4 not validated, 5 partial ok, 6 not validated + partial). */
  signatureState: number;
}

/** Fields of a `signDoc` result: `signed` false when LibreOffice could not sign; the state after signing. */
export interface SignDocResult extends SignatureStateResult {
  signed: boolean;
}

/** The fields of a result that carries none of its own (destroyView, exportDoc, closeDoc). */
export type EmptyResult = Record<never, never>;

/**
 * Each request's result fields (kit.md): a kit answers a request of type `K` with `KitResultMap[K]` in its `ok`
 * result. Indexed by KitRequest['type'] in KitOk, so a request type without an entry here does not compile.
 */
export interface KitResultMap {
  convert: ConvertResult;
  inspect: InspectResult;
  open: OpenResult;
  createView: CreateViewResult;
  destroyView: EmptyResult;
  tile: PngResult;
  windowPaint: PngResult;
  commandValues: CommandValuesResult;
  saveDoc: SaveDocResult;
  exportDoc: EmptyResult;
  clipboardGet: ClipboardGetResult;
  paste: PasteResult;
  docInfo: DocInfoResult;
  signDoc: SignDocResult;
  signatureState: SignatureStateResult;
  closeDoc: EmptyResult;
}

/** The type of each request a kit answers with a `result`. */
export type KitRequestType = KitRequest['type'];

/** A successful answer to a request of type `K` (`id` echoes the request's, `ms` its wall-clock time): K's fields. */
export type KitOk<K extends KitRequestType = KitRequestType> = K extends KitRequestType
  ? { type: 'result'; id: number; ok: true; ms: number } & KitResultMap[K]
  : never;

/** A failed answer to a request (`id` echoes the request's). */
export interface KitFailure {
  type: 'result';
  id: number;
  ok: false;
  error: KitErrorPayload;
}

/** The answer to one request. */
export type KitResult = KitOk | KitFailure;

/** Sent while a job runs, when its document has loaded (the daemon switches time limits). */
export interface KitProgress {
  type: 'progress';
  id: number;
  stage: 'loaded';
}

/**
 * One LibreOfficeKit callback of one view of the open document, forwarded as LibreOffice sent it (kit.md,
 * Editing): `callbackType` is a LOK_CALLBACK_* number (lok-enums.ts), `payload` its string.
 */
export interface KitCallback {
  type: 'callback';
  viewId: number;
  callbackType: number;
  payload: string;
}

/** Every message a kit sends. */
export type KitToDaemon = KitReady | KitFatal | KitProgress | KitResult | KitCallback;

/**
 * Convert one file inside the kit: load `input`, saveAs `output` with `format` (a LOK saveAs format such as
 * `pdf` or `docx`) and `filterOptions`, then destroy the document. Paths are absolute and inside the kit's temp
 * directory. `loadOptions` is passed to documentLoadWithOptions (CSV import options), `lang` becomes
 * `Language=`.
 */
export interface ConvertRequest {
  type: 'convert';
  id: number;
  input: string;
  output: string;
  format: string;
  filterOptions?: string;
  loadOptions?: string;
  lang?: string;
  password?: string;
}

/**
 * Inspect one file inside the kit: load `input`, count its parts, read the tracked changes' pages when
 * `redlines` is true (text documents), saveAs `output` in `format` when both are given, destroy the document.
 * Paths as for ConvertRequest.
 */
export interface InspectRequest {
  type: 'inspect';
  id: number;
  input: string;
  output?: string;
  format?: string;
  lang?: string;
  password?: string;
  redlines?: boolean;
  /** Only the link targets (`linkTargets` in the result): LibreOffice's office-level extractRequest, no other step. */
  linkTargets?: boolean;
}

/** Ask the kit to destroy its document and LibreOffice, then exit 0. */
export interface ShutdownRequest {
  type: 'shutdown';
}

/** The editor messages a kit takes as input events on a view (kit.md, Editing: `event`; fields as in editor.md). */
export type KitEditEvent = Extract<
  ClientMessage,
  {
    type:
      | 'key'
      | 'textInput'
      | 'composition'
      | 'mouse'
      | 'selectText'
      | 'uno'
      | 'setPart'
      | 'clientZoom'
      | 'clientVisibleArea'
      | 'windowKey'
      | 'windowMouse'
      | 'dialogEvent';
  }
>;

/** The `type`s of KitEditEvent. */
export const KIT_EDIT_EVENT_TYPES: ReadonlySet<string> = new Set<KitEditEvent['type']>([
  'key',
  'textInput',
  'composition',
  'mouse',
  'selectText',
  'uno',
  'setPart',
  'clientZoom',
  'clientVisibleArea',
  'windowKey',
  'windowMouse',
  'dialogEvent',
]);

/** A request's own fields, as a caller gives them to the kit client (`type` and `id` are added by the client). */
export type KitRequestBody<T extends { type: string; id: number }> = Omit<T, 'type' | 'id'>;

/**
 * Open `input` for editing (kit.md, Editing): load it, initialise rendering, register the first view's callbacks.
 * The kit saves back to `input`. `userName` (optional) becomes the first view's author (tracked changes, comments).
 */
export interface OpenRequest {
  type: 'open';
  id: number;
  input: string;
  lang?: string;
  password?: string;
  /** The first view is read-only (LibreOffice's setViewReadOnly where it has it, and the kit's input filter). */
  readOnly?: boolean;
  /** With `readOnly`: the first view may still change comments (setAllowChangeComments; a pdf opened with view_comment). */
  commentsOnly?: boolean;
  /** The first view's IANA time zone (setViewTimezone), from the browser. */
  timezone?: string;
  deviceFormFactor?: string;
  userName?: string;
  /** CheckFileInfo WatermarkText of the first view's user: painted into every tile of that view. */
  watermarkText?: string;
}

/** A new view of the open document for one user; result: `viewId`. `color` is the user's CSS colour (kept by the kit, not given to LibreOffice). */
export interface CreateViewRequest {
  type: 'createView';
  id: number;
  userName: string;
  userId: string;
  readOnly?: boolean;
  /** With `readOnly`: the view may still add, edit and delete comments (a pdf opened with view_comment). */
  commentsOnly?: boolean;
  lang?: string;
  /** The user's IANA time zone (setViewTimezone), from the browser. */
  timezone?: string;
  color?: string;
  /** CheckFileInfo WatermarkText of this user: painted into every tile of this view. */
  watermarkText?: string;
}

/** The view `viewId` leaves. */
export interface DestroyViewRequest {
  type: 'destroyView';
  id: number;
  viewId: number;
}

/**
 * Input on a view, no answer (kit.md, Editing: `event`). The editor's message is carried whole in `event`: its
 * `type` names the event and its own fields follow editor.md (a key's `event` field stays inside it).
 */
export interface EditEventMessage {
  type: 'event';
  viewId: number;
  event: KitEditEvent;
}

/**
 * Paint one tile (paintPartTile): `width`/`height` px, `x`/`y`/`tileTwipWidth`/`tileTwipHeight` twips; `mode` the
 * view's edit mode in a presentation (0 slides, 1 master slides, 2 notes; kit.md `tile`); result `png`.
 */
export interface TileRequestMessage {
  type: 'tile';
  id: number;
  viewId: number;
  part: number;
  mode: number;
  width: number;
  height: number;
  x: number;
  y: number;
  tileTwipWidth: number;
  tileTwipHeight: number;
}

/** Paint an area of a LibreOffice dialog window of view `viewId` (LOK paintWindow), px of the window; result `png`. */
export interface WindowPaintRequest {
  type: 'windowPaint';
  id: number;
  viewId: number;
  windowId: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** getCommandValues in view `viewId`; result `value` (string or null). */
export interface CommandValuesRequest {
  type: 'commandValues';
  id: number;
  viewId: number;
  command: string;
}

/**
 * `.uno:Save` in place (to the opened `input`) from view `viewId`; result `saved` (false: unmodified and skipped).
 * `dontTerminateEdit` (default false) leaves a cell being edited in edit mode, so its text is not in the save.
 * `reenterCell` (default false; the idle save): the cell the view edits is entered for the save, then the view is put
 * back into edit mode with the caret where it was; a cell that must not be entered (a formula being typed, a selection
 * in its text, another view editing a cell) stays in edit mode, and the result's `editKept` says so.
 */
export interface SaveDocRequest {
  type: 'saveDoc';
  id: number;
  viewId: number;
  dontSaveIfUnmodified: boolean;
  dontTerminateEdit?: boolean;
  reenterCell?: boolean;
}

/**
 * saveAs a copy to `output` in `format` (LOK saveAs format); the document stays as it is. `inOrder` (the edit
 * journal's snapshot): written after the input sent before this request, later input waiting until it is written.
 */
export interface ExportDocRequest {
  type: 'exportDoc';
  id: number;
  output: string;
  format: string;
  filterOptions?: string;
  inOrder?: boolean;
}

/** The view's selection as clipboard flavours (LOK getClipboard); result `items`. */
export interface ClipboardGetRequest {
  type: 'clipboardGet';
  id: number;
  viewId: number;
  mimeTypes: string[];
}

/** Pastes `data` of `mimeType` into the view at its cursor (LOK paste); result `pasted`. */
export interface PasteRequest {
  type: 'paste';
  id: number;
  viewId: number;
  mimeType: string;
  data: Uint8Array;
}

/** The document's parts, part names and size as they are now, and view `viewId`'s current part; result: DocInfoResult's fields. */
export interface DocInfoRequest {
  type: 'docInfo';
  id: number;
  viewId: number;
}

/**
 * Signs the document with one user's certificate (kit.md, Editing: `signDoc`): the `ca` certificates are trusted
 * first (LOK addCertificate), then LOK insertCertificate signs the document file in place (`input`; LibreOffice
 * saves unsaved changes first). DER bytes; `privateKey` is PKCS#8. Result: `signed`, `signatureState`.
 */
export interface SignDocRequest {
  type: 'signDoc';
  id: number;
  viewId: number;
  certificate: Uint8Array;
  privateKey: Uint8Array;
  ca: Uint8Array[];
}

/** Trusts the `ca` certificates (DER; may be empty) and reads the document's signature state; result `signatureState`. */
export interface SignatureStateRequest {
  type: 'signatureState';
  id: number;
  viewId: number;
  ca: Uint8Array[];
}

/** Destroy the document; the kit exits after answering. */
export interface CloseDocRequest {
  type: 'closeDoc';
  id: number;
}

/** The editing messages the daemon sends (kit.md, "Editing"). */
export type EditRequest =
  | WindowPaintRequest
  | OpenRequest
  | CreateViewRequest
  | DestroyViewRequest
  | EditEventMessage
  | TileRequestMessage
  | CommandValuesRequest
  | SaveDocRequest
  | ExportDocRequest
  | ClipboardGetRequest
  | PasteRequest
  | DocInfoRequest
  | CloseDocRequest
  | SignDocRequest
  | SignatureStateRequest;

/** Every message the daemon sends. */
export type DaemonToKit = ConvertRequest | InspectRequest | ShutdownRequest | EditRequest;

/** The messages a kit answers with a `result` (every one but `shutdown` and `event`); results: KitResultMap. */
export type KitRequest = Exclude<DaemonToKit, ShutdownRequest | EditEventMessage>;

const EDIT_TYPES: ReadonlySet<string> = new Set<EditRequest['type']>([
  'windowPaint',
  'open',
  'createView',
  'destroyView',
  'event',
  'tile',
  'commandValues',
  'saveDoc',
  'exportDoc',
  'clipboardGet',
  'paste',
  'docInfo',
  'closeDoc',
  'signDoc',
  'signatureState',
]);

/** True for the editing messages (kit.md, "Editing"). */
export function isEditRequest(msg: DaemonToKit): msg is EditRequest {
  return EDIT_TYPES.has(msg.type);
}

/** Type guard for messages arriving from a kit (the IPC channel carries untyped values). */
export function isKitToDaemon(value: unknown): value is KitToDaemon {
  if (typeof value !== 'object' || value === null) return false;
  const t = (value as { type?: unknown }).type;
  return t === 'ready' || t === 'fatal' || t === 'progress' || t === 'result' || t === 'callback';
}

/** Type guard for messages arriving from the daemon. */
export function isDaemonToKit(value: unknown): value is DaemonToKit {
  if (typeof value !== 'object' || value === null) return false;
  const t = (value as { type?: unknown }).type;
  return t === 'convert' || t === 'inspect' || t === 'shutdown' || (typeof t === 'string' && EDIT_TYPES.has(t));
}

/**
 * The fake kit (kit.md, "The fake kit"; tests only): the zip part in which it saves the document's text, so a test
 * reads what was typed from the stored file without LibreOffice.
 */
export const FAKE_KIT_TEXT_PART = 'ode-fake-kit/text.txt';

/** The environment variable naming the fake kit's control file (FakeKitControl as JSON), read at each request it applies to. */
export const FAKE_KIT_CONTROL_ENV = 'ODE_FAKE_KIT_CONTROL';

/**
 * What a test asks of the fake kits of its daemon (kit.md, "The fake kit"): the JSON in the file named by
 * ODE_FAKE_KIT_CONTROL, read again at every open and save; a missing or unreadable file asks nothing.
 */
export interface FakeKitControl {
  /** Each `open` answers this much later (ms): a slow load. */
  openDelayMs?: number;
  /** Each `saveDoc` writes the file this much later (ms): a slow save. What it writes is what was sent before it. */
  saveDelayMs?: number;
  /** `saveDoc` fails with `save_failed` (LibreOffice could not write the file). */
  failSave?: boolean;
  /** Only the kit of this process id fails its saves (a document's exit save failing, while a fresh kit saves). */
  failSavePid?: number;
  /** The kit process kills itself (SIGKILL) when a `saveDoc` arrives, as a LibreOffice crashing in `.uno:Save`. */
  crashOnSave?: boolean;
  /** Only the kit of this process id does so (a document's kit dying in its exit save, while a fresh kit saves). */
  crashOnSavePid?: number;
  /** Written to the kit's stderr (a line) before it crashes on save: its last words, as LibreOffice's before an abort. */
  crashMessage?: string;
}
