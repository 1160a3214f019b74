/**
 * One editor socket: one user's view of one document (editor.md, "Lifecycle (one view)").
 *
 * | state      | entered when                         | leaves to                                   |
 * |------------|--------------------------------------|---------------------------------------------|
 * | connecting | the socket opened                    | loading (`load` with a token the host accepts), closed |
 * | loading    | CheckFileInfo answered               | live (joined the document), closed (4500)   |
 * | live       | `status` sent                        | closed                                      |
 * | closed     | either side closed                   | -                                           |
 */
import { extname } from 'node:path';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { CLOSE, ProtocolError, encodeTileFrame, parseClientMessage, type ClientMessage, type ServerMessage } from '../../protocol/editor.ts';
import type { EditDocument } from '../documents/edit-document.ts';
import type { CachedTile } from '../documents/tile-cache.ts';
import { featurePolicy, gateOf } from '../documents/feature-policy.ts';
import { isCommentCommand } from '../documents/input-policy.ts';
import type { DocumentRegistry } from '../documents/registry.ts';
import type { ViewHandle } from '../documents/view-handle.ts';
import { OdeError } from '../errors.ts';
import { Citations, citationKey } from '../citations/citations.ts';
import type { OdeConfig } from '../config/schema.ts';
import { ESignatureFlow, eSignatureAvailable } from '../esignature/esignature-flow.ts';
import type { FileInfo } from '../wopi/check-file-info.ts';
import type { WopiClient } from '../wopi/wopi-client.ts';
import { WopiError } from '../wopi/wopi-error.ts';
import type { WopiSrc } from '../wopi/wopi-src.ts';
import type { DownloadStore } from './downloads.ts';
import type { CheckFileInfoPrefetch } from '../editor-page/prefetch.ts';
import { exportForView } from './export.ts';

/** What a session needs from the daemon. */
export interface SessionDeps {
  registry: DocumentRegistry;
  client: WopiClient;
  downloads: DownloadStore;
  /** CheckFileInfo answers the editor page already started. */
  prefetch?: CheckFileInfoPrefetch;
  log: Logger;
  /** The update check: views whose CheckFileInfo says IsAdminUser are told of a newer version (updateAvailable). */
  updates?: { get(refresh: boolean): Promise<{ newer: boolean; current: string; available?: string }> };
  /** The configuration (the citation service's URL, the e-signature polling); defaults apply without it. */
  config?: () => OdeConfig;
}

/** Time before access_token_ttl at which the user is warned (spec: Limits, 15 minutes). */
const TOKEN_WARNING_MS = 15 * 60 * 1000;

/** One editor socket (state table above); implements the document's view handle. */
export class ViewSession implements ViewHandle {
  fileInfo!: FileInfo;
  token = '';
  tokenTtl: number | undefined;
  readonly = true;
  commentsOnly = false;
  viewId = -1;
  lang: string | undefined;
  deviceFormFactor: string | undefined;
  timezone: string | undefined;
  private state: 'connecting' | 'loading' | 'live' | 'closed' = 'connecting';
  private doc: EditDocument | undefined;
  private tokenTimer: NodeJS.Timeout | undefined;
  private readonly sentTiles = new Map<string, number>();
  /** This view's electronic signature and citations (created on first use; their credentials stay in the daemon). */
  private eSign: ESignatureFlow | undefined;
  private citations: Citations | undefined;
  private readonly log: Logger;
  /** Pings sent by flush(), by id, waiting for their pong. */
  private readonly pongWaiters = new Map<number, () => void>();
  private nextPing = 1;
  /** The comment this view's user is writing in the browser (`commentDraft`), sent as its `uno` if the socket closes first. */
  private commentDraft: { command: string; args?: string } | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly src: WopiSrc,
    private readonly deps: SessionDeps,
  ) {
    this.log = deps.log.child({ doc: src.key });
    ws.on('message', (data, isBinary) => {
      if (isBinary) return this.close(CLOSE.protocol, 'binary frames are not accepted from the editor');
      void this.onText(data.toString()).catch((e: unknown) => this.fail(e));
    });
    ws.on('close', () => void this.closed());
    ws.on('error', (e) => this.log.debug({ err: e.message }, 'editor socket error'));
  }

  send(msg: ServerMessage): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(msg));
  }

  sendBinary(frame: Uint8Array): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(frame, { binary: true });
  }

  close(code: number, reason: string): void {
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code, reason.slice(0, 120));
  }

  flush(timeoutMs: number): Promise<void> {
    if (this.ws.readyState !== this.ws.OPEN) return Promise.resolve();
    const id = this.nextPing++;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.pongWaiters.delete(id);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.pongWaiters.set(id, done);
      this.ws.once('close', done);
      this.send({ type: 'ping', id });
    });
  }

  private fail(e: unknown): void {
    if (e instanceof ProtocolError) return this.close(CLOSE.protocol, e.message);
    const err = e as Error;
    // A request of a view that left (a tile still being painted when the last view closed and its kit stopped) has
    // nobody to answer: not a failure worth a warning.
    if (this.ws.readyState !== this.ws.OPEN) return void this.log.debug({ err: err.message }, 'editor request ended after the view left');
    this.log.warn({ err: err.message }, 'editor request failed');
    this.send({ type: 'error', code: e instanceof OdeError ? e.code : e instanceof WopiError ? e.kind : 'internal', message: err.message });
  }

  private async onText(text: string): Promise<void> {
    const msg = parseClientMessage(text);
    if (msg.type === 'ping') return this.send({ type: 'pong', id: msg.id });
    if (msg.type === 'pong') return void this.pongWaiters.get(msg.id)?.();
    if (this.state === 'connecting') {
      if (msg.type !== 'load') throw new ProtocolError(`the first message must be "load", not "${msg.type}"`);
      return this.load(msg);
    }
    if (this.state !== 'live' || !this.doc) return;
    // A comment command of this view: the comment being written was sent (or another one ended it).
    if (msg.type === 'uno' && isCommentCommand(msg)) this.commentDraft = undefined;
    if (this.refused(msg)) return;
    await this.dispatch(msg, this.doc);
  }

  /**
   * IsUserLocked / IsUserRestricted (feature-policy.ts): a request of a locked or restricted feature is refused
   * whatever the editor shows, with a log line. Save As and Rename are answered as their failure (the editor waits
   * for `savedAs` / `renamed`), everything else with an `error` frame naming the feature.
   */
  private refused(msg: ClientMessage): boolean {
    const r = gateOf(featurePolicy(this.fileInfo), msg);
    if (!r) return false;
    this.log.warn(
      { feature: r.feature, kind: r.kind, type: msg.type, command: msg.type === 'uno' ? msg.command : undefined, user: this.fileInfo.UserId },
      `${r.kind} feature refused`,
    );
    const error = { code: r.code, message: r.message };
    if (msg.type === 'saveAs') this.send({ type: 'savedAs', ok: false, error });
    else if (msg.type === 'rename') this.send({ type: 'renamed', ok: false, error });
    else this.send({ type: 'error', ...error, feature: r.feature });
    return true;
  }

  private async load(msg: Extract<ClientMessage, { type: 'load' }>): Promise<void> {
    this.state = 'loading';
    this.token = msg.token;
    this.lang = msg.lang;
    this.deviceFormFactor = msg.deviceFormFactor;
    // An IANA zone name (Area/Location, letters, digits, _+-); anything else is ignored (LibreOffice's own zone).
    this.timezone =
      msg.timezone && /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/.test(msg.timezone) && msg.timezone.length <= 64 ? msg.timezone : undefined;
    this.send({ type: 'loading', stage: 'checkfileinfo' });
    try {
      const prefetched = this.deps.prefetch?.take(this.src.key, msg.token, msg.checkFileInfoOverride, msg.prefetch);
      this.fileInfo = await (prefetched ?? this.deps.client.checkFileInfo(this.src, msg.token, msg.checkFileInfoOverride));
    } catch (e) {
      const unauthorized = e instanceof WopiError && e.kind === 'unauthorized';
      this.log.warn({ err: (e as Error).message }, 'CheckFileInfo failed');
      this.send({ type: 'error', code: unauthorized ? 'unauthorized' : 'checkfileinfo_failed', message: (e as Error).message });
      return this.close(unauthorized ? CLOSE.unauthorized : CLOSE.failed, unauthorized ? 'the host refused the access token' : 'CheckFileInfo failed');
    }
    const unknownFeatures = featurePolicy(this.fileInfo).unknown;
    if (unknownFeatures.length)
      this.log.warn({ names: unknownFeatures }, 'IsUserLocked / IsUserRestricted name features Ode does not know (docs/postmessage.md lists them)');
    const pdf = extname(this.fileInfo.BaseFileName).toLowerCase() === '.pdf';
    this.readonly = !this.fileInfo.UserCanWrite || msg.readonly === true || pdf;
    // A pdf is read-only but for its comments, which are saved back: only for a user who may write the file and did
    // not open it read-only (a reader without UserCanWrite sees "Read-only" and cannot comment, as Collabora).
    this.commentsOnly = pdf && msg.readonly !== true && this.fileInfo.UserCanWrite === true;
    this.tokenTtl = msg.tokenTtl;
    this.armTokenWarning(msg.tokenTtl);
    // The editor may talk to its host page from now on (App_LoadingStatus Frame_Ready): tell it the origin.
    this.send({
      type: 'loading',
      stage: 'download',
      postMessageOrigin: typeof this.fileInfo.PostMessageOrigin === 'string' ? this.fileInfo.PostMessageOrigin : undefined,
    });
    try {
      this.doc = await this.deps.registry.join(this.src, this);
    } catch (e) {
      this.send({ type: 'error', code: e instanceof OdeError ? e.code : 'load_failed', message: (e as Error).message });
      if (e instanceof OdeError && e.code === 'draining') return this.close(CLOSE.draining, 'the server is draining: open the document again');
      return this.close(e instanceof WopiError && e.kind === 'unauthorized' ? CLOSE.unauthorized : CLOSE.failed, 'the document could not be loaded');
    }
    if (this.ws.readyState !== this.ws.OPEN) return void this.doc.leave(this);
    this.state = 'live';
    this.send({ type: 'services', eSignature: eSignatureAvailable(this.fileInfo), citations: citationKey(this.fileInfo) !== undefined });
    if (this.fileInfo.IsAdminUser) void this.tellUpdate();
  }

  /** IsAdminUser: after `status`, one (cached) update check; a newer version is sent as `updateAvailable`. */
  private async tellUpdate(): Promise<void> {
    const u = await this.deps.updates?.get(false).catch((e: Error) => void this.log.warn({ err: e.message }, 'update check failed'));
    if (u?.newer && u.available && this.state === 'live') this.send({ type: 'updateAvailable', current: u.current, available: u.available });
  }

  private armTokenWarning(ttl: number | undefined): void {
    clearTimeout(this.tokenTimer);
    if (!ttl) return;
    const warnIn = ttl - TOKEN_WARNING_MS - Date.now();
    this.tokenTimer = setTimeout(() => this.send({ type: 'tokenExpiring', expiresAt: ttl }), Math.max(0, warnIn));
    this.tokenTimer.unref();
  }

  private async dispatch(msg: ClientMessage, doc: EditDocument): Promise<void> {
    switch (msg.type) {
      case 'tiles':
        return this.tiles(msg, doc);
      case 'commandValues':
        return this.send({ type: 'commandValues', command: msg.command, value: parseMaybeJson(await doc.commandValues(this, msg.command)) });
      case 'save':
        return doc.save('explicit', this, { dontTerminateEdit: msg.dontTerminateEdit === true });
      case 'sign':
        return doc.sign(this);
      case 'saveAs':
      case 'rename':
      case 'download':
        return exportForView(doc, this, msg, this.deps.client, this.src, this.deps.downloads);
      case 'resolveConflict':
        return doc.resolveConflict(this, msg.choice);
      case 'recoveryChoice':
        return doc.recoveryChoice(this, msg.id, msg.choice);
      case 'resetAccessToken':
        this.token = msg.token;
        this.tokenTtl = msg.tokenTtl;
        this.armTokenWarning(msg.tokenTtl);
        return;
      case 'closeDocument':
        return doc.ownerClose(this);
      case 'eSignatureStart':
        return this.eSignature(doc).start();
      case 'eSignatureCancel':
        return this.eSign?.cancel();
      case 'citationList':
      case 'citationInsert':
      case 'bibliographyInsert': {
        const c = this.citationsOf(doc);
        if (!c)
          return this.send({
            type: 'citationResult',
            action: msg.type === 'citationList' ? 'list' : msg.type === 'citationInsert' ? 'citation' : 'bibliography',
            ok: false,
            error: { code: 'not_available', message: 'Citations are not set up for you (UserPrivateInfo.CitationAPIKey).' },
          });
        if (msg.type === 'citationList') return c.list(msg.style);
        if (msg.type === 'citationInsert') return c.insertCitation(msg.itemKeys, msg.style);
        return c.insertBibliography(msg.style);
      }
      case 'close':
        return this.close(CLOSE.normal, 'closed by the editor');
      case 'commentDraft':
        this.commentDraft = msg.command ? { command: msg.command, args: msg.args } : undefined;
        return;
      case 'clipboardGet': {
        const items = await doc.clipboard(
          this,
          msg.mimeTypes.filter((m): m is string => typeof m === 'string'),
        );
        if (items)
          this.send({
            type: 'clipboard',
            items: items.map((i) => ({
              mimeType: i.mimeType,
              data: isTextType(i.mimeType) ? new TextDecoder().decode(i.data) : Buffer.from(i.data).toString('base64'),
            })),
          });
        return;
      }
      case 'paste':
        return doc.paste(this, msg.mimeType, isTextType(msg.mimeType) ? new TextEncoder().encode(msg.data) : new Uint8Array(Buffer.from(msg.data, 'base64')));
      case 'windowPaint': {
        const size = (n: number) => Math.min(4096, Math.max(1, Math.round(n)));
        const area = { windowId: msg.windowId, x: Math.round(msg.x), y: Math.round(msg.y), width: size(msg.width), height: size(msg.height) };
        const png = await doc.windowPaint(this, area);
        return this.send({ type: 'windowPaint', ...area, png: Buffer.from(png).toString('base64') });
      }
      case 'load':
        throw new ProtocolError('"load" was already sent');
      case 'ping':
      case 'pong':
        return;
      default:
        return doc.input(this, msg);
    }
  }

  /** This view's e-signature flow (docs/esignature.md). */
  private eSignature(doc: EditDocument): ESignatureFlow {
    const timing = this.deps.config?.().esignature;
    this.eSign ??= new ESignatureFlow(
      this,
      { storedCopy: () => doc.storedCopy(), replaceStored: (_v, bytes) => doc.replaceStored(this, bytes) },
      { pollMs: (timing?.poll_secs ?? 2) * 1000, timeoutMs: (timing?.timeout_secs ?? 900) * 1000 },
      this.log,
    );
    return this.eSign;
  }

  /** This view's citations (docs/citations.md), or undefined without UserPrivateInfo.CitationAPIKey. */
  private citationsOf(doc: EditDocument): Citations | undefined {
    const key = citationKey(this.fileInfo);
    if (!key) return undefined;
    this.citations ??= new Citations(
      this,
      { input: (_v, e) => doc.input(this, e), paste: (_v, mime, data) => doc.paste(this, mime, data), exportCopy: (format) => doc.exportCopy(format) },
      key,
      this.deps.config?.().citations.base_url ?? 'https://api.zotero.org',
      this.log,
    );
    return this.citations;
  }

  private async tiles(msg: Extract<ClientMessage, { type: 'tiles' }>, doc: EditDocument): Promise<void> {
    for (const pos of msg.positions) {
      if (!Array.isArray(pos) || pos.length !== 2 || !pos.every((n) => typeof n === 'number' && Number.isFinite(n)))
        throw new ProtocolError('tiles.positions must be [[x, y], ...] numbers');
      const key = {
        part: msg.part,
        mode: msg.mode ?? 0,
        width: msg.width,
        height: msg.height,
        tileTwipWidth: msg.tileTwipWidth,
        tileTwipHeight: msg.tileTwipHeight,
        x: pos[0],
        y: pos[1],
      };
      let tile: CachedTile;
      try {
        tile = await doc.tile(this, key);
      } catch (e) {
        // The kit refuses a tile of another mode than the view's (a presentation view entering or leaving its notes:
        // kit.md `tile`): the editor asks again in the new mode once `documentSize` tells it, so no error is shown.
        if (e instanceof OdeError && e.code === 'bad_request') {
          this.log.debug({ err: e.message }, 'tile not painted');
          continue;
        }
        throw e;
      }
      const id = `${key.part}:${key.mode}:${key.width}x${key.height}:${key.tileTwipWidth}:${key.x},${key.y}`;
      const unchanged = msg.fresh !== true && this.sentTiles.get(id) === tile.wid;
      this.sentTiles.set(id, tile.wid);
      this.sendBinary(encodeTileFrame({ type: 'tile', ...key, encoding: unchanged ? 'unchanged' : 'png', wid: tile.wid }, unchanged ? undefined : tile.png));
    }
  }

  /**
   * The socket closed while the user was writing a comment in the browser (the tab closed with the Insert comment
   * dialog open: its `pagehide` message is not always delivered, issue 16): the comment goes to the document as the
   * `uno` the editor would have sent, checked as that input is, before the view leaves and the exit save runs.
   */
  private sendCommentDraft(): void {
    const d = this.commentDraft;
    this.commentDraft = undefined;
    if (!d || !this.doc) return;
    const msg: Extract<ClientMessage, { type: 'uno' }> = { type: 'uno', command: d.command, ...(d.args === undefined ? {} : { args: d.args }) };
    if (this.refused(msg)) return;
    this.log.info({ command: d.command }, 'the view left while writing a comment: the comment is inserted');
    this.doc.input(this, msg);
  }

  private async closed(): Promise<void> {
    if (this.state === 'closed') return;
    if (this.state === 'live') this.sendCommentDraft();
    this.state = 'closed';
    clearTimeout(this.tokenTimer);
    this.eSign?.dispose();
    await this.doc?.leave(this).catch((e: Error) => this.log.error({ err: e.message }, 'leaving the document failed'));
  }
}

/** Clipboard flavours whose data travels as text on the socket (the others as base64): text/*, and JSON or XML. */
function isTextType(mimeType: string): boolean {
  return /^text\/|^application\/(json|xml|xhtml\+xml)\b/.test(mimeType);
}

function parseMaybeJson(v: string | null): unknown {
  if (v === null) return null;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}
