/**
 * documents(), saveDocument(), closeDocument(), killKit(), onDocumentEvent(): the open documents as the admin API
 * shows them (admin-api/backend.ts DocumentInfo), and the three actions an administrator takes on them.
 *
 * A document's id is EditDocument.id (12 hex of SHA-256 of its WOPISrc key): stable while it is open, and the
 * same when the same file is opened again. Kit memory comes from pidusage; a kit that exits meanwhile reads as
 * no value rather than failing the list.
 */
import pidusage from 'pidusage';
import { AdminError, type AdminBackend, type DocumentEvent, type DocumentInfo } from '../../../admin-api/backend.ts';
import type { DocumentEvent as RegistryEvent } from '../documents/document-events.ts';
import type { EditDocument } from '../documents/edit-document.ts';
import type { AdminParts } from './parts.ts';

/** How long killKit waits for the killed process to be gone (ms). */
const KILL_WAIT_MS = 5000;

/** A document's DocumentInfo without kit memory (taken synchronously, so events keep their order's truth). */
export function describeDocument(doc: EditDocument): DocumentInfo {
  return {
    id: doc.id,
    fileName: doc.fileName,
    host: new URL(doc.key).origin,
    state: doc.state,
    modified: doc.modifiedOrUploading,
    views: [...doc.views].map((v) => ({
      viewId: v.viewId,
      userId: v.fileInfo.UserId ?? '',
      userName: v.fileInfo.UserFriendlyName ?? '',
      readOnly: v.readonly,
      joinedAt: doc.joinedAt.get(v) ?? doc.openedAt,
    })),
    openedAt: doc.openedAt,
    ...(doc.lastSaveAt !== undefined && { lastSaveAt: doc.lastSaveAt }),
    ...(doc.lastUploadAt !== undefined && { lastUploadAt: doc.lastUploadAt }),
    ...(doc.lastUploadError !== undefined && { lastUploadError: doc.lastUploadError }),
    ...(doc.kitPid !== undefined && { kitPid: doc.kitPid }),
  };
}

/** Adds kitRssBytes (resident set of the kit process, bytes) when the kit is still there. */
async function withKitMemory(info: DocumentInfo): Promise<DocumentInfo> {
  if (info.kitPid === undefined) return info;
  const rss = await pidusage(info.kitPid).then(
    (s) => s.memory,
    () => undefined,
  );
  return rss === undefined ? info : { ...info, kitRssBytes: rss };
}

/** True while a process with `pid` exists (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Builds the documents part over the registry and the kit pool. */
export function documentsPart(
  parts: AdminParts,
): Pick<AdminBackend, 'documents' | 'saveDocument' | 'closeDocument' | 'killKit' | 'recoveryCopies' | 'onDocumentEvent'> {
  const { log } = parts;
  const find = (id: string): EditDocument => {
    const doc = parts.documents.byId(id);
    if (!doc || doc.state === 'closed') throw new AdminError('not_found', `No open document has the id "${id}": see documents.list.`);
    return doc;
  };

  const toAdminEvent = (e: RegistryEvent): { event: DocumentEvent } | { info: DocumentInfo; type: 'opened' | 'changed' } => {
    if (e.type === 'closed') return { event: { type: 'closed', id: e.doc.id } };
    return { info: describeDocument(e.doc), type: e.type === 'opened' ? 'opened' : 'changed' };
  };

  return {
    documents: () =>
      Promise.all(
        parts.documents
          .list()
          .filter((d) => d.state !== 'closed')
          .map((d) => withKitMemory(describeDocument(d))),
      ),

    async saveDocument(id) {
      const doc = find(id);
      log.info({ doc: doc.key, id }, 'admin: saving the document');
      let result: Awaited<ReturnType<typeof doc.saveWithResult>>;
      try {
        result = await doc.saveWithResult('explicit');
      } catch (e) {
        log.warn({ doc: doc.key, id, err: (e as Error).message }, 'admin: the save failed');
        throw new AdminError('save_failed', `LibreOffice could not save "${doc.fileName}": ${(e as Error).message}`);
      }
      if (!result.saved) {
        log.warn({ doc: doc.key, id, reason: result.reason }, 'admin: the document was not saved');
        throw new AdminError('save_failed', `"${doc.fileName}" was not saved: ${result.reason}`);
      }
      return { saved: true };
    },

    async closeDocument(id) {
      const doc = find(id);
      log.warn({ doc: doc.key, id, modified: doc.unsaved, views: doc.views.size }, 'admin: closing the document');
      await doc.adminClose();
    },

    async killKit(pid) {
      if (!parts.pool.kitPids().includes(pid)) throw new AdminError('not_found', `No kit has the process id ${pid}: see status.get (kits).`);
      const doc = parts.documents.list().find((d) => d.kitPid === pid);
      log.warn({ pid, doc: doc?.key }, 'admin: killing a kit (SIGKILL)');
      try {
        process.kill(pid, 'SIGKILL');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ESRCH') throw new AdminError('not_found', `The kit ${pid} has already exited.`);
        throw e;
      }
      // Resolve once the process is gone (Node reaps its children), so the caller sees the effect.
      const deadline = Date.now() + KILL_WAIT_MS;
      while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    },

    recoveryCopies: () => parts.documents.recovery.list(),

    onDocumentEvent(fn) {
      // Kit memory is read asynchronously: a chain keeps the events in the order they happened.
      let chain = Promise.resolve();
      return parts.documents.onEvent((e) => {
        const got = toAdminEvent(e);
        chain = chain
          .then(async () => {
            if ('event' in got) return fn(got.event);
            const document = await withKitMemory(got.info);
            fn(got.type === 'opened' ? { type: 'opened', document } : { type: 'changed', document });
          })
          .catch((err: Error) => log.error({ err: err.message }, 'a document event listener failed'));
      });
    },
  };
}
