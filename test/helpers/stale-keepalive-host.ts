import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type Agent, fetch as undiciFetch } from 'undici';
import type { HostFetch } from '../../daemon/server/http/host-tls.ts';

/** A request the host received (destroyed ones too): method, path, whether it came on a connection it had answered. */
export interface SeenRequest {
  method: string;
  path: string;
  reused: boolean;
}

/** A host whose kept-alive connections close as the next request goes out on them (`startStaleKeepAliveHost`). */
export interface StaleKeepAliveHost {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Every request received, in order; tests empty it between cases. */
  readonly seen: SeenRequest[];
  /** 'destroy' (the default): a request on a connection already answered is destroyed unanswered; 'answer': served. */
  reused: 'answer' | 'destroy';
  /** The node http server (a test may add its own 'request' listener). */
  readonly server: Server;
  stop(): Promise<void>;
}

/**
 * A real node http server that plays a host whose keep-alive time-out races the next request (undici's
 * `UND_ERR_SOCKET` "other side closed"; issue 17, item 2): every request arriving on a connection it already answered
 * is destroyed unanswered (while `reused` is 'destroy'); the others go to `answer` with their URL path. The server's
 * own keepAliveTimeout is long, so the race is played by `reused`, deterministically.
 */
export async function startStaleKeepAliveHost(answer: (req: IncomingMessage, res: ServerResponse, path: string) => void): Promise<StaleKeepAliveHost> {
  const served = new WeakSet<Socket>();
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://h').pathname;
    const again = served.has(req.socket);
    seen.push({ method: req.method ?? '', path, reused: again });
    req.resume();
    if (again && host.reused === 'destroy') {
      req.socket.destroy();
      return;
    }
    served.add(req.socket);
    answer(req, res, path);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const host: StaleKeepAliveHost = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    reused: 'destroy',
    server,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  return host;
}

/** A HostFetch over undici's fetch with `agent` as its connection pool, as the daemon's HostTls uses them. */
export function agentFetch(agent: Agent): HostFetch {
  return async (url, init) => (await undiciFetch(url, { ...(init as object), dispatcher: agent } as Parameters<typeof undiciFetch>[1])) as unknown as Response;
}

/**
 * The pause between two requests of a user: undici puts a connection back in its pool a few turns of the event loop
 * after the answer's body was read, so a request sent at once goes on a new connection (seen in node 20); after a
 * pause it goes on the kept-alive one, which is the case the tests play. Each test asserts the reuse happened.
 */
export const idle = (): Promise<void> => new Promise((r) => setTimeout(r, 200));
