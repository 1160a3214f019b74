import type { ClientMessage, ServerMessage, TileHeader, ViewInfo } from '../../../protocol/editor.ts';
import { Connection, type EditorConfig } from '../connection.ts';
import { Emitter } from './emitter.ts';

/** One server message type's shape. */
export type Msg<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>;

/** The session's events: one per server message type, plus the socket's close and tiles. */
export type SessionEvents = { [T in ServerMessage['type']]: (msg: Msg<T>) => void } & {
  /** Every server message, after its own listeners. */
  message: (msg: ServerMessage) => void;
  /** A binary tile frame. */
  tile: (header: TileHeader, png: Uint8Array) => void;
  /** The socket closed (editor.md "Close codes"). */
  closed: (code: number, reason: string) => void;
  /** A message this editor sent (the PostMessage bridge and the debug overlay watch them). */
  sent: (msg: ClientMessage) => void;
};

/** What the editor knows of its view, kept up to date from the server's messages. */
export interface SessionState {
  /** The `status` message once the view is live (docType, parts, fileInfo, ...). */
  status?: Msg<'status'>;
  views: ViewInfo[];
  modified: boolean;
  /** Ever modified in this session (PostMessage UI_Close `EverModified`). */
  everModified: boolean;
  /** Last value of each UNO state (`.uno:Bold` -> "true", `.uno:CharFontName` -> "Liberation Serif", ...). */
  states: Map<string, string>;
  /** The current part (sheet, slide, page). */
  part: number;
  closed?: { code: number; reason: string };
  /** The daemon said `draining` (editor.md): the view sends no more input; it is closed with 4503 and reopened. */
  draining?: boolean;
}

/**
 * The editing socket as the editor's modules use it (daemon/protocol/editor.md): typed events per server message,
 * `send`, `request` for the messages that are answered, and the view's state.
 */
export class EditorSession extends Emitter<SessionEvents> {
  readonly state: SessionState = { views: [], modified: false, everModified: false, states: new Map(), part: 0 };
  private readonly connection: Connection;

  constructor(readonly config: EditorConfig) {
    super();
    this.connection = new Connection(
      config,
      (m) => this.dispatch(m),
      (h, png) => this.emit('tile', h, png),
      (code, reason) => {
        this.state.closed = { code, reason };
        this.emit('closed', code, reason);
      },
    );
  }

  /** True when the view is live and may send input. */
  get live(): boolean {
    return this.state.status !== undefined && this.state.closed === undefined;
  }

  /**
   * Runs `fn` with every message about to be sent; it may send others first (they arrive before it), e.g. the
   * formula bar enters its text before a `save`. Returns the function that removes it. (A plain list rather than
   * an event of SessionEvents: one more key there sent tsc's checking of the editor past 6 GB.)
   */
  beforeSend(fn: (msg: ClientMessage) => void): () => void {
    this.beforeSendHooks.add(fn);
    return () => this.beforeSendHooks.delete(fn);
  }

  private readonly beforeSendHooks = new Set<(msg: ClientMessage) => void>();

  /**
   * Sends one message (dropped when the socket is not open, and once the node drains: editor.md `draining`, the
   * daemon saves what it has and the document is reopened on another node).
   */
  send(msg: ClientMessage): void {
    if (this.state.draining) return;
    for (const fn of [...this.beforeSendHooks]) fn(msg);
    this.connection.send(msg);
    this.emit('sent', msg);
  }

  /** A UNO command (postUnoCommand); `args` as LOK's JSON arguments object. */
  uno(command: string, args?: Record<string, { type: string; value: unknown }>, notify = false): void {
    this.send({ type: 'uno', command, args: args ? JSON.stringify(args) : undefined, notify: notify || undefined });
  }

  /**
   * Sends `msg` and resolves with the first server message of type `reply` that `match` accepts.
   * @throws Error after `timeoutMs` (default 30 000 ms) or when the socket closes first.
   */
  request<T extends ServerMessage['type']>(msg: ClientMessage, reply: T, match: (m: Msg<T>) => boolean = () => true, timeoutMs = 30_000): Promise<Msg<T>> {
    return new Promise((resolve, reject) => {
      const offs: Array<() => void> = [];
      const done = () => {
        clearTimeout(timer);
        for (const off of offs) off();
      };
      const timer = setTimeout(() => (done(), reject(new Error(`no ${reply} within ${timeoutMs} ms`))), timeoutMs);
      offs.push(
        this.on(reply, ((m: Msg<T>) => {
          if (!match(m)) return;
          done();
          resolve(m);
        }) as SessionEvents[T]),
      );
      offs.push(this.on('closed', (code, reason) => (done(), reject(new Error(`the connection closed (${code} ${reason})`)))));
      this.send(msg);
    });
  }

  private dispatch(m: ServerMessage): void {
    switch (m.type) {
      case 'status':
        this.state.status = m;
        this.state.part = m.part;
        break;
      case 'part':
        this.state.part = m.part;
        break;
      case 'views':
        this.state.views = m.views;
        break;
      case 'modified':
        this.state.modified = m.modified;
        if (m.modified) this.state.everModified = true;
        break;
      case 'stateChanged':
        this.state.states.set(m.command, m.value);
        break;
      case 'ping':
        // Answered even while draining: the daemon's ping after `draining` waits for it (editor.md "Transport").
        this.connection.send({ type: 'pong', id: m.id });
        break;
      case 'draining':
        this.state.draining = true;
        break;
      case 'documentSize':
        if (this.state.status && m.parts >= 0)
          this.state.status = { ...this.state.status, parts: m.parts, partNames: m.partNames, width: m.width, height: m.height };
        break;
      default:
        break;
    }
    (this.emit as (e: string, m: ServerMessage) => void)(m.type, m);
    this.emit('message', m);
  }
}
