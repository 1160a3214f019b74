/**
 * Recovery copies offered to a document's users (issue 17, item 8; docs/reliability.md, "Recovery copies offered to
 * users"). A copy the restarted daemon could not store (the stored file changed meanwhile, the token expired, the
 * host refused it) is pending in `<state_dir>/recovery/pending/` (recovery.ts). When its document is open, every
 * view that may change it gets `recoveryOffer` (editor.md) when it joins and whenever the list changes, and the user
 * chooses (`recoveryChoice`):
 *
 * | choice    | what the host gets                                                                 | then |
 * |-----------|------------------------------------------------------------------------------------|------|
 * | `restore` | PutFile of the copy without X-ODE-WOPI-Timestamp (spec rule 4, "overwrite"), with our lock: the stored version it replaces stays in the host's version history | the copy is deleted; every view reloads the document (`reloaded`) |
 * | `saveAs`  | PutRelativeFile `<name> (recovered <date>).<ext>` (refused with UserCanNotWriteRelative) | the copy is deleted; the document stays as it is |
 *
 * Restoring while the document has unsaved changes is refused (`recovery_unsaved`): it would replace them. A copy is
 * deleted only once the host answered 2xx (recovery.ts `release`). As Collabora Online's document-conflict dialog,
 * the user is asked; unlike Collabora, which keeps no edits across a crash, the edits are those of the last session.
 */
import { extname } from 'node:path';
import type { RecoveryChoice, ServerMessage } from '../../protocol/editor.ts';
import type { WopiClient } from '../wopi/wopi-client.ts';
import { WopiError } from '../wopi/wopi-error.ts';
import type { WopiSrc } from '../wopi/wopi-src.ts';
import type { RecoveryCopy, RecoveryOffers } from './recovery.ts';
import { mayStore, type ViewHandle } from './view-handle.ts';
import type { Logger } from 'pino';

/** What the offer needs from its document. */
export interface RecoveryOfferHost {
  readonly client: WopiClient;
  readonly src: WopiSrc;
  readonly views: ReadonlySet<ViewHandle>;
  /** Our WOPI lock (X-WOPI-Lock of the restore's PutFile). */
  lock(): string | undefined;
  /** Unsaved changes, or a save not uploaded yet. */
  unsaved(): boolean;
  /** No view may change the document (the host refused its size, or another application locks it). */
  readOnlyForAll(): boolean;
  /** True while the document is live in its kit. */
  live(): boolean;
  /** Loads the stored document again; every view gets `reloaded` and its status. */
  reload(): Promise<void>;
  readonly log: Logger;
}

type Result = Extract<ServerMessage, { type: 'recoveryResult' }>;

/** The name of a copy saved beside its document: `<stem> (recovered YYYY-MM-DD HHMM).<ext>` (UTC). */
export function recoveredName(fileName: string, createdAt: number): string {
  const ext = extname(fileName);
  const stem = fileName.slice(0, fileName.length - ext.length) || 'document';
  const d = new Date(createdAt).toISOString();
  return `${stem} (recovered ${d.slice(0, 10)} ${d.slice(11, 13)}${d.slice(14, 16)})${ext}`;
}

/** One document's side of the recovery copies: the offer to its views and the users' choices. */
export class DocumentRecoveryOffer {
  constructor(
    private readonly host: RecoveryOfferHost,
    private readonly offers: RecoveryOffers | undefined,
  ) {}

  /**
   * Sends `recoveryOffer` with the document's pending copies to each of `views` that may change the document; with
   * `evenEmpty` also when there are none (the list changed: the editor hides its banner).
   */
  tell(views: Iterable<ViewHandle>, evenEmpty: boolean): void {
    if (!this.offers) return;
    const copies = this.offers.offersFor(this.host.src.key);
    if (copies.length === 0 && !evenEmpty) return;
    for (const v of views) {
      if (!mayStore(v)) continue;
      v.send({ type: 'recoveryOffer', copies: copies.map(offerOf), canSaveAs: v.fileInfo.UserCanNotWriteRelative !== true });
    }
  }

  /** A user's choice for copy `id` (see the module docstring); answered with `recoveryResult` to `view`. */
  async choose(view: ViewHandle, id: string, choice: RecoveryChoice): Promise<void> {
    const { host } = this;
    const answer = (r: Omit<Result, 'type' | 'id' | 'choice'>) => view.send({ type: 'recoveryResult', id, choice, ...r });
    const refuse = (code: string, message: string) => answer({ ok: false, error: { code, message } });
    if (!this.offers) return refuse('recovery_gone', 'No recovery copy is kept by this daemon.');
    if (!mayStore(view) || host.readOnlyForAll()) return refuse('readonly', 'This document is open read-only for you.');
    if (choice === 'saveAs' && view.fileInfo.UserCanNotWriteRelative)
      return refuse('forbidden', 'Save As is not allowed for this document (UserCanNotWriteRelative).');
    if (choice === 'restore' && (host.unsaved() || !host.live()))
      return refuse('recovery_unsaved', 'This document has unsaved changes: save them before restoring the recovered copy, or save the copy as a new file.');
    const claimed = this.offers.claim(id, host.src.key);
    if (!claimed) return refuse('recovery_gone', 'This recovered copy is no longer waiting: it was stored already.');
    const { bytes, copy } = claimed;
    try {
      if (choice === 'restore') {
        await host.client.putFile(host.src, view.token, bytes, { isModifiedByUser: true, isAutosave: false, isExitSave: false, lock: host.lock() });
        this.offers.release(id, true);
        host.log.warn({ copy: id, bytes: bytes.length }, 'a user restored a recovery copy as the new version of the document');
        answer({ ok: true });
        await host.reload();
        return;
      }
      const r = await host.client.putRelativeFile(host.src, view.token, bytes, recoveredName(copy.fileName, copy.createdAt));
      this.offers.release(id, true);
      host.log.warn({ copy: id, bytes: bytes.length }, 'a user saved a recovery copy as a new file');
      answer({ ok: true, name: typeof r.Name === 'string' ? r.Name : undefined, url: typeof r.Url === 'string' ? r.Url : undefined });
    } catch (e) {
      this.offers.release(id, false);
      answer({ ok: false, error: { code: e instanceof WopiError ? e.kind : 'failed', message: (e as Error).message } });
    }
  }
}

/** A pending copy as the editor sees it (no path, no host, no token). */
function offerOf(c: RecoveryCopy): { id: string; fileName: string; createdAt: number; bytes: number; reason: string } {
  return { id: c.id, fileName: c.fileName, createdAt: c.createdAt, bytes: c.bytes, reason: c.state };
}
