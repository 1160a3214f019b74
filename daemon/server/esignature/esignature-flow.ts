/**
 * One view's electronic signature of its PDF (docs/esignature.md; CheckFileInfo ServerPrivateInfo.ESignature*).
 *
 * | state     | entered when                                          | leaves to                                  |
 * |-----------|-------------------------------------------------------|--------------------------------------------|
 * | idle      | created; a flow ended                                 | preparing (`eSignatureStart`)              |
 * | preparing | the PDF is being sent to the provider                 | signing, idle (failed)                     |
 * | signing   | `eSignature` `signing` sent with the provider's URL   | storing (signed), idle (refused, timed out, cancelled, view closed) |
 * | storing   | the signed PDF came back: PutFile, then every view reloads it | idle (`signed`, or failed: the stored file is unchanged) |
 *
 * The provider's credentials stay here: the editor only ever gets the signing page's URL and the outcome.
 */
import type { Logger } from 'pino';
import type { ServerMessage } from '../../protocol/editor.ts';
import type { FileInfo } from '../wopi/check-file-info.ts';
import { ProviderError, downloadSigned, prepareSigning, type ProviderCredentials } from './provider-client.ts';

/** What the flow needs of the document (implemented by documents/edit-document.ts). */
export interface SignableDocument {
  /** The document's file as last downloaded or saved (a PDF's original bytes). */
  storedCopy(): Uint8Array;
  /** PutFile of `bytes` with the view's token, then every view reloads; resolves with the failure's message, or undefined. */
  replaceStored(view: SigningView, bytes: Uint8Array): Promise<string | undefined>;
}

/** What the flow needs of its view (sessions/view-session.ts). */
export interface SigningView {
  readonly fileInfo: FileInfo;
  readonly token: string;
  readonly lang: string | undefined;
  send(msg: ServerMessage): void;
}

/** Polling of the provider: interval and give-up time (config `esignature`). */
export interface SigningTiming {
  pollMs: number;
  timeoutMs: number;
}

/** ServerPrivateInfo's credentials when all three are there (spec: "when specified, electronic signing of PDF files is enabled"). */
export function eSignatureCredentials(info: FileInfo): ProviderCredentials | undefined {
  const p = info.ServerPrivateInfo ?? {};
  const ok = (s: unknown): s is string => typeof s === 'string' && s.trim() !== '';
  if (!ok(p.ESignatureBaseUrl) || !ok(p.ESignatureClientId) || !ok(p.ESignatureSecret) || !/^https?:\/\//.test(p.ESignatureBaseUrl)) return undefined;
  return { baseUrl: p.ESignatureBaseUrl, clientId: p.ESignatureClientId, secret: p.ESignatureSecret };
}

/** True when the view may use the Electronic signature item: a PDF, the three credentials. */
export function eSignatureAvailable(info: FileInfo): boolean {
  return /\.pdf$/i.test(info.BaseFileName) && eSignatureCredentials(info) !== undefined;
}

/** One view's flow (state table above). */
export class ESignatureFlow {
  private state: 'idle' | 'preparing' | 'signing' | 'storing' = 'idle';
  /** Bumped by cancel and dispose: a running poll loop whose generation is older stops. */
  private generation = 0;

  constructor(
    private readonly view: SigningView,
    private readonly doc: SignableDocument,
    private readonly timing: SigningTiming,
    private readonly log: Logger,
  ) {}

  /** `eSignatureStart`: runs the whole flow; every outcome reaches the editor as an `eSignature` message. */
  async start(): Promise<void> {
    const fail = (code: string, message: string) => this.view.send({ type: 'eSignature', state: 'failed', code, message });
    if (this.state !== 'idle') return fail('busy', 'An electronic signature is already in progress for this document.');
    const creds = eSignatureCredentials(this.view.fileInfo);
    if (!creds || !eSignatureAvailable(this.view.fileInfo))
      return fail(
        'not_available',
        'Electronic signatures are not set up for this document (a PDF with ServerPrivateInfo ESignatureBaseUrl, ESignatureClientId and ESignatureSecret).',
      );
    if (!this.view.fileInfo.UserCanWrite) return fail('readonly', 'You may not change this document, so it cannot be signed here.');
    const gen = ++this.generation;
    this.state = 'preparing';
    try {
      const prepared = await prepareSigning(creds, { name: this.view.fileInfo.BaseFileName, bytes: this.doc.storedCopy() }, this.view.lang);
      if (gen !== this.generation) return;
      this.state = 'signing';
      this.log.info({ docId: prepared.docId }, 'electronic signature: waiting for the user at the provider');
      this.view.send({ type: 'eSignature', state: 'signing', url: prepared.signingUrl });
      const deadline = Date.now() + this.timing.timeoutMs;
      for (;;) {
        await new Promise((r) => setTimeout(r, this.timing.pollMs));
        if (gen !== this.generation) return;
        if (Date.now() > deadline) return fail('timeout', 'The signature was not completed in time. The document is unchanged; you can start again.');
        const outcome = await downloadSigned(creds, prepared.docId);
        if (gen !== this.generation) return;
        if (outcome.state === 'pending') continue;
        if (outcome.state === 'refused')
          return fail('refused', `The signing service did not sign the document: ${outcome.message}. The document is unchanged.`);
        this.state = 'storing';
        const error = await this.doc.replaceStored(this.view, outcome.bytes);
        if (error) return fail('storage', `The signed PDF could not be stored: ${error}. The document is unchanged.`);
        this.log.info({ docId: prepared.docId, bytes: outcome.bytes.length }, 'electronic signature: the signed PDF is stored');
        return this.view.send({ type: 'eSignature', state: 'signed' });
      }
    } catch (e) {
      if (gen !== this.generation) return;
      const message = (e as Error).message;
      this.log.warn({ err: message }, 'electronic signature failed');
      return fail(e instanceof ProviderError ? 'provider' : 'internal', `The electronic signature failed: ${message}. The document is unchanged.`);
    } finally {
      if (gen === this.generation) this.state = 'idle';
    }
  }

  /** `eSignatureCancel`: stops waiting for the provider (the stored document stays as it was). */
  cancel(): void {
    if (this.state === 'idle' || this.state === 'storing') return;
    this.generation++;
    this.state = 'idle';
    this.view.send({ type: 'eSignature', state: 'cancelled' });
  }

  /** The view closed: stop polling. */
  dispose(): void {
    this.generation++;
  }
}
