/**
 * Loading a document (the `opening` state of edit-document.ts, and again on `reloading`): the first view's settings
 * go into a leased kit's profile before LibreOffice starts (kit.md, "Settings"), the file is downloaded into the kit
 * folder (download.ts: GetFile, or TemplateSource), the saves get their Uploader, a template becomes the document and
 * is stored at once, and the kit loads it. The first view is told the stages (`loading` download, load).
 *
 * The whole load (waiting for a kit, settings, download, template, LibreOffice's load) ends within
 * `limits.load_secs`: a kit that comes after the limit is retired at once, and the load fails with `timeout`
 * (issue 16: under CPU load a document waited without end for a kit and never reported Document_Loaded).
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
import { OdeError } from '../errors.ts';
import { kitOpenRequest } from './view-status.ts';

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
  const limitSecs = host.deps.config().limits.load_secs;
  const deadline = Date.now() + limitSecs * 1000;
  const within = <T>(work: Promise<T>, what: string, late?: (value: T) => void) =>
    withinDeadline(work, deadline, `The document could not be loaded within ${limitSecs} s (limits.load_secs): ${what} took too long.`, late);
  first.send({ type: 'loading', stage: 'download' });
  // One LibreOffice per document, so the first view's settings are the document's.
  const settings = await within(Promise.resolve(host.deps.settings?.(first.fileInfo, first.token)), 'reading the settings');
  host.leased(await within(pool.leaseEditingKit(settings ? { settings } : undefined), 'waiting for a LibreOffice process', (kit) => pool.retireKit(kit)));
  const got = await within(downloadDocument(client, src, first.token, first.fileInfo, `${host.kit()!.dir}/document`), 'the download (GetFile)');
  host.downloaded(got.path, first.fileInfo.BaseFileName);
  saves.downloaded(
    new Uploader(
      client,
      src,
      host.deps.recoveryDir,
      first.fileInfo.BaseFileName,
      host.log,
      { firstMs: 500, maxMs: host.deps.config().documents.upload_retry_max_secs * 1000 },
      (e, wait) =>
        host.broadcast({
          type: 'storage',
          state: 'retrying',
          message: `The document could not be saved to its storage (${e.message}); trying again in ${Math.round(wait / 1000)} s. Nothing is lost.`,
        }),
    ),
    first.fileInfo.LastModifiedTime,
  );
  if (got.templatePath) {
    // TemplateSource: create the document from the template, and store it at once (PutFile, no timestamp).
    await host.deps.convertTemplate(got.templatePath, got.path);
    const r = await saves.timedUpload({ bytes: readFileSync(got.path), token: first.token, isModifiedByUser: false, isAutosave: false, isExitSave: false });
    if (!r.ok) throw r.error;
    saves.storedTimeIs(r.lastModifiedTime);
  }
  first.send({ type: 'loading', stage: 'load' });
  const limits = host.deps.config().limits;
  const left = deadline - Date.now();
  if (left <= 0) throw new OdeError('timeout', `The document could not be loaded within ${limitSecs} s (limits.load_secs).`);
  // A reload of a document read-only for everyone loads it read-only (document-saving.ts readOnlyForAll).
  return host.kit()!.open(kitOpenRequest(first, got.path, saves.readOnlyForAll), { loadMs: left, convertMs: limits.convert_secs * 1000 });
}

/**
 * `work`, or OdeError `timeout` with `message` when `deadline` (ms since the epoch) passes first; a value that
 * arrives after that goes to `late` (e.g. a leased kit is retired), a late failure is dropped.
 */
function withinDeadline<T>(work: Promise<T>, deadline: number, message: string, late?: (value: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    const timer = setTimeout(() => ((expired = true), reject(new OdeError('timeout', message))), Math.max(0, deadline - Date.now()));
    work.then(
      (v) => (expired ? late?.(v) : (clearTimeout(timer), resolve(v))),
      (e: unknown) => (expired ? undefined : (clearTimeout(timer), reject(e))),
    );
  });
}
