import { AdminError, type AdminBackend } from '../../../admin-api/backend.ts';
import type { AdminParts } from './parts.ts';

/** documents(), saveDocument(), closeDocument(), killKit(), onDocumentEvent(): TODO (issue 6) */
export function documentsPart(_parts: AdminParts): Pick<AdminBackend, 'documents' | 'saveDocument' | 'closeDocument' | 'killKit' | 'onDocumentEvent'> {
  const todo = () => Promise.reject(new AdminError('not_found', 'not implemented yet'));
  return { documents: () => Promise.resolve([]), saveDocument: todo, closeDocument: todo, killKit: todo, onDocumentEvent: () => () => {} };
}
