import type { AdminBackend } from '../../../admin-api/backend.ts';
import type { AdminParts } from './parts.ts';

/** logs(), onLog(): TODO (issue 6) */
export function logsPart(_parts: AdminParts): Pick<AdminBackend, 'logs' | 'onLog'> {
  return {
    logs: () => [],
    onLog: () => () => {},
  };
}
