import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { OdeError } from '../errors.ts';

/**
 * The server's 'clientError' handler: a request Node's HTTP parser refuses (bad request line or headers, headers
 * past the 16 KB limit, a malformed chunked body, a Content-Length that is not a number, a body longer than its
 * Content-Length running into the next "request") gets the catalogue's JSON error with a log line, instead of
 * Node's bare 400, and the connection is closed. Node calls it only on the parser's errors; the daemon goes on.
 */
export function onClientError(log: Logger): (err: Error & { code?: string }, socket: Socket) => void {
  return (err, socket) => {
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const e = tooLarge ? new OdeError('headers_too_large') : new OdeError('bad_request', `The HTTP request is malformed (${err.code ?? 'parse error'}).`);
    log.warn({ code: e.code, parser: err.code, status: e.status }, 'request refused by the HTTP parser');
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const body = JSON.stringify(e.toJSON());
    const reason = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
    socket.end(
      `HTTP/1.1 ${e.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };
}
