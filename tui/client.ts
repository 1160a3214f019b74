/**
 * The admin API client of the dashboard: tRPC v11 over the admin listener. Queries and mutations go over HTTP
 * (httpBatchLink), subscriptions over one WebSocket (wsLink) that reconnects by itself and resubscribes; both
 * carry `Authorization: Bearer <token>` (the WebSocket on its upgrade request, through a `ws` subclass, since a
 * browser-style WebSocket cannot set headers). Over a unix socket every call goes over the WebSocket
 * (`ws+unix://`), so no HTTP agent is needed. docs/tui.md.
 */
import { createTRPCClient, createWSClient, httpBatchLink, splitLink, wsLink, type TRPCClient } from '@trpc/client';
import WebSocket from 'ws';
import type { AppRouter } from './types.ts';

/** What the connection did: opened, closed (with why), or the token was refused (HTTP 401). */
export type ConnectionEvent = { type: 'open' } | { type: 'close'; reason: string } | { type: 'unauthorized' };

/** Where the admin API listens, and how to authenticate. */
export interface AdminClientOptions {
  /** `http://host:port` of the admin listener (admin.listen / admin.port), without a path. */
  url?: string;
  /** The admin listener's unix socket (admin.socket), instead of `url`. */
  socket?: string;
  /** The admin token; called for every request and connection, so a rotated token is picked up. */
  token: () => string;
  /** The longest wait between reconnection attempts, ms (default 2000). */
  maxRetryDelayMs?: number;
  onConnection?: (e: ConnectionEvent) => void;
}

/** A typed client of the admin API and how to stop it. */
export interface AdminClient {
  trpc: TRPCClient<AppRouter>;
  /** Closes the WebSocket (subscriptions end; no reconnection). */
  close(): Promise<void>;
}

/** The admin API's WebSocket URL for `opts` (`ws://host:port/trpc` or `ws+unix:///path:/trpc`). */
export function webSocketUrl(opts: Pick<AdminClientOptions, 'url' | 'socket'>): string {
  if (opts.socket) return `ws+unix://${opts.socket}:/trpc`;
  if (!opts.url) throw new Error('the admin client needs a url or a socket');
  return `${opts.url.replace(/^http/, 'ws').replace(/\/$/, '')}/trpc`;
}

/**
 * A `WebSocket` class for tRPC's wsClient: the `ws` package's, sending the token on the upgrade and reporting a
 * 401 answer (ws's error "Unexpected server response: 401") as unauthorized.
 */
function authenticatedWebSocket(token: () => string, onUnauthorized: () => void): typeof globalThis.WebSocket {
  class AuthenticatedWebSocket extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { headers: { Authorization: `Bearer ${token()}` } });
      this.on('error', (e: Error) => {
        if (/Unexpected server response: 401\b/.test(e.message)) onUnauthorized();
      });
    }
  }
  // tRPC types the option as the DOM WebSocket; ws implements the part it uses (addEventListener, send, close, readyState).
  return AuthenticatedWebSocket as unknown as typeof globalThis.WebSocket;
}

/**
 * Creates the client. It connects at once and keeps reconnecting (backoff up to `maxRetryDelayMs`) until
 * `close()`; `onConnection` hears every open, close and refusal.
 */
export function createAdminClient(opts: AdminClientOptions): AdminClient {
  const report = opts.onConnection ?? (() => {});
  const maxDelay = opts.maxRetryDelayMs ?? 2000;
  const wsClient = createWSClient({
    url: webSocketUrl(opts),
    WebSocket: authenticatedWebSocket(opts.token, () => report({ type: 'unauthorized' })),
    retryDelayMs: (attempt) => Math.min(maxDelay, 250 * 2 ** attempt),
    onOpen: () => report({ type: 'open' }),
    onClose: (cause) => report({ type: 'close', reason: cause?.code === 1006 || cause?.code === undefined ? 'daemon unreachable' : `closed (${cause.code})` }),
  });
  const overSocket = Boolean(opts.socket);
  const httpUrl = opts.url ? `${opts.url.replace(/\/$/, '')}/trpc` : '';
  const trpc = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => overSocket || op.type === 'subscription',
        true: wsLink({ client: wsClient }),
        false: httpBatchLink({
          url: httpUrl,
          headers: () => ({ Authorization: `Bearer ${opts.token()}` }),
          fetch: async (input, init) => {
            const res = await fetch(input as string, init as RequestInit);
            if (res.status === 401) report({ type: 'unauthorized' });
            return res;
          },
        }),
      }),
    ],
  });
  return { trpc, close: () => wsClient.close() };
}
