/**
 * Loading a document (the `opening` state of edit-document.ts, and again on `reloading`): the first view's settings
 * go into a leased kit's profile before LibreOffice starts (kit.md, "Settings"), the file is downloaded into the kit
 * folder (download.ts: GetFile, or TemplateSource), the saves get their Uploader, a template becomes the document and
 * is stored at once, and the kit loads it. The first view is told the stages (`loading` download, load).
 */
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { ServerMessage } from '../../protocol/editor.ts';
import type { DocumentSaving } from './document-saving.ts';
import { downloadDocument } from './download.ts';
import type { DocumentDeps } from './edit-document.ts';
import type { EditingKit, OpenedDocument } from './editing-kit.ts';
import { Uploader } from './uploader.ts';
import type { ViewHandle } from './view-handle.ts';
import { watermarkOf } from './view-status.ts';

/** What loading needs from its document. */
export interface LoadingHost {
  readonly deps: Pick<DocumentDeps, 'client' | 'src' | 'pool' | 'config' | 'recoveryDir' | 'convertTemplate' | 'settings'>;
  readonly saves: DocumentSaving;
  readonly log: Logger;
  broadcast(msg: ServerMessage): void;
  /** The document's kit now (undefined once it died). */
  kit(): EditingKit | undefined;
  /** A kit was leased for the document: it becomes the document's kit (retired by the document if loading fails). */
  leased(kit: EditingKit): void;
  /** The document is in the kit folder at `path`; `fileName` is the first view's BaseFileName. */
  downloaded(path: string, fileName: string): void;
}

/**
 * Loads the document for `first` into a new kit, as the first view's LibreOfficeKit view.
 * @returns what the kit's `open` reported (type, parts, size, the first view's id).
 * @throws WopiError from the host, the kit's load errors, and the template's conversion errors.
 */
export async function loadDocument(host: LoadingHost, first: ViewHandle): Promise<OpenedDocument> {
  const { client, src, pool } = host.deps;
  const { saves } = host;
  first.send({ type: 'loading', stage: 'download' });
  // One LibreOffice per document, so the first view's settings are the document's.
  const settings = await host.deps.settings?.(first.fileInfo, first.token);
  host.leased(await pool.leaseEditingKit(settings ? { settings } : undefined));
  const got = await downloadDocument(client, src, first.token, first.fileInfo, `${host.kit()!.dir}/document`);
  host.downloaded(got.path, first.fileInfo.BaseFileName);
  saves.lastModifiedTime = first.fileInfo.LastModifiedTime;
  saves.uploader = new Uploader(client, src, host.deps.recoveryDir, first.fileInfo.BaseFileName, host.log, { firstMs: 500, maxMs: host.deps.config().documents.upload_retry_max_secs * 1000 }, (e, wait) =>
    host.broadcast({ type: 'storage', state: 'retrying', message: `The document could not be saved to its storage (${e.message}); trying again in ${Math.round(wait / 1000)} s. Nothing is lost.` }),
  );
  if (got.templatePath) {
    // TemplateSource: create the document from the template, and store it at once (PutFile, no timestamp).
    await host.deps.convertTemplate(got.templatePath, got.path);
    const r = await saves.timedUpload({ bytes: readFileSync(got.path), token: first.token, isModifiedByUser: false, isAutosave: false, isExitSave: false });
    if (!r.ok) throw r.error;
    saves.lastModifiedTime = r.lastModifiedTime ?? saves.lastModifiedTime;
  }
  first.send({ type: 'loading', stage: 'load' });
  const limits = host.deps.config().limits;
  return host.kit()!.open({ input: got.path, lang: first.lang, readOnly: first.readonly, commentsOnly: first.commentsOnly, timezone: first.timezone, deviceFormFactor: first.deviceFormFactor, watermarkText: watermarkOf(first.fileInfo) }, { loadMs: limits.load_secs * 1000, convertMs: limits.convert_secs * 1000 });
}
