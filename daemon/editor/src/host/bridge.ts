import { decodePostMessage, encodePostMessage, type DecodedMessage, type EditorToHost, type EditorToHostId } from '../../../protocol/postmessage.ts';

/**
 * The PostMessage channel to the host page (daemon/protocol/postmessage.md): messages go only to the host's
 * PostMessageOrigin, and only messages whose `event.origin` is that origin and whose source is `window.parent` are
 * taken; the others are logged and dropped. Until the origin is known (the `loading` message after CheckFileInfo),
 * nothing is sent: messages posted before are queued (and dropped if no origin ever comes).
 */
export class HostBridge {
  private origin: string | undefined;
  private readonly queue: string[] = [];
  private readonly handlers = new Map<string, (values: Record<string, unknown>, msg: DecodedMessage) => void>();
  /** Every message in and out, for the debug overlay. */
  onTraffic: (direction: 'in' | 'out' | 'dropped', messageId: string, values: unknown) => void = () => undefined;

  constructor(private readonly win: Window = window) {
    win.addEventListener('message', (e) => this.receive(e));
  }

  /** True when the editor runs in a frame whose host told its origin. */
  get connected(): boolean {
    return this.origin !== undefined && this.win.parent !== this.win;
  }

  get postMessageOrigin(): string | undefined {
    return this.origin;
  }

  /** Sets the host's origin (CheckFileInfo PostMessageOrigin) once; queued messages go out. Returns true the first time. */
  setOrigin(origin: unknown): boolean {
    if (this.origin !== undefined || typeof origin !== 'string' || !origin) return false;
    try {
      this.origin = new URL(origin).origin;
    } catch {
      console.warn(`[ode] PostMessageOrigin "${origin}" is not a URL: no PostMessage will be sent or taken`);
      return false;
    }
    for (const data of this.queue.splice(0)) this.win.parent.postMessage(data, this.origin);
    return true;
  }

  /** Posts one message to the host (queued until the origin is known). */
  send<K extends EditorToHostId>(messageId: K, values: EditorToHost[K]): void {
    if (this.win.parent === this.win) return;
    const data = encodePostMessage(messageId, values);
    this.onTraffic('out', messageId, values);
    if (this.origin) this.win.parent.postMessage(data, this.origin);
    else if (this.queue.length < 100) this.queue.push(data);
  }

  /** Handles messages `messageId` from the host (one handler per id). */
  on(messageId: string, fn: (values: Record<string, unknown>, msg: DecodedMessage) => void): void {
    this.handlers.set(messageId, fn);
  }

  private receive(e: MessageEvent): void {
    if (e.source === this.win) return;
    const msg = decodePostMessage(e.data);
    if (!this.origin || e.origin !== this.origin || e.source !== this.win.parent) {
      console.warn(`[ode] PostMessage dropped: from ${e.origin} ${e.source === this.win.parent ? '(parent)' : '(not the parent)'}, expected ${this.origin ?? 'no PostMessageOrigin'}`, msg?.MessageId);
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
