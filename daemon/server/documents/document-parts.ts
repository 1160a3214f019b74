/**
 * Keeps the views' part lists true (editor.md `documentSize`, `part`): slides, pages or sheets may be added,
 * removed, moved or renamed by a command or a callback, and LibreOffice does not always say so (7.4 nor 25.2: a
 * moved slide changes the views' parts with only DOCUMENT_SIZE_CHANGED, test/kit-editing/slide-move.test.ts). After
 * a size or part callback, or a command that may change the parts, the parts are read again from the kit
 * (debounced: one read for a burst) and every view is told its size, the parts and where it is now.
 */
import type { Logger } from 'pino';
import type { ServerMessage } from '../../protocol/editor.ts';
import type { EditingKit, OpenedDocument } from './editing-kit.ts';
import type { TileCache } from './tile-cache.ts';
import type { ViewHandle } from './view-handle.ts';

/** How long after a size or part callback the parts are read again (ms): a burst of callbacks makes one read. */
const PARTS_DEBOUNCE_MS = 30;
/** Commands that may rename a sheet without changing the document's size (no callback tells): read the part names again. */
const RENAME_COMMANDS = /^\.uno:(Name|RenameTable)(\?|$)/;
/**
 * Impress' view modes, whose state changes when a view enters or leaves them: the view's size and edit mode change
 * (the notes page is portrait; LibreOffice 25.2 says so with a state change, not always a size callback).
 */
const VIEW_MODE_STATES = /^\.uno:(NotesMode|NormalMultiPaneGUI|SlideMasterPage|NotesMasterPage|HandoutMode)$/;
/** UNO commands that may add, remove or move slides, pages or sheets (their part numbers change). */
const PART_COMMANDS =
  /^\.uno:(InsertPage|InsertSlide|DuplicatePage|DuplicateSlide|DeletePage|DeleteSlide|MovePage(First|Up|Down|Last)|Insert|Remove|Move|DuplicateSheet|InsertSheet|DeleteSheet|Undo|Redo)(\?|$)/;

/** What the parts refresh needs from its document. */
export interface PartsHost {
  /** The document's kit now (undefined while none: a read started with another kit is dropped). */
  kit(): EditingKit | undefined;
  /** What the kit's `open` reported; updated in place with the fresh parts and size. */
  info(): OpenedDocument | undefined;
  /** True while the document is live (reads are only made then). */
  live(): boolean;
  readonly views: ReadonlySet<ViewHandle>;
  readonly tiles: TileCache;
  broadcast(msg: ServerMessage): void;
  readonly log: Logger;
}

/** The debounced parts read of one document. */
export class PartsRefresh {
  private timer: NodeJS.Timeout | undefined;
  private reordered = false;

  constructor(private readonly host: PartsHost) {}

  /** A UNO command was sent to the kit: read the parts again when it may add, remove, move or rename some. */
  afterCommand(command: string): void {
    if (PART_COMMANDS.test(command)) this.refresh(true);
    else if (RENAME_COMMANDS.test(command)) this.refresh(false);
  }

  /**
   * Reads the parts again after `PARTS_DEBOUNCE_MS` and sends every view `documentSize` with the fresh `parts` and
   * `partNames`. When the parts changed (count or names), or `reordered` (a command that may move, add or remove
   * parts ran), every cached tile of a multi-part document is dropped and the views told so: part numbers now name
   * other slides or sheets.
   */
  refresh(reordered: boolean): void {
    if (reordered) this.reordered = true;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.read(), PARTS_DEBOUNCE_MS);
    this.timer.unref();
  }

  /** A state of a view changed (`stateChanged`): when a view entered or left a view mode, read its size and mode again. */
  afterState(command: string): void {
    if (VIEW_MODE_STATES.test(command)) this.refresh(false);
  }

  /** Cancels a pending read (the document closes). */
  stop(): void {
    clearTimeout(this.timer);
  }

  private async read(): Promise<void> {
    const { host } = this;
    const kit = host.kit();
    const info = host.info();
    if (!kit || !info || !host.live()) return;
    const reordered = this.reordered;
    this.reordered = false;
    // Each view's own size (a spreadsheet's views may be on sheets of different sizes).
    const read = await Promise.all(
      [...host.views].map((v) =>
        kit.docInfo(v.viewId).then(
          (d) => ({ v, d }),
          (e: Error) => (host.log.debug({ err: e.message }, 'docInfo failed'), undefined),
        ),
      ),
    );
    const got = read.filter((r) => r !== undefined);
    if (host.kit() !== kit || got.length === 0) return;
    const now = got[0].d;
    const changed = now.parts !== info.parts || now.partNames.some((n, i) => n !== info.partNames[i]);
    Object.assign(info, { parts: now.parts, partNames: now.partNames, width: now.width, height: now.height });
    if ((changed || reordered) && info.docType !== 0) {
      host.tiles.invalidate(-1, 0, 0, 0, 0, true);
      host.broadcast({ type: 'invalidate', part: -1, x: 0, y: 0, width: 0, height: 0, all: true });
    }
    for (const { v, d } of got) {
      if (!host.views.has(v)) continue;
      v.send({ type: 'documentSize', width: d.width, height: d.height, parts: now.parts, partNames: now.partNames, mode: d.mode });
      // LibreOffice (7.4 and 25.2) moves a slide without SET_PART, in the view that moved it and in the others whose
      // slide number changed (test/kit-editing/slide-move.test.ts): tell each view where it is now.
      if (info.docType !== 0) v.send({ type: 'part', part: d.part });
    }
  }
}
