import { connect } from 'node:net';

/** What a raw request got: the status (0 when the connection closed without an answer), the JSON body, the time. */
export interface RawAnswer {
  status: number;
  body: string;
  json?: { code?: string; message?: string };
  ms: number;
}

/**
 * Sends `head` + `body` bytes as they are over a TCP connection (no client library fixes them up) and reads the
 * first answer. `end` says what the client does after writing: 'wait' keeps the connection open, 'half' ends its
 * side, 'destroy' resets it (then no answer is expected). Resolves at the first complete answer, on close, or
 * after `timeoutMs` (status 0).
 */
export function rawRequest(
  url: string,
  head: string,
  body: Buffer | string,
  end: 'wait' | 'half' | 'destroy' = 'wait',
  timeoutMs = 15_000,
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let data = Buffer.alloc(0);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = data.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      const split = text.indexOf('\r\n\r\n');
      const bodyText = split >= 0 ? Buffer.from(text.slice(split + 4), 'latin1').toString('utf8') : '';
      let json: RawAnswer['json'];
      try {
        json = JSON.parse(bodyText);
      } catch {
        json = undefined;
      }
      resolve({ status: m ? Number(m[1]) : 0, body: bodyText, json, ms: performance.now() - started });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const text = data.toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return;
      const len = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, split));
      if (len && data.length >= split + 4 + Number(len[1])) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
    socket.on('connect', () => {
      socket.write(head);
      if (end === 'destroy') {
        socket.write(body, () => setTimeout(() => socket.resetAndDestroy(), 50));
        return;
      }
      socket.write(body);
      if (end === 'half') socket.end();
    });
  });
}

/** Request head for a POST of `length` bytes (or no Content-Length when undefined) with extra header lines. */
export function postHead(path: string, contentType: string | undefined, length: number | undefined, extra: string[] = []): string {
  const lines = [
    `POST ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    ...(contentType ? [`Content-Type: ${contentType}`] : []),
    ...(length !== undefined ? [`Content-Length: ${length}`] : []),
    ...extra,
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}
