/**
 * LokDocument: one document loaded by Office.documentLoad, over lok::Document of LibreOfficeKit 25.2.
 * Calls newer than 7.4 are optional calls (found by LibreOffice's class size; optionalCalls() lists them) and
 * throw LokError `unsupported` on a LibreOffice without them.
 * Units: twips for document coordinates and sizes, px for buffers. Tile buffers are BGRA with
 * premultiplied alpha, rows top-down, width*height*4 bytes.
 *
 * State (better-sqlite3 style): after destroy() (or office.destroy()) every call throws LokError
 * `destroyed`. saveAs, paintTile and paintPartTile run on a worker thread and return Promises; while one
 * is in flight, destroy() throws `busy` (await it first). Synchronous calls during an async call are
 * allowed: LibreOffice serialises them on its global lock, so they may wait for it.
 */
import type { NativeDocument } from './addon.ts';
import { LokError } from './errors.ts';
import {
  checkBoolean,
  checkBuffer,
  checkFileUrl,
  checkFunction,
  checkInt,
  checkOptionalJson,
  checkOptionalString,
  checkString,
  MAX_CANVAS_PX,
  reportThrows,
  withCallerStack,
} from './validate.ts';

/** A LibreOfficeKit callback: callback type number (LOK_CALLBACK_* in lok-enums.ts) and payload. */
export type LokCallback = (type: number, payload: string) => void;

/** Tile request of paintTile: canvas in px, tile rectangle in twips. */
export interface TileRequest {
  canvasWidth: number;
  canvasHeight: number;
  tilePosX: number;
  tilePosY: number;
  tileWidth: number;
  tileHeight: number;
}

/** Tile request of paintPartTile: a part (sheet/slide) and, for presentations, a LOK_PARTMODE_* and edit mode. */
export interface PartTileRequest extends TileRequest {
  part: number;
  /** LOK_PARTMODE_SLIDES / LOK_PARTMODE_NOTES, set on the view before painting (unchanged when absent). */
  mode?: number;
  /** paintPartTile's own `nMode` (LibreOffice 24.2+ header): Impress' edit mode, 0 normal view (default), 1 master pages. */
  editMode?: 0 | 1;
}

/**
 * The lok::Document calls newer than LibreOffice 7.4 that the addon knows (header names). optionalCalls() says
 * which this LibreOffice has.
 */
export type DocumentOptionalCall =
  | 'sendContentControlEvent'
  | 'getEditMode'
  | 'setViewTimezone'
  | 'setViewReadOnly'
  | 'setAllowChangeComments'
  | 'getPresentationInfo'
  | 'createSlideRenderer'
  | 'postSlideshowCleanup'
  | 'renderNextSlideLayer'
  | 'setViewOption';

/** One layer of a slide from renderNextSlideLayer. */
export interface SlideLayer {
  /** True when the slide has no more layers after this one. */
  done: boolean;
  /** True when `pixels` holds this layer's bitmap. */
  isBitmapLayer: boolean;
  /** LibreOffice's JSON describing the layer (type, index, animation...), or null. */
  message: string | null;
  /** width*height*4 bytes, BGRA premultiplied, of the size createSlideRenderer answered; null unless a bitmap layer. */
  pixels: Buffer | null;
}

/** One clipboard flavour. */
export interface ClipboardItem {
  mimeType: string;
  data: Buffer;
}

const INTERNAL = Symbol('LokDocument.internal');

function checkTile(o: TileRequest): void {
  if (typeof o !== 'object' || o === null) throw new LokError('the tile request must be an object', 'invalid_argument');
  checkInt('canvasWidth', o.canvasWidth, 1, MAX_CANVAS_PX);
  checkInt('canvasHeight', o.canvasHeight, 1, MAX_CANVAS_PX);
  checkInt('tilePosX', o.tilePosX);
  checkInt('tilePosY', o.tilePosY);
  checkInt('tileWidth', o.tileWidth, 1);
  checkInt('tileHeight', o.tileHeight, 1);
}

/** The arguments of a key event (postKeyEvent, postWindowKeyEvent), checked: LOK_KEYEVENT_* type, char and key code. */
function checkKeyEvent(type: number, charCode: number, keyCode: number): [number, number, number] {
  return [checkInt('type', type, 0), checkInt('charCode', charCode, 0), checkInt('keyCode', keyCode, 0)];
}

/**
 * The arguments of a mouse event (postMouseEvent, postWindowMouseEvent), checked: LOK_MOUSEEVENT_* type, position
 * (twips in the document, px in a window), click count, VCL button and modifier bits.
 */
function checkMouseEvent(
  type: number,
  x: number,
  y: number,
  count: number,
  buttons: number,
  modifier: number,
): [number, number, number, number, number, number] {
  return [
    checkInt('type', type, 0),
    checkInt('x', x),
    checkInt('y', y),
    checkInt('count', count, 0),
    checkInt('buttons', buttons, 0),
    checkInt('modifier', modifier, 0),
  ];
}

/** A loaded document. Created only by Office.documentLoad. */
export class LokDocument {
  readonly #native: NativeDocument;
  readonly #onDestroy: (doc: LokDocument) => void;

  /** @internal Use Office.documentLoad. */
  constructor(token: typeof INTERNAL, native: NativeDocument, onDestroy: (doc: LokDocument) => void) {
    if (token !== INTERNAL) throw new TypeError('LokDocument is created by Office.documentLoad');
    this.#native = native;
    this.#onDestroy = onDestroy;
  }

  /** @internal */
  static create(native: NativeDocument, onDestroy: (doc: LokDocument) => void): LokDocument {
    return new LokDocument(INTERNAL, native, onDestroy);
  }

  /**
   * lok::Document::saveAs on a worker thread. `format` is a file extension LOK knows (pdf, docx, odt,
   * xlsx, png, ...; "" = take it from the URL). `filterOptions` is LOK's string: comma-separated
   * options, plus LOK's own `,Watermark=<text>WATERMARKEND` / `,PDFVer=PDF/A-2bPDFVEREND` /
   * `TakeOwnership`. See README.md for what LibreOffice (7.4 and 25.2: pdf-options.test.ts) does with a JSON FilterData string.
   * Rejects LokError `save_failed` with getError() text, `destroyed`, `invalid_argument`.
   */
  saveAs(url: string, format: string, filterOptions?: string): Promise<void> {
    const holder = {};
    Error.captureStackTrace(holder, this.saveAs);
    return withCallerStack(holder, async () => {
      checkFileUrl('url', url);
      checkString('format', format);
      checkOptionalString('filterOptions', filterOptions);
      await this.#native.saveAs(url, format, filterOptions);
    });
  }

  /** LOK_DOCTYPE_* of the document. */
  getDocumentType(): number {
    return this.#native.getDocumentType();
  }

  /** Number of parts: sheets, slides, or 1 for text documents. */
  getParts(): number {
    return this.#native.getParts();
  }

  /** Index of the current part. */
  getPart(): number {
    return this.#native.getPart();
  }

  /** Makes `part` current (in the current view). */
  setPart(part: number): void {
    this.#native.setPart(checkInt('part', part, 0));
  }

  /** Name of a part (sheet or slide name). */
  getPartName(part: number): string {
    return this.#native.getPartName(checkInt('part', part, 0));
  }

  /** LOK's JSON part info string (visibility, selection, ...) of a part. */
  getPartInfo(part: number): string {
    return this.#native.getPartInfo(checkInt('part', part, 0));
  }

  /** Page rectangles of a text document: "x, y, w, h; x, y, w, h; ..." in twips. */
  getPartPageRectangles(): string {
    return this.#native.getPartPageRectangles();
  }

  /** Size of the current part in twips. */
  getDocumentSize(): { width: number; height: number } {
    return this.#native.getDocumentSize();
  }

  /**
   * lok::Document::initializeForRendering; `args` is LOK's JSON property string (optional), e.g.
   * `{".uno:HideWhitespace":{"type":"boolean","value":"false"}}`. Throws `invalid_argument` on bad JSON.
   */
  initializeForRendering(args?: string): void {
    this.#native.initializeForRendering(checkOptionalJson('args', args));
  }

  /**
   * Paints a tile of the current part on a worker thread: `tileWidth` x `tileHeight` twips at
   * (`tilePosX`, `tilePosY`) into a `canvasWidth` x `canvasHeight` px BGRA buffer.
   * Rejects `destroyed` or `invalid_argument`.
   */
  paintTile(o: TileRequest): Promise<Buffer> {
    const holder = {};
    Error.captureStackTrace(holder, this.paintTile);
    return withCallerStack(holder, async () => {
      checkTile(o);
      return this.#native.paintTile(o.canvasWidth, o.canvasHeight, o.tilePosX, o.tilePosY, o.tileWidth, o.tileHeight);
    });
  }

  /**
   * Like paintTile, for part `o.part` (and, if given, part mode `o.mode`, set on the view first), in edit mode
   * `o.editMode` (0 normal view by default, 1 master pages).
   */
  paintPartTile(o: PartTileRequest): Promise<Buffer> {
    const holder = {};
    Error.captureStackTrace(holder, this.paintPartTile);
    return withCallerStack(holder, async () => {
      checkTile(o);
      const part = checkInt('part', o.part, 0);
      const mode = o.mode === undefined ? -1 : checkInt('mode', o.mode, 0);
      const editMode = o.editMode === undefined ? 0 : checkInt('editMode', o.editMode, 0, 1);
      return this.#native.paintPartTile(part, mode, editMode, o.canvasWidth, o.canvasHeight, o.tilePosX, o.tilePosY, o.tileWidth, o.tileHeight);
    });
  }

  /** Posts a key event (LOK_KEYEVENT_*) to the current view; effects arrive as callbacks. */
  postKeyEvent(type: number, charCode: number, keyCode: number): void {
    this.#native.postKeyEvent(...checkKeyEvent(type, charCode, keyCode));
  }

  /** Posts a mouse event (LOK_MOUSEEVENT_*) at (x, y) twips; buttons/modifier as VCL bits. */
  postMouseEvent(type: number, x: number, y: number, count: number, buttons: number, modifier: number): void {
    this.#native.postMouseEvent(...checkMouseEvent(type, x, y, count, buttons, modifier));
  }

  /**
   * Dispatches a UNO command (e.g. `.uno:Bold`) asynchronously. `args` is LOK's JSON property string;
   * with `notifyWhenFinished`, LOK_CALLBACK_UNO_COMMAND_RESULT reports the outcome. Throws
   * `invalid_argument` when `args` is not JSON (LibreOffice would abort the process).
   */
  postUnoCommand(command: string, args?: string, notifyWhenFinished = false): void {
    this.#native.postUnoCommand(checkString('command', command, true), checkOptionalJson('args', args), notifyWhenFinished === true);
  }

  /** lok::Document::getCommandValues: LOK's JSON answer, or null where LibreOffice has none. */
  getCommandValues(command: string): string | null {
    return this.#native.getCommandValues(checkString('command', command, true));
  }

  /** Moves a selection handle (LOK_SETTEXTSELECTION_*) to (x, y) twips. */
  setTextSelection(type: number, x: number, y: number): void {
    this.#native.setTextSelection(checkInt('type', type, 0), checkInt('x', x), checkInt('y', y));
  }

  /** The selection as `mimeType` (e.g. 'text/plain;charset=utf-8', 'text/html'); usedMimeType says which. */
  getTextSelection(mimeType: string): { text: string; usedMimeType: string } {
    return this.#native.getTextSelection(checkString('mimeType', mimeType, true));
  }

  /** Clears the selection of the current view. */
  resetSelection(): void {
    this.#native.resetSelection();
  }

  /**
   * Creates a view and makes it current; returns its id. `options` (LOK createViewWithOptions) is
   * the comma-separated `Language=de-DE,DeviceFormFactor=desktop` form, not JSON.
   */
  createView(options?: string): number {
    return this.#native.createView(checkOptionalString('options', options));
  }

  /** Destroys a view. */
  destroyView(id: number): void {
    this.#native.destroyView(checkInt('id', id, 0));
  }

  /** Makes a view current: later calls (events, paint, registerCallback) act on it. */
  setView(id: number): void {
    this.#native.setView(checkInt('id', id, 0));
  }

  /** Id of the current view. */
  getView(): number {
    return this.#native.getView();
  }

  /** Number of views. */
  getViewsCount(): number {
    return this.#native.getViewsCount();
  }

  /** Tells LOK which area (twips) the client shows, for the current view. */
  setClientVisibleArea(x: number, y: number, width: number, height: number): void {
    this.#native.setClientVisibleArea(checkInt('x', x), checkInt('y', y), checkInt('width', width, 0), checkInt('height', height, 0));
  }

  /** Tells LOK the client's zoom: a tile of tilePixel* px shows tileTwip* twips. */
  setClientZoom(tilePixelWidth: number, tilePixelHeight: number, tileTwipWidth: number, tileTwipHeight: number): void {
    this.#native.setClientZoom(
      checkInt('tilePixelWidth', tilePixelWidth, 1),
      checkInt('tilePixelHeight', tilePixelHeight, 1),
      checkInt('tileTwipWidth', tileTwipWidth, 1),
      checkInt('tileTwipHeight', tileTwipHeight, 1),
    );
  }

  /** The current view's clipboard, in the given flavours or all it offers. Throws `call_failed`. */
  getClipboard(mimeTypes?: string[]): ClipboardItem[] {
    if (mimeTypes !== undefined) {
      if (!Array.isArray(mimeTypes)) throw new LokError('mimeTypes must be an array', 'invalid_argument');
      mimeTypes.forEach((m, i) => checkString(`mimeTypes[${i}]`, m, true));
    }
    return this.#native.getClipboard(mimeTypes);
  }

  /** Replaces the current view's clipboard content. Throws `call_failed`. */
  setClipboard(items: ClipboardItem[]): void {
    if (!Array.isArray(items)) throw new LokError('items must be an array', 'invalid_argument');
    items.forEach((it, i) => {
      checkString(`items[${i}].mimeType`, it?.mimeType, true);
      checkBuffer(`items[${i}].data`, it?.data);
    });
    this.#native.setClipboard(items);
  }

  /** Pastes `data` as `mimeType` at the cursor; false when LOK cannot paste that flavour. */
  paste(mimeType: string, data: Buffer): boolean {
    return this.#native.paste(checkString('mimeType', mimeType, true), checkBuffer('data', data));
  }

  /** Posts a key event to a dialog/sidebar window (LOK_CALLBACK_WINDOW ids). */
  postWindowKeyEvent(windowId: number, type: number, charCode: number, keyCode: number): void {
    this.#native.postWindowKeyEvent(checkInt('windowId', windowId, 0), ...checkKeyEvent(type, charCode, keyCode));
  }

  /**
   * lok::Document::sendDialogEvent: an event on a widget of the JSDialog `windowId` (the `id` of its
   * LOK_CALLBACK_JSDIALOG payload), `args` as LibreOffice's vcl/jsdialog executor reads it:
   * `{"id": widgetId, "cmd": "change"|"click"|"toggle"|"select"|"selecttab"|..., "data": string, "type": widgetType}`.
   * Throws `invalid_argument` (bad id, not JSON).
   */
  sendDialogEvent(windowId: number, args: string): void {
    if (typeof windowId !== 'number' || !Number.isSafeInteger(windowId) || windowId < 0)
      throw new LokError('windowId must be a non-negative integer', 'invalid_argument');
    this.#native.sendDialogEvent(windowId, checkOptionalJson('args', checkString('args', args, true)) as string);
  }

  /**
   * IME text input (lok::Document::postWindowExtTextInputEvent): `type` LOK_EXT_TEXTINPUT shows `text` as the
   * composition's pre-edit text, LOK_EXT_TEXTINPUT_END commits it. Window 0 is the document's own window.
   */
  postWindowExtTextInputEvent(windowId: number, type: number, text: string): void {
    this.#native.postWindowExtTextInputEvent(checkInt('windowId', windowId, 0), checkInt('type', type, 0, 2), checkString('text', text));
  }

  /** Posts a mouse event to a dialog/sidebar window, at (x, y) window px. */
  postWindowMouseEvent(windowId: number, type: number, x: number, y: number, count: number, buttons: number, modifier: number): void {
    this.#native.postWindowMouseEvent(checkInt('windowId', windowId, 0), ...checkMouseEvent(type, x, y, count, buttons, modifier));
  }

  /** Paints an area of a dialog/sidebar window into a width x height px BGRA buffer (synchronous). */
  paintWindow(windowId: number, x: number, y: number, width: number, height: number): Buffer {
    return this.#native.paintWindow(
      checkInt('windowId', windowId, 0),
      checkInt('x', x),
      checkInt('y', y),
      checkInt('width', width, 1, MAX_CANVAS_PX),
      checkInt('height', height, 1, MAX_CANVAS_PX),
    );
  }

  /**
   * Renders `text` (LOK renderFontOrientation) as an RGBA buffer: colour channels 0, the text's coverage in alpha.
   * With a `width` x `height` px box (both > 0) LibreOffice scales the text to fit it (about two thirds of the
   * box) and returns a buffer of that size; with 0 x 0 the text's natural size. `orientation` in tenths of a degree
   * (450: diagonal, bottom-left to top-right). An unknown `fontName` falls back to the default font.
   * Throws `call_failed` when LibreOffice renders nothing (empty text).
   */
  renderFont(fontName: string, text: string, width = 0, height = 0, orientation = 0): { width: number; height: number; data: Buffer } {
    return this.#native.renderFont(
      checkString('fontName', fontName),
      checkString('text', text, true),
      checkInt('width', width, 0, MAX_CANVAS_PX),
      checkInt('height', height, 0, MAX_CANVAS_PX),
      checkInt('orientation', orientation, -3600, 3600),
    );
  }

  /**
   * Signs the document (LOK insertCertificate) with a DER X.509 certificate and its DER PKCS#8 private key.
   * False when LibreOffice could not sign (no NSS store, key not matching, ...). The signature is in the
   * document's next save. Synchronous.
   */
  insertCertificate(certificateDer: Buffer, privateKeyDer: Buffer): boolean {
    return this.#native.insertCertificate(checkBuffer('certificateDer', certificateDer), checkBuffer('privateKeyDer', privateKeyDer));
  }

  /** Trusts a DER CA / intermediate certificate in the process's NSS store (LOK addCertificate). */
  addCertificate(certificateDer: Buffer): boolean {
    return this.#native.addCertificate(checkBuffer('certificateDer', certificateDer));
  }

  /** LibreOffice's SignatureState of the document (lok-enums.ts SignatureState names the numbers). */
  getSignatureState(): number {
    return this.#native.getSignatureState();
  }

  /** postWindow: LOK_WINDOW_CLOSE (lok-enums.ts) closes a dialog window as its Cancel button would. */
  postWindow(windowId: number, action: number): void {
    this.#native.postWindow(checkInt('windowId', windowId, 0), checkInt('action', action, 0, 1));
  }

  /** The optional lok::Document calls this LibreOffice has (found by its class size). */
  optionalCalls(): DocumentOptionalCall[] {
    return this.#native.optionalCalls() as DocumentOptionalCall[];
  }

  /**
   * lok::Document::setViewReadOnly: view `viewId` may no longer change the document (typing, commands that
   * edit and pasting do nothing there) while the other views still edit. Throws `unsupported`, `invalid_argument`.
   */
  setViewReadOnly(viewId: number, readOnly: boolean): void {
    this.#native.setViewReadOnly(checkInt('viewId', viewId, 0), checkBoolean('readOnly', readOnly));
  }

  /**
   * lok::Document::setAllowChangeComments: in a read-only view (setViewReadOnly), comments may still be
   * inserted, replied to, edited and deleted: Collabora's comments-only mode. Throws `unsupported`,
   * `invalid_argument`.
   */
  setAllowChangeComments(viewId: number, allow: boolean): void {
    this.#native.setAllowChangeComments(checkInt('viewId', viewId, 0), checkBoolean('allow', allow));
  }

  /**
   * lok::Document::setViewTimezone: the IANA time zone (e.g. `Europe/Paris`) that the view's date/time fields
   * and NOW() use. Throws `unsupported`, `invalid_argument` (empty or not a zone name of letters, digits, `/_+-`).
   */
  setViewTimezone(viewId: number, timezone: string): void {
    const tz = checkString('timezone', timezone, true);
    if (!/^[A-Za-z0-9/_+-]{1,64}$/.test(tz)) throw new LokError(`timezone must be an IANA zone name, got ${tz}`, 'invalid_argument');
    this.#native.setViewTimezone(checkInt('viewId', viewId, 0), tz);
  }

  /**
   * lok::Document::setViewOption(option, value) for the current view (LibreOffice 25.2 reads e.g.
   * `ColorSchemeName`, `A11yCheckDeck`). Throws `unsupported`, `invalid_argument`.
   */
  setViewOption(option: string, value: string): void {
    this.#native.setViewOption(checkString('option', option, true), checkString('value', value));
  }

  /** lok::Document::getEditMode: Impress' edit mode of the current view, 0 normal, 1 master pages. Throws `unsupported`. */
  getEditMode(): number {
    return this.#native.getEditMode();
  }

  /**
   * Posts an input fence (src/input-fence.cc): VCL's Application::PostUserEvent behind the input LibreOfficeKit
   * posted so far (keys, mouse, text input, UNO commands), re-posted `hops` times (0..16) so that it also follows
   * the events that input posts in turn. `done` is called on the JS thread once LibreOffice's main loop ran it:
   * every event posted before the fence has been dispatched. Returns false, and never calls `done`, when this
   * LibreOffice has no Application::PostUserEvent or refused the event (not a LibreOfficeKit call: found by its
   * mangled name). Throws `invalid_argument` for `hops` out of range.
   */
  postInputFence(done: () => void, hops = 2): boolean {
    checkFunction('done', done);
    return this.#native.postInputFence(done, checkInt('hops', hops, 0, 16));
  }

  /**
   * lok::Document::sendContentControlEvent: acts on the content control at the cursor, `args` as LOK's JSON,
   * e.g. `{"type":"drop-down","selected":"1"}`, `{"type":"picture","changed":"file:///..."}`,
   * `{"type":"date","selected":"2022-05-30T00:00:00Z"}`. Throws `unsupported`, `invalid_argument` (not JSON).
   */
  sendContentControlEvent(args: string): void {
    this.#native.sendContentControlEvent(checkOptionalJson('args', checkString('args', args, true)) as string);
  }

  /**
   * lok::Document::getPresentationInfo: LibreOffice's JSON of a presentation's slides (docWidth/docHeight in
   * 1/100 mm, slides with hidden, transitions, animations). Throws `unsupported`, `call_failed`.
   */
  getPresentationInfo(): string {
    return this.#native.getPresentationInfo();
  }

  /**
   * lok::Document::createSlideRenderer: prepares slide `slide` for renderNextSlideLayer in a box of `width` x
   * `height` px; answers the size every bitmap layer will have (LibreOffice may shrink one side to keep the
   * slide's aspect). Throws `unsupported`, `call_failed` (no such slide), `invalid_argument`.
   */
  createSlideRenderer(slide: number, width: number, height: number, renderBackground = true, renderMasterPage = true): { width: number; height: number } {
    return this.#native.createSlideRenderer(
      checkInt('slide', slide, 0),
      checkInt('width', width, 1, MAX_CANVAS_PX),
      checkInt('height', height, 1, MAX_CANVAS_PX),
      checkBoolean('renderBackground', renderBackground),
      checkBoolean('renderMasterPage', renderMasterPage),
    );
  }

  /**
   * lok::Document::renderNextSlideLayer: the next layer of the prepared slide (synchronous). Throws
   * `unsupported`, `call_failed` (no renderer prepared).
   */
  renderNextSlideLayer(): SlideLayer {
    return this.#native.renderNextSlideLayer();
  }

  /** lok::Document::postSlideshowCleanup: frees the slide renderer. Throws `unsupported`. */
  postSlideshowCleanup(): void {
    this.#native.postSlideshowCleanup();
  }

  /**
   * Registers `cb` for the current view's callbacks (LOK keeps one callback per view; a second call for
   * the same view replaces the first). Callbacks arrive on the JS thread, in order, a little after
   * LibreOffice emits them; a listener that throws surfaces as an uncaught exception (next tick).
   */
  registerCallback(cb: LokCallback): void {
    this.#native.registerCallback(reportThrows(checkFunction('cb', cb)));
  }

  /**
   * Closes the document in LibreOffice. Idempotent. Throws LokError `busy` while saveAs/paintTile is in
   * flight (await it first).
   */
  destroy(): void {
    this.#native.destroy();
    this.#onDestroy(this);
  }
}
