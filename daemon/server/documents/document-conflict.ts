/**
 * External change detection and conflicts (spec: external change detection rules 1-5). The stored file's
 * LastModifiedTime is compared with ours whenever a CheckFileInfo shows it (a view joins, and every
 * `documents.check_secs`): another time means the file changed elsewhere. Without unsaved changes the document
 * reloads; with, or when a PutFile was refused with 409/1010 (document-saving.ts keeps the refused bytes), the users
 * are told `conflict` and choose overwrite (one more PutFile without the timestamp) or reload.
 */
import type { Logger } from 'pino';
import type { ServerMessage } from '../../protocol/editor.ts';
import type { WopiClient } from '../wopi/wopi-client.ts';
import type { WopiSrc } from '../wopi/wopi-src.ts';
import type { DocumentSaving } from './document-saving.ts';
import type { DocumentState } from './edit-document.ts';
import type { ViewHandle } from './view-handle.ts';

/** What conflict handling needs from its document (besides its saves). */
export interface ConflictHost {
  readonly client: WopiClient;
  readonly src: WopiSrc;
  state(): DocumentState;
  readonly views: ReadonlySet<ViewHandle>;
  /** Our WOPI lock id, if we hold one (X-WOPI-Lock). */
  lock(): string | undefined;
  broadcast(msg: ServerMessage): void;
  /** Loads the stored document again (EditDocument.reload). */
  reload(): Promise<void>;
  readonly log: Logger;
}

/** The external change checks and conflict choice of one document. */
export class DocumentConflict {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly host: ConflictHost,
    private readonly saves: DocumentSaving,
  ) {}

  /**
   * A user's answer to a conflict (spec rule 4): overwrite uploads the refused bytes once more without the
   * timestamp; reload discards them and loads the stored document. Ignored without a pending conflict and from a
   * read-only view.
   */
  async resolve(view: ViewHandle, choice: 'overwrite' | 'reload'): Promise<void> {
    const { host, saves } = this;
    if (!saves.conflictBytes || view.readonly || !saves.uploader) return;
    const bytes = saves.takeConflict()!;
    if (choice === 'reload') return host.reload();
    const outcome = await saves.timedUpload({ bytes, token: view.token, isModifiedByUser: true, isAutosave: false, isExitSave: false, lock: host.lock() });
    if (outcome.ok) {
      saves.overwritten(outcome.lastModifiedTime);
      host.broadcast({ type: 'saved', ok: true, autosave: false, exitSave: false, lastModifiedTime: saves.lastModifiedTime });
    } else {
      saves.uploadFailed(outcome.error, bytes, { autosave: false, exitSave: false });
    }
  }

  /** The stored file's LastModifiedTime seen in a CheckFileInfo: another time than ours means it changed elsewhere. */
  noticeStoredTime(stored: string | undefined): void {
    const { host, saves } = this;
    if (!stored || !saves.lastModifiedTime || stored === saves.lastModifiedTime || host.state() !== 'live') return;
    host.log.info({ stored, ours: saves.lastModifiedTime }, 'the stored document changed elsewhere');
    if (saves.modified || saves.userChanged) {
      saves.conflictSeen();
      host.broadcast({ type: 'conflict', unsavedChanges: true });
    } else {
      void host.reload();
    }
  }

  /** Checks the stored file every `secs` (documents.check_secs; 0: never) with a CheckFileInfo of the first view. */
  startChecks(secs: number): void {
    const { host } = this;
    clearInterval(this.timer);
    if (secs <= 0) return;
    this.timer = setInterval(() => {
      const v = [...host.views][0];
      if (!v || host.state() !== 'live' || this.saves.conflictBytes) return;
      host.client.checkFileInfo(host.src, v.token).then(
        (info) => this.noticeStoredTime(info.LastModifiedTime),
        (e: Error) => host.log.debug({ err: e.message }, 'periodic CheckFileInfo failed'),
      );
    }, secs * 1000);
    this.timer.unref();
  }

  /** Stops the periodic checks (the document closes). */
  stop(): void {
    clearInterval(this.timer);
  }
}
