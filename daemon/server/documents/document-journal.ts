/**
 * One edited document's journal (docs/reliability.md, "Edit journal"; files in journal-store.ts): every input of a
 * view that may store the document is appended before it goes to the kit, numbered; a snapshot (the kit's copy
 * written in input order: kit.md `exportDoc` `inOrder`) is taken `snapshotMs` after the last input, so a rebuild
 * replays only the input since. The journal starts (on disk) at the first change after the stored file held
 * everything: an input that may change the document (input-policy.ts isModifyingEvent, a paste), or LibreOffice
 * saying the document is modified (a click on a check box, a drag of the fill handle). Input before that (clicks,
 * arrows, sheet switches) waits in memory, the lead-in, and is written first when the journal starts: a document
 * only looked at leaves no journal (issue 17). Its first snapshot is the kit folder file (the downloaded copy or the
 * last save, marked `stored` in snapshot.json). It is deleted when an upload of a save made after its last change
 * succeeds, and when the document unloads with the host holding everything (`storedAll`).
 *
 * A rebuild (after a kit crash: `rebuildInto`; after a daemon restart: recovery.ts) opens the snapshot in a fresh kit,
 * creates the views, puts each view's cursor where it was at the snapshot (a click on it), and replays the input.
 */
import { copyFileSync, existsSync, renameSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Logger } from 'pino';
import type { EditingKit, KitEditEvent } from './editing-kit.ts';
import { isModifyingEvent } from './input-policy.ts';
import { JournalStore, type JournalCursor, type JournalEntry, type JournalMeta, type JournalView, type StoredJournal } from './journal-store.ts';
import { mayStore, type ViewHandle } from './view-handle.ts';

/** LOK callback types the journal reads (LibreOfficeKitEnums.h). */
const CB_VISIBLE_CURSOR = 1;
const CB_CELL_CURSOR = 17;
const CB_SET_PART = 14;
/** A snapshot is taken at once when this many inputs wait since the last one (bounds the replay). */
const SNAPSHOT_AFTER_ENTRIES = 2000;
/**
 * The most inputs the lead-in keeps (input before the journal starts); past it, it starts again from the views'
 * cursors then (the input before only moved them).
 */
const LEAD_IN_MAX = 1000;
/**
 * What a view says of itself, not of the document (its zoom, its visible area): it does not start a journal. The
 * editor sends both as soon as it has `status`; a journal started by them was a snapshot (a saveAs of the whole
 * document, and LibreOffice 25.2 repaints every tile after it) 2 s after every load of a document nobody changed
 * (issue 15: docs/benchmarks.md, "Editor").
 */
const VIEW_ONLY: ReadonlySet<KitEditEvent['type']> = new Set(['clientZoom', 'clientVisibleArea']);

/** What the journal sees of its document. */
export interface JournalHost {
  /** The WOPISrc as the first view gave it. */
  wopiSrc(): string;
  kit(): EditingKit | undefined;
  /** The kit folder file: the downloaded copy, then the last save. */
  path(): string;
  fileName(): string;
  /** The stored file's LastModifiedTime as the saves know it. */
  lastModifiedTime(): string | undefined;
  /** The view whose token uploads (the saves' last writer). */
  writer(): ViewHandle | undefined;
  /** True while the document is live in its kit (snapshots are taken then only). */
  live(): boolean;
  /**
   * A spreadsheet view is editing a cell (its text cursor is shown): a snapshot waits, because LibreOffice's saveAs
   * ends the cell's edit mode, and the user's next key would then start a new edit that replaces the cell's text.
   * Absent: never.
   */
  cellEditing?(): boolean;
  readonly log: Logger;
}

/** Tunables: documents.journal_sync_ms and journal_snapshot_secs (ms). */
export interface JournalOptions {
  dir: string;
  syncMs: number;
  snapshotMs: number;
}

/** The journal of one open document (see the module docstring). */
export class DocumentJournal {
  private readonly store: JournalStore;
  /** The last input's number (input numbers start at 1). */
  private seq = 0;
  /** The input the kit folder file holds (0: the downloaded copy; a save's cut after it). */
  private fileSeq = 0;
  private snapshotSeq = 0;
  /** The inputs after the snapshot, as on disk. */
  private entries: JournalEntry[] = [];
  private meta: JournalMeta | undefined;
  private readonly keys = new Map<ViewHandle, JournalView>();
  private nextKey = 1;
  /** Each LibreOffice view's cursor and part as its callbacks told. */
  private readonly cursors = new Map<number, JournalCursor>();
  private readonly parts = new Map<number, number>();
  private snapshotTimer: NodeJS.Timeout | undefined;
  private snapshotting = false;
  private disabled: boolean;
  /** A change (isModifyingEvent, a paste) was journaled since the last snapshot: without one a snapshot writes nothing new. */
  private changedSinceSnapshot = false;
  /** Input before the journal started (nothing changed yet), in memory; written first when it starts. */
  private leadIn: JournalEntry[] = [];
  /** The views' cursors when the lead-in's first input came (the snapshot's cursors when the journal starts). */
  private leadInCursors: Record<string, JournalCursor> | undefined;
  /** The last input that may change the document (isModifyingEvent, a paste); 0: none. */
  private inputChangeSeq = 0;
  /** `inputChangeSeq`, or the input number when LibreOffice last said the document became modified. */
  private changeSeq = 0;
  /** The input the host's stored file holds (the last upload's cut). */
  private storedSeq = 0;
  /** LibreOffice's ModifiedStatus as last told (`modifiedChanged`). */
  private docModified = false;

  constructor(
    private readonly host: JournalHost,
    private readonly opts: JournalOptions,
  ) {
    this.store = new JournalStore(opts.dir, opts.syncMs);
    this.disabled = false;
  }

  /** The document's format as LibreOffice's saveAs names it (the extension); undefined when it cannot be journaled. */
  private format(): string | undefined {
    const ext = extname(this.host.fileName() || this.host.path())
      .slice(1)
      .toLowerCase();
    // A pdf is never saved in place (comments only): nothing to journal.
    return ext && ext !== 'pdf' ? ext : undefined;
  }

  /** True when the journal holds input the stored file lacks. */
  get active(): boolean {
    return this.store.open;
  }

  /** The view's journal entry (created on first use). */
  private keyOf(view: ViewHandle): JournalView {
    let v = this.keys.get(view);
    if (!v) {
      v = {
        key: this.nextKey++,
        userName: view.fileInfo.UserFriendlyName ?? '',
        userId: view.fileInfo.UserId ?? '',
        lang: view.lang,
        timezone: view.timezone,
        commentsOnly: view.commentsOnly,
      };
      this.keys.set(view, v);
      if (this.meta) {
        this.meta.views.push(v);
        this.store.writeMeta(this.meta);
      }
    }
    return v;
  }

  /**
   * Appends `view`'s input before it goes to the kit (a read-only view's input is not journaled: it changes nothing).
   * Before the journal started, input that cannot change the document waits in the lead-in (memory).
   */
  record(view: ViewHandle, event: KitEditEvent): void {
    // The part a view switched to, for its cursor in the next snapshot (LibreOffice does not always call back SET_PART).
    if (event.type === 'setPart' && mayStore(view)) this.parts.set(view.viewId, event.part);
    if (!this.store.open && VIEW_ONLY.has(event.type)) return;
    this.add(view, (s, v) => ({ s, v, e: event }), isModifyingEvent(event));
  }

  /** Appends a paste before it goes to the kit. */
  recordPaste(view: ViewHandle, mimeType: string, data: Uint8Array): void {
    this.add(view, (s, v) => ({ s, v, paste: { mimeType, data: Buffer.from(data).toString('base64') } }), true);
  }

  private add(view: ViewHandle, make: (s: number, v: number) => JournalEntry, changes: boolean): void {
    if (this.disabled || !mayStore(view)) return;
    try {
      if (!this.store.open && !changes && !this.docModified) {
        this.lead(make(++this.seq, this.keyOf(view).key));
        return;
      }
      if (!this.store.open && !this.begin()) return;
      const entry = make(++this.seq, this.keyOf(view).key);
      if (changes) {
        this.changedSinceSnapshot = true;
        this.inputChangeSeq = this.changeSeq = entry.s;
      }
      this.entries.push(entry);
      this.store.append(entry);
      this.noteMeta();
      this.armSnapshot();
    } catch (e) {
      // A journal that cannot be written must not stop the typing: it is turned off for this document, loudly.
      this.disabled = true;
      this.host.log.error({ err: (e as Error).message, dir: this.opts.dir }, 'the edit journal could not be written; this document is no longer journaled');
    }
  }

  /** Keeps an input that changes nothing while the journal has not started (see the module docstring). */
  private lead(entry: JournalEntry): void {
    if (this.leadIn.length >= LEAD_IN_MAX) this.leadIn = [];
    if (this.leadIn.length === 0) this.leadInCursors = this.cursorsByKey();
    this.leadIn.push(entry);
  }

  /**
   * Starts the journal from the kit folder file (which holds every input up to `fileSeq`): the lead-in's input is
   * written first, the snapshot's cursors those from before it.
   */
  private begin(): boolean {
    const format = this.format();
    const writer = this.host.writer();
    if (!format || !writer || !existsSync(this.host.path())) return false;
    // A journal left by an earlier opening of this document (not stored yet) is kept beside, for the next start.
    if (existsSync(this.opts.dir)) renameSync(this.opts.dir, `${this.opts.dir}-${Date.now()}`);
    this.meta = {
      version: 1,
      wopiSrc: this.host.wopiSrc(),
      fileName: this.host.fileName(),
      format,
      token: writer.token,
      tokenTtl: writer.tokenTtl,
      lastModifiedTime: this.host.lastModifiedTime(),
      views: [...this.keys.values()],
      createdAt: Date.now(),
    };
    this.snapshotSeq = this.fileSeq;
    const leadIn = this.leadIn.filter((e) => e.s > this.fileSeq);
    const cursors = leadIn.length > 0 && this.leadInCursors ? this.leadInCursors : this.cursorsByKey();
    this.leadIn = [];
    this.leadInCursors = undefined;
    this.entries = [];
    this.store.create(this.meta, this.host.path(), this.fileSeq, cursors, true);
    for (const e of leadIn) {
      this.entries.push(e);
      this.store.append(e);
    }
    this.host.log.debug({ dir: this.opts.dir, leadIn: leadIn.length }, 'edit journal started');
    return true;
  }

  /**
   * LibreOffice's ModifiedStatus changed. Becoming modified is a change made by the input sent so far (a click on a
   * check box, a drag of the fill handle: input that isModifyingEvent does not count): a journal not started yet
   * starts, holding the lead-in.
   */
  modifiedChanged(modified: boolean): void {
    const was = this.docModified;
    this.docModified = modified;
    if (!modified || was || this.disabled) return;
    this.changeSeq = this.seq;
    if (this.store.open || this.leadIn.length === 0) return;
    try {
      if (this.begin()) {
        this.noteMeta();
        this.armSnapshot();
      }
    } catch (e) {
      this.disabled = true;
      this.host.log.error({ err: (e as Error).message, dir: this.opts.dir }, 'the edit journal could not be written; this document is no longer journaled');
    }
  }

  /**
   * Keeps meta.json's token that of the view whose token uploads (never logged), and its LastModifiedTime the
   * stored file's as the saves know it (it moves with our own uploads, a conflict's overwrite, a rename).
   */
  private noteMeta(): void {
    const w = this.host.writer();
    const time = this.host.lastModifiedTime();
    if (!this.meta || !w || (w.token === this.meta.token && w.tokenTtl === this.meta.tokenTtl && time === this.meta.lastModifiedTime)) return;
    this.meta.token = w.token;
    this.meta.tokenTtl = w.tokenTtl;
    this.meta.lastModifiedTime = time;
    this.store.writeMeta(this.meta);
  }

  /**
   * The journal as on disk (its snapshot, views and input), for a rebuild in a kit of its own (journal-rebuild.ts);
   * undefined when it holds nothing the host lacks or cannot be read back.
   */
  readBack(): StoredJournal | undefined {
    return this.store.open ? JournalStore.read(this.opts.dir) : undefined;
  }

  /** The input number a save made now holds (called right before the kit's `.uno:Save` is sent). */
  cut(): number {
    return this.seq;
  }

  /** The kit wrote its folder file holding the input up to `cut`. */
  saved(cut: number): void {
    this.fileSeq = Math.max(this.fileSeq, cut);
    // The lead-in starts again after the file: its cursors were from before input the file now holds.
    if (this.leadIn.some((e) => e.s <= this.fileSeq)) this.leadIn = [];
  }

  /**
   * The host stored a save holding the input up to `cut`, and its LastModifiedTime is now `lastModifiedTime`: with
   * no change after `cut` (input after it only moved the cursors) the journal is deleted; otherwise it builds on the
   * new stored file's time. `inEdit` (a spreadsheet's idle save entered a cell being edited and put it back into edit
   * mode, issue 16): the journal is kept even so, its snapshot from before that cell's edit, because its replay types
   * the cell's text from the edit's first key (the kit's re-entry, F2, is not input): a journal started after the
   * save would type the rest of the text into the entered cell, replacing it. `storedAll` deletes it at the close.
   */
  uploaded(cut: number, lastModifiedTime: string | undefined, inEdit = false): void {
    this.storedSeq = Math.max(this.storedSeq, cut);
    if (!this.store.open || !this.meta) return;
    if (cut >= this.changeSeq && cut >= 0 && !inEdit) {
      this.remove('edit journal cleared: the stored file holds everything');
      return;
    }
    this.meta.lastModifiedTime = lastModifiedTime ?? this.meta.lastModifiedTime;
    this.store.writeMeta(this.meta);
  }

  /**
   * The document unloads and the host holds what LibreOffice has (not modified, nothing typed since the last upload,
   * no upload pending or failed): the journal is deleted unless an input after the stored file's may have changed
   * the document (a cell's text typed but not entered is not "modified" in LibreOffice: its journal is kept).
   */
  storedAll(): void {
    this.leadIn = [];
    if (this.store.open && this.inputChangeSeq <= this.storedSeq) this.remove('edit journal cleared: the document closed unchanged since its last upload');
  }

  private remove(why: string): void {
    clearTimeout(this.snapshotTimer);
    this.store.remove();
    this.entries = [];
    this.meta = undefined;
    this.host.log.debug(why);
  }

  /**
   * A save holding the input up to `cut` was kept as a recovery copy (the daemon stops before the host took it):
   * with no change after `cut` the journal is deleted, the copy holds it all (recovery.ts uploads it at the next start).
   */
  copied(cut: number): void {
    if (!this.store.open || cut < 0 || cut < this.changeSeq) return;
    this.remove('edit journal cleared: the recovery copy of the exit save holds everything');
  }

  /** The stored file was replaced or reloaded (the kit's copy discarded): the journal goes. */
  discard(): void {
    clearTimeout(this.snapshotTimer);
    this.store.remove();
    this.entries = [];
    this.meta = undefined;
    this.leadIn = [];
    this.fileSeq = this.storedSeq = this.seq;
    this.docModified = false;
  }

  /** The document closes: an unstored journal stays on disk for the next start (recovery.ts). */
  close(): void {
    clearTimeout(this.snapshotTimer);
    if (this.store.open) {
      this.store.close();
      this.host.log.warn({ dir: this.opts.dir }, 'the document closed with input the host does not have: its journal is kept and recovered at the next start');
    }
  }

  /** A LibreOffice callback: keeps each view's cursor and part (for the cursors of the next snapshot). */
  callback(viewId: number, type: number, payload: string): void {
    if (type === CB_SET_PART) {
      const part = Number(payload);
      if (Number.isInteger(part)) this.parts.set(viewId, part);
      return;
    }
    if (type !== CB_VISIBLE_CURSOR && type !== CB_CELL_CURSOR) return;
    let text = payload;
    if (type === CB_VISIBLE_CURSOR && payload.startsWith('{')) {
      try {
        const j = JSON.parse(payload) as { rectangle?: unknown; viewId?: unknown };
        if (j.viewId !== undefined && Number(j.viewId) !== viewId) return;
        text = String(j.rectangle ?? '');
      } catch {
        return;
      }
    }
    const n = text.split(',').map((s) => Number(s.trim()));
    if (n.length < 4 || n.slice(0, 4).some((x) => !Number.isFinite(x))) return;
    this.cursors.set(viewId, { part: this.parts.get(viewId) ?? 0, rect: [n[0]!, n[1]!, n[2]!, n[3]!], ...(type === CB_CELL_CURSOR ? { cell: true } : {}) });
  }

  /** The cursors of the views now, by journal view key. */
  private cursorsByKey(): Record<string, JournalCursor> {
    const out: Record<string, JournalCursor> = {};
    for (const [view, jv] of this.keys) {
      const c = this.cursors.get(view.viewId);
      if (c) out[String(jv.key)] = c;
    }
    return out;
  }

  private armSnapshot(): void {
    if (this.entries.length >= SNAPSHOT_AFTER_ENTRIES) return void this.snapshot();
    clearTimeout(this.snapshotTimer);
    // Input that changed nothing since the last snapshot (clicks, arrows) is replayed instead: no copy is written.
    this.snapshotTimer = setTimeout(() => void (this.changedSinceSnapshot && this.snapshot()), this.opts.snapshotMs);
    this.snapshotTimer.unref();
  }

  /**
   * Takes a snapshot now: the kit writes a copy in input order (later input waits for it), which replaces the
   * journal's snapshot; the input it holds leaves events.jsonl. A failure keeps the older snapshot (logged).
   */
  async snapshot(): Promise<void> {
    const kit = this.host.kit();
    const format = this.format();
    if (this.snapshotting || !kit || !format || !this.store.open || !this.host.live() || this.entries.length === 0) return;
    if (this.host.cellEditing?.()) {
      // Tried again later (the replay after a crash grows meanwhile; the edit of one cell is short).
      clearTimeout(this.snapshotTimer);
      this.snapshotTimer = setTimeout(() => void (this.changedSinceSnapshot && this.snapshot()), this.opts.snapshotMs);
      this.snapshotTimer.unref();
      return;
    }
    this.snapshotting = true;
    clearTimeout(this.snapshotTimer);
    const cut = this.seq;
    const changed = this.changedSinceSnapshot;
    this.changedSinceSnapshot = false;
    const out = join(kit.dir, `journal-snapshot.${format}`);
    const started = Date.now();
    try {
      await kit.exportDoc(out, format, undefined, { inOrder: true });
      if (!this.store.open || this.host.kit() !== kit) return;
      this.entries = this.entries.filter((e) => e.s > cut);
      this.snapshotSeq = cut;
      this.store.replaceSnapshot(out, cut, format, this.cursorsByKey(), this.entries);
      this.host.log.debug({ seq: cut, ms: Date.now() - started }, 'journal snapshot');
    } catch (e) {
      this.changedSinceSnapshot ||= changed;
      this.host.log.warn({ err: (e as Error).message }, 'journal snapshot failed; the older snapshot and its input are kept');
    } finally {
      this.snapshotting = false;
    }
  }

  /**
   * Rebuilds the document in `kit` (a fresh one; the old kit died): opens a copy of the snapshot as `input` with
   * `open` (the first view's request), creates the other views, sets the cursors, and replays every input since the
   * snapshot, including input journaled while this ran. Returns each view's new id and the path of the opened copy.
   * @throws the kit's load and view errors; undefined when there is no journal (nothing unstored).
   */
  async rebuildInto(
    kit: EditingKit,
    views: readonly ViewHandle[],
    open: (input: string, first: ViewHandle) => Promise<{ viewId: number }>,
    createView: (view: ViewHandle) => Promise<{ viewId: number }>,
  ): Promise<{ path: string; viewIds: Map<ViewHandle, number>; replayed: number } | undefined> {
    if (!this.store.open || !this.meta) return undefined;
    const stored = JournalStore.read(this.opts.dir);
    if (!stored) return undefined;
    const path = join(kit.dir, `document.${this.meta.format}`);
    copyFileSync(stored.snapshotPath, path);
    const viewIds = new Map<ViewHandle, number>();
    const byKey = new Map<number, number>();
    const [first, ...others] = views;
    if (!first) return undefined;
    viewIds.set(first, (await open(path, first)).viewId);
    for (const v of others) viewIds.set(v, (await createView(v)).viewId);
    for (const [v, id] of viewIds) byKey.set(this.keyOf(v).key, id);
    // Views that left since the snapshot replay their input in a view of their own, closed afterwards.
    const temporary: number[] = [];
    for (const jv of this.meta.views) {
      if (byKey.has(jv.key)) continue;
      const { viewId } = await kit.createView({ userName: jv.userName, userId: jv.userId, lang: jv.lang, timezone: jv.timezone });
      byKey.set(jv.key, viewId);
      temporary.push(viewId);
    }
    const { events } = await replay(kit, () => this.entries, byKey, stored.snapshot.cursors);
    for (const id of temporary) await kit.destroyView(id).catch(() => undefined);
    this.fileSeq = this.snapshotSeq;
    return { path, viewIds, replayed: events };
  }
}

/**
 * Replays journaled input into `kit`: first each view's cursor (a setPart and a click where it was), then every
 * entry `entries()` returns, in order, in the view its key maps to (`views`: journal key -> LibreOffice view id).
 * `entries` is read again after each await, so input journaled meanwhile is replayed too. Pastes are awaited.
 */
export async function replay(
  kit: EditingKit,
  entries: () => readonly JournalEntry[],
  views: ReadonlyMap<number, number>,
  cursors: Record<string, JournalCursor>,
): Promise<{ events: number }> {
  for (const [key, c] of Object.entries(cursors)) {
    const viewId = views.get(Number(key));
    if (viewId === undefined) continue;
    if (c.part) kit.sendEvent(viewId, { type: 'setPart', part: c.part });
    const [x, y, w, h] = c.rect;
    const at = { x: Math.round(c.cell ? x + w / 2 : x), y: Math.round(y + h / 2), count: 1, buttons: 1, modifier: 0 };
    kit.sendEvent(viewId, { type: 'mouse', event: 'buttondown', ...at });
    kit.sendEvent(viewId, { type: 'mouse', event: 'buttonup', ...at });
  }
  let i = 0;
  let events = 0;
  let lastView: number | undefined;
  for (;;) {
    const list = entries();
    if (i >= list.length) break;
    const e = list[i++]!;
    const viewId = views.get(e.v);
    if (viewId === undefined) continue;
    events++;
    // Keys of two views posted back to back can run in the wrong view (LibreOffice runs posted keys later, in the
    // view current then): when the view changes, the earlier view's input is let through first.
    if (lastView !== undefined && viewId !== lastView) await settled(kit, 40, 2000);
    lastView = viewId;
    if ('paste' in e) await kit.paste(viewId, e.paste.mimeType, Buffer.from(e.paste.data, 'base64'));
    else kit.sendEvent(viewId, e.e);
  }
  return { events };
}

/**
 * Resolves once `kit` sent no LibreOffice callback for `quietMs` (at most `maxMs`): the posted input replayed
 * before has then been processed (LibreOffice runs posted keys later, and a save runs at once), so a save made
 * next holds it all.
 */
export function settled(kit: EditingKit, quietMs = 300, maxMs = 15_000): Promise<void> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout;
    const done = () => {
      clearTimeout(timer);
      clearTimeout(cap);
      kit.off('callback', onCallback);
      resolve();
    };
    const onCallback = () => {
      clearTimeout(timer);
      timer = setTimeout(done, quietMs);
    };
    const cap = setTimeout(done, maxMs);
    timer = setTimeout(done, quietMs);
    kit.on('callback', onCallback);
  });
}
