import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { CLOSE } from '../../protocol/editor.ts';
import type { OdeConfig } from '../config/schema.ts';
import type { OdeError } from '../errors.ts';
import { ViewSession, type SessionDeps } from '../sessions/view-session.ts';
import { checkWopiHost, parseWopiSrc } from '../wopi/wopi-src.ts';
import type { NodeDrain } from '../cluster/node-drain.ts';

/** Paths of the editing socket (editor.md, "Transport"); `/cool/ws` for editors written for Collabora's paths. */
export const EDITING_PATHS = ['/ode/ws', '/cool/ws'];

function refuse(socket: Duplex, status: number, code: string, message: string, serverId: string): void {
  const body = JSON.stringify({ code, message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Ode-Server-Id: ${serverId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Serves the editing WebSocket on an HTTP server: `GET /ode/ws?WOPISrc=...` upgraded when the WOPISrc is valid
 * and its host allowed (storage.wopi.hosts), else answered 400/403 with a JSON error naming the fix. Each socket
 * becomes a ViewSession. The socket layer is thin: the documents own everything else (STYLE.md, Hocuspocus).
 * While the node drains (`cluster.node`), a new socket is refused 503 `draining`; every answer, the 101 included,
 * names the node in X-Ode-Server-Id.
 * @returns a function that closes every socket (used when the daemon stops, after the exit saves).
 */
export function attachEditingSockets(server: Server, config: () => OdeConfig, deps: SessionDeps, cluster: { node: NodeDrain; serverId: string }): () => void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });
  wss.on('headers', (headers) => headers.push(`X-Ode-Server-Id: ${cluster.serverId}`));
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!EDITING_PATHS.includes(url.pathname))
      return refuse(socket, 400, 'not_found', `No WebSocket endpoint at ${url.pathname}; the editor connects to /ode/ws.`, cluster.serverId);
    let src: ReturnType<typeof parseWopiSrc>;
    try {
      src = parseWopiSrc(url.searchParams.get('WOPISrc') ?? undefined);
      checkWopiHost(src, config().storage.wopi.hosts);
      cluster.node.refuseNew('a new editing socket');
    } catch (e) {
      const err = e as OdeError;
      deps.log.warn({ err: err.message }, 'editing socket refused');
      return refuse(socket, err.status ?? 400, err.code ?? 'bad_request', err.message, cluster.serverId);
    }
    wss.handleUpgrade(req, socket, head, (ws) => new ViewSession(ws, src, deps));
  });
  return () => {
    for (const ws of wss.clients) ws.close(CLOSE.goingAway, 'the server is stopping');
    wss.close();
  };
}
