import WebSocket, { type ClientOptions } from 'ws';
import { decodeTileFrame, type ClientMessage, type ServerMessage, type TileHeader } from '../../daemon/protocol/editor.ts';

/** A message received, as the daemon sent it. */
type Received = ServerMessage & Record<string, unknown>;

/**
 * A real WebSocket client speaking daemon/protocol/editor.md, standing in for the browser editor in tests: it
 * records every message and tile, and waits for the ones a test expects.
 */
export class EditorClient {
  readonly messages: Received[] = [];
  readonly tiles: Array<{ header: TileHeader; payload: Uint8Array }> = [];
  closeCode: number | undefined;
  closeReason = '';
  /** The node that accepted the socket (X-Ode-Server-Id of the 101 answer), behind a load balancer. */
  serverId: string | undefined;
  private readonly ws: WebSocket;
  private waiters: Array<() => void> = [];

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data, isBinary) => {
      if (isBinary) this.tiles.push(decodeTileFrame(new Uint8Array(data as Buffer)));
      else {
        const msg = JSON.parse(data.toString()) as Received;
        this.messages.push(msg);
        // As the editor does (editor.md "Transport"): a drain waits for this answer before saving.
        if (msg.type === 'ping' && ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'pong', id: msg.id }));
      }
      this.notify();
    });
    ws.on('close', (code, reason) => {
      this.closeCode = code;
      this.closeReason = reason.toString();
      this.notify();
    });
  }

  /** Connects to `<daemonUrl>/ode/ws?WOPISrc=...`; `wsOptions` e.g. `{ ca }` for a proxy's test certificate. */
  static async connect(daemonUrl: string, wopiSrc: string, wsOptions?: ClientOptions): Promise<EditorClient> {
    const ws = new WebSocket(`${daemonUrl.replace(/^http/, 'ws')}/ode/ws?WOPISrc=${encodeURIComponent(wopiSrc)}`, wsOptions);
    let serverId: string | undefined;
    ws.once('upgrade', (res) => (serverId = res.headers['x-ode-server-id'] as string | undefined));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
    const client = new EditorClient(ws);
    client.serverId = serverId;
    return client;
  }

  /** Connects and loads: resolves with the `status` message once the view is live. */
  static async open(
    daemonUrl: string,
    wopiSrc: string,
    load: Omit<Extract<ClientMessage, { type: 'load' }>, 'type'>,
    timeoutMs = 60_000,
    wsOptions?: ClientOptions,
  ): Promise<{ client: EditorClient; status: Extract<ServerMessage, { type: 'status' }> }> {
    const client = await EditorClient.connect(daemonUrl, wopiSrc, wsOptions);
    client.send({ type: 'load', ...load });
    const status = await client.next('status', () => true, timeoutMs);
    return { client, status: status as Extract<ServerMessage, { type: 'status' }> };
  }

  send(msg: ClientMessage): void {
    this.ws.send(JSON.stringify(msg));
  }

  /** Types text with key events (LOK: KEYINPUT + KEYUP per character). */
  type(text: string): void {
    for (const ch of text) {
      const charCode = ch.codePointAt(0)!;
      this.send({ type: 'key', event: 'input', charCode, keyCode: 0 });
      this.send({ type: 'key', event: 'up', charCode, keyCode: 0 });
    }
  }

  private notify(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Waits for a message of `type` matching `pred` received after `from` (an index into `messages`). */
  async next<T extends ServerMessage['type']>(
    type: T,
    pred: (m: Extract<ServerMessage, { type: T }>) => boolean = () => true,
    timeoutMs = 30_000,
    from = 0,
  ): Promise<Extract<ServerMessage, { type: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.messages.slice(from).find((m) => m.type === type && pred(m as Extract<ServerMessage, { type: T }>));
      if (hit) return hit as Extract<ServerMessage, { type: T }>;
      if (this.closeCode !== undefined)
        throw new Error(`socket closed (${this.closeCode} ${this.closeReason}) while waiting for ${type}; got: ${this.messages.map((m) => m.type).join(', ')}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type} within ${timeoutMs} ms; got: ${this.messages.map((m) => m.type).join(', ')}`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  /** Waits until the socket is closed; resolves with the close code. */
  async closed(timeoutMs = 30_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.closeCode === undefined) {
      if (Date.now() > deadline) throw new Error('the socket was not closed');
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.closeCode;
  }

  close(): void {
    this.ws.close();
  }
}
