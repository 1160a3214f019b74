import { AdminError, type AdminBackend } from '../../../admin-api/backend.ts';
import type { AdminParts } from './parts.ts';

/** status(): TODO (issue 6) */
export function statusPart(_parts: AdminParts): Pick<AdminBackend, 'status'> {
  return {
    status: () => Promise.reject(new AdminError('not_found', 'not implemented yet')),
  };
}
