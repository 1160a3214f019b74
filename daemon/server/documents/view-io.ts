/**
 * What the views ask of the document's kit (editor.md: input, `tile`, `windowPaint`, clipboard, paste,
 * `commandValues`, downloads): each request goes to the kit in the asking view's LibreOfficeKit view, after the
 * checks of what that view may do (read-only views, DisableCopy). EditDocument's public methods of the same names
 * delegate here.
 */
import { readFileSync, rmSync } from 'node:fs';
import { OdeError } from '../errors.ts';
import type { DocumentJournal } from './document-journal.ts';
import type { DocumentState } from './edit-document.ts';
import type { EditingKit, KitEditEvent } from './editing-kit.ts';
import { isCommentCommand, isModifyingEvent } from './input-policy.ts';
import type { CachedTile, TileCache, TileKey } from './tile-cache.ts';
import type { ViewHandle } from './view-handle.ts';
import { watermarkOf } from './view-status.ts';

/** What the views' requests need from their document. */
export interface ViewIoHost {
  state(): DocumentState;
  kit(): EditingKit | undefined;
  /** The kit folder file (the downloaded copy, then the last save). */
  path(): string;
  /** The tiles painted so far, shared by every view. */
  readonly tiles: TileCache;
  /** True when no view may change the document (document-saving.ts `readOnlyForAll`). */
  readOnlyForAll(): boolean;
  /** A view sent input (idle-unload.ts). */
  touch(): void;
  /** A UNO command went to the kit (document-parts.ts). */
  afterCommand(command: string): void;
  /** `view` changed the document (document-saving.ts). */
  changedBy(view: ViewHandle): void;
  /** The edit journal (document-journal.ts), when on: input is written there before it reaches the kit. */
  journal(): DocumentJournal | undefined;
}

/** The views' requests to one document's kit. */
export class ViewIo {
  constructor(private readonly host: ViewIoHost) {}

  /** Input from a view (keys, mouse, commands): dropped with an error when the view may not change the document. */
  input(view: ViewHandle, event: KitEditEvent): void {
    const { host } = this;
    const kit = host.kit();
    // While a crashed kit is replaced (`recovering`) input is journaled only: the rebuild replays it.
    const recovering = host.state() === 'recovering' && host.journal()?.active === true;
    if (!recovering && (host.state() !== 'live' || !kit)) return;
    host.touch();
    const modifying = isModifyingEvent(event);
    // A pdf opened with view_comment is read-only but for its comments, which are saved back (mayStore).
    const comment = view.commentsOnly === true && isCommentCommand(event);
    if (modifying && ((view.readonly && !comment) || host.readOnlyForAll())) {
      view.send({ type: 'error', code: 'readonly', message: 'This document is open read-only for you.' });
      return;
    }
    host.journal()?.record(view, event);
    if (modifying) host.changedBy(view);
    if (recovering || !kit) return;
    kit.sendEvent(view.viewId, event);
    if (event.type === 'uno') host.afterCommand(event.command);
  }

  /** One tile for a view: from the cache, or painted by the kit (and cached for every view). @throws OdeError no_kit. */
  async tile(view: ViewHandle, key: TileKey): Promise<CachedTile> {
    const kit = this.liveKit();
    // The kit paints the view's WatermarkText into its tiles: cached tiles are kept apart per watermark.
    const cacheKey = { ...key, watermark: watermarkOf(view.fileInfo) };
    const hit = this.host.tiles.get(cacheKey);
    if (hit) return hit;
    // An invalidation of the tile's area during the paint keeps the painted tile out of the cache (TileCache.begin).
    const ticket = this.host.tiles.begin(cacheKey);
    let png: Uint8Array;
    try {
      png = await kit.paintTile({ viewId: view.viewId, ...key });
    } catch (e) {
      this.host.tiles.end(ticket);
      throw e;
    }
    return this.host.tiles.put(cacheKey, png, ticket);
  }

  /**
   * An area of a LibreOffice dialog window of the view (editor.md `windowPaint`) as a PNG.
   * @throws OdeError no_kit when the document is not open or the kit cannot paint dialogs.
   */
  async windowPaint(view: ViewHandle, req: { windowId: number; x: number; y: number; width: number; height: number }): Promise<Uint8Array> {
    const kit = this.host.kit();
    if (!kit?.paintWindow || this.host.state() !== 'live') throw new OdeError('no_kit', 'the document is not open');
    return kit.paintWindow({ viewId: view.viewId, ...req });
  }

  /**
   * The view's selection as clipboard flavours (text/plain, text/html, ...), refused when CheckFileInfo says
   * DisableCopy (pasting into the document still works; spec: DisableCopy).
   * @throws OdeError no_kit when the document is not open.
   */
  async clipboard(view: ViewHandle, mimeTypes: string[]): Promise<Array<{ mimeType: string; data: Uint8Array }> | undefined> {
    const kit = this.liveKit();
    if (view.fileInfo.DisableCopy) {
      view.send({ type: 'error', code: 'forbidden', message: 'Copying from this document is disabled.' });
      return undefined;
    }
    return kit.clipboardGet(view.viewId, mimeTypes);
  }

  /** Pastes into the document at the view's cursor: a change, so refused for a read-only view. @throws OdeError no_kit. */
  async paste(view: ViewHandle, mimeType: string, data: Uint8Array): Promise<void> {
    const kit = this.liveKit();
    if (view.readonly || this.host.readOnlyForAll()) return view.send({ type: 'error', code: 'readonly', message: 'This document is open read-only for you.' });
    this.host.journal()?.recordPaste(view, mimeType, data);
    if (!(await kit.paste(view.viewId, mimeType, data)))
      return view.send({ type: 'error', code: 'paste_failed', message: `LibreOffice could not paste ${mimeType}.` });
    this.host.changedBy(view);
  }

  /** getCommandValues on the view. @throws OdeError no_kit without a kit. */
  async commandValues(view: ViewHandle, command: string): Promise<string | null> {
    const kit = this.host.kit();
    if (!kit) throw new OdeError('no_kit', 'the document is not open');
    return kit.commandValues(view.viewId, command);
  }

  /**
   * A copy of the document as it is now in `format` (any output format of its kind), written by the kit; the
   * document itself is not saved.
   * @throws OdeError no_kit when the document is not open; the kit's save_failed.
   */
  async exportCopy(format: string): Promise<Uint8Array> {
    const kit = this.liveKit();
    const out = `${kit.dir}/export-${Date.now()}.${format}`;
    await kit.exportDoc(out, format);
    try {
      return readFileSync(out);
    } finally {
      rmSync(out, { force: true });
    }
  }

  /**
   * The document's file as the kit folder holds it: the downloaded copy or the last save (for a pdf, which is never
   * saved in place, the stored original's bytes).
   * @throws OdeError no_kit when the document is not open.
   */
  storedCopy(): Uint8Array {
    const path = this.host.path();
    if (!this.host.kit() || this.host.state() !== 'live' || !path) throw new OdeError('no_kit', 'the document is not open');
    return readFileSync(path);
  }

  /** The kit while the document is live. @throws OdeError no_kit otherwise. */
  private liveKit(): EditingKit {
    const kit = this.host.kit();
    if (!kit || this.host.state() !== 'live') throw new OdeError('no_kit', 'the document is not open');
    return kit;
  }
}
