/**
 * This node's place behind a load balancer (docs/deploy/cluster.md): serving, or being taken out of service.
 *
 * | state    | entered when                                        | /health | new editor pages / sockets      | leaves to |
 * |----------|-----------------------------------------------------|---------|---------------------------------|-----------|
 * | serving  | the daemon started                                  | 200 (a kit alive) | accepted              | draining  |
 * | draining | drain() (admin API `node.drain`, `ode drain`)       | 503     | refused: 503 `draining`         | drained   |
 * | drained  | every open document saved, uploaded, views told to reconnect (4503) | 503 | refused          | - (the daemon exits when asked) |
 *
 * Draining one document (EditDocument.drain): `draining` to each view, whose editor stops sending input and answers
 * a ping (so every key it sent has reached the kit), then the exit save and upload, then close 4503: the editor
 * opens the document again through the balancer, which by then sends the WOPISrc to another node (its health
 * check sees 503 here), and that node loads the saved version.
 */
import type { Logger } from 'pino';
import { OdeError } from '../errors.ts';

/** The node's service state (table above). */
export type NodeState = 'serving' | 'draining' | 'drained';

/** How a drain went: the documents and views it moved and how long it took (ms). */
export interface DrainReport {
  state: NodeState;
  documents: number;
  views: number;
  /** Milliseconds from the start of the drain to the last document closed. */
  ms: number;
}

/** What draining needs of the daemon: the open documents (DocumentRegistry.drain). */
export interface DrainDeps {
  documents: { drain(): Promise<{ documents: number; views: number }> };
  log: Logger;
}

/** The node's state and its drain (table above). One drain per process: a second call joins the first. */
export class NodeDrain {
  private current: NodeState = 'serving';
  private running: Promise<DrainReport> | undefined;
  private exitAsked = false;
  private readonly listeners = new Set<(report: DrainReport, exit: boolean) => void>();

  constructor(private readonly deps: DrainDeps) {}

  /** The node's state now. */
  get state(): NodeState {
    return this.current;
  }

  /**
   * Takes the node out of service (table above) and resolves once every document is closed. `exit: true` asks the
   * daemon to stop once drained (the listeners of onDrained are told); a later call with `exit: true` on a
   * drained node asks again. Never rejects: a document whose save failed is logged (its recovery copy stays).
   */
  drain(opts: { exit: boolean }): Promise<DrainReport> {
    this.exitAsked ||= opts.exit;
    if (!this.running) {
      const started = Date.now();
      this.current = 'draining';
      this.deps.log.warn('draining: refusing new documents, saving and moving the open ones');
      this.running = this.deps.documents.drain().then(
        (moved) => ({ state: 'drained' as const, ...moved, ms: Date.now() - started }),
        (e: Error) => {
          this.deps.log.error({ err: e.message }, 'draining failed for some documents');
          return { state: 'drained' as const, documents: 0, views: 0, ms: Date.now() - started };
        },
      );
      void this.running.then((r) => {
        this.current = 'drained';
        this.deps.log.warn({ documents: r.documents, views: r.views, ms: r.ms }, 'drained');
      });
    }
    return this.running.then((r) => {
      for (const fn of this.listeners) fn(r, this.exitAsked);
      return r;
    });
  }

  /** Listens to the end of a drain (with whether the daemon was asked to exit). Returns the unsubscribe function. */
  onDrained(fn: (report: DrainReport, exit: boolean) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * Refuses new work that belongs to a document while the node drains or is drained.
   * @throws OdeError draining (503) naming what was refused.
   */
  refuseNew(what: string): void {
    if (this.current === 'serving') return;
    throw new OdeError(
      'draining',
      `This Ode node is ${this.current} (taken out of service): ${what} is refused here. Open the document again through the load balancer, which sends it to another node.`,
    );
  }
}
