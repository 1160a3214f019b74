/**
 * A document's saves and uploads: the save queue, the modified flags, and what an upload's outcome does.
 *
 * Saves run one at a time (`enqueue`; signing and e-signature replacements queue here too): `.uno:Save` in the kit
 * writes the kit folder file, then the Uploader sends it with PutFile (retrying while the host is unavailable,
 * keeping a recovery copy). A success makes the host's new LastModifiedTime the base of the next PutFile
 * (`stored`); a PutFile answered 409/1010 keeps the refused bytes (`conflictBytes`) while the users choose
 * (document-conflict.ts); a 413 makes the document read-only for everyone (spec: external change detection, storage
 * failures).
 */
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { ServerMessage } from '../../protocol/editor.ts';
import type { WopiError } from '../wopi/wopi-error.ts';
import type { DocumentEventBody } from './document-events.ts';
import type { DocumentJournal } from './document-journal.ts';
import type { DocumentState } from './edit-document.ts';
import type { EditingKit } from './editing-kit.ts';
import { SaveScheduler } from './save-scheduler.ts';
import type { Uploader, UploadOutcome, UploadRequest } from './uploader.ts';
import { mayStore, type ViewHandle } from './view-handle.ts';

/** Why a save was made: the PutFile headers follow from it. */
export type SaveKind = 'explicit' | 'idle' | 'auto' | 'exit';

/** How a save treats a cell being edited: `dontTerminateEdit` keeps it in edit mode (its text is then not saved). */
export interface SaveOptions {
  dontTerminateEdit?: boolean;
}

/** How one save ended: uploaded, or why not (read-only, conflict pending, not open, the host refused it). */
export type SaveResult = { saved: true } | { saved: false; reason: string };

/** The `saved` message's flags of a save of this kind. */
export interface SaveMeta {
  autosave: boolean;
  exitSave: boolean;
}

/** What the saves need from their document. */
export interface SavingHost {
  state(): DocumentState;
  kit(): EditingKit | undefined;
  /** The kit folder file (the downloaded copy, then the last save). */
  path(): string;
  /** Our WOPI lock id, if we hold one (X-WOPI-Lock). */
  lock(): string | undefined;
  readonly views: ReadonlySet<ViewHandle>;
  /** Emits a document event (document-events.ts) about this document. */
  emit(e: DocumentEventBody): void;
  broadcast(msg: ServerMessage): void;
  /** Sends every view its `status` again (its rights changed). */
  sendStatus(): void;
  /** The stored file changed: every view is told its signature state again. */
  signatureChanged(): void;
  /** Loads the stored document again (EditDocument.reload). */
  reload(): Promise<void>;
  /** The edit journal (document-journal.ts), when on: told what each save and upload holds. */
  journal?(): Pick<DocumentJournal, 'cut' | 'saved' | 'uploaded' | 'copied'> | undefined;
  /**
   * A spreadsheet view is editing a cell (its text cursor is shown). Entering the cell to save it ends that edit, and
   * the user's next key would start a new one replacing the cell's text, so the idle save asks the kit to put the
   * cell back into edit mode (kit.md `saveDoc` `reenterCell`); the autosave keeps edit mode. Absent: never.
   */
  cellEditing?(): boolean;
  /** The views editing a cell (the idle save is made from one, so that the kit enters its cell). Absent: none. */
  cellEditors?(): ViewHandle[];
  readonly log: Logger;
}

/** The save queue and save state of one document. */
export class DocumentSaving {
  /** When the last PutFile succeeded, and the last PutFile's failure (cleared by a success). */
  lastUploadAt: number | undefined;
  lastUploadError: string | undefined;
  /** LibreOffice's modified flag (ModifiedStatus callbacks). */
  modified = false;
  // The fields below are written here only (the other modules call the methods that say why they change).
  private savedAt: number | undefined;
  private storedTime: string | undefined;
  private changedByUser = false;
  private refused = false;
  private refusedBytes: Uint8Array | undefined;
  private writerView: ViewHandle | undefined;
  private uploads: Uploader | undefined;
  /** Idle and auto saves (save-scheduler.ts). */
  readonly scheduler: SaveScheduler;
  private chain: Promise<unknown> = Promise.resolve();
  /** The modified flag last emitted in a `changed` event. */
  private shownModified = false;
  /** A save (kit save and upload) is running. */
  private inSave = false;
  /** LibreOffice said "not modified" during the running save: the views hear it once the host has the file. */
  private heldUnmodified = false;
  /** Changes made so far (`changedBy`): a save notes it when it goes to the kit, to know what came after it. */
  private changeCount = 0;
  /** LibreOffice's "modified" is not a change until a user changes the document (`ignoreLoadModified`). */
  private loadModified: 'ignore' | 'held' | undefined;

  /** `idleMs`, `autoMs`: documents.idle_save_secs and autosave_secs in ms. */
  constructor(
    private readonly host: SavingHost,
    idleMs: number,
    autoMs: number,
  ) {
    this.scheduler = new SaveScheduler(idleMs, autoMs, (kind) => void this.save(kind).catch(() => undefined));
  }

  /** When the kit last saved the document (ms since the epoch). */
  get lastSaveAt(): number | undefined {
    return this.savedAt;
  }

  /** LastModifiedTime of the stored file as we last knew it (sent as X-ODE-WOPI-Timestamp). */
  get lastModifiedTime(): string | undefined {
    return this.storedTime;
  }

  /** A user changed the document since the last upload (X-ODE-WOPI-IsModifiedByUser). */
  get userChanged(): boolean {
    return this.changedByUser;
  }

  /** After a 413 (or a lock held elsewhere) no view may change the document any more. */
  get readOnlyForAll(): boolean {
    return this.refused;
  }

  /** Bytes refused with 409/1010 while the users decide (empty: a change elsewhere seen in a CheckFileInfo). */
  get conflictBytes(): Uint8Array | undefined {
    return this.refusedBytes;
  }

  /** The last view that changed the document or joined able to (it saves when no writing view is left). */
  get lastWriter(): ViewHandle | undefined {
    return this.writerView;
  }

  /** The document's Uploader, set when it is downloaded (`attachUploader`). */
  get uploader(): Uploader | undefined {
    return this.uploads;
  }

  /** The document was downloaded: its uploads go through `uploader`, and the stored file's time is `lastModifiedTime`. */
  downloaded(uploader: Uploader, lastModifiedTime: string | undefined): void {
    this.uploads = uploader;
    this.storedTime = lastModifiedTime;
  }

  /**
   * The stored file's LastModifiedTime changed by something other than a save of ours (a template stored at load, a
   * rename): the base of the next PutFile. Undefined keeps the known one.
   */
  storedTimeIs(lastModifiedTime: string | undefined): void {
    if (lastModifiedTime !== undefined) this.storedTime = lastModifiedTime;
  }

  /** `view`, who may store the document, joined: it saves when no other writer is left. */
  writerJoined(view: ViewHandle): void {
    this.writerView = view;
  }

  /** No view may change the document any more (our WOPI lock was refused: another application holds the file). */
  refuseWrites(): void {
    this.refused = true;
  }

  /** The kit wrote the document file outside a save of this module (signing saves first, then signs). */
  kitSaved(): void {
    this.savedAt = Date.now();
  }

  /** The bytes of the pending conflict, now taken out of it (the users chose); undefined without one. */
  takeConflict(): Uint8Array | undefined {
    const bytes = this.refusedBytes;
    this.refusedBytes = undefined;
    return bytes;
  }

  /** The stored file changed elsewhere while the document has unsaved changes: a conflict is pending (no bytes yet). */
  conflictSeen(): void {
    this.refusedBytes ??= new Uint8Array(0);
  }

  /** The users chose to overwrite and the host stored the refused bytes: nothing the users changed is unsaved. */
  overwritten(lastModifiedTime: string | undefined): void {
    this.storedTime = lastModifiedTime ?? this.storedTime;
    this.changedByUser = false;
  }

  /** True when the document has changes not yet uploaded. */
  get unsaved(): boolean {
    return this.modified || this.userChanged;
  }

  /**
   * The host holds what LibreOffice has: not modified, nothing typed since the last upload, no upload pending or
   * failed, no conflict waiting.
   */
  get hostHasAll(): boolean {
    return !this.unsaved && this.uploader?.busy !== true && !this.refusedBytes && this.lastUploadError === undefined;
  }

  /** Unsaved changes, or a save whose upload is pending or retrying (admin API `modified`). */
  get modifiedOrUploading(): boolean {
    return this.unsaved || this.uploader?.busy === true;
  }

  /** Emits `changed` (modified) when the modified-or-uploading flag flipped since the last event. */
  noteModified(): void {
    const now = this.modifiedOrUploading;
    if (now === this.shownModified) return;
    this.shownModified = now;
    this.host.emit({ type: 'changed', what: 'modified' });
  }

  /**
   * The document being loaded is a pdf: LibreOffice 25.2 says it is modified right after loading one that has
   * comments (issue 16: every close of an unchanged pdf uploaded a new version, the editor said "Unsaved changes").
   * Until a user changes it (a comment command: `changedBy`), that "modified" is held back: not shown, not saved.
   */
  ignoreLoadModified(): void {
    this.loadModified = 'ignore';
  }

  /** `view` changed the document (input, paste): it is the last writer, and an idle save is due. */
  changedBy(view: ViewHandle): void {
    this.changeCount++;
    this.changedByUser = true;
    this.writerView = view;
    if (this.loadModified === 'held') {
      this.modified = true;
      this.host.broadcast({ type: 'modified', modified: true });
    }
    this.loadModified = undefined;
    this.scheduler.changed();
    this.noteModified();
  }

  /**
   * The number of changes made so far, taken when a save goes to the kit: the kit saves in input order, so the saved
   * file holds exactly the changes counted then (pass it to `stored`).
   */
  get changes(): number {
    return this.changeCount;
  }

  /** Runs `task` after every save queued before it (one save, signing or replacement at a time). */
  enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /**
   * Saves (kit) and uploads (PutFile), queued. An explicit save always uploads (IsModifiedByUser tells whether
   * anything changed); idle, auto and exit saves only when the document is modified. Nothing is ever uploaded for a
   * document no view may write. @throws the kit's save error.
   */
  save(kind: SaveKind, by?: ViewHandle, opts: SaveOptions = {}): Promise<SaveResult> {
    return this.enqueue(() => this.saveNow(kind, by, opts));
  }

  /**
   * LibreOffice's ModifiedStatus changed. LibreOffice 25.2 says "not modified" as soon as its in-place save wrote
   * the kit's copy, before the host has it: during a save that is held back (the views are told in `stored`), so no
   * editor says "saved" while the upload is pending or failing (issue 16).
   * @returns whether the views may be told now.
   */
  modifiedChanged(modified: boolean): boolean {
    if (this.loadModified && !this.changedByUser) {
      this.loadModified = modified ? 'held' : 'ignore';
      return false;
    }
    this.modified = modified;
    this.noteModified();
    if (!modified && this.inSave) {
      this.heldUnmodified = true;
      return false;
    }
    if (modified) this.heldUnmodified = false;
    return true;
  }

  private async saveNow(kind: SaveKind, by: ViewHandle | undefined, opts: SaveOptions): Promise<SaveResult> {
    this.inSave = true;
    try {
      return await this.saveAndUpload(kind, by, opts);
    } finally {
      this.inSave = false;
      this.heldUnmodified = false;
    }
  }

  private async saveAndUpload(kind: SaveKind, by: ViewHandle | undefined, opts: SaveOptions): Promise<SaveResult> {
    const { host } = this;
    const kit = host.kit();
    const state = host.state();
    if (!kit || !this.uploader || (state !== 'live' && state !== 'unloading')) return { saved: false, reason: `the document is ${state}, not open in a kit` };
    if (this.readOnlyForAll)
      return { saved: false, reason: 'the document is read-only for everyone (the storage refused its size, or another application locks it)' };
    if (this.conflictBytes) return { saved: false, reason: 'the stored document changed elsewhere: the users must choose overwrite or reload first' };
    const cellEditing = host.cellEditing?.() === true;
    // The idle save is made from the view editing a cell (the kit enters and re-enters the cell of the saving view only).
    const editor = kind === 'idle' && cellEditing ? host.cellEditors?.().find((v) => mayStore(v)) : undefined;
    const writer = by && mayStore(by) ? by : (editor ?? [...host.views].find((v) => mayStore(v)) ?? this.lastWriter);
    if (!writer || !mayStore(writer)) {
      if (by && kind === 'explicit') by.send({ type: 'error', code: 'readonly', message: 'This document is open read-only for you: it cannot be saved.' });
      return { saved: false, reason: 'no view may write this document (all are read-only)' };
    }
    const dirty = this.modified || this.userChanged;
    if (kind !== 'explicit' && !dirty) return { saved: false, reason: 'not modified' };
    const viewId = [...host.views].find((v) => v === writer)?.viewId ?? [...host.views][0]?.viewId ?? writer.viewId;
    // What a user typed into a cell is entered before every save but the autosave timer's, which would end the
    // edit mode of someone typing (Collabora's autosave keeps it too); a host may ask the same (Action_Save
    // DontTerminateEdit). Input since the last upload (userChanged) saves even when LibreOffice says unmodified:
    // a cell being edited does not mark the document modified until its text is entered.
    // The idle save enters a cell being edited and the kit puts it back into edit mode with the caret where it was
    // (issue 16): entering it alone ended the edit of a user who had paused idle_save_secs, whose next key then
    // replaced the cell's text. Collabora's idle saves keep edit mode (DontTerminateEdit) and leave the text out; the
    // kit does that too for a cell it must not enter (a formula being typed: kit.md `saveDoc` `reenterCell`).
    const dontTerminateEdit = opts.dontTerminateEdit ?? kind === 'auto';
    const reenterCell = kind === 'idle' && cellEditing && !dontTerminateEdit;
    const dontSaveIfUnmodified = kind !== 'explicit' && !(this.userChanged && !dontTerminateEdit);
    let r: { saved: boolean; editKept?: boolean };
    const journal = host.journal?.();
    // The input this save holds: everything sent to the kit before `.uno:Save` (the kit saves in input order). A
    // save that leaves a cell in edit mode lacks that cell's typed text: it holds no cut (-1), and only moves the
    // journal's LastModifiedTime.
    const cut = dontTerminateEdit ? -1 : (journal?.cut() ?? 0);
    const changes = this.changeCount;
    try {
      r = reenterCell ? await kit.saveDoc(viewId, dontSaveIfUnmodified, false, true) : await kit.saveDoc(viewId, dontSaveIfUnmodified, dontTerminateEdit);
    } catch (e) {
      host.emit({ type: 'saved', ok: false, kind, error: (e as Error).message });
      throw e;
    }
    if (!r.saved && kind !== 'explicit') return { saved: false, reason: 'not modified' };
    // A save that put a cell back into edit mode holds its text, but the journal's replay types that text from the
    // start of the cell's edit (the re-entry is not input): it keeps its snapshot from before the edit (`inEdit`).
    const inEdit = reenterCell && !r.editKept;
    if (!r.editKept && !inEdit) journal?.saved(cut);
    this.savedAt = Date.now();
    host.emit({ type: 'saved', ok: true, kind });
    // Saved in edit mode, the file lacks what is typed in the cell (LibreOffice does not mark the document modified
    // for it): the document stays unsaved, so the exit or explicit save after it enters the cell and stores it.
    const incomplete = (dontTerminateEdit && cellEditing) || r.editKept === true;
    return this.uploadSaved(kind, writer, readFileSync(host.path()), r.editKept ? -1 : cut, changes, incomplete, inEdit);
  }

  /**
   * The exit save of a document whose kit died while it was being unloaded (issue 17): `rebuild` makes the saved
   * file in a kit of its own from the edit journal (journal-rebuild.ts), holding every input up to `cut`; it is then
   * uploaded like any exit save (an upload the host does not take leaves its recovery copy, which holds everything,
   * so the journal goes). Queued with the saves; skipped like them (read-only for everyone, a conflict pending, no
   * view that may write). @throws what `rebuild` throws (the journal then stays on disk).
   */
  saveRebuilt(rebuild: () => Promise<Uint8Array>, cut: number): Promise<SaveResult> {
    return this.enqueue(async () => {
      if (this.readOnlyForAll || this.conflictBytes || !this.uploader) return { saved: false, reason: 'the document may not be stored now' };
      const writer = [...this.host.views].find((v) => mayStore(v)) ?? this.lastWriter;
      if (!writer || !mayStore(writer)) return { saved: false, reason: 'no view may write this document (all are read-only)' };
      const changes = this.changeCount;
      const bytes = await rebuild();
      this.savedAt = Date.now();
      this.host.emit({ type: 'saved', ok: true, kind: 'exit' });
      return this.uploadSaved('exit', writer, bytes, cut, changes);
    });
  }

  /**
   * Uploads a save's `bytes` with `writer`'s token and does what the outcome asks: the journal told (`cut`: the input
   * the bytes hold; -1 none), the views told, the stored time kept; a failure handled by `uploadFailed`.
   * `changes`: the change count when the save was made (`stored`). `inEdit`: a cell was entered for the save and is
   * being edited again (the journal keeps its replay from before that edit: DocumentJournal `uploaded`).
   */
  private async uploadSaved(
    kind: SaveKind,
    writer: ViewHandle,
    bytes: Uint8Array,
    cut: number,
    changes: number,
    incomplete = false,
    inEdit = false,
  ): Promise<SaveResult> {
    const { host } = this;
    const journal = host.journal?.();
    const isModifiedByUser = this.userChanged;
    const outcome = await this.timedUpload({
      bytes,
      token: writer.token,
      tokenTtl: writer.tokenTtl,
      timestamp: this.lastModifiedTime,
      isModifiedByUser,
      isAutosave: kind === 'idle' || kind === 'auto',
      isExitSave: kind === 'exit',
      lock: host.lock(),
    });
    const meta = { autosave: kind === 'idle' || kind === 'auto', exitSave: kind === 'exit' };
    if (outcome.ok) {
      this.stored(outcome.lastModifiedTime, changes, incomplete);
      journal?.uploaded(cut, this.lastModifiedTime, inEdit);
      host.log.info({ kind, bytes: outcome.bytes, isModifiedByUser }, 'saved and uploaded');
      // Saving changes drops a signature: every view sees the state of the stored file.
      host.signatureChanged();
      host.broadcast({ type: 'saved', ok: true, ...meta, lastModifiedTime: this.lastModifiedTime, ...(incomplete ? { cellKept: true } : {}) });
      this.noteModified();
      return { saved: true };
    }
    // The exit save's bytes stay in the Uploader's recovery copy (written and synced before the PutFile): when they
    // hold every input, the next start uploads that copy alone (the journal would make a second copy of the same).
    if (kind === 'exit') journal?.copied(cut);
    this.uploadFailed(outcome.error, bytes, meta);
    this.noteModified();
    return { saved: false, reason: `the storage refused the upload: ${outcome.error.message}` };
  }

  /** Uploads through the Uploader, keeping lastUpload* and emitting `uploaded` (ms from start, retries included). */
  async timedUpload(req: UploadRequest): Promise<UploadOutcome> {
    const started = Date.now();
    const pending = this.uploader!.upload(req);
    this.noteModified();
    const outcome = await pending;
    if (outcome.ok) {
      this.lastUploadAt = Date.now();
      this.lastUploadError = undefined;
    } else {
      this.lastUploadError = outcome.error.message;
    }
    this.host.emit({ type: 'uploaded', ok: outcome.ok, ms: Date.now() - started, ...(outcome.ok ? {} : { error: outcome.error.message }) });
    return outcome;
  }

  /**
   * The host has the kit's saved file: its new LastModifiedTime is the base of the next PutFile, nothing is unsaved.
   * The views are told "not modified" here, once the host has the file (LibreOffice's own ModifiedStatus=false comes
   * when the kit's copy is written: see `modifiedChanged`).
   *
   * `changesAtSave` (`changes` when the save went to the kit): a change made after it (typed while the kit saved or
   * the upload ran) is not in the stored file, so the document stays unsaved and its idle save due; clearing the
   * flags then made the exit save of a user who typed during an upload and left skip as "not modified" (issue 17).
   * `incomplete`: the stored file may lack input made before the save (a spreadsheet's cell still being edited, saved
   * with DontTerminateEdit): the document stays unsaved the same way (issue 16).
   */
  stored(lastModifiedTime: string | undefined, changesAtSave?: number, incomplete = false): void {
    this.storedTime = lastModifiedTime ?? this.lastModifiedTime;
    if (incomplete || (changesAtSave !== undefined && changesAtSave !== this.changeCount)) {
      this.changedByUser = true;
      this.heldUnmodified = false;
      if (incomplete) this.host.log.info('stored in edit mode; a cell being edited is saved next');
      else this.host.log.info({ changes: this.changeCount - (changesAtSave ?? 0) }, 'stored; changes made during the save are saved next');
      return;
    }
    this.changedByUser = false;
    this.scheduler.saved();
    if (this.modified || this.heldUnmodified) {
      this.modified = false;
      this.heldUnmodified = false;
      this.host.broadcast({ type: 'modified', modified: false });
    }
  }

  /**
   * A PutFile failed for good: the views are told; 409/1010 keeps `bytes` for the users' choice (conflict), 401
   * asks them to open it again, 413 makes the document read-only for everyone.
   */
  uploadFailed(error: WopiError, bytes: Uint8Array, meta: SaveMeta): void {
    const { host } = this;
    host.broadcast({ type: 'saved', ok: false, ...meta, error: { code: error.kind, message: error.message } });
    if (error.kind === 'document_changed') {
      this.refusedBytes = bytes;
      host.broadcast({ type: 'conflict', unsavedChanges: true });
    } else if (error.kind === 'unauthorized') {
      host.broadcast({
        type: 'storage',
        state: 'unauthorized',
        message: 'The storage no longer accepts your access: open the document again from the host. Your changes are kept on the server until then.',
      });
    } else if (error.kind === 'too_large') {
      this.refused = true;
      host.broadcast({
        type: 'storage',
        state: 'too_large',
        message: 'The storage refuses a file this large. The document is now read-only; download a copy to keep your changes.',
      });
      host.sendStatus();
    }
  }

  /**
   * Replaces the stored document with `bytes` (an e-signed pdf: docs/esignature.md): PutFile with `view`'s token,
   * after any save in progress, then every view reloads it from storage. Nothing changes when the upload fails.
   * @returns undefined when stored, else why not.
   */
  replaceStored(view: ViewHandle, bytes: Uint8Array): Promise<string | undefined> {
    const { host } = this;
    return this.enqueue(async () => {
      if (!this.uploader || host.state() !== 'live') return `the document is ${host.state()}, not open`;
      if (this.readOnlyForAll || !view.fileInfo.UserCanWrite) return 'the document is read-only';
      const outcome = await this.timedUpload({
        bytes,
        token: view.token,
        timestamp: this.lastModifiedTime,
        isModifiedByUser: true,
        isAutosave: false,
        isExitSave: false,
        lock: host.lock(),
      });
      if (!outcome.ok) return outcome.error.message;
      this.storedTime = outcome.lastModifiedTime ?? this.lastModifiedTime;
      host.log.info({ bytes: bytes.length }, 'stored a replacement of the document; reloading');
      await host.reload();
      return undefined;
    });
  }

  /** The kit's copy is discarded (reload): nothing is unsaved and no conflict is pending. */
  discard(): void {
    this.refusedBytes = undefined;
    this.modified = false;
    this.changedByUser = false;
    this.loadModified = undefined;
  }
}
