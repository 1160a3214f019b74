/**
 * Early callback replay: LibreOffice sends a new view's cursor (and selection, cell cursor ...) while it loads or
 * creates the view, before that view has joined the document. The last message of each type is kept per LOK view
 * id and replayed when the view joins, right after its `status`, so the caret shows at once. Invalidations are left
 * out (a new view paints everything).
 */
import type { ServerMessage } from '../../protocol/editor.ts';
import type { ViewHandle } from './view-handle.ts';

/** The messages kept for views that have not joined yet, by LOK view id, then by message type. */
export class CallbackReplay {
  private readonly early = new Map<number, Map<string, ServerMessage>>();

  /** Keeps `msg` for LOK view `viewId` (replacing an earlier one of its type); invalidations and view ids < 0 are dropped. */
  keep(viewId: number, msg: ServerMessage): void {
    if (msg.type === 'invalidate' || viewId < 0) return;
    const kept = this.early.get(viewId) ?? new Map<string, ServerMessage>();
    kept.set(msg.type, msg);
    this.early.set(viewId, kept);
  }

  /** Sends `view` what was kept for its LOK view id, in the order first kept, and forgets it. */
  replay(view: ViewHandle): void {
    for (const m of this.early.get(view.viewId)?.values() ?? []) view.send(m);
    this.early.delete(view.viewId);
  }

  /** Forgets what was kept for LOK view `viewId` (it left). */
  forget(viewId: number): void {
    this.early.delete(viewId);
  }
}
