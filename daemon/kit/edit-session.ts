/**
 * The kit's open document while it is leased for editing (kit.md, "Editing"): one LibreOfficeKit document, its
 * views (one per user), their callbacks forwarded to the daemon, and the requests on them.
 *
 * | state   | entered when                         | serves                                   | leaves to |
 * |---------|--------------------------------------|------------------------------------------|-----------|
 * | open    | `open` loaded the document           | views, events, tiles, saves, exports     | closing   |
 * | closing | `closeDoc` (or shutdown)              | nothing; waits for paints/saves in flight | closed    |
 * | closed  | the document is destroyed            | -                                        | (the kit exits) |
 *
 * Every LOK call works on the current view, so each request sets its view first; all of them run on the JS
 * thread, so two requests never interleave between setView and the call. Paints and saveAs run on the libuv pool
 * (LibreOffice serialises them with the JS thread's calls on its global lock).
 */
import { pathToFileURL } from 'node:url';
import type { LokDocument } from '../native/index.ts';
import {
  LOK_DOCTYPE_PRESENTATION,
  LOK_DOCTYPE_SPREADSHEET,
  LOK_DOCTYPE_TEXT,
  LOK_FEATURE_DOCUMENT_PASSWORD,
  LOK_FEATURE_DOCUMENT_PASSWORD_TO_MODIFY,
  LOK_FEATURE_NO_TILED_ANNOTATIONS,
  LOK_FEATURE_PART_IN_INVALIDATION_CALLBACK,
  LOK_FEATURE_VIEWID_IN_VISCURSOR_INVALIDATION_CALLBACK,
  LOK_CALLBACK_WINDOW,
  LOK_WINDOW_CLOSE,
  VclKeyCode,
  VclKeyModifier,
} from '../native/lok-enums.ts';
import type { CreateViewRequest, DocInfoResult, KitEditEvent, OpenRequest, OpenResult, TileRequestMessage, WindowPaintRequest } from '../protocol/kit.ts';
import { CellEdits, reenter, type Reentry } from './cell-reentry.ts';
import { buildLoadOptions } from './convert-job.ts';
import { allowedInReadOnly, dispatchEvent, isCommentCommand, type DroppedReason } from './edit-events.ts';
import { forwardedPayload } from './text-parts.ts';

/**
 * The timing mode's reading of LibreOfficeKit, made on 7.4 and kept as it was (ODE_KIT_INPUT_ORDER=timing): keys and
 * mouse events are posted to LibreOffice's main loop (postKeyEventAsync, postMouseEventAsync: processed later); the
 * other events run at once on the calling thread, text input included, except text with line breaks, which the kit
 * types as posted keys. LibreOfficeKit 25.2 posts text input too (orderOf below, the default fence mode).
 */
function isPostedTiming(event: KitEditEvent): boolean {
  if (event.type === 'textInput') return /[\r\n]/.test(event.text);
  return event.type === 'key' || event.type === 'mouse' || event.type === 'windowKey' || event.type === 'windowMouse';
}

/**
 * The fence mode's reading of LibreOfficeKit 25.2 (measured by test/kit-editing/input-order-probe.ts, docs/editing.md
 * "Input order"). Keys, mouse events and text input (postExtTextEventAsync) are posted as VCL user events, each
 * carrying the view it was posted in, and run first-in first-out (`waits: false`: they wait only behind deep
 * input). Deep input queues more events as it runs: a named key or shortcut (Writer dispatches its accelerator's
 * command, e.g. `.uno:GoLeft`, as one more posted event), a click, a dialog's key or click, a UNO command (LibreOfficeKit
 * dispatches it asynchronously, SynchronMode=false, outside unipoll mode), a JSDialog action. Typed characters,
 * key-up events and text go straight into the document when their event runs: shallow. A UNO command or JSDialog
 * action may also run at once, so it waits like a synchronous call as well. Every other event runs at once and waits.
 */
function orderOf(event: KitEditEvent): { waits: boolean; posts: boolean; deep: boolean } {
  switch (event.type) {
    case 'key': {
      const code = event.keyCode & 0x0fff;
      const mods = event.keyCode & (VclKeyModifier.KEY_MOD1 | VclKeyModifier.KEY_MOD2 | VclKeyModifier.KEY_MOD3);
      const character = event.charCode >= 32 && mods === 0 && (code === 0 || code === VclKeyCode.KEY_SPACE);
      return { waits: false, posts: true, deep: event.event === 'input' && !character };
    }
    case 'textInput':
      return { waits: false, posts: true, deep: /[\r\n]/.test(event.text) }; // line breaks are typed as Return keys
    case 'composition':
      return { waits: false, posts: true, deep: false };
    case 'mouse':
    case 'windowKey':
    case 'windowMouse':
      return { waits: false, posts: true, deep: true };
    case 'uno':
    case 'dialogEvent':
      return { waits: true, posts: true, deep: true };
    default:
      return { waits: true, posts: false, deep: false };
  }
}

/**
 * How the kit orders input (input-order.ts): `fence` by default, the previous `timing` heuristic with
 * ODE_KIT_INPUT_ORDER=timing (docs/editing.md, "Input order").
 */
const INPUT_ORDER_MODE = process.env.ODE_KIT_INPUT_ORDER === 'timing' ? 'timing' : 'fence';
/** Hops of an input fence (LokDocument.postInputFence): behind the events the input itself posts, one level deep. */
const FENCE_HOPS = 2;
import { encodeTilePng } from './edit-png.ts';
import { kitError, postSave, SAVE_TIMEOUT_MS, SaveWaiter } from './edit-save.ts';
import { signDocument, trustCertificates } from './edit-sign.ts';
import type { OfficeHandle } from './office.ts';
import { FENCE_MAX_MS, InputOrder } from './input-order.ts';
import { applyViewRights, liftReadOnlyForSave } from './view-rights.ts';
import { Watermark } from './watermark.ts';

/** Forwards one LOK callback of one view to the daemon (kit.md: `callback`). */
export type CallbackSink = (viewId: number, callbackType: number, payload: string) => void;

/** What the kit knows of a view beyond LibreOffice. */
interface ViewState {
  userName: string;
  userId: string;
  readOnly: boolean;
  /** Read-only but for comments (a pdf opened with view_comment). */
  commentsOnly?: boolean;
  /** The user's IANA time zone, given to LibreOffice (setViewTimezone). */
  timezone?: string;
  color?: string;
  /** The user's WatermarkText, painted into every tile of this view (watermark.ts). */
  watermark?: Watermark;
  /** LibreOffice dialog windows open in this view (LOK_CALLBACK_WINDOW created .. close), closed when it leaves. */
  windows?: Set<number>;
}

/**
 * LibreOffice 25.2's edit mode of a presentation view showing the notes page (getEditMode after `.uno:NotesMode`,
 * and the last field of its INVALIDATE_TILES payloads then; measured by test/kit-editing/notes-probe.ts).
 */
const EDIT_MODE_NOTES = 2;

/** How long closing waits for paints, exports and saves in flight before destroying anyway (ms). */
const CLOSE_WAIT_MS = 10_000;

/**
 * The tiled-rendering options of every view (initializeForRendering): whitespace and page shadows as on paper,
 * and the view's author, which LibreOffice gives to tracked changes and comments made in that view.
 */
function renderingArgs(userName: string | undefined): string {
  const args: Record<string, { type: string; value: string }> = {
    '.uno:HideWhitespace': { type: 'boolean', value: 'false' },
    '.uno:ShowBorderShadow': { type: 'boolean', value: 'false' },
  };
  if (userName) args['.uno:Author'] = { type: 'string', value: userName };
  return JSON.stringify(args);
}

/** See the module docstring for the state table. */
export class EditSession {
  readonly #doc: LokDocument;
  readonly #views = new Map<number, ViewState>();
  readonly #sink: CallbackSink;
  readonly #docType: number;
  readonly #inflight = new Set<Promise<unknown>>();
  #saving: Promise<unknown> = Promise.resolve();
  /** Orders posted input (keys, mouse, text) before the synchronous calls (UNO commands, save, paste, copy). */
  readonly #order: InputOrder;
  #saveWaiters = new Map<number, SaveWaiter>();
  /** A spreadsheet's cells being edited, per view (cell-reentry.ts); undefined for other documents. */
  readonly #cellEdits: CellEdits | undefined;
  /** The view of the last posted input queued (a key or click of another view waits for it: see `event`). */
  #lastPostedView: number | undefined;
  #state: 'open' | 'closing' | 'closed' = 'open';

  private constructor(doc: LokDocument, sink: CallbackSink) {
    this.#doc = doc;
    this.#sink = sink;
    this.#docType = doc.getDocumentType();
    this.#cellEdits = this.#docType === LOK_DOCTYPE_SPREADSHEET ? new CellEdits() : undefined;
    this.#order =
      INPUT_ORDER_MODE === 'fence' ? new InputOrder(undefined, (done) => this.#state !== 'closed' && doc.postInputFence(done, FENCE_HOPS)) : new InputOrder();
  }

  /**
   * `open` (kit.md, Editing): documentLoad `input` (with `Language=`, `DeviceFormFactor=` and `Batch=true`, so
   * no dialog can block the load), initializeForRendering of the first view with `userName` as its author, and
   * its callbacks forwarded to `sink`. Turns on the optional features the daemon reads: the part in
   * INVALIDATE_TILES and the view id in INVALIDATE_VISIBLE_CURSOR; and comments out of the tiles
   * (NO_TILED_ANNOTATIONS, as Collabora Online): LibreOffice sends them as COMMENT callbacks and the editor shows
   * them, no empty margin is painted, and a new comment does not take the view's keyboard into a hidden window.
   * @throws Error with `code` load_failed / password_required / password_invalid.
   */
  static async open(office: OfficeHandle, req: OpenRequest, sink: CallbackSink): Promise<{ session: EditSession; result: OpenResult }> {
    office.office.setOptionalFeatures(
      LOK_FEATURE_DOCUMENT_PASSWORD |
        LOK_FEATURE_DOCUMENT_PASSWORD_TO_MODIFY |
        LOK_FEATURE_PART_IN_INVALIDATION_CALLBACK |
        LOK_FEATURE_VIEWID_IN_VISCURSOR_INVALIDATION_CALLBACK |
        LOK_FEATURE_NO_TILED_ANNOTATIONS,
    );
    let options = buildLoadOptions({ lang: req.lang, input: req.input });
    if (req.deviceFormFactor) options += `,DeviceFormFactor=${req.deviceFormFactor.replace(/,/g, '')}`;
    const doc = await office.office.documentLoad(pathToFileURL(req.input).href, { options, password: req.password }).catch((e: Error) => {
      e.message = e.message.replace(/^documentLoad \S+( failed)?: /, '');
      throw e;
    });
    // Loaded silently (Batch=true); from now on LibreOffice's dialogs show, through LOK_CALLBACK_WINDOW (a kit
    // never converts again once it edits). Without the VCL symbol dialogs keep closing as soon as they open.
    if (!office.office.setDialogCancelMode(0)) process.stderr.write('kit: VCL dialog cancel mode not found: LibreOffice dialogs stay silent\n');
    try {
      const session = new EditSession(doc, sink);
      const viewId = doc.getView();
      session.#initView(viewId, {
        userName: req.userName ?? '',
        userId: '',
        readOnly: req.readOnly === true,
        commentsOnly: req.commentsOnly === true,
        timezone: req.timezone,
        watermark: session.#watermark(req.watermarkText),
      });
      return { session, result: { ...session.#describe(), viewId } };
    } catch (e) {
      doc.destroy();
      throw e;
    }
  }

  /** The view's watermark painter for a non-empty WatermarkText. */
  #watermark(text: string | undefined): Watermark | undefined {
    return text ? new Watermark(text, (font, t, w, h, o) => this.#doc.renderFont(font, t, w, h, o)) : undefined;
  }

  #describe(): Omit<OpenResult, 'viewId'> {
    const parts = this.#doc.getParts();
    const partNames = Array.from({ length: parts }, (_, i) => this.#doc.getPartName(i));
    const { width, height } = this.#doc.getDocumentSize();
    return { docType: this.#docType, parts, partNames, width, height };
  }

  /** Makes `viewId` current: initializeForRendering with its author, and its callbacks go to the daemon. */
  #initView(viewId: number, state: ViewState): void {
    this.#doc.setView(viewId);
    this.#doc.initializeForRendering(renderingArgs(state.userName));
    for (const problem of applyViewRights(this.#doc, viewId, state)) process.stderr.write(`kit: view ${viewId}: ${problem}\n`);
    this.#views.set(viewId, state);
    this.#doc.registerCallback((type, payload) => {
      if (type === LOK_CALLBACK_WINDOW) trackWindow(state, payload);
      this.#order.callbackArrived();
      this.#cellEdits?.offer(viewId, type, payload);
      this.#saveWaiters.get(viewId)?.offer(type, payload);
      this.#sink(viewId, type, forwardedPayload(this.#docType, type, payload));
    });
  }

  /**
   * Resolves once LibreOffice's main loop has run the input posted so far and what it posted in turn (an input fence
   * with FENCE_HOPS; at most FENCE_MAX_MS, and at once where this LibreOffice has no fence), with `viewId` current
   * again afterwards. Rejects when the document closed or the view left meanwhile.
   */
  #fenced(viewId: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, FENCE_MAX_MS);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      if (!this.#doc.postInputFence(done, FENCE_HOPS)) done();
    }).then(() => {
      if (this.#state !== 'open' || !this.#views.has(viewId)) throw kitError('bad_request', 'the document closed or the view left');
      this.#doc.setView(viewId);
    });
  }

  /** Sets the current view, checking it is one of ours (LOK's setView ignores unknown ids silently). */
  #use(viewId: number): ViewState {
    if (this.#state !== 'open') throw kitError('bad_request', 'the document is closing');
    const view = this.#views.get(viewId);
    if (!view) throw kitError('bad_request', `no view ${viewId} in this document`);
    this.#doc.setView(viewId);
    return view;
  }

  /** Runs an async LOK call, remembered so that close() can wait for it (destroy throws `busy` meanwhile). */
  #track<T>(p: Promise<T>): Promise<T> {
    this.#inflight.add(p);
    void p.then(
      () => this.#inflight.delete(p),
      () => this.#inflight.delete(p),
    );
    return p;
  }

  /**
   * `createView`: a new LibreOfficeKit view (createViewWithOptions with `Language=` when `lang` is given), its
   * author set to `userName`, its callbacks forwarded, its rights and time zone given to LibreOffice
   * (view-rights.ts). `color` is kept for the daemon only. Returns the view id. LOK: createView, setView,
   * initializeForRendering, setViewReadOnly, setAllowChangeComments, setViewTimezone, registerCallback.
   * @throws LokError call_failed when LibreOffice refuses the view.
   */
  createView(req: Omit<CreateViewRequest, 'type' | 'id'>): number {
    if (this.#state !== 'open') throw kitError('bad_request', 'the document is closing');
    const options = req.lang ? `Language=${req.lang.replace(/,/g, '')}` : undefined;
    const viewId = this.#doc.createView(options);
    this.#initView(viewId, {
      userName: req.userName,
      userId: req.userId,
      readOnly: req.readOnly === true,
      commentsOnly: req.commentsOnly === true,
      timezone: req.timezone,
      color: req.color,
      watermark: this.#watermark(req.watermarkText),
    });
    return viewId;
  }

  /** `destroyView`: the view leaves (LOK destroyView). @throws bad_request for an unknown view. */
  destroyView(viewId: number): void {
    const leaving = this.#views.get(viewId);
    if (!leaving) throw kitError('bad_request', `no view ${viewId} in this document`);
    // A dialog left open would keep its view's modal state in LibreOffice: close it as its Cancel would.
    for (const windowId of leaving.windows ?? []) {
      try {
        this.#doc.setView(viewId);
        this.#doc.postWindow(windowId, LOK_WINDOW_CLOSE);
      } catch {
        // The window is already gone.
      }
    }
    this.#saveWaiters.get(viewId)?.abort(kitError('bad_request', `view ${viewId} left while saving`));
    this.#cellEdits?.forget(viewId);
    this.#views.delete(viewId);
    this.#doc.destroyView(viewId);
  }

  /**
   * `event`: input on a view (edit-events.ts). Returns why it was dropped (read-only view, not supported by the
   * addon), or undefined when LibreOffice got it. Unknown views and a closing document drop it as `bad_request`.
   * @throws LokError invalid_argument for out-of-range numbers or bad JSON arguments.
   */
  event(viewId: number, event: KitEditEvent): DroppedReason | 'bad_request' | undefined {
    const view = this.#state === 'open' ? this.#views.get(viewId) : undefined;
    if (!view) return 'bad_request';
    const readOnly = view.readOnly && !(view.commentsOnly && isCommentCommand(event));
    if (readOnly && !allowedInReadOnly(event)) return 'read_only';
    let posted: boolean;
    let waits: boolean;
    let deep = true;
    if (this.#order.mode === 'fence') ({ posts: posted, waits, deep } = orderOf(event));
    else {
      posted = isPostedTiming(event);
      waits = !posted;
    }
    // A posted key or click of another view right behind this view's posted input can still run at this view's
    // cursor (two users typing at once; the journal's replay: test/faults/kit-crash.test.ts saw it with 25.2, whose
    // posted events carry their view), so it waits, like a synchronous call, until the posted input before it ran.
    const switching = posted && this.#lastPostedView !== undefined && this.#lastPostedView !== viewId;
    if (posted) this.#lastPostedView = viewId;
    waits ||= switching;
    this.#order.run(() => {
      if (this.#state !== 'open' || !this.#views.has(viewId)) return;
      this.#doc.setView(viewId);
      dispatchEvent(this.#doc, event, readOnly);
      if (posted) this.#order.posted(deep);
    }, waits);
    return undefined;
  }

  /**
   * `tile`: paints `tileTwipWidth` x `tileTwipHeight` twips at (`x`, `y`) of `part` into a `width` x `height` px
   * PNG with straight alpha (painted on the libuv pool, then PNG encoding, also off the JS thread), in the view.
   * Text documents have one coordinate space and ignore `part`. In a presentation `mode` is LibreOffice's edit mode
   * (getEditMode; Collabora's `mode=` of its tiles): 0 slides and 1 master slides are painted with paintPartTile in
   * that mode; 2 is the notes page of a view LibreOffice shows it in (View > Notes, `.uno:NotesMode`), painted with
   * paintTile in that view. A tile of another mode is not painted for a view in notes: LibreOffice would switch the
   * view out of notes for the paint, which ends the text edit in the notes (test/kit-editing/notes-probe.ts: the
   * keys typed after such a paint were lost); nor is a notes tile for a view that does not show that slide's notes.
   * Both happen only while a view changes mode, and the editor asks again in the new mode.
   * @throws LokError invalid_argument (sizes out of range); bad_request (unknown view; a mode not the view's, as above).
   */
  async tile(req: Omit<TileRequestMessage, 'type' | 'id'>): Promise<Uint8Array> {
    const view = this.#use(req.viewId);
    const tile = {
      canvasWidth: req.width,
      canvasHeight: req.height,
      tilePosX: Math.round(req.x),
      tilePosY: Math.round(req.y),
      tileWidth: Math.round(req.tileTwipWidth),
      tileHeight: Math.round(req.tileTwipHeight),
    };
    let painted: Promise<Buffer>;
    if (this.#docType === LOK_DOCTYPE_TEXT) painted = this.#doc.paintTile(tile);
    else if (this.#docType !== LOK_DOCTYPE_PRESENTATION) painted = this.#doc.paintPartTile({ ...tile, part: req.part });
    else {
      const inNotes = this.#editMode() === EDIT_MODE_NOTES;
      if (req.mode === EDIT_MODE_NOTES) {
        if (!inNotes || this.#doc.getPart() !== req.part) throw kitError('bad_request', `view ${req.viewId} does not show the notes of slide ${req.part}`);
        painted = this.#doc.paintTile(tile);
      } else {
        if (inNotes) throw kitError('bad_request', `view ${req.viewId} shows notes: a tile of mode ${req.mode} would end its text edit`);
        painted = this.#doc.paintPartTile({ ...tile, part: req.part, editMode: req.mode === 1 ? 1 : 0 });
      }
    }
    const bgra = await this.#track(painted);
    view.watermark?.apply(bgra, req.width, req.height);
    return encodeTilePng(bgra, req.width, req.height);
  }

  /** LibreOffice's edit mode of the current view (presentations: 0 slides, 1 master slides, 2 notes); 0 when LibreOffice cannot say. */
  #editMode(): number {
    try {
      return this.#doc.getEditMode();
    } catch {
      return 0;
    }
  }

  /**
   * `windowPaint`: an area of a LibreOffice dialog window of the view (LOK paintWindow, synchronous: dialogs are
   * small) as a PNG with straight alpha. LibreOffice paints nothing for an unknown window (a transparent PNG).
   * @throws LokError invalid_argument (sizes out of range), bad_request (unknown view).
   */
  async windowPaint(req: Omit<WindowPaintRequest, 'type' | 'id'>): Promise<Uint8Array> {
    this.#use(req.viewId);
    const bgra = this.#doc.paintWindow(req.windowId, Math.round(req.x), Math.round(req.y), req.width, req.height);
    return encodeTilePng(bgra, req.width, req.height);
  }

  /**
   * `clipboardGet`: the view's current selection in the asked flavours. Text flavours come from
   * getTextSelection (the live selection, synchronous); other flavours from getClipboard (what the view last
   * copied with `.uno:Copy`). Bytes per flavour; a flavour LibreOffice cannot give is left out.
   */
  clipboardGet(viewId: number, mimeTypes: string[]): Promise<Array<{ mimeType: string; data: Uint8Array }>> {
    return this.#inOrder(() => this.#clipboardNow(viewId, mimeTypes));
  }

  #clipboardNow(viewId: number, mimeTypes: string[]): Array<{ mimeType: string; data: Uint8Array }> {
    this.#use(viewId);
    const wanted = mimeTypes.length > 0 ? mimeTypes : ['text/plain;charset=utf-8', 'text/html'];
    const out: Array<{ mimeType: string; data: Uint8Array }> = [];
    const others: string[] = [];
    for (const mimeType of wanted) {
      if (!mimeType.startsWith('text/')) {
        others.push(mimeType);
        continue;
      }
      const sel = this.#doc.getTextSelection(mimeType);
      if (sel.text) out.push({ mimeType: sel.usedMimeType || mimeType, data: new TextEncoder().encode(sel.text) });
    }
    if (others.length > 0) for (const i of this.#doc.getClipboard(others)) out.push({ mimeType: i.mimeType, data: new Uint8Array(i.data) });
    return out;
  }

  /**
   * `paste`: pastes `data` of `mimeType` at the view's cursor (LOK paste); false when LibreOffice refused it.
   * A read-only view's paste is refused (bad_request), as its other changing input is dropped.
   */
  paste(viewId: number, mimeType: string, data: Uint8Array): Promise<boolean> {
    return this.#inOrder(() => {
      const view = this.#use(viewId);
      if (view.readOnly) throw kitError('bad_request', 'this view is read-only');
      return this.#doc.paste(mimeType, Buffer.from(data));
    });
  }

  /**
   * Runs a synchronous LibreOffice call in input order: after the posted input LibreOffice has not processed yet,
   * before any input that arrives later (input-order.ts).
   */
  #inOrder<T>(fn: () => T, kind: true | 'barrier' = true): Promise<T> {
    return new Promise((resolve, reject) =>
      this.#order.run(() => {
        try {
          resolve(fn());
        } catch (e) {
          reject(e);
        }
      }, kind),
    );
  }

  /**
   * `docInfo`: the parts as they are now (slides or sheets added, deleted or moved since `open`), their names,
   * the size in twips, the view's current part and, in a presentation, its edit mode (0 slides, 1 master slides,
   * 2 notes: the size is then the notes page's). LOK: getParts, getPartName, getDocumentSize, getPart, getEditMode.
   * @throws bad_request (unknown view, closing).
   */
  docInfo(viewId: number): DocInfoResult {
    this.#use(viewId);
    const { parts, partNames, width, height } = this.#describe();
    return {
      parts,
      partNames,
      width,
      height,
      part: this.#docType === LOK_DOCTYPE_TEXT ? 0 : this.#doc.getPart(),
      mode: this.#docType === LOK_DOCTYPE_PRESENTATION ? this.#editMode() : 0,
    };
  }

  /** `commandValues`: getCommandValues in the view; LOK's JSON string, or null for a command LibreOffice has no values for. */
  commandValues(viewId: number, command: string): string | null {
    this.#use(viewId);
    return this.#doc.getCommandValues(command);
  }

  /**
   * `saveDoc`: `.uno:Save` in place from the view, waiting for its UNO_COMMAND_RESULT (edit-save.ts); saves are
   * serialised. Resolves `{saved: false}` when `dontSaveIfUnmodified` skipped an unmodified document; unless
   * `dontTerminateEdit`, the text of a cell being edited is entered first (edit-save.ts). `reenterCell` (the idle
   * save, issue 16): the cell the view edits is entered for the save and put back into edit mode with the caret where
   * it was, before any input sent meanwhile (cell-reentry.ts); a cell that must not be entered (a formula being typed,
   * a selection in it, another view's edit) stays in edit mode, as with `dontTerminateEdit`, and `editKept` says so.
   * @throws Error with `code` save_failed (LibreOffice said no), timeout (no answer in SAVE_TIMEOUT_MS),
   * bad_request (unknown view, closing).
   */
  saveDoc(viewId: number, dontSaveIfUnmodified: boolean, dontTerminateEdit = false, reenterCell = false): Promise<{ saved: boolean; editKept?: boolean }> {
    const run = async () => {
      // The keys typed just before Save must be in the saved file.
      let restore: (() => void) | undefined;
      let reentry: Reentry | undefined;
      let editKept = false;
      let release: (() => void) | undefined;
      const waiter = await this.#inOrder(() => {
        const view = this.#use(viewId);
        let keepEdit = dontTerminateEdit;
        if (reenterCell && !dontTerminateEdit && this.#cellEdits) {
          const plan = this.#cellEdits.plan(viewId);
          if (plan === 'keep') keepEdit = editKept = true;
          else if (plan !== 'none') reentry = plan;
        }
        const w = new SaveWaiter(SAVE_TIMEOUT_MS);
        this.#saveWaiters.set(viewId, w);
        try {
          // A read-only view saves too (the writers have left): LibreOffice saves only from a writable view.
          restore = liftReadOnlyForSave(this.#doc, viewId, view);
          postSave(this.#doc, dontSaveIfUnmodified, keepEdit);
          // `.uno:Save` is a UNO command: LibreOffice may queue it like input (a later copy or snapshot waits).
          if (this.#order.mode === 'fence') this.#order.posted();
          // Input sent while the save runs waits for the re-entry: it goes on in the cell, after the caret.
          if (reentry) release = this.#order.hold();
        } catch (e) {
          this.#saveWaiters.delete(viewId);
          w.abort(e as Error);
          void w.done.catch(() => undefined);
          throw e;
        }
        return w;
      }, 'barrier');
      try {
        const r = await waiter.done;
        return editKept ? { ...r, editKept } : r;
      } finally {
        if (this.#saveWaiters.get(viewId) === waiter) this.#saveWaiters.delete(viewId);
        // Only when the save ended the edit (a failed save may not have reached the cell: F2 in edit mode is not a no-op).
        if (reentry && this.#state === 'open' && this.#views.has(viewId) && !this.#cellEdits?.editing(viewId)) {
          this.#doc.setView(viewId);
          await reenter(this.#doc, reentry.fromEnd, () => this.#fenced(viewId)).catch(() => undefined);
          this.#order.posted();
        }
        release?.();
        if (restore && this.#state === 'open' && this.#views.has(viewId)) this.#inOrder(restore).catch(() => undefined);
      }
    };
    const result = this.#saving.then(run, run);
    this.#saving = result.catch(() => undefined);
    return this.#track(result);
  }

  /**
   * `signDoc` (edit-sign.ts): signs the document file in place with the view's certificate, after the saves in
   * flight and in input order. A read-only view cannot sign.
   * @throws Error with `code` sign_failed, bad_request (unknown or read-only view, closing).
   */
  signDoc(viewId: number, certificate: Uint8Array, privateKey: Uint8Array, ca: Uint8Array[]): Promise<{ signed: boolean; signatureState: number }> {
    const run = () =>
      this.#inOrder(() => {
        const view = this.#use(viewId);
        if (view.readOnly) throw kitError('bad_request', 'this view is read-only');
        return signDocument(this.#doc, certificate, privateKey, ca);
      });
    const result = this.#saving.then(run, run);
    this.#saving = result.catch(() => undefined);
    return this.#track(result);
  }

  /** `signatureState`: trusts `ca`, then LibreOffice's SignatureState of the document. @throws bad_request. */
  signatureState(viewId: number, ca: Uint8Array[]): number {
    this.#use(viewId);
    trustCertificates(this.#doc, ca);
    return this.#doc.getSignatureState();
  }

  /**
   * `exportDoc`: saveAs a copy to `output` (storeToURL: the document keeps its location and modified state).
   * LOK's `TakeOwnership` option, which would make the copy the document's new location, is refused. Every export
   * is written in input order, after the input sent before it (a barrier, as a save): the editor enters a cell
   * being edited with `.uno:GoToCell` just before asking a download (issue 16); LibreOffice's storeToURL does
   * not enter it by itself (ScDocShell's PrepareSaveGuard leaves that to the save). With `inOrder` (the daemon's
   * edit journal snapshot) later input also waits until the copy is written.
   * @throws Error with `code` save_failed, bad_request.
   */
  exportDoc(output: string, format: string, filterOptions?: string, inOrder = false): Promise<void> {
    if (this.#state !== 'open') return Promise.reject(kitError('bad_request', 'the document is closing'));
    if (filterOptions && /TakeOwnership/i.test(filterOptions)) return Promise.reject(kitError('bad_request', 'TakeOwnership is not allowed in an export'));
    const write = () =>
      this.#doc.saveAs(pathToFileURL(output).href, format, filterOptions).catch((e: Error & { code?: string }) => {
        if (!e.code || e.code === 'internal') e.code = 'save_failed';
        throw e;
      });
    // A journal snapshot (kit.md `exportDoc` inOrder) holds later input until the copy is written, so the copy
    // holds exactly the input sent before the request.
    return this.#track(
      new Promise<void>((resolve, reject) =>
        this.#order.run(() => {
          if (this.#state !== 'open') return reject(kitError('bad_request', 'the document is closing'));
          const release = inOrder ? this.#order.hold() : undefined;
          write().then(resolve, reject).finally(release);
        }, 'barrier'),
      ),
    );
  }

  /**
   * `closeDoc`: refuses new requests, fails pending saves, waits (at most CLOSE_WAIT_MS) for paints and exports
   * in flight, then destroys the document (LOK destroy). Idempotent.
   */
  async close(): Promise<void> {
    if (this.#state !== 'open') return;
    this.#state = 'closing';
    this.#order.clear();
    for (const w of this.#saveWaiters.values()) w.abort(kitError('bad_request', 'the document was closed while saving'));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.#inflight]), new Promise((r) => (timer = setTimeout(r, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
    this.#state = 'closed';
    this.#doc.destroy();
  }
}

/** Keeps `state.windows` up to date from one LOK_CALLBACK_WINDOW payload (`{id, action, ...}`). */
function trackWindow(state: ViewState, payload: string): void {
  try {
    const { id, action } = JSON.parse(payload) as { id?: unknown; action?: unknown };
    const windowId = Number(id);
    if (!Number.isInteger(windowId)) return;
    if (action === 'created') (state.windows ??= new Set()).add(windowId);
    else if (action === 'close') state.windows?.delete(windowId);
  } catch {
    // Not JSON: nothing to track.
  }
}
