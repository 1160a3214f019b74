import { extname } from 'node:path';
import type { ClientMessage } from '../../protocol/editor.ts';
import type { EditDocument } from '../documents/edit-document.ts';
import { OUTPUT_MIME_TYPES } from '../formats/tables.ts';
import type { WopiClient } from '../wopi/wopi-client.ts';
import { WopiError } from '../wopi/wopi-error.ts';
import type { WopiSrc } from '../wopi/wopi-src.ts';
import { SLIDESHOW_CSP, withExitHook } from './slideshow.ts';
import type { ViewSession } from './view-session.ts';

type ExportMessage = Extract<ClientMessage, { type: 'saveAs' | 'rename' | 'download' }>;

const errorOf = (e: unknown) => ({ code: e instanceof WopiError ? e.kind : 'failed', message: (e as Error).message });

/**
 * Save As (PutRelativeFile), Rename (RenameFile) and Download for one view, each refused when CheckFileInfo says
 * so: UserCanNotWriteRelative hides Save As, rename needs SupportsRename and UserCanRename, DisableExport refuses
 * downloads and DisablePrint printing (spec: CheckFileInfo properties). A rename saves first and sends the saved
 * document in the RenameFile body, as Collabora does.
 */
export async function exportForView(
  doc: EditDocument,
  view: ViewSession,
  msg: ExportMessage,
  client: WopiClient,
  src: WopiSrc,
  downloads?: { add(bytes: Uint8Array, mimeType: string, filename: string, inline?: { csp: string }): string },
): Promise<void> {
  const fi = view.fileInfo;
  if (msg.type === 'saveAs') {
    if (fi.UserCanNotWriteRelative)
      return view.send({
        type: 'savedAs',
        ok: false,
        error: { code: 'forbidden', message: 'Save As is not allowed for this document (UserCanNotWriteRelative).' },
      });
    const format = extname(msg.name).slice(1).toLowerCase();
    if (!format)
      return view.send({ type: 'savedAs', ok: false, error: { code: 'bad_request', message: 'The new name needs an extension: it decides the format.' } });
    try {
      const r = await client.putRelativeFile(src, view.token, await doc.exportCopy(format), msg.name);
      return view.send({ type: 'savedAs', ok: true, name: typeof r.Name === 'string' ? r.Name : msg.name, url: typeof r.Url === 'string' ? r.Url : undefined });
    } catch (e) {
      return view.send({ type: 'savedAs', ok: false, error: errorOf(e) });
    }
  }
  if (msg.type === 'rename') {
    if (!fi.SupportsRename || !fi.UserCanRename)
      return view.send({
        type: 'renamed',
        ok: false,
        error: { code: 'forbidden', message: 'Renaming is not allowed for this document (SupportsRename, UserCanRename).' },
      });
    try {
      // As Collabora: the document is saved, then the saved file goes in the RenameFile body (hosts such as
      // richdocuments write the body into the renamed file). A save that did not reach the host (a conflict, a
      // refusal) stops the rename, so the body never overwrites a newer stored file.
      const saved = await doc.saveWithResult('explicit', view);
      if (!saved.saved && view.fileInfo.UserCanWrite)
        return view.send({
          type: 'renamed',
          ok: false,
          error: { code: 'save_failed', message: `The document could not be saved before renaming it: ${saved.reason}.` },
        });
      const r = await client.renameFile(src, view.token, msg.name, doc.storedCopy(), doc.lock);
      const name = typeof r.Name === 'string' ? r.Name : msg.name;
      // The host's new LastModifiedTime: from the answer when it has one (Collabora reads it), else from CheckFileInfo.
      const stamp =
        typeof r.LastModifiedTime === 'string'
          ? r.LastModifiedTime
          : await client.checkFileInfo(src, view.token).then(
              (i) => i.LastModifiedTime,
              () => undefined,
            );
      return doc.renamed(name, stamp);
    } catch (e) {
      return view.send({ type: 'renamed', ok: false, error: errorOf(e) });
    }
  }
  if (fi.DisableExport || (msg.purpose === 'print' && fi.DisablePrint))
    return view.send({
      type: 'error',
      code: 'forbidden',
      message: msg.purpose === 'print' ? 'Printing is disabled for this document.' : 'Export is disabled for this document.',
    });
  if (!downloads) return view.send({ type: 'error', code: 'not_implemented', message: 'downloads are not served by this daemon' });
  const format = msg.format.toLowerCase();
  const slideshow = msg.purpose === 'slideshow' && format === 'svg';
  const bytes = slideshow ? withExitHook(await doc.exportCopy(format)) : await doc.exportCopy(format);
  const stem = fi.BaseFileName.replace(/\.[^.]*$/, '');
  const id = downloads.add(bytes, OUTPUT_MIME_TYPES[format] ?? 'application/octet-stream', `${stem}.${format}`, slideshow ? { csp: SLIDESHOW_CSP } : undefined);
  // The WOPISrc lets a load balancer hashing it send the download to this node, which holds it (docs/deploy/cluster.md).
  view.send({ type: 'downloadReady', id: msg.id, url: `/ode/download/${id}?WOPISrc=${encodeURIComponent(src.url.href)}` });
}
