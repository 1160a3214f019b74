import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';
import { ViewClipboard } from './clipboard.ts';
import { ContextMenu } from './context-menu.ts';
import { Handles } from './handles.ts';
import { attachInput } from './input.ts';
import './messages.ts';
import { TileView } from './tile-view.ts';
import { attachTouch } from './touch.ts';

/** How long after a key the caret is followed into view (LibreOffice answers a key within this). */
const FOLLOW_MS = 1500;

/**
 * The document view (issue 5 "Document view"): canvas tiles, carets, selections and their handles, other users'
 * carets and selections, keyboard, IME, mouse, touch (touch.ts: pinch zoom, long press), context menu, links
 * and the clipboard. Sets `app.view` (TileView; `setZoom(zoom, anchor?)` also takes a client point to zoom
 * around) and registers `edit.cut`, `edit.copy`, `edit.paste`. Marks `ode:key` (input sent) and `ode:painted` (new tiles on screen) for the benchmarks.
 */
export function mountView(app: App): void {
  const { session } = app;
  const view = new TileView(app.slots.doc, {
    requestTiles: (part, mode, width, height, tileTwips, positions, fresh) =>
      session.send({
        type: 'tiles',
        part,
        mode: mode || undefined,
        width,
        height,
        tileTwipWidth: tileTwips,
        tileTwipHeight: tileTwips,
        positions,
        fresh: fresh || undefined,
      }),
    zoomChanged: (px, twips) =>
      session.live && session.send({ type: 'clientZoom', tilePixelWidth: px, tilePixelHeight: px, tileTwipWidth: twips, tileTwipHeight: twips }),
    visibleAreaChanged: (a) => session.live && session.send({ type: 'clientVisibleArea', ...a }),
  });
  view.scroller.setAttribute('aria-label', t('view.document'));
  view.onPainted = () => app.events.emit('painted');
  app.view = view;

  let typedAt = -Infinity;
  let pressedAt: [number, number] = [0, 0];
  const input = attachInput(view, {
    send: (m) => (session.send(m), app.events.emit('userActive')),
    commands: app.commands,
    save: () => session.send({ type: 'save' }),
    docType: () => session.state.status?.docType,
    typed: () => (typedAt = performance.now()),
    pressed: (x, y) => (pressedAt = [x, y]),
    copy: (cut) => void clipboard.copyCommand(cut),
  });
  view.focus = () => input.focus({ preventScroll: true });
  // A drag on a control over the document (the spreadsheet's fill handle, a frame's knob) ends where LibreOffice's
  // answer belongs: its AutoFill options menu after a fill comes as a context menu (LibreOffice 25.2), shown where
  // the pointer was released, not where the last click into the view was.
  app.slots.doc.addEventListener('pointerup', (e) => (pressedAt = [e.clientX, e.clientY]), true);
  // A long press is a right click: LibreOffice answers with its context menu, shown where the finger was.
  attachTouch(view, {
    longPress: (x, y) => {
      pressedAt = [x, y];
      const [tx, ty] = view.toTwips(x, y);
      for (const event of ['buttondown', 'buttonup'] as const) session.send({ type: 'mouse', event, x: tx, y: ty, count: 1, buttons: 4, modifier: 0 });
      app.events.emit('userActive');
    },
  });
  const clipboard = new ViewClipboard(app, input);
  const handles = new Handles(view, (m) => (session.send(m), app.events.emit('userActive')));
  const menu = new ContextMenu(app.slots.popups, (command) => {
    const own: Record<string, string> = { '.uno:Cut': 'edit.cut', '.uno:Copy': 'edit.copy', '.uno:Paste': 'edit.paste' };
    if (own[command] && app.commands.run(own[command])) return;
    session.uno(command);
  });
  app.events.on('themeChanged', () => view.refreshTheme());

  const colorOf = (viewId: number) => session.state.views.find((v) => v.viewId === viewId)?.color ?? '#888';
  /**
   * The view's part for a part LibreOffice names. A text document is one part, painted as part 0, but Writer names
   * its pages: SET_PART (`part`) when the caret goes to another page, and the page in view cursors, selections and
   * some invalidations. Shown as parts, the tiles typed on page 2 were asked as part 1 while LibreOffice invalidated
   * part 0, and stayed stale (issue 16: "Aft" where "After the break" was). As Collabora Online: text is part 0.
   */
  const shownPart = (part: number) => (session.state.status?.docType === 'text' ? 0 : part);
  session.on('status', (m) => {
    view.growable = m.docType === 'spreadsheet';
    view.setDocument(m.part, m.width, m.height, 0);
    view.announce();
    view.focus();
    // The first tiles are asked once every module has handled `status` (the chrome built, a presentation fitted),
    // before the browser goes on to the messages queued behind `status` (issue 15: at the next animation frame
    // they were asked 0.4-0.5 s later on a loaded machine).
    queueMicrotask(() => view.requestNow());
  });
  session.on('part', (m) => view.setDocument(shownPart(m.part), session.state.status?.width ?? 0, session.state.status?.height ?? 0));
  // A presentation view entering or leaving View > Notes (or the master slides) changes its mode and page size.
  session.on('documentSize', (m) => view.setDocument(shownPart(session.state.part), m.width, m.height, m.mode ?? 0));
  session.on('invalidate', (m) => view.invalidate(m.part === -1 ? -1 : shownPart(m.part), m.x, m.y, m.width, m.height, m.all === true));
  session.on('cursor', (m) => {
    view.setCursor(m.rect, m.visible);
    // After typing or a key, the caret stays in view (LibreOffice moved it, maybe off screen).
    if (m.visible && performance.now() - typedAt < FOLLOW_MS && (m.rect[2] > 0 || m.rect[3] > 0)) view.scrollIntoView(m.rect);
  });
  session.on('selection', (m) => {
    view.setSelection(m.rects);
    if (m.start) handles.setTextHandle('start', m.start);
    if (m.end) handles.setTextHandle('end', m.end);
    if (m.rects.length === 0) handles.setTextHandle('start', null), handles.setTextHandle('end', null);
    handles.refresh();
    clipboard.selectionChanged(m.rects.length > 0);
  });
  session.on('selectionHandle', (m) => handles.setTextHandle(m.handle, m.rect));
  session.on('graphicSelection', (m) => {
    handles.setGraphic(m.rect);
    clipboard.selectionChanged(m.rect !== null);
  });
  session.on('views', (m) => view.keepOthers(new Set(m.views.map((v) => v.viewId))));
  session.on('viewCursor', (m) => {
    const who = session.state.views.find((v) => v.viewId === m.viewId);
    if (who && shownPart(m.part) === shownPart(session.state.part)) view.setOtherCursor(m.viewId, m.rect, m.visible, who.userName, who.color);
  });
  session.on('viewSelection', (m) => view.setOtherSelection(m.viewId, shownPart(m.part), m.rects, colorOf(m.viewId)));
  session.on('viewGraphicSelection', (m) => view.setOtherGraphic(m.viewId, shownPart(m.part), m.rect, colorOf(m.viewId)));
  session.on('contextMenu', (m) => menu.show(m.menu, pressedAt[0], pressedAt[1], () => view.focus()));
  session.on('hyperlinkClicked', (m) => openLink(app, m.url, pressedAt));
  session.on('reloaded', () => view.invalidate(-1, 0, 0, 0, 0, true));
  session.on('tile', (h, png) => void view.tileArrived(h, png));
}

/**
 * A link LibreOffice says the user activated: web and mail links open in a new tab without access to this page
 * (noopener); when the browser blocks that (no user gesture left) or the link is of another kind, a small popup
 * offers the link to click (with a warning for other kinds).
 */
function openLink(app: App, url: string, at: [number, number]): void {
  let safe = false;
  try {
    safe = ['http:', 'https:', 'mailto:'].includes(new URL(url).protocol);
  } catch {
    safe = false;
  }
  if (safe && window.open(url, '_blank', 'noopener,noreferrer')) return;
  app.slots.popups.querySelector('.ode-link-popup')?.remove();
  const box = Object.assign(document.createElement('div'), { className: 'ode-link-popup' });
  box.setAttribute('role', 'dialog');
  box.setAttribute('aria-label', t('view.openLink'));
  if (!safe) box.append(Object.assign(document.createElement('span'), { textContent: t('view.linkWarning') }));
  const a = Object.assign(document.createElement('a'), { href: url, target: '_blank', rel: 'noopener noreferrer', textContent: url });
  const close = Object.assign(document.createElement('button'), { type: 'button', textContent: t('view.close') });
  const done = () => (box.remove(), app.view.focus());
  a.addEventListener('click', () => setTimeout(done));
  close.addEventListener('click', done);
  box.addEventListener('keydown', (e) => e.key === 'Escape' && done());
  box.append(a, close);
  box.style.left = `${Math.min(at[0], innerWidth - 440)}px`;
  box.style.top = `${at[1] + 12}px`;
  app.slots.popups.append(box);
  a.focus();
}
