/**
 * drain(): takes the node out of service (cluster/node-drain.ts, docs/deploy/cluster.md). With `exit`, the daemon
 * is told to stop once drained (NodeDrain.onDrained; `ode serve` then exits 0, which systemd's Restart=on-failure
 * leaves stopped for the upgrade).
 */
import type { AdminBackend } from '../../../admin-api/backend.ts';
import type { AdminParts } from './parts.ts';

/** Builds the node part over the daemon's NodeDrain. */
export function nodePart(parts: AdminParts): Pick<AdminBackend, 'drain'> {
  return {
    async drain(exit) {
      parts.log.warn({ exit }, 'admin: drain asked');
      const r = await parts.context.node.drain({ exit });
      return { state: r.state, documents: r.documents, views: r.views, ms: r.ms, exiting: exit };
    },
  };
}
