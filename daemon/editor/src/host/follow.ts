import type { Rect } from '../../../protocol/editor.ts';
import type { App } from '../core/app.ts';
import type { HostBridge } from './bridge.ts';

/**
 * Action_FollowUser {Follow?, ViewId?} (daemon/protocol/postmessage.md), as Collabora Online's Map.js `_setFollowing`:
 * - `ViewId` of another view: follow that user; `Follow: false`: stop; no Values or no `ViewId`: follow the editor,
 *   which for Ode is the other view whose cursor moved last (Collabora: the view LibreOffice names as editing).
 * - Following shows the followed cursor now when its place is known, and again whenever it moves: the view scrolls
 *   to it, and in a spreadsheet or presentation switches to its sheet or slide.
 * - Every change posts FollowUser_Changed {FollowedViewId (-1: none), IsFollowUser, IsFollowEditor}. Following ends
 *   when the followed view leaves, and (Ode's choice, so the user is never dragged away while working) when the user
 *   clicks or presses a key in the document.
 */
export function installFollow(app: App, bridge: HostBridge): void {
  const { session } = app;
  const cursors = new Map<number, { part: number; rect: Rect }>();
  let mode: 'none' | 'user' | 'editor' = 'none';
  let followed = -1;
  let lastMoved = -1;
  const own = () => session.state.status?.viewId;

  const changed = () => bridge.send('FollowUser_Changed', { FollowedViewId: followed, IsFollowUser: mode === 'user', IsFollowEditor: mode === 'editor' });
  const set = (next: 'none' | 'user' | 'editor', viewId: number) => {
    if (next === mode && viewId === followed) return;
    mode = next;
    followed = next === 'none' ? -1 : viewId;
    changed();
  };
  const show = (viewId: number) => {
    const at = cursors.get(viewId);
    if (!at) return;
    if (at.part !== session.state.part && session.state.status?.docType !== 'text') {
      session.once('part', () => app.view.scrollIntoView(at.rect));
      session.send({ type: 'setPart', part: at.part });
    } else app.view.scrollIntoView(at.rect);
  };

  session.on('viewCursor', (m) => {
    if (m.viewId === own() || (m.rect[2] <= 0 && m.rect[3] <= 0)) return;
    cursors.set(m.viewId, { part: m.part, rect: m.rect });
    lastMoved = m.viewId;
    if (mode === 'editor' && followed !== m.viewId) set('editor', m.viewId);
    if (mode !== 'none' && followed === m.viewId && m.visible) show(m.viewId);
  });
  session.on('views', (m) => {
    const ids = new Set(m.views.map((v) => v.viewId));
    for (const id of cursors.keys()) if (!ids.has(id)) cursors.delete(id);
    if (mode !== 'none' && !ids.has(followed)) set('none', -1);
  });
  const stop = () => mode !== 'none' && set('none', -1);
  app.slots.doc.addEventListener('pointerdown', stop, true);
  app.slots.doc.addEventListener('keydown', stop, true);

  bridge.on('Action_FollowUser', (v) => {
    const raw = v.ViewId;
    const viewId = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d+$/.test(raw) ? Number(raw) : undefined;
    if (v.Follow === false || v.Follow === 'false') return stop();
    if (viewId !== undefined && viewId !== -1 && viewId !== own()) {
      set('user', viewId);
      return show(viewId);
    }
    set('editor', lastMoved);
    if (lastMoved !== -1) show(lastMoved);
  });
}
