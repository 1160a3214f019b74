/**
 * Signing a document with the user's own certificate (editor.md `sign`, `signed`, `signatureState`): each view's
 * signing credentials come from its CheckFileInfo UserPrivateInfo (signing.ts) and never leave that view; the kit
 * signs the saved file in place, and the signed file is uploaded like an explicit save, queued with the saves
 * (document-saving.ts). Every view is told the stored file's signature state, as LibreOffice reads it after trusting
 * that view's own SignatureCa, and whether it may sign.
 */
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { DocumentSaving, SavingHost } from './document-saving.ts';
import { signatureStateName, signingCredentials, SigningCredentialsError, type SigningCredentials } from './signing.ts';
import type { ViewHandle } from './view-handle.ts';

/** What signing needs from its document (besides its saves): the saves' view of it, and a logger. */
export interface SigningHost extends Pick<SavingHost, 'state' | 'kit' | 'path' | 'lock' | 'views' | 'emit' | 'broadcast'> {
  readonly log: Logger;
}

/** The signing of one document, and each view's credentials. */
export class DocumentSigning {
  /** Each view's signing credentials (UserPrivateInfo, as DER), or why they are unusable; undefined: none given. Never leaves this view. */
  private readonly signers = new WeakMap<ViewHandle, SigningCredentials | SigningCredentialsError | undefined>();

  constructor(
    private readonly host: SigningHost,
    private readonly saves: DocumentSaving,
  ) {}

  /** The view's signing credentials (parsed once), or the reason they cannot be used; undefined when none were given. */
  private signerOf(view: ViewHandle): SigningCredentials | SigningCredentialsError | undefined {
    if (!this.signers.has(view)) {
      let creds: SigningCredentials | SigningCredentialsError | undefined;
      try {
        creds = signingCredentials(view.fileInfo.UserPrivateInfo);
      } catch (e) {
        creds = e instanceof SigningCredentialsError ? e : new SigningCredentialsError('the signing credentials cannot be read');
      }
      this.signers.set(view, creds);
    }
    return this.signers.get(view);
  }

  /** signatureState.canSign: the view has usable signing credentials, may change the document, and the kit can sign. */
  private canSign(view: ViewHandle): boolean {
    const creds = this.signerOf(view);
    return creds !== undefined && !(creds instanceof Error) && !view.readonly && !this.saves.readOnlyForAll && this.host.kit()?.signDoc !== undefined;
  }

  /**
   * Sends each of `views` the document's signature state (LibreOffice's, after trusting that view's own
   * SignatureCa) and whether that view may sign.
   */
  async tellState(views: ViewHandle[]): Promise<void> {
    const kit = this.host.kit();
    if (!kit?.signatureState || this.host.state() !== 'live') return;
    for (const view of views) {
      const creds = this.signerOf(view);
      try {
        const state = await kit.signatureState(view.viewId, creds && !(creds instanceof Error) ? creds.ca : []);
        if (this.host.views.has(view)) view.send({ type: 'signatureState', state: signatureStateName(state), canSign: this.canSign(view) });
      } catch (e) {
        this.host.log.debug({ err: (e as Error).message }, 'signatureState failed');
      }
    }
  }

  /**
   * Signs the document with the view's own certificate (editor.md `sign`), then uploads the signed file like an
   * explicit save. Queued with the saves. Refused (error `sign_unavailable`) for a view without usable credentials,
   * `readonly` for a view that may not change the document.
   */
  sign(view: ViewHandle): Promise<void> {
    return this.saves.enqueue(() => this.signNow(view));
  }

  private async signNow(view: ViewHandle): Promise<void> {
    const kit = this.host.kit();
    const creds = this.signerOf(view);
    const refuse = (code: string, message: string) => view.send({ type: 'signed', ok: false, error: { code, message } });
    if (!creds)
      return view.send({ type: 'error', code: 'sign_unavailable', message: 'You cannot sign this document: the host gave no signing certificate for you.' });
    if (creds instanceof Error) return view.send({ type: 'error', code: 'sign_unavailable', message: `You cannot sign this document: ${creds.message}.` });
    if (view.readonly || this.saves.readOnlyForAll)
      return view.send({ type: 'error', code: 'readonly', message: 'This document is open read-only for you: it cannot be signed.' });
    if (!kit?.signDoc || !this.saves.uploader || this.host.state() !== 'live') return refuse('no_kit', 'The document is not open.');
    if (this.saves.conflictBytes) return refuse('conflict', 'The stored document changed elsewhere: choose overwrite or reload first.');
    let state: number;
    const changes = this.saves.changes;
    try {
      // The changes go into the file first (LibreOffice would save them itself, outside our save's answer).
      await kit.saveDoc(view.viewId, true);
      state = (await kit.signDoc({ viewId: view.viewId, ...creds })).signatureState;
    } catch (e) {
      this.host.log.warn({ err: (e as Error).message }, 'signing failed');
      const code = (e as { code?: string }).code;
      return refuse(code === 'timeout' || code === 'kit_crashed' ? code : 'sign_failed', (e as Error).message);
    }
    this.saves.kitSaved();
    this.host.emit({ type: 'saved', ok: true, kind: 'explicit' });
    const bytes = readFileSync(this.host.path());
    const outcome = await this.saves.timedUpload({
      bytes,
      token: view.token,
      timestamp: this.saves.lastModifiedTime,
      isModifiedByUser: true,
      isAutosave: false,
      isExitSave: false,
      lock: this.host.lock(),
    });
    const meta = { autosave: false, exitSave: false };
    if (!outcome.ok) {
      this.saves.uploadFailed(outcome.error, bytes, meta);
      this.saves.noteModified();
      return refuse(outcome.error.kind, `The signed document could not be stored: ${outcome.error.message}`);
    }
    this.saves.stored(outcome.lastModifiedTime, changes);
    this.host.log.info({ bytes: outcome.bytes, state }, 'signed and uploaded');
    this.host.broadcast({ type: 'saved', ok: true, ...meta, lastModifiedTime: this.saves.lastModifiedTime });
    view.send({ type: 'signed', ok: true, state: signatureStateName(state) });
    await this.tellState([...this.host.views]);
    this.saves.noteModified();
  }
}
