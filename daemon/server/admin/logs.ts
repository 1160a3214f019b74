import type { AdminBackend } from '../../../admin-api/backend.ts';
import type { AdminParts } from './parts.ts';

/** logs(), onLog(): the daemon's recent lines and new ones, from the LogBuffer pino writes to (log-buffer.ts). */
export function logsPart(parts: AdminParts): Pick<AdminBackend, 'logs' | 'onLog'> {
  return {
    logs: (limit, level) => parts.logBuffer.recent(limit, level),
    onLog: (fn) => parts.logBuffer.subscribe(fn),
  };
}
