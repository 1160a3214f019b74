import type { App } from '../core/app.ts';
import { attachInput } from './input.ts';
import { TileView } from './tile-view.ts';

/**
 * The document view (issue 5 "Document view"): canvas tiles of the visible area, the carets and selections, and
 * the keyboard, IME and mouse input. Sets `app.view`.
 */
export function mountView(app: App): void {
  const { session } = app;
  const view = new TileView(app.slots.doc, {
    requestTiles: (part, width, height, tileTwips, positions) => session.send({ type: 'tiles', part, width, height, tileTwipWidth: tileTwips, tileTwipHeight: tileTwips, positions }),
  });
  view.onPainted = () => app.events.emit('painted');
  app.view = view;
  const input = attachInput(view, (m) => (session.send(m), app.events.emit('userActive')), () => app.commands.runForHost('file.save'));
  view.focus = () => input.focus({ preventScroll: true });

  session.on('status', (m) => {
    view.setDocument(m.part, m.width, m.height);
    view.focus();
  });
  session.on('documentSize', (m) => view.setDocument(session.state.part, m.width, m.height));
  session.on('invalidate', (m) => view.invalidate(m.part, m.x, m.y, m.width, m.height, m.all === true));
  session.on('cursor', (m) => view.setCursor(m.rect, m.visible));
  session.on('selection', (m) => view.setSelection(m.rects));
  session.on('views', (m) => view.keepOthers(new Set(m.views.map((v) => v.viewId))));
  session.on('viewCursor', (m) => {
    const who = session.state.views.find((v) => v.viewId === m.viewId);
    if (who && m.part === session.state.part) view.setOtherCursor(m.viewId, m.rect, m.visible, who.userName, who.color);
  });
  session.on('reloaded', () => view.invalidate(-1, 0, 0, 0, 0, true));
  session.on('tile', (h, png) => void view.tileArrived(h, png));
}
