import type { Logger } from 'pino';

/** The daemon's proof keys (current and old), loaded or created on start. Completed with certs/. */
export class ProofKeyStore {
  constructor(
    readonly stateDir: string,
    readonly configuredPath: string | undefined,
    private readonly log: Logger,
  ) {}

  /** Loads the key pair, creating it on first start. */
  load(): void {
    this.log.debug({ stateDir: this.stateDir }, 'proof keys: pending');
  }
}
