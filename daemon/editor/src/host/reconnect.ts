import { CLOSE, type Rect } from '../../../protocol/editor.ts';
import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';
import { reopen } from './overlays.ts';

/**
 * Close codes after which the editor reconnects by itself (RFC 6455 section 7.4.1): 1006 the connection dropped
 * (network failure, the daemon killed), 1001 the server went away (the daemon stopping: it saved first),
 * 1012 service restart, 1011 an unexpected server condition, 1005 closed without a code.
 */
export const RECONNECT_CODES: ReadonlySet<number> = new Set([CLOSE.goingAway, CLOSE.noStatus, CLOSE.abnormal, CLOSE.serverError, CLOSE.serviceRestart]);

/**
 * Close codes of a server that went without saving first (a killed or crashed daemon, a machine lost): when the
 * document then comes back from another daemon process, it was loaded from the last stored version. 1001 and 1012
 * are a daemon stopping on purpose, which saves first.
 */
const UNANNOUNCED_CODES: ReadonlySet<number> = new Set([1005, 1006, 1011]);

/** First wait before asking the server again (ms); doubled after each failure up to RECONNECT_MAX_DELAY_MS. */
const RECONNECT_FIRST_DELAY_MS = 500;
const RECONNECT_MAX_DELAY_MS = 5_000;
/** How long the editor keeps trying before it shows the closed overlay and its Reload button (ms). */
const RECONNECT_LIMIT_MS = 5 * 60_000;
/** A saved view older than this is not restored (ms): the page was reopened by hand much later. */
const RESTORE_MAX_AGE_MS = 10 * 60_000;

/** Where the user was when the connection dropped: carried in the address fragment across the page's reopening. */
export interface SavedView {
  /** Part (sheet, slide) shown. */
  part: number;
  /** Zoom factor (1 = 100 %). */
  zoom: number;
  /** The scroller's scroll offsets in CSS px at that zoom. */
  scrollLeft: number;
  scrollTop: number;
  /** The caret rectangle in twips, when the view had one (text documents). */
  caret?: Rect;
  /** Date.now() when saved. */
  at: number;
  /**
   * The daemon that held the document was lost (an unannounced close, and another daemon process, by
   * X-Ode-Server-Id, answered the probe): the reopened page tells the user the last stored version was loaded.
   */
  lost?: boolean;
}

/** The address fragment's prefix that carries a SavedView across the reopening (the page is sandboxed: no storage). */
const FRAGMENT = 'ode-view=';

/**
 * Automatic reconnection (issue 23, item 9): when the editing socket closes with one of RECONNECT_CODES after the
 * view was live, the editor notes where the user is (part, zoom, scroll, caret), shows a
 * "Reconnecting…" banner (not modal: the document stays visible; the status bar announces it), asks `/health?WOPISrc=...` with
 * exponential backoff (and at once when the browser comes back online) and, once a daemon serves the document
 * again, reopens the page with the same WOPISrc and token (overlays.ts `reopen`, as the drain does for 4503), the
 * view in the address fragment (the editor page is sandboxed: no sessionStorage); the reopened page restores it once
 * the document is loaded. After RECONNECT_LIMIT_MS `giveUp` runs (the
 * closed overlay with its Reload button). When the daemon was lost (SavedView.lost: a killed node whose users
 * came back through the load balancer on another node, docs/deploy/cluster.md), the reopened page tells the user
 * with `inform` (a banner: the server was lost, the last saved version was reopened, recent edits may be missing
 * until that server's edit journal restores them, docs/reliability.md). Returns whether a close code is handled
 * here.
 */
export function installReconnect(app: App, giveUp: (code: number) => void, inform: (text: string) => void): (code: number) => boolean {
  const { session } = app;
  const handles = (code: number) => RECONNECT_CODES.has(code) && session.state.status !== undefined && !session.state.draining;

  session.on('closed', (code) => {
    if (!handles(code)) return;
    void reconnect(app, code, savedView(app), giveUp);
  });
  app.events.once('documentLoaded', () => restoreView(app, inform));
  return handles;
}

/** Where the user is now. */
function savedView(app: App): SavedView {
  const v = app.view;
  return { part: app.session.state.part, zoom: v.zoom, scrollLeft: v.scroller.scrollLeft, scrollTop: v.scroller.scrollTop, caret: v.caretRect, at: Date.now() };
}

/** A SavedView as the reopened page's address fragment (`ode-view=<JSON>`). */
const viewFragment = (saved: SavedView) => `${FRAGMENT}${encodeURIComponent(JSON.stringify(saved))}`;

async function reconnect(app: App, code: number, saved: SavedView, giveUp: (code: number) => void): Promise<void> {
  const status = document.createElement('div');
  status.className = 'ode-host-banner ode-reconnecting';
  // Seen over the document; the status bar's state (role=status) is what screen readers are told.
  status.textContent = t('host.reconnecting');
  app.slots.popups.append(status);
  document.getElementById('ode-app')?.setAttribute('aria-busy', 'true');

  const probe = `${location.origin}/health?WOPISrc=${encodeURIComponent(app.config.wopiSrc)}`;
  const deadline = Date.now() + RECONNECT_LIMIT_MS;
  let delay = RECONNECT_FIRST_DELAY_MS;
  let wake: (() => void) | undefined;
  const online = () => wake?.();
  window.addEventListener('online', online);
  try {
    while (Date.now() < deadline) {
      try {
        const answer = await fetch(probe, { cache: 'no-store' });
        if (answer.ok) {
          // Another daemon process serves the document now (another node, or the same one restarted): after an
          // unannounced close it loads the last stored version.
          // The body, not X-Ode-Server-Id: the sandboxed page's origin is opaque, so its headers are not exposed to it.
          const node = ((await answer.json().catch(() => ({}))) as { serverId?: string }).serverId;
          const lost = UNANNOUNCED_CODES.has(code) && !!app.config.serverId && !!node && node !== app.config.serverId;
          return reopen(app, viewFragment(lost ? { ...saved, lost } : saved));
        }
      } catch {
        /* the daemon or the network is not back yet */
      }
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, delay + Math.random() * delay * 0.25);
      });
      delay = Math.min(delay * 2, RECONNECT_MAX_DELAY_MS);
    }
    status.remove();
    giveUp(code);
  } finally {
    window.removeEventListener('online', online);
  }
}

function restoreView(app: App, inform: (text: string) => void): void {
  const hash = location.hash.slice(1);
  if (!hash.startsWith(FRAGMENT)) return;
  let saved: SavedView | undefined;
  try {
    saved = JSON.parse(decodeURIComponent(hash.slice(FRAGMENT.length))) as SavedView;
    history.replaceState(null, '', location.href.replace(/#.*$/, ''));
  } catch {
    /* a damaged fragment, or history refused in the sandbox: restore what was read */
  }
  if (!saved || Date.now() - saved.at > RESTORE_MAX_AGE_MS) return;
  if (saved.lost) inform(t('host.lost'));
  const { session, view } = app;
  const s = saved;
  const place = () => {
    if (s.zoom !== view.zoom) view.setZoom(s.zoom);
    // After the zoom has resized the document area.
    requestAnimationFrame(() => {
      view.scroller.scrollLeft = s.scrollLeft;
      view.scroller.scrollTop = s.scrollTop;
      // The caret where it was: a click at its middle (text documents; a spreadsheet's cell cursor is its own).
      if (s.caret && session.state.status?.docType === 'text' && !session.state.status.readonly) {
        const [x, y, , h] = s.caret;
        const at = { x: Math.round(x), y: Math.round(y + h / 2) };
        session.send({ type: 'mouse', event: 'buttondown', ...at, count: 1, buttons: 1, modifier: 0 });
        session.send({ type: 'mouse', event: 'buttonup', ...at, count: 1, buttons: 1, modifier: 0 });
        view.scroller.scrollLeft = s.scrollLeft;
        view.scroller.scrollTop = s.scrollTop;
      }
      view.focus();
    });
  };
  if (s.part !== session.state.part && session.state.status?.docType !== 'text') {
    session.once('part', place);
    session.send({ type: 'setPart', part: s.part });
  } else place();
}
