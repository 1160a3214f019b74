import type { Logger } from 'pino';
import { loadOrCreateProofKeys, rotateProofKeys, type ProofKeys } from '../../../certs/proof-key.ts';
import { proofKeyFingerprint, proofKeyValues, signProof, type ProofHeaders, type ProofKeyValues } from '../../../certs/proof-signing.ts';

/** The daemon's proof keys in memory: loaded (or created) on start, rotated on demand; discovery changes at once. */
export class ProofKeyStore {
  private keys: ProofKeys | undefined;

  constructor(
    readonly stateDir: string,
    readonly configuredPath: string | undefined,
    private readonly log: Logger,
  ) {}

  /**
   * Loads the key pair, creating it on first start.
   * @throws Error naming the key file and the fix when it is unreadable.
   */
  load(): void {
    this.keys = loadOrCreateProofKeys(this.stateDir, this.configuredPath);
    this.log.info({ path: this.keys.current.path, fingerprint: proofKeyFingerprint(this.keys.current.publicKey) }, 'proof key loaded');
  }

  private get loaded(): ProofKeys {
    if (!this.keys) this.load();
    return this.keys!;
  }

  /** The discovery `proof-key` values of the current and old key. */
  discoveryValues(): { current: ProofKeyValues; old: ProofKeyValues } {
    return { current: proofKeyValues(this.loaded.current.publicKey), old: proofKeyValues(this.loaded.old.publicKey) };
  }

  /** Fingerprints and created dates, for the CLI and the admin API. */
  describe(): { fingerprint: string; created: Date; oldFingerprint: string; oldCreated: Date } {
    const k = this.loaded;
    return {
      fingerprint: proofKeyFingerprint(k.current.publicKey),
      created: k.current.created,
      oldFingerprint: proofKeyFingerprint(k.old.publicKey),
      oldCreated: k.old.created,
    };
  }

  /** Rotates: the current key becomes the old one; a new current key is generated. */
  rotate(): void {
    this.keys = rotateProofKeys(this.stateDir, this.configuredPath);
    this.log.warn({ fingerprint: proofKeyFingerprint(this.keys.current.publicKey) }, 'proof key rotated');
  }

  /** The X-WOPI-Proof headers for a request to a WOPI host (MS-WOPI proof keys). */
  sign(accessToken: string, url: string, now?: number): ProofHeaders {
    return signProof(this.loaded, accessToken, url, now);
  }
}
