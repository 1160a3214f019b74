import { join } from 'node:path';
import { OdeError } from '../errors.ts';
import type { WopiSrc } from '../wopi/wopi-src.ts';
import type { DocumentEvent, DocumentEventListener } from './document-events.ts';
import { EditDocument, type DocumentDeps } from './edit-document.ts';
import { drainDocument } from './document-drain.ts';
import { LockRecords, lockDocKey } from './lock-records.ts';
import { RecoveryService } from './recovery.ts';
import type { ViewHandle } from './view-handle.ts';

/**
 * The open documents, one per WOPISrc without its query (issue 4: one kit per document). A view joining a
 * document that is unloading (or begins unloading while the view joins) waits for it to close and opens it afresh.
 */
export class DocumentRegistry {
  private readonly docs = new Map<string, EditDocument>();
  private readonly listeners = new Set<DocumentEventListener>();
  private stopping = false;
  private draining = false;

  constructor(
    /** What every document gets from the daemon (DocumentDeps, edit-document.ts), the settings included. */
    private readonly deps: Pick<DocumentDeps, 'client' | 'pool' | 'config' | 'log' | 'convertTemplate' | 'settings'>,
  ) {
    const { state_dir } = deps.config();
    this.locks = new LockRecords(join(state_dir, 'locks'));
    this.recovery = new RecoveryService({
      client: deps.client,
      pool: deps.pool,
      config: deps.config,
      log: deps.log,
      recoveryDir: join(state_dir, 'recovery'),
      journalDir: join(state_dir, 'journal'),
      locks: this.locks,
      liveLock: (wopiSrc) => this.docs.get(lockDocKey(wopiSrc))?.lock,
      changed: (docKey) => this.docs.get(docKey)?.offerRecovery(),
    });
  }

  /** The WOPI locks held, on disk, and the previous run's (lock-records.ts). */
  private readonly locks: LockRecords;

  /**
   * What a previous daemon left unstored (edit journals, recovery copies): rebuilt and uploaded by `recovery.start()`
   * at the daemon's start (recovery.ts); `recovery.list()` for the admin API.
   */
  readonly recovery: RecoveryService;

  /** Where saved copies wait for their upload (`<state_dir>/recovery`). */
  get recoveryDir(): string {
    return join(this.deps.config().state_dir, 'recovery');
  }

  /**
   * Adds a view to the document of `src`, opening it when needed.
   * @throws what EditDocument.join throws; Error while the daemon stops; OdeError draining while the node drains.
   */
  async join(src: WopiSrc, view: ViewHandle): Promise<EditDocument> {
    for (let attempt = 0; ; attempt++) {
      if (this.stopping) throw new Error('the server is stopping');
      if (this.draining) throw new OdeError('draining', 'This Ode node is draining: open the document again through the load balancer.');
      let doc = this.docs.get(src.key);
      if (!doc || doc.state === 'closed') {
        doc = new EditDocument({
          ...this.deps,
          src,
          recoveryDir: this.recoveryDir,
          recovery: this.recovery,
          lockRecords: this.locks,
          onClosed: (d) => this.docs.get(d.key) === d && this.docs.delete(d.key),
          onEvent: (e) => this.emit(e),
        });
        this.docs.set(src.key, doc);
      }
      if (doc.state === 'unloading' && attempt < 50) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      try {
        await doc.join(view);
      } catch (e) {
        // The document began closing while the view joined (EditDocument.join): opened afresh once it closed.
        if (e instanceof OdeError && e.code === 'no_kit' && doc.closing && attempt < 50) continue;
        throw e;
      }
      return doc;
    }
  }

  /** The open documents. */
  list(): EditDocument[] {
    return [...this.docs.values()];
  }

  /** The open document with admin id `id` (EditDocument.id), if any. */
  byId(id: string): EditDocument | undefined {
    return this.list().find((d) => d.id === id);
  }

  /**
   * Calls `fn` with every document event (document-events.ts: opened, changed, saved, uploaded, closed), in the
   * order they happen. Returns the unsubscribe function. A throwing listener is logged and the others still run.
   */
  onEvent(fn: DocumentEventListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(e: DocumentEvent): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch (err) {
        this.deps.log.error({ err: (err as Error).message, event: e.type, doc: e.doc.key }, 'a document event listener failed');
      }
    }
  }

  /**
   * The node drains (cluster/node-drain.ts): no view may join any more; every open document tells its views, saves,
   * uploads and closes them with 4503 (document-drain.ts). Resolves once no document is open (at most
   * `limitMs` later; a document still open then is logged and left to the daemon's stop), with the counts moved.
   */
  async drain(limitMs = 120_000): Promise<{ documents: number; views: number }> {
    this.draining = true;
    const docs = this.list();
    const views = docs.reduce((n, d) => n + d.views.size, 0);
    await Promise.all(docs.map((d) => drainDocument(d).catch((e: Error) => this.deps.log.error({ err: e.message, doc: d.key }, 'draining a document failed'))));
    // A document that was already unloading (its last view left) finishes its own exit save: wait for it.
    const deadline = Date.now() + limitMs;
    while (this.docs.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (this.docs.size > 0) this.deps.log.error({ open: [...this.docs.keys()] }, 'documents still open at the end of the drain');
    return { documents: docs.length, views };
  }

  /**
   * Daemon stop (SIGTERM/SIGINT): every document makes its exit save of the latest state (when modified) and closes
   * its views, also while earlier uploads are being retried. Resolves once every document closed, or at the latest
   * `documents.exit_save_secs` (+ 2 s for a kit still saving) after the call: what a host has not taken by then stays
   * in `<state_dir>/recovery` (and the edit journal), and the next start uploads it (recovery.ts).
   */
  async shutdown(): Promise<void> {
    this.stopping = true;
    this.recovery.stop();
    const started = Date.now();
    const deadline = started + this.deps.config().documents.exit_save_secs * 1000;
    const all = Promise.all(
      [...this.docs.values()].map((d) =>
        d.shutdown(deadline).catch((e: Error) => this.deps.log.error({ err: e.message, doc: d.key }, 'shutdown of a document failed')),
      ),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, deadline + 2000 - Date.now())))]);
    // A document that was already unloading (its last view left) finishes its own exit save: wait for it too.
    while (this.docs.size > 0 && Date.now() < deadline + 2000) await new Promise((r) => setTimeout(r, 50));
    clearTimeout(timer);
    const left = [...this.docs.values()].filter((d) => d.state !== 'closed');
    if (left.length > 0)
      this.deps.log.error(
        { open: left.map((d) => d.key), ms: Date.now() - started },
        'documents still saving when the exit time (documents.exit_save_secs) ended: their unsaved input stays in the edit journal for the next start',
      );
    else this.deps.log.info({ ms: Date.now() - started }, 'every document closed');
  }
}
