import { decodeTileFrame, type ClientMessage, type ServerMessage, type TileHeader } from '../../protocol/editor.ts';
import type { HostPageConfig } from '../../protocol/host-page.ts';
import { browserTimezone } from './core/timezone.ts';
import { deviceFormFactor } from './mobile/device.ts';

/**
 * What the editor page carries (routes/editor-page.ts): the WOPISrc, the token and the iframe settings, and what
 * the host's form and Ode's config add (protocol/host-page.ts: css_variables, ui_defaults, the origin policy).
 */
export interface EditorConfig extends HostPageConfig {
  wopiSrc: string;
  accessToken: string;
  accessTokenTtl?: number;
  checkFileInfoOverride?: string;
  /** Id of the CheckFileInfo started for this page load, sent back in `load`. */
  prefetch?: string;
  socketPath: string;
  settings: Record<string, string>;
  version: string;
  resources: string;
  /** The serving node's id (X-Ode-Server-Id; random per daemon process): a reconnection that lands elsewhere knows the node was lost. */
  serverId?: string;
}

/** Reads the page's `#ode-config` JSON. @throws Error when the page carries none. */
export function readConfig(doc: Document): EditorConfig {
  const el = doc.getElementById('ode-config');
  if (!el?.textContent) throw new Error('this page carries no editor configuration');
  return JSON.parse(el.textContent) as EditorConfig;
}

/** The editing socket (daemon/protocol/editor.md): JSON messages both ways, tiles as binary frames. */
export class Connection {
  private readonly ws: WebSocket;

  constructor(
    config: EditorConfig,
    onMessage: (msg: ServerMessage) => void,
    onTile: (header: TileHeader, png: Uint8Array) => void,
    onClose: (code: number, reason: string) => void,
  ) {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    this.ws = new WebSocket(`${scheme}://${location.host}${config.socketPath}?WOPISrc=${encodeURIComponent(config.wopiSrc)}`);
    this.ws.binaryType = 'arraybuffer';
    this.ws.addEventListener('open', () =>
      this.send({
        type: 'load',
        token: config.accessToken,
        tokenTtl: config.accessTokenTtl,
        lang: config.settings.lang,
        readonly: config.settings.permission === 'readonly',
        checkFileInfoOverride: config.checkFileInfoOverride,
        // The CheckFileInfo the page load started for this editor (routes/editor-page.ts): this load uses it, no other.
        prefetch: config.prefetch,
        deviceFormFactor: deviceFormFactor(),
        // Iframe parameters the daemon and the slides module use: the document's modification time, slideshow at start.
        timestamp: config.settings.timestamp || undefined,
        startPresentation: config.settings.startPresentation === undefined ? undefined : config.settings.startPresentation !== 'false',
        // The user's time zone, for LibreOffice's date/time fields and NOW() in this view (setViewTimezone).
        timezone: browserTimezone(),
      }),
    );
    this.ws.addEventListener('message', (e: MessageEvent<string | ArrayBuffer>) => {
      if (typeof e.data === 'string') onMessage(JSON.parse(e.data) as ServerMessage);
      else {
        const { header, payload } = decodeTileFrame(new Uint8Array(e.data));
        onTile(header, payload);
      }
    });
    this.ws.addEventListener('close', (e) => onClose(e.code, e.reason));
  }

  send(msg: ClientMessage): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }
}
