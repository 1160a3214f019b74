/**
 * Draining one open document when its node is taken out of service (cluster/node-drain.ts; editor.md `draining`,
 * close 4503; docs/deploy/cluster.md). The order makes sure no keystroke is lost:
 * 0. a view still joining the document is refused when its join ends (OdeError draining, close 4503: it opens the
 *    document again elsewhere), so that no view becomes live after the views were told;
 * 1. every view gets `draining`: its editor stops sending input at once;
 * 2. every view is pinged (ViewHandle.flush): its pong comes after every input it sent before, so once all answered
 *    (or after `flushMs`) the kit has every key; then DRAIN_SETTLE_MS more, because LibreOfficeKit processes posted
 *    keys later on its main loop and the kit's wait for them before a save (kit/input-order.ts) is a heuristic that
 *    a loaded machine can beat (test/cluster/haproxy.test.ts lost the last word before the save without it);
 * 3. the exit save and upload (EditDocument.unload: the host now has every key);
 * 4. every view is closed with 4503: the editor opens the document again through the load balancer, which sends it
 *    to a serving node, and that node downloads the version just stored.
 */
import { CLOSE } from '../../protocol/editor.ts';
import type { EditDocument } from './edit-document.ts';

/** How long a drain waits for each view's answer to its ping before saving (ms). */
export const DRAIN_FLUSH_MS = 3000;
/** How long a drain lets LibreOffice process the last posted input before the exit save (ms; step 2 above). */
export const DRAIN_SETTLE_MS = 500;

/** Drains `doc` (steps above); resolves once it is stored and its views are closed. Save failures are the unload's (logged, recovery copy kept). */
export async function drainDocument(doc: EditDocument, flushMs = DRAIN_FLUSH_MS): Promise<void> {
  if (doc.state === 'closed') return;
  // A view still joining (past the registry's draining check, not yet one of doc.views) is not told below: it is
  // refused when its join ends (EditDocument.join), not let in to type into a document whose exit save is made.
  doc.refuseJoins();
  const views = [...doc.views];
  for (const v of views)
    v.send({ type: 'draining', message: 'This server is being taken out of service: the document is saved and opened again on another server.' });
  await Promise.all(views.map((v) => v.flush?.(flushMs)));
  if (views.length > 0) await new Promise((r) => setTimeout(r, DRAIN_SETTLE_MS));
  await doc.unload('the node is draining');
  for (const v of doc.views) v.close(CLOSE.draining, 'the server is draining: open the document again');
  doc.views.clear();
}
