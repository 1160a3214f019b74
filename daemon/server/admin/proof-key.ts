import type { AdminBackend, ProofKeyInfo } from '../../../admin-api/backend.ts';
import type { AdminParts } from './parts.ts';

/** proofKey(), rotateProofKey(): TODO (issue 6) */
export function proofKeyPart(parts: AdminParts): Pick<AdminBackend, 'proofKey' | 'rotateProofKey'> {
  const info = (): ProofKeyInfo => {
    const d = parts.proofKeys.describe();
    return { fingerprint: d.fingerprint, created: d.created.getTime(), oldFingerprint: d.oldFingerprint, oldCreated: d.oldCreated.getTime() };
  };
  return { proofKey: info, rotateProofKey: () => (parts.proofKeys.rotate(), info()) };
}
