/**
 * One document open for editing: its kit, its views, its saves.
 *
 * | state     | entered when                                   | copies of the document                                   | leaves to            |
 * |-----------|------------------------------------------------|----------------------------------------------------------|----------------------|
 * | opening   | the first view joins                           | host -> kit folder (GetFile / TemplateSource), loaded    | live, closed         |
 * | live      | the kit loaded it                              | kit memory (edits); kit folder file = last save          | reloading, unloading |
 * | reloading | the stored file changed and the users chose reload (or had nothing unsaved) | kit memory discarded; fresh download | live, closed |
 * | unloading | the last view left, the owner or an administrator closed it, the daemon stops, or no input for idle_unload_secs | exit save: kit folder file -> host (IsExitSave); if the kit dies meanwhile, journal -> a kit of its own (no views) -> host | closed |
 * | recovering | the kit died while live, with an edit journal  | journal (snapshot + input) -> a fresh kit, input replayed; input meanwhile is journaled | live, closed |
 * | closed    | unloaded, or the kit died (no journal)         | only an unfinished upload's recovery copy (and an unstored journal) remains | -  |
 *
 * A view leaving while the document is `recovering` or `reloading` leaves once that is done (the last one then
 * unloads it with an exit save).
 *
 * Saves run one at a time: `.uno:Save` in the kit writes the kit folder file, then the Uploader sends it with
 * PutFile (retrying while the host is unavailable, keeping a recovery copy). A PutFile answered 409/1010 puts the
 * document in conflict: with unsaved changes the users choose overwrite (one more PutFile without the timestamp)
 * or reload; without, it reloads (spec: external change detection rules 1-5).
 *
 * This class keeps the lifecycle (the table above: join, open, reload, leave, unload, close) and delegates the rest,
 * each module seeing only what it needs of the document:
 * - document-saving.ts: the save queue, the modified flags, upload outcomes, replacing the stored file;
 * - document-conflict.ts: external change checks and the conflict choice; document-lock.ts: the WOPI lock;
 * - document-signing.ts: signing and the views' signature state;
 * - document-loading.ts: settings, kit lease, download (download.ts), template, kit load;
 * - view-io.ts: input, tiles, dialogs, clipboard, paste, exports; document-parts.ts: the parts refresh;
 * - view-status.ts: the `status` and `views` messages; callback-replay.ts: callbacks of views not joined yet;
 * - idle-unload.ts: when no input came for documents.idle_unload_secs.
 *
 * Every state change, view join/leave, modified flip, save and upload is emitted as a DocumentEvent
 * (document-events.ts) through `deps.onEvent`.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { CLOSE, type RecoveryChoice, type ServerMessage } from '../../protocol/editor.ts';
import type { KitSettingsManifest } from '../../protocol/kit.ts';
import { LOK_CALLBACK_CURSOR_VISIBLE, LOK_DOCTYPE_SPREADSHEET } from '../../protocol/lok-enums.ts';
import type { OdeConfig } from '../config/schema.ts';
import { OdeError } from '../errors.ts';
import type { FileInfo } from '../wopi/check-file-info.ts';
import type { WopiClient } from '../wopi/wopi-client.ts';
import { WopiError } from '../wopi/wopi-error.ts';
import type { WopiSrc } from '../wopi/wopi-src.ts';
import { CallbackReplay } from './callback-replay.ts';
import { translateCallback } from './callbacks.ts';
import type { DocumentEvent } from './document-events.ts';
import { DocumentConflict } from './document-conflict.ts';
import { DocumentJournal } from './document-journal.ts';
import { DocumentLock } from './document-lock.ts';
import { DocumentRecoveryOffer } from './document-recovery-offer.ts';
import type { LockRecords } from './lock-records.ts';
import type { RecoveryOffers } from './recovery.ts';
import { loadDocument, type LoadingHost } from './document-loading.ts';
import { PartsRefresh } from './document-parts.ts';
import { DocumentSaving, type SaveKind, type SaveOptions, type SaveResult, type SavingHost } from './document-saving.ts';
import { DocumentSigning } from './document-signing.ts';
import type { EditingKit, EditingKitPool, KitEditEvent, OpenedDocument } from './editing-kit.ts';
import { IdleWatch } from './idle-unload.ts';
import { rebuildJournalFile } from './journal-rebuild.ts';
import { TileCache, type CachedTile, type TileKey } from './tile-cache.ts';
import { mayStore, type ViewHandle } from './view-handle.ts';
import { ViewIo } from './view-io.ts';
import { kitOpenRequest, kitViewRequest, statusFor, ViewColors } from './view-status.ts';

/** The document's lifecycle state (table above). */
export type DocumentState = 'opening' | 'live' | 'reloading' | 'recovering' | 'unloading' | 'closed';

export type { SaveKind, SaveResult } from './document-saving.ts';

/** What a document needs from the daemon. `convertTemplate` turns a TemplateSource file into the document's format in a conversion kit. */
export interface DocumentDeps {
  src: WopiSrc;
  client: WopiClient;
  pool: EditingKitPool;
  config: () => OdeConfig;
  log: Logger;
  recoveryDir: string;
  convertTemplate: (templatePath: string, outputPath: string) => Promise<void>;
  onClosed: (doc: EditDocument) => void;
  /** Told about opened/changed/saved/uploaded/closed (document-events.ts); must not throw. */
  onEvent?: (e: DocumentEvent) => void;
  /**
   * The settings of the first view (CheckFileInfo SharedSettings/UserSettings) as a kit settings manifest, or
   * undefined (none, or none could be fetched: logged); must not throw. server/settings/fetch-settings.ts.
   */
  settings?: (info: FileInfo, token: string) => Promise<KitSettingsManifest | undefined>;
  /** The pending recovery copies, offered to the document's users (recovery.ts, document-recovery-offer.ts). */
  recovery?: RecoveryOffers;
  /** Where the WOPI locks held are recorded, and the previous run's (lock-records.ts). */
  lockRecords?: LockRecords;
}

/** One open document (see the state table at the top of this file). */
export class EditDocument {
  state: DocumentState = 'opening';
  readonly views = new Set<ViewHandle>();
  /** A short stable id (first 12 hex of SHA-256 of the key), for the admin API. */
  readonly id: string;
  /** When the document was created (ms since epoch). */
  readonly openedAt = Date.now();
  /** CheckFileInfo BaseFileName of the first view (renames update it). */
  fileName = '';
  /** When each view joined (ms since epoch). */
  readonly joinedAt = new Map<ViewHandle, number>();
  /** `opened` was emitted (later joins are `changed`). */
  private announced = false;
  private kit: EditingKit | undefined;
  private path = '';
  private info: OpenedDocument | undefined;
  private opened: Promise<void> | undefined;
  private readonly tiles = new TileCache();
  /** The save queue, the modified flags and the upload outcomes (document-saving.ts). */
  private readonly saves: DocumentSaving;
  /** When a view last sent input or joined, for the idle unload (idle-unload.ts). */
  private readonly idle = new IdleWatch(() => this.state === 'live');
  /** Our WOPI lock (CheckFileInfo SupportsLocks; document-lock.ts). */
  private readonly wopiLock: DocumentLock;
  /** External change checks and the conflict choice (document-conflict.ts). */
  private readonly conflict: DocumentConflict;
  /** The recovery copies of this document offered to its users (document-recovery-offer.ts). */
  private readonly recoveryOffer: DocumentRecoveryOffer;
  private readonly colors = new ViewColors();
  /** Callbacks of views not joined yet, replayed when they join (callback-replay.ts). */
  private readonly early = new CallbackReplay();
  /** Signing with each view's certificate, and the views' signature state (document-signing.ts). */
  private readonly signing: DocumentSigning;
  private readonly log: Logger;
  /** Reads the parts again when they may have changed (document-parts.ts). */
  private readonly parts: PartsRefresh;
  /** The views' requests to the kit (view-io.ts). */
  private readonly io: ViewIo;
  /** The edit journal (document-journal.ts), unless documents.journal is off. */
  private readonly journal: DocumentJournal | undefined;
  /** What loading sees of this document (document-loading.ts). */
  private readonly loading: LoadingHost;
  /** The rebuild (recover) or reload running now; a view leaving meanwhile waits for it (`leave`). */
  private transition: Promise<void> | undefined;
  /** The kit died while the document was unloading: its exit save is made from the edit journal (`unload`). */
  private kitLost = false;
  /** The node drains this document (`refuseJoins`, document-drain.ts): a view still joining is refused. */
  private drainStarted = false;
  /** The views whose text cursor LibreOffice shows (LOK_CALLBACK_CURSOR_VISIBLE): in a spreadsheet, editing a cell. */
  private readonly textCursorShown = new Set<number>();
  /** The daemon stops (`shutdown`): an exit save made from the journal ends by then (ms since the epoch). */
  private stopDeadline: number | undefined;
  private readonly onKitExit = () => this.kitDied();
  private readonly onKitCallback = (viewId: number, type: number, payload: string) => this.callback(viewId, type, payload);

  constructor(private readonly deps: DocumentDeps) {
    const cfg = deps.config().documents;
    this.log = deps.log.child({ doc: deps.src.key });
    this.parts = new PartsRefresh({
      kit: () => this.kit,
      info: () => this.info,
      live: () => this.state === 'live',
      views: this.views,
      tiles: this.tiles,
      broadcast: (m) => this.broadcast(m),
      log: this.log,
    });
    this.id = createHash('sha256').update(deps.src.key).digest('hex').slice(0, 12);
    // What the saves and the signing see of this document (document-saving.ts, document-signing.ts).
    const host: SavingHost = {
      state: () => this.state,
      kit: () => this.kit,
      path: () => this.path,
      lock: () => this.wopiLock.id,
      views: this.views,
      emit: (e) => this.emit({ ...e, doc: this } as DocumentEvent),
      broadcast: (m) => this.broadcast(m),
      sendStatus: () => {
        for (const v of this.views) v.send(this.statusFor(v));
      },
      signatureChanged: () => void this.signing.tellState([...this.views]),
      reload: () => this.reload(),
      journal: () => this.journal,
      cellEditing: () => this.cellEditing(),
      cellEditors: () => [...this.views].filter((v) => this.textCursorShown.has(v.viewId)),
      log: this.log,
    };
    this.saves = new DocumentSaving(host, cfg.idle_save_secs * 1000, cfg.autosave_secs * 1000);
    this.signing = new DocumentSigning(host, this.saves);
    const { client, src } = deps;
    this.wopiLock = new DocumentLock({
      client,
      src,
      views: this.views,
      refused: () => this.saves.refuseWrites(),
      log: this.log,
      records: deps.lockRecords,
    });
    this.recoveryOffer = new DocumentRecoveryOffer(
      {
        client,
        src,
        views: this.views,
        lock: () => this.wopiLock.id,
        unsaved: () => this.saves.unsaved,
        readOnlyForAll: () => this.saves.readOnlyForAll,
        live: () => this.state === 'live',
        reload: () => this.reload(),
        log: this.log,
      },
      deps.recovery,
    );
    this.conflict = new DocumentConflict({ ...host, client, src }, this.saves);
    this.loading = {
      deps,
      saves: this.saves,
      log: this.log,
      broadcast: (m) => this.broadcast(m),
      kit: () => this.kit,
      leased: (kit) => {
        this.kit = kit;
        this.textCursorShown.clear();
        kit.on('exit', this.onKitExit);
        kit.on('callback', this.onKitCallback);
      },
      downloaded: (path, fileName) => {
        this.path = path;
        this.fileName ||= fileName;
      },
    };
    const root = deps.config();
    this.journal = cfg.journal
      ? new DocumentJournal(
          {
            wopiSrc: () => deps.src.url.href,
            kit: () => this.kit,
            path: () => this.path,
            fileName: () => this.fileName,
            lastModifiedTime: () => this.saves.lastModifiedTime,
            writer: () => (this.saves.lastWriter && mayStore(this.saves.lastWriter) ? this.saves.lastWriter : [...this.views].find((v) => mayStore(v))),
            live: () => this.state === 'live',
            cellEditing: () => this.cellEditing(),
            log: this.log,
          },
          { dir: join(root.state_dir, 'journal', this.id), syncMs: cfg.journal_sync_ms, snapshotMs: cfg.journal_snapshot_secs * 1000 },
        )
      : undefined;
    this.io = new ViewIo({
      ...host,
      journal: () => this.journal,
      tiles: this.tiles,
      readOnlyForAll: () => this.saves.readOnlyForAll,
      touch: () => this.idle.touch(),
      afterCommand: (c) => this.parts.afterCommand(c),
      changedBy: (v) => this.saves.changedBy(v),
    });
  }

  /** The document is unloading or closed (read again after an await, where the state may have changed). */
  get closing(): boolean {
    return this.state === 'unloading' || this.state === 'closed';
  }

  /** The document's key (WOPISrc without its query). */
  get key(): string {
    return this.deps.src.key;
  }

  /** The process id of the kit holding the document (for the admin API and tests). */
  get kitPid(): number | undefined {
    return this.kit?.pid;
  }

  /** True when the document has changes not yet uploaded. */
  get unsaved(): boolean {
    return this.saves.unsaved;
  }

  /** Unsaved changes, or a save whose upload is pending or retrying (admin API `modified`). */
  get modifiedOrUploading(): boolean {
    return this.saves.modifiedOrUploading;
  }

  /** When the kit last saved the document (ms since epoch). */
  get lastSaveAt(): number | undefined {
    return this.saves.lastSaveAt;
  }

  /** When the last PutFile succeeded (ms since epoch). */
  get lastUploadAt(): number | undefined {
    return this.saves.lastUploadAt;
  }

  /** The last PutFile's failure (cleared by a success). */
  get lastUploadError(): string | undefined {
    return this.saves.lastUploadError;
  }

  private emit(e: DocumentEvent): void {
    try {
      this.deps.onEvent?.(e);
    } catch (err) {
      this.log.error({ err: (err as Error).message, event: e.type }, 'a document event listener failed');
    }
  }

  /**
   * Adds a view: the first one opens the document (download, kit load); later ones get a new LibreOfficeKit view.
   * Sends the view its `status` and every view the new `views` list.
   * @throws OdeError load_failed (the host or LibreOffice failed; the document closes), OdeError draining (the node
   *   began draining the document meanwhile: `refuseJoins`), OdeError no_kit (the document is closing, or began
   *   closing meanwhile: DocumentRegistry.join opens it again), and WopiErrors.
   */
  async join(view: ViewHandle): Promise<void> {
    if (this.closing) throw new OdeError('no_kit', 'the document is closing; open it again');
    const opening = !this.opened;
    if (!this.opened) {
      this.opened = this.open(view);
      await this.opened;
    } else {
      await this.opened;
      if (!this.kit) throw new OdeError('load_failed', 'the document could not be opened');
      view.viewId = (await this.createKitView(this.kit, view)).viewId;
    }
    // The node began draining while this view was joining (the download, the load or its LibreOffice view): the
    // drain told and flushed the views it found, and its exit save does not wait for this one, so what its user
    // typed would be lost. Refused instead (4503): the editor opens the document again on another node. Its
    // LibreOffice view goes with the kit, which the drain's unload releases.
    if (this.drainStarted) {
      this.log.info({ user: view.fileInfo.UserId }, 'a view still joining when the drain started is refused (4503): it opens the document again elsewhere');
      throw new OdeError('draining', 'This Ode node is draining: open the document again through the load balancer.');
    }
    // The document began closing while this view joined (its last other view left, an administrator closed it): a
    // view let in now would get `status`, its input would be dropped and its socket never closed. DocumentRegistry.join
    // opens the document again for it.
    if (this.closing) throw new OdeError('no_kit', 'the document closed while this view joined; open it again');
    this.views.add(view);
    this.joinedAt.set(view, Date.now());
    this.idle.touch();
    this.colors.assign(view);
    if (mayStore(view)) this.saves.writerJoined(view);
    view.send(this.statusFor(view));
    this.recoveryOffer.tell([view], false);
    this.early.replay(view);
    void this.signing.tellState([view]);
    this.broadcastViews();
    this.emit(this.announced ? { type: 'changed', doc: this, what: 'views' } : { type: 'opened', doc: this });
    this.announced = true;
    // A later view's CheckFileInfo may show the stored file changed elsewhere: checked once the view is one of the
    // document's, so that a reload it starts makes this view again in the new kit too.
    if (!opening) this.conflict.noticeStoredTime(view.fileInfo.LastModifiedTime);
  }

  /** Loads the document for its first view (document-loading.ts), then it is live; a failure closes it. */
  private async open(first: ViewHandle): Promise<void> {
    try {
      // LibreOffice 25.2 calls a pdf with comments modified as soon as it is loaded (its import adds them to the
      // pages): that is not a change of anyone's (document-saving.ts ignoreLoadModified).
      if (/\.pdf$/i.test(first.fileInfo.BaseFileName)) this.saves.ignoreLoadModified();
      this.info = await loadDocument(this.loading, first);
      first.viewId = this.info.viewId;
      this.state = 'live';
      this.startChecks();
      if (first.fileInfo.SupportsLocks && !first.readonly) await this.wopiLock.take(first);
      this.log.info({ name: first.fileInfo.BaseFileName, parts: this.info.parts }, 'document opened');
    } catch (e) {
      this.log.warn({ err: (e as Error).message }, 'document failed to open');
      this.close();
      if (e instanceof WopiError && e.kind === 'unauthorized') throw e;
      throw e instanceof OdeError ? e : new OdeError('load_failed', `The document could not be opened: ${(e as Error).message}`);
    }
  }

  /**
   * Makes `view`'s LibreOffice view in `kit` (the document's first view comes with `open`): the one place a user's
   * view is created (join, reload, rebuild), read-only when the view is or the document is for everyone
   * (view-status.ts kitViewRequest).
   */
  private createKitView(kit: EditingKit, view: ViewHandle): Promise<{ viewId: number }> {
    return kit.createView(kitViewRequest(view, this.saves.readOnlyForAll));
  }

  /** The `status` message of a view (editor.md; view-status.ts). */
  private statusFor(view: ViewHandle): ServerMessage {
    return statusFor(view, this.info!, this.saves.readOnlyForAll);
  }

  private broadcast(msg: ServerMessage): void {
    for (const v of this.views) v.send(msg);
  }

  private broadcastViews(): void {
    this.broadcast(this.colors.viewsMessage(this.views));
  }

  /** A view of this spreadsheet is editing a cell: LibreOffice shows its text cursor (LOK_CALLBACK_CURSOR_VISIBLE). */
  private cellEditing(): boolean {
    return this.info?.docType === LOK_DOCTYPE_SPREADSHEET && [...this.views].some((v) => this.textCursorShown.has(v.viewId));
  }

  /** A LibreOfficeKit callback of one view: invalidate cached tiles, track the modified state, tell that view. */
  private callback(viewId: number, type: number, payload: string): void {
    if (type === LOK_CALLBACK_CURSOR_VISIBLE) {
      if (payload.trim() === 'true') this.textCursorShown.add(viewId);
      else this.textCursorShown.delete(viewId);
    }
    this.journal?.callback(viewId, type, payload);
    const t = translateCallback(type, payload);
    if (t.invalidated)
      this.tiles.invalidate(t.invalidated.part, t.invalidated.x, t.invalidated.y, t.invalidated.width, t.invalidated.height, t.invalidated.all);
    if (t.modified !== undefined) this.journal?.modifiedChanged(t.modified);
    if (t.modified !== undefined && !this.saves.modifiedChanged(t.modified)) return;
    if (t.message?.type === 'documentSize' || t.message?.type === 'part') {
      // Slides or sheets may have been added, deleted or moved: read the parts again and tell every view.
      this.parts.refresh(false);
      if (t.message.type === 'documentSize') return;
    }
    if (!t.message) return;
    if (t.message.type === 'stateChanged') this.parts.afterState(t.message.command);
    let sent = false;
    for (const v of this.views) if (v.viewId === viewId) v.send(t.message), (sent = true);
    if (!sent) this.early.keep(viewId, t.message);
  }

  /** Input from a view (keys, mouse, commands): dropped with an error when the view may not change the document (view-io.ts). */
  input(view: ViewHandle, event: KitEditEvent): void {
    this.io.input(view, event);
  }

  /** One tile for a view: from the cache, or painted by the kit (and cached for every view). @throws OdeError no_kit. */
  tile(view: ViewHandle, key: TileKey): Promise<CachedTile> {
    return this.io.tile(view, key);
  }

  /** An area of a LibreOffice dialog window of the view (editor.md `windowPaint`) as a PNG. @throws OdeError no_kit. */
  windowPaint(view: ViewHandle, req: { windowId: number; x: number; y: number; width: number; height: number }): Promise<Uint8Array> {
    return this.io.windowPaint(view, req);
  }

  /** The view's selection as clipboard flavours; undefined (and an error) when CheckFileInfo says DisableCopy. @throws OdeError no_kit. */
  clipboard(view: ViewHandle, mimeTypes: string[]): Promise<Array<{ mimeType: string; data: Uint8Array }> | undefined> {
    return this.io.clipboard(view, mimeTypes);
  }

  /** Pastes into the document at the view's cursor: a change, so refused for a read-only view. @throws OdeError no_kit. */
  paste(view: ViewHandle, mimeType: string, data: Uint8Array): Promise<void> {
    return this.io.paste(view, mimeType, data);
  }

  /** getCommandValues on the view. @throws OdeError no_kit. */
  commandValues(view: ViewHandle, command: string): Promise<string | null> {
    return this.io.commandValues(view, command);
  }

  /** A copy of the document as it is now in `format`; the document itself is not saved. @throws OdeError no_kit; the kit's save_failed. */
  exportCopy(format: string): Promise<Uint8Array> {
    return this.io.exportCopy(format);
  }

  /** The document's file as the kit folder holds it (the downloaded copy or the last save). @throws OdeError no_kit. */
  storedCopy(): Uint8Array {
    return this.io.storedCopy();
  }

  /**
   * Replaces the stored document with `bytes` (an e-signed pdf: docs/esignature.md): PutFile with `view`'s token,
   * after any save in progress, then every view reloads it from storage. Nothing changes when the upload fails.
   * @returns undefined when stored, else why not.
   */
  replaceStored(view: ViewHandle, bytes: Uint8Array): Promise<string | undefined> {
    return this.saves.replaceStored(view, bytes);
  }

  /**
   * Tells every view the document's new name (after RenameFile). `lastModifiedTime` is the stored file's time after
   * the rename (RenameFile writes the document into the renamed file, so the host's time changed): the base of the
   * next PutFile and of the external change checks, so the rename is not taken for a change made elsewhere.
   */
  renamed(name: string, lastModifiedTime?: string): void {
    this.fileName = name;
    if (lastModifiedTime) this.saves.storedTimeIs(lastModifiedTime);
    this.broadcast({ type: 'renamed', ok: true, name });
  }

  /**
   * Saves (kit) and uploads (PutFile), one save at a time. An explicit save always uploads (IsModifiedByUser tells
   * whether anything changed); idle, auto and exit saves only when the document is modified. Nothing is ever
   * uploaded for a document no view may write.
   */
  save(kind: SaveKind, by?: ViewHandle, opts?: SaveOptions): Promise<void> {
    return this.saves.save(kind, by, opts).then(() => undefined);
  }

  /** `save`, telling how it ended (the admin API's explicit save). @throws the kit's save error. */
  saveWithResult(kind: SaveKind, by?: ViewHandle): Promise<SaveResult> {
    return this.saves.save(kind, by);
  }

  /**
   * Signs the document with the view's own certificate (editor.md `sign`; document-signing.ts), then uploads the
   * signed file like an explicit save. Queued with the saves.
   */
  sign(view: ViewHandle): Promise<void> {
    return this.signing.sign(view);
  }

  /** A user's answer to a conflict (spec rule 4; document-conflict.ts): overwrite or reload. */
  resolveConflict(view: ViewHandle, choice: 'overwrite' | 'reload'): Promise<void> {
    return this.conflict.resolve(view, choice);
  }

  /** The pending recovery copies of this document changed (recovery.ts): every view that may store it is told again. */
  offerRecovery(): void {
    if (this.state === 'live') this.recoveryOffer.tell(this.views, true);
  }

  /** A user's choice for a recovery copy (editor.md `recoveryChoice`; document-recovery-offer.ts). */
  recoveryChoice(view: ViewHandle, id: string, choice: RecoveryChoice): Promise<void> {
    return this.recoveryOffer.choose(view, id, choice);
  }

  /** The WOPI lock this document holds, for PutFile and RenameFile (X-WOPI-Lock). */
  get lock(): string | undefined {
    return this.wopiLock.id;
  }

  /**
   * Starts the idle unload (idle-unload.ts: exit save, then every view gets `idle` and is closed with 4408) and the
   * external change checks (document-conflict.ts).
   */
  private startChecks(): void {
    const cfg = this.deps.config().documents;
    this.idle.start(cfg.idle_unload_secs, () => {
      void this.unload('no input for documents.idle_unload_secs').then(() => {
        for (const v of this.views) {
          v.send({ type: 'idle', message: 'Nobody used this document for a while: it was saved and closed. Reload to continue.' });
          v.close(CLOSE.idle, 'the document was idle');
        }
        this.views.clear();
      });
    });
    this.conflict.startChecks(cfg.check_secs);
  }

  /** Discards the kit's copy and loads the stored document again; every view gets `reloaded` and a new status. */
  reload(): Promise<void> {
    if (this.state !== 'live') return Promise.resolve();
    const run = this.reloadNow();
    this.transition = run;
    return run;
  }

  private async reloadNow(): Promise<void> {
    this.state = 'reloading';
    this.emit({ type: 'changed', doc: this, what: 'state' });
    this.saves.scheduler.stop();
    this.retireKit();
    this.tiles.clear();
    this.saves.discard();
    this.journal?.discard();
    const views = [...this.views];
    const first = views.find((v) => !v.readonly) ?? views[0];
    try {
      const info = first ? await this.deps.client.checkFileInfo(this.deps.src, first.token) : undefined;
      if (!first || !info) throw new Error('no view left');
      this.opened = this.open({
        ...first,
        fileInfo: info,
        send: (m) => first.send(m),
        sendBinary: (f) => first.sendBinary(f),
        close: (c, r) => first.close(c, r),
        viewId: first.viewId,
      });
      await this.opened;
      first.viewId = this.info!.viewId;
      // A document read-only for everyone stays so in LibreOffice's new views (document-saving.ts readOnlyForAll).
      for (const v of views) if (v !== first) v.viewId = (await this.createKitView(this.kit!, v)).viewId;
      for (const v of views) {
        v.send({ type: 'reloaded' });
        v.send(this.statusFor(v));
      }
      this.broadcastViews();
      this.emit({ type: 'changed', doc: this, what: 'state' });
      this.saves.noteModified();
    } catch (e) {
      this.log.error({ err: (e as Error).message }, 'reload failed');
      for (const v of views) v.close(CLOSE.failed, 'the document could not be reloaded');
      this.close();
    }
  }

  /**
   * A view leaves; the last one unloads the document (exit save first). While the document is rebuilt after a kit
   * crash (`recovering`) or reloaded, the view leaves once that is done (its LibreOffice view is made again meanwhile,
   * and the ids it holds are the new kit's only then): so the last user leaving then gets the exit save too.
   */
  async leave(view: ViewHandle): Promise<void> {
    for (let t = this.transition; t && (this.state === 'recovering' || this.state === 'reloading'); t = t === this.transition ? undefined : this.transition)
      await t.catch(() => undefined);
    this.early.forget(view.viewId);
    if (!this.views.has(view)) return;
    if (this.views.size === 1 && (this.state === 'live' || this.state === 'opening')) {
      await this.unload('the last view left');
      this.views.delete(view);
      return;
    }
    this.views.delete(view);
    this.joinedAt.delete(view);
    await this.kit?.destroyView(view.viewId).catch(() => undefined);
    this.broadcastViews();
    this.emit({ type: 'changed', doc: this, what: 'views' });
  }

  /** The owner ends the document for everyone (EnableOwnerTermination and UserId = OwnerId). */
  async ownerClose(view: ViewHandle): Promise<void> {
    const fi = view.fileInfo;
    if (!fi.EnableOwnerTermination || fi.UserId !== fi.OwnerId) {
      view.send({ type: 'error', code: 'forbidden', message: 'Only the owner may close the document for everyone.' });
      return;
    }
    await this.unload('closed by its owner');
    this.closeViews(CLOSE.ownerClosed, 'the owner closed the document');
  }

  /** An administrator closes the document (admin API documents.close): exit save when modified, then every view is closed with 4410. */
  async adminClose(): Promise<void> {
    await this.unload('closed by the administrator');
    this.closeViews(CLOSE.adminClosed, 'an administrator closed the document');
  }

  /**
   * The node drains this document (document-drain.ts): from now on a view whose join is still running is refused
   * with OdeError `draining` (close 4503) when it would become live, instead of joining a document whose views were
   * already told `draining` and whose exit save does not wait for it.
   */
  refuseJoins(): void {
    this.drainStarted = true;
  }

  /** Exit save (only when modified), then the kit is released. Used when the last view leaves and when the daemon stops. */
  async unload(reason: string): Promise<void> {
    if (this.state === 'unloading' || this.state === 'closed') return;
    await this.opened?.catch(() => undefined);
    this.state = 'unloading';
    this.emit({ type: 'changed', doc: this, what: 'state' });
    this.log.info({ reason }, 'unloading');
    this.saves.scheduler.stop();
    try {
      await this.save('exit');
    } catch (e) {
      this.log.error({ err: (e as Error).message }, 'exit save failed');
      // A kit alive but unable to save (LibreOffice failed or did not answer within its limit) is treated as one that
      // died: the exit save is made from the journal in a fresh kit, not left in the journal until the next start.
      if (!this.kitLost && this.kit && this.journal?.active) {
        this.retireKit();
        this.kitLost = true;
      }
    }
    if (this.kitLost) await this.exitSaveFromJournal();
    await this.saves.uploader?.stop(5000);
    // LibreOffice says the host has its document (a sheet switched, cells clicked: issue 17): no journal is left.
    if (!this.kitLost && this.saves.hostHasAll) this.journal?.storedAll();
    this.close();
  }

  /**
   * The kit died while the document was unloading (before its exit save was stored), or its exit save failed: when
   * the edit journal holds input the host lacks, the exit save is made from it in a kit of its own with no user's view (journal-rebuild.ts)
   * and uploaded like any exit save (its recovery copy kept when the host does not take it). While the daemon runs
   * the rebuild has the kit's own limits only (a minute of three users typing is ~900 keys to replay: 20 s did not
   * do at load, and the document closed with its input only in the journal: bench:load, issue 17); when the daemon
   * stops, it ends by the stop's deadline (documents.exit_save_secs). Failing that, the journal stays on disk for
   * the next start (recovery.ts).
   */
  private async exitSaveFromJournal(): Promise<void> {
    const journal = this.journal;
    const stored = journal?.readBack();
    if (!journal || !stored) return;
    const started = Date.now();
    const { limits } = this.deps.config();
    const deadline = this.stopDeadline;
    const writer = this.saves.lastWriter ?? [...this.views].find((v) => mayStore(v));
    try {
      const settings = writer ? await this.deps.settings?.(writer.fileInfo, writer.token) : undefined;
      const r = await this.saves.saveRebuilt(
        () =>
          rebuildJournalFile(this.deps.pool, stored, {
            loadMs: limits.load_secs * 1000,
            convertMs: limits.convert_secs * 1000,
            ...(settings ? { settings } : {}),
            ...(deadline === undefined ? {} : { deadline }),
          }),
        journal.cut(),
      );
      this.log.warn(
        { ms: Date.now() - started, replayed: stored.entries.length, stored: r.saved, ...(r.saved ? {} : { reason: r.reason }) },
        'the kit died during the unload: the exit save was made from the edit journal in a fresh kit',
      );
    } catch (e) {
      this.log.error(
        { err: (e as Error).message, ms: Date.now() - started },
        'the kit died during the unload and the exit save could not be made from the edit journal; the journal is kept for the next start',
      );
    }
  }

  /**
   * The daemon stops: exit save of the latest state, then every view is closed with 1001. Uploads end by `deadline`
   * (ms since the epoch; documents.exit_save_secs): a save whose upload is being retried does not hold the exit save
   * back (Uploader.finishBy), and what the host has not taken by then stays in the recovery copy.
   */
  async shutdown(deadline?: number): Promise<void> {
    this.stopDeadline = deadline ?? Date.now() + this.deps.config().documents.exit_save_secs * 1000;
    if (deadline !== undefined) this.saves.uploader?.finishBy(deadline);
    await this.unload('the daemon is stopping');
    this.closeViews(CLOSE.goingAway, 'the server is stopping');
  }

  /** Closes every view's socket with `code` and forgets the views (after an unload). */
  private closeViews(code: number, reason: string): void {
    for (const v of this.views) v.close(code, reason);
    this.views.clear();
  }

  private kitDied(): void {
    if (this.state === 'closed') return;
    if (this.state === 'live' && this.views.size > 0 && this.journal) {
      this.transition = this.recover();
      return;
    }
    if (this.state === 'unloading' && this.journal?.active) {
      // The unload goes on: its exit save fails or finds no kit, and is then made from the journal (`unload`).
      const dead = this.kit;
      this.kit = undefined;
      dead?.off('exit', this.onKitExit);
      dead?.off('callback', this.onKitCallback);
      this.kitLost = true;
      this.log.error('the kit of this document died while it was unloading; the exit save will be made from the edit journal');
      return;
    }
    this.log.error('the kit of this document died');
    for (const v of this.views) {
      v.send({ type: 'kitDied', message: 'LibreOffice stopped unexpectedly while editing this document. Reload to continue from the last saved version.' });
      v.close(CLOSE.failed, 'the document process died');
    }
    this.views.clear();
    this.kit = undefined;
    this.close();
  }

  /**
   * The kit died while the document was live (`recovering`): a fresh kit opens the journal's snapshot, the views are
   * created again and the journaled input replayed (input arriving meanwhile is journaled and replayed too); every
   * view then gets `reloaded` and its status, and goes on where it was. With no journal (the stored file holds
   * everything) the stored file is loaded again. A rebuild that fails closes the document as before (the journal
   * stays on disk for the next start).
   */
  private async recover(): Promise<void> {
    const started = Date.now();
    const dead = this.kit;
    this.kit = undefined;
    dead?.off('exit', this.onKitExit);
    dead?.off('callback', this.onKitCallback);
    this.tiles.clear();
    this.log.error('the kit of this document died; rebuilding it from the edit journal');
    if (!this.journal?.active) {
      // Nothing unstored: the stored file is the document.
      await this.reload();
      this.emit({ type: 'recovered', doc: this, ms: Date.now() - started, replayed: 0 });
      return;
    }
    this.state = 'recovering';
    this.emit({ type: 'changed', doc: this, what: 'state' });
    const views = [...this.views];
    const first = views.find((v) => mayStore(v)) ?? views[0]!;
    const ordered = [first, ...views.filter((v) => v !== first)];
    const limits = this.deps.config().limits;
    try {
      const settings = await this.deps.settings?.(first.fileInfo, first.token);
      const kit = await this.deps.pool.leaseEditingKit(settings ? { settings } : undefined);
      this.loading.leased(kit);
      let opened: OpenedDocument | undefined;
      const rebuilt = await this.journal.rebuildInto(
        kit,
        ordered,
        async (input, v) =>
          (opened = await kit.open(kitOpenRequest(v, input, this.saves.readOnlyForAll), {
            loadMs: limits.load_secs * 1000,
            convertMs: limits.convert_secs * 1000,
          })),
        (v) => this.createKitView(kit, v),
      );
      if (!rebuilt || !opened || this.state !== 'recovering') throw new Error('the journal could not be read back');
      this.path = rebuilt.path;
      this.info = opened;
      for (const [v, id] of rebuilt.viewIds) v.viewId = id;
      this.state = 'live';
      for (const v of this.views) {
        v.send({ type: 'reloaded' });
        v.send(this.statusFor(v));
      }
      this.broadcastViews();
      this.emit({ type: 'changed', doc: this, what: 'state' });
      this.emit({ type: 'recovered', doc: this, ms: Date.now() - started, replayed: rebuilt.replayed });
      this.log.warn({ ms: Date.now() - started, replayed: rebuilt.replayed }, 'the document was rebuilt in a fresh kit from its edit journal');
    } catch (e) {
      this.log.error({ err: (e as Error).message }, 'the document could not be rebuilt from its edit journal; its journal is kept for the next start');
      for (const v of this.views) {
        v.send({
          type: 'kitDied',
          message:
            'LibreOffice stopped unexpectedly while editing this document and it could not be rebuilt. Your changes are kept on the server. Reload to continue from the last saved version.',
        });
        v.close(CLOSE.failed, 'the document process died');
      }
      this.views.clear();
      this.close();
    }
  }

  private retireKit(): void {
    const kit = this.kit;
    if (!kit) return;
    this.kit = undefined;
    kit.off('exit', this.onKitExit);
    kit.off('callback', this.onKitCallback);
    void kit
      .closeDoc()
      .catch(() => undefined)
      .finally(() => this.deps.pool.retireKit(kit));
  }

  private close(): void {
    this.journal?.close();
    this.parts.stop();
    this.conflict.stop();
    this.idle.stop();
    this.wopiLock.release(this.saves.lastWriter);
    this.saves.scheduler.stop();
    this.retireKit();
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.deps.onClosed(this);
    this.emit({ type: 'closed', doc: this });
  }
}
