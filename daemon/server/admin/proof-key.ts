/**
 * proofKey(), rotateProofKey(): the WOPI proof key's fingerprints and dates, and rotation (MS-WOPI proof keys;
 * spec: Authentication). Rotation makes the current key the old one and generates a new current key; discovery
 * reads ProofKeyStore on every request, so its `proof-key` / `oldvalue` (and modulus/exponent) change at once.
 */
import type { AdminBackend, ProofKeyInfo } from '../../../admin-api/backend.ts';
import type { AdminParts } from './parts.ts';

/** Builds the proof-key part over the daemon's ProofKeyStore. */
export function proofKeyPart(parts: AdminParts): Pick<AdminBackend, 'proofKey' | 'rotateProofKey'> {
  const info = (): ProofKeyInfo => {
    const d = parts.proofKeys.describe();
    return { fingerprint: d.fingerprint, created: d.created.getTime(), oldFingerprint: d.oldFingerprint, oldCreated: d.oldCreated.getTime() };
  };
  return {
    proofKey: info,
    rotateProofKey() {
      const before = info();
      parts.proofKeys.rotate();
      const after = info();
      parts.log.warn(
        { fingerprint: after.fingerprint, previous: before.fingerprint },
        'admin: proof key rotated; WOPI hosts must fetch discovery again to verify new requests',
      );
      return after;
    },
  };
}
