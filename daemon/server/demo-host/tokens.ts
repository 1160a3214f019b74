import { randomBytes } from 'node:crypto';

/** Who a token was issued to (spec: Authentication 3: "the token is unique for the user"). */
export interface DemoUser {
  /** Stable for a user name: `user-<slug>`. */
  userId: string;
  userName: string;
}

/** An issued token and its expiry (access_token_ttl: ms since the epoch, as the spec's form field). */
export interface IssuedToken {
  token: string;
  expiresAt: number;
  user: DemoUser;
}

/**
 * The demo host's access tokens: random, one per issue (the start page issues one per user and page load), each
 * with an expiry. Tokens are letters and digits only (spec: "Access token"). Expired tokens are dropped as new
 * ones are issued. Kept in memory: a restart invalidates them, and the editor then says the token is no longer
 * valid (reload the start page).
 */
export class TokenStore {
  private readonly tokens = new Map<string, IssuedToken>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** Issues a token for `userName` valid for `ttlSecs` seconds. */
  issue(userName: string, ttlSecs: number): IssuedToken {
    this.prune();
    const name = userName.trim().slice(0, 80) || 'Demo user';
    const slug =
      name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || Buffer.from(name).toString('hex').slice(0, 24);
    const issued: IssuedToken = {
      token: randomBytes(24).toString('hex'),
      expiresAt: this.now() + ttlSecs * 1000,
      user: { userId: `user-${slug}`, userName: name },
    };
    this.tokens.set(issued.token, issued);
    return issued;
  }

  /** The user of a valid, unexpired token; undefined for an unknown or expired one. */
  verify(token: string | undefined): DemoUser | undefined {
    if (!token) return undefined;
    const t = this.tokens.get(token);
    if (!t) return undefined;
    if (t.expiresAt <= this.now()) {
      this.tokens.delete(token);
      return undefined;
    }
    return t.user;
  }

  private prune(): void {
    const now = this.now();
    for (const [k, t] of this.tokens) if (t.expiresAt <= now) this.tokens.delete(k);
  }
}
