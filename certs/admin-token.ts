/**
 * The admin token: the shared secret every admin API request carries (`Authorization: Bearer <token>`). It lives
 * in the OS keyring (Secret Service on Linux, through @napi-rs/keyring; service `ode`, account
 * `admin-token:<state_dir>` so two installs on one machine keep two tokens) and, when no keyring is reachable (as
 * on most servers: no D-Bus session, no secret service), in `<state_dir>/admin_token` with mode 0600.
 * 32 random bytes, base64url (43 characters).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Entry } from '@napi-rs/keyring';

/** Where the token was found or stored. */
export type AdminTokenLocation = 'keyring' | 'file';

/** The token and where it lives (`path` is the file, for `file`). */
export interface AdminToken {
  token: string;
  where: AdminTokenLocation;
  path?: string;
}

/** The keyring entry and file of one state directory's token. */
export interface AdminTokenStoreOptions {
  stateDir: string;
  /** Tests turn the keyring off to exercise the file fallback deterministically. */
  useKeyring?: boolean;
}

const SERVICE = 'ode';

/** A new random token (32 bytes, base64url). */
function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Reads, creates and rotates the admin token of one state directory.
 * Errors: a token file that cannot be read or written throws an Error naming the file and the fix.
 */
export class AdminTokenStore {
  readonly path: string;
  private readonly account: string;
  private readonly useKeyring: boolean;

  constructor(opts: AdminTokenStoreOptions) {
    this.path = join(opts.stateDir, 'admin_token');
    this.account = `admin-token:${opts.stateDir}`;
    this.useKeyring = opts.useKeyring ?? true;
  }

  private entry(): Entry | undefined {
    if (!this.useKeyring) return undefined;
    try {
      // Secret Service only: without it @napi-rs/keyring falls back to the kernel keyutils keyring, which is
      // per login session and in memory (a daemon started by systemd and `ode admin token` in a shell would each
      // see their own token, and a reboot loses it). Then the 0600 file is the right place.
      return new Entry(SERVICE, this.account, { linux: { store: 'secret-service' } });
    } catch {
      return undefined;
    }
  }

  private readKeyring(): string | undefined {
    try {
      return this.entry()?.getPassword() ?? undefined;
    } catch {
      return undefined;
    }
  }

  /** Stores in the keyring; false when no keyring takes it (then the file is used). */
  private writeKeyring(token: string): boolean {
    const entry = this.entry();
    if (!entry) return false;
    try {
      entry.setPassword(token);
      return entry.getPassword() === token;
    } catch {
      return false;
    }
  }

  private readFile(): string | undefined {
    if (!existsSync(this.path)) return undefined;
    try {
      const token = readFileSync(this.path, 'utf8').trim();
      return token || undefined;
    } catch (e) {
      throw new Error(`cannot read the admin token ${this.path}: ${(e as Error).message} (it must be readable by the user running Ode)`);
    }
  }

  /** Writes the file atomically (temp file + rename), mode 0600. */
  private writeFile(token: string): void {
    try {
      mkdirSync(join(this.path, '..'), { recursive: true });
      const tmp = `${this.path}.tmp-${process.pid}`;
      writeFileSync(tmp, `${token}\n`, { mode: 0o600 });
      chmodSync(tmp, 0o600);
      renameSync(tmp, this.path);
    } catch (e) {
      throw new Error(`cannot write the admin token ${this.path}: ${(e as Error).message} (check that state_dir is writable)`);
    }
  }

  /** The current token, or undefined when none was created yet (keyring first, then the file). */
  read(): AdminToken | undefined {
    const fromKeyring = this.readKeyring();
    if (fromKeyring) return { token: fromKeyring, where: 'keyring' };
    const fromFile = this.readFile();
    return fromFile ? { token: fromFile, where: 'file', path: this.path } : undefined;
  }

  /** The current token, created on first use (in the keyring when it takes it, else the 0600 file). */
  getOrCreate(): AdminToken {
    return this.read() ?? this.store(newToken(), undefined);
  }

  /** Replaces the token with a new one where it lives now (a running daemon notices on the next request). */
  rotate(): AdminToken {
    return this.store(newToken(), this.read()?.where);
  }

  private store(token: string, where: AdminTokenLocation | undefined): AdminToken {
    if (where !== 'file' && this.writeKeyring(token)) return { token, where: 'keyring' };
    this.writeFile(token);
    return { token, where: 'file', path: this.path };
  }
}

/** Compares a presented token with the expected one in constant time (lengths may differ). */
export function tokenMatches(presented: string | undefined, expected: string): boolean {
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
