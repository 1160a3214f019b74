/**
 * A typed tRPC client of a running daemon's admin API for tests: queries and mutations over HTTP
 * (httpBatchLink) and subscriptions over WebSocket (wsLink), both with `Authorization: Bearer <token>`;
 * `transport: 'ws'` sends everything over the WebSocket.
 */
import { createTRPCClient, createWSClient, httpBatchLink, splitLink, wsLink, type TRPCClient } from '@trpc/client';
import WebSocket, { type ClientOptions } from 'ws';
import type { AppRouter } from '../../admin-api/router.ts';

/** The client and a close() that ends its WebSocket. */
export interface AdminTestClient {
  client: TRPCClient<AppRouter>;
  close(): Promise<void>;
}

/** The `ws` WebSocket class with the bearer token on the upgrade request (browsers' WebSocket cannot set headers). */
export function bearerWebSocket(token: string): new (url: string | URL, protocols?: string | string[], opts?: ClientOptions) => WebSocket {
  return class BearerWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[], opts?: ClientOptions) {
      super(url, protocols, { ...opts, headers: { ...opts?.headers, Authorization: `Bearer ${token}` } });
    }
  };
}

/** Connects to `adminUrl` (http://host:port) with `token`. */
export function createAdminClient(adminUrl: string, token: string, opts: { transport?: 'split' | 'ws' } = {}): AdminTestClient {
  const wsClient = createWSClient({
    url: `${adminUrl.replace(/^http/, 'ws')}/trpc`,
    // The tRPC client types the browser's WebSocket; the ws package's class is what Node tests use.
    WebSocket: bearerWebSocket(token) as unknown as typeof globalThis.WebSocket,
    retryDelayMs: () => 200,
  });
  const ws = wsLink<AppRouter>({ client: wsClient });
  const http = httpBatchLink<AppRouter>({ url: `${adminUrl}/trpc`, headers: { Authorization: `Bearer ${token}` } });
  const client = createTRPCClient<AppRouter>({
    links: [opts.transport === 'ws' ? ws : splitLink({ condition: (op) => op.type === 'subscription', true: ws, false: http })],
  });
  return { client, close: () => wsClient.close() };
}

/** Collects the first `n` values of a subscription; rejects on the subscription's error. */
export function firstValues<T>(subscribe: (h: { onData: (v: T) => void; onError: (e: unknown) => void }) => { unsubscribe(): void }, n: number): Promise<T[]> {
  return new Promise<T[]>((resolve, reject) => {
    const got: T[] = [];
    const sub = subscribe({
      onData: (v) => {
        got.push(v);
        if (got.length === n) {
          sub.unsubscribe();
          resolve(got);
        }
      },
      onError: (e) => {
        sub.unsubscribe();
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    });
  });
}
