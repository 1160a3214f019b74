/**
 * The daemon's AdminBackend (admin-api/backend.ts): one small part per domain, composed here.
 */
import type { AdminBackend } from '../../../admin-api/backend.ts';
import type { AdminParts } from './parts.ts';
import { statusPart } from './status.ts';
import { logsPart } from './logs.ts';
import { documentsPart } from './documents.ts';
import { configPart } from './config-edit.ts';
import { proofKeyPart } from './proof-key.ts';
import { updatesPart } from './updates.ts';
import { nodePart } from './node.ts';

/** Builds the backend the admin listener mounts the router with. */
export function createAdminBackend(parts: AdminParts): AdminBackend {
  return {
    ...statusPart(parts),
    ...logsPart(parts),
    ...documentsPart(parts),
    ...configPart(parts),
    ...proofKeyPart(parts),
    ...updatesPart(parts),
    ...nodePart(parts),
  };
}
