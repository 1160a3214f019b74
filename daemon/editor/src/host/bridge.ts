import { decodePostMessage, encodePostMessage, type DecodedMessage, type EditorToHost, type EditorToHostId } from '../../../protocol/postmessage.ts';

/** The window parts the bridge uses (a test may hand in its own). */
type BridgeWindow = Pick<Window, 'addEventListener' | 'parent' | 'location'>;

/**
 * The PostMessage channel to the host page (daemon/protocol/postmessage.md "Envelope and security"). Two ways to
 * know whom to talk to, decided once CheckFileInfo is answered:
 * - `setOrigin(PostMessageOrigin)`: messages go only to that origin, and only messages whose `event.origin` is that
 *   origin and whose source is `window.parent` are taken (Ode's strict rule, the spec's).
 * - `useParent()`, when CheckFileInfo has no PostMessageOrigin and `net.post_message_origin_required` is false
 *   (Collabora Online's behaviour: Map.WOPI.js posts to `'*'` then): messages go to the parent frame's origin as
 *   the browser reports it (`location.ancestorOrigins[0]`; `'*'` where the browser has no ancestorOrigins), and
 *   messages are taken from `window.parent` only (and, when ancestorOrigins exists, only from that origin).
 * Until then nothing is sent: messages posted before are queued (at most 100; dropped if neither ever comes).
 */
export class HostBridge {
  /** postMessage's targetOrigin once known: an origin, or `'*'` (parent mode without ancestorOrigins). */
  private target: string | undefined;
  /** The origin incoming messages must come from; undefined in parent mode without ancestorOrigins. */
  private accepted: string | undefined;
  private readonly queue: string[] = [];
  private readonly handlers = new Map<string, (values: Record<string, unknown>, msg: DecodedMessage) => void>();
  /** Every message in and out, for the debug overlay. */
  onTraffic: (direction: 'in' | 'out' | 'dropped', messageId: string, values: unknown) => void = () => undefined;

  constructor(private readonly win: BridgeWindow = window) {
    win.addEventListener('message', (e) => this.receive(e));
  }

  /** True when the editor runs in a frame and knows whom to talk to. */
  get connected(): boolean {
    return this.target !== undefined && this.win.parent !== this.win;
  }

  /** The host's origin (PostMessageOrigin, or the parent's origin in parent mode), if known. */
  get postMessageOrigin(): string | undefined {
    return this.accepted;
  }

  /**
   * Sets the host's origin (CheckFileInfo PostMessageOrigin) once; queued messages go out. Returns true the first
   * time the bridge learns whom to talk to (by this or by useParent).
   */
  setOrigin(origin: unknown): boolean {
    if (this.target !== undefined || typeof origin !== 'string' || !origin) return false;
    let parsed: string;
    try {
      parsed = new URL(origin).origin;
    } catch {
      console.warn(`[ode] PostMessageOrigin "${origin}" is not a URL: no PostMessage will be sent or taken`);
      return false;
    }
    this.accepted = parsed;
    this.open(parsed);
    return true;
  }

  /**
   * Parent mode (no PostMessageOrigin, the origin not required): talks to the parent frame, as Collabora does.
   * Returns true the first time the bridge learns whom to talk to; false when it already knew, or when the editor
   * is not in a frame.
   */
  useParent(): boolean {
    if (this.target !== undefined || this.win.parent === this.win) return false;
    const ancestor = this.win.location.ancestorOrigins?.[0];
    // An opaque parent (sandboxed, "null") cannot be named: '*' reaches it, and nothing from it is taken (as Collabora).
    this.accepted = ancestor && ancestor !== 'null' ? ancestor : undefined;
    this.open(this.accepted ?? '*');
    if (!this.accepted) console.warn('[ode] No PostMessageOrigin and no ancestorOrigins: PostMessages go to the parent frame with targetOrigin "*"');
    return true;
  }

  /** Posts one message to the host (queued until the bridge knows whom to talk to). */
  send<K extends EditorToHostId>(messageId: K, values: EditorToHost[K]): void {
    if (this.win.parent === this.win) return;
    const data = encodePostMessage(messageId, values);
    this.onTraffic('out', messageId, values);
    if (this.target) this.win.parent.postMessage(data, this.target);
    else if (this.queue.length < 100) this.queue.push(data);
  }

  /** Handles messages `messageId` from the host (one handler per id). */
  on(messageId: string, fn: (values: Record<string, unknown>, msg: DecodedMessage) => void): void {
    this.handlers.set(messageId, fn);
  }

  private open(target: string): void {
    this.target = target;
    for (const data of this.queue.splice(0)) this.win.parent.postMessage(data, target);
  }

  /** True when a message event comes from the host as the mode in force defines it. */
  private fromHost(e: MessageEvent): boolean {
    if (this.target === undefined || e.source !== this.win.parent || e.origin === 'null') return false;
    return this.accepted === undefined || e.origin === this.accepted;
  }

  private receive(e: MessageEvent): void {
    if (e.source === this.win) return;
    const msg = decodePostMessage(e.data);
    if (!this.fromHost(e)) {
      console.warn(
        `[ode] PostMessage dropped: from ${e.origin} ${e.source === this.win.parent ? '(parent)' : '(not the parent)'}, expected ${this.accepted ?? (this.target ? 'the parent frame' : 'no PostMessageOrigin')}`,
        msg?.MessageId,
      );
      this.onTraffic('dropped', msg?.MessageId ?? '?', e.origin);
      return;
    }
    if (!msg) return void console.warn('[ode] PostMessage dropped: not an envelope {MessageId, Values}');
    this.onTraffic('in', msg.MessageId, msg.Values);
    const fn = this.handlers.get(msg.MessageId);
    if (!fn) return void console.info(`[ode] PostMessage ${msg.MessageId} is not handled`);
    try {
      fn(msg.Values, msg);
    } catch (err) {
      console.error(`[ode] PostMessage ${msg.MessageId} failed`, err);
    }
  }
}
