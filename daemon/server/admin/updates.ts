import type { AdminBackend } from '../../../admin-api/backend.ts';
import type { AdminParts } from './parts.ts';

/** updates(): the cached update check (daemon/server/updates/update-checker.ts). */
export function updatesPart(parts: AdminParts): Pick<AdminBackend, 'updates'> {
  return { updates: (refresh) => parts.updates.get(refresh) };
}
