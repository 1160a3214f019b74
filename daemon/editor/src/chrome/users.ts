/**
 * Who is editing (issue 5 "Chrome": users list with avatars): avatars at the end of the toolbar and the users panel
 * in the right dock (command `view.users`). Each user of the `views` message shows the avatar of
 * `extraInfo.avatar` (UserExtraInfo, spec) or initials on their colour, their name and a read-only mark;
 * activating a user scrolls the document to their cursor (the last `viewCursor`, `viewCellCursor` or
 * `viewGraphicSelection` rectangle of their view).
 */
import type { Rect, ViewInfo } from '../../../protocol/editor.ts';
import type { App } from '../core/app.ts';
import { registerMessages, t } from '../core/i18n.ts';
import { el, initials, type RightDock } from './panels-dom.ts';

registerMessages({
  en: {
    'view.users': 'Users',
    'users.title': 'Users ({count})',
    'users.you': '{name} (you)',
    'users.readonly': 'read-only',
    'users.goTo': 'Go to {name}’s cursor',
    'users.toolbar': 'Users editing: {count}',
  },
  fr: {
    'view.users': 'Utilisateurs',
    'users.title': 'Utilisateurs ({count})',
    'users.you': '{name} (vous)',
    'users.readonly': 'lecture seule',
    'users.goTo': 'Aller au curseur de {name}',
    'users.toolbar': 'Utilisateurs présents : {count}',
  },
  de: {
    'view.users': 'Benutzer',
    'users.title': 'Benutzer ({count})',
    'users.you': '{name} (Sie)',
    'users.readonly': 'schreibgeschützt',
    'users.goTo': 'Zum Cursor von {name}',
    'users.toolbar': 'Anwesende Benutzer: {count}',
  },
});

/** A safe avatar URL from UserExtraInfo (http, https, or an inline image), else undefined. */
export function avatarUrl(extraInfo: Record<string, unknown>): string | undefined {
  const a = extraInfo.avatar;
  if (typeof a !== 'string') return undefined;
  return /^(https?:\/\/|data:image\/)/i.test(a.trim()) ? a.trim() : undefined;
}

/** UserExtraInfo.mail of a user, when it is a string. */
export function mailOf(v: ViewInfo): string | undefined {
  const m = v.extraInfo?.mail;
  return typeof m === 'string' && m.trim() !== '' ? m.trim() : undefined;
}

/**
 * The round avatar of a user: their image, or their initials on their colour when there is none or it fails. Hidden
 * from assistive technology (the control around it names the user); the initials are drawn by CSS
 * (`data-initials`, panels.css) rather than being text: text initials would be visible label text missing from the
 * name of the control around them (WCAG 2.5.3 label in name, axe's label-content-name-mismatch).
 */
export function avatar(v: ViewInfo, size: 'small' | 'large' = 'small'): HTMLElement {
  const box = el('span', { className: `ode-avatar ode-avatar-${size}`, attrs: { 'aria-hidden': 'true', 'data-initials': initials(v.userName) } });
  box.style.setProperty('--c', v.color);
  const url = avatarUrl(v.extraInfo);
  if (url) {
    const img = el('img', { alt: '', src: url, referrerPolicy: 'no-referrer', loading: 'lazy' });
    img.addEventListener('error', () => img.remove());
    box.append(img);
  }
  return box;
}

/** Mounts the toolbar avatars and the users panel; registers `view.users`. */
export function mountUsers(app: App, dock: RightDock): void {
  const { session, slots, commands } = app;
  const cursors = new Map<number, { part: number; rect: Rect }>();
  let ownCursor: Rect | undefined;

  const list = el('ul', { className: 'ode-users-list' });
  const section = dock.add('users', t('view.users'), list);
  const heading = section.querySelector('h2')!;
  const toolbar = el('button', { type: 'button', className: 'ode-users', attrs: { 'aria-haspopup': 'true', 'aria-expanded': 'false' } });
  toolbar.addEventListener('click', () => commands.run('view.users'));
  // On the menu bar's row, at its end (the toolbar's row is full of controls).
  slots.menubar.append(toolbar);
  dock.onChange((open) => toolbar.setAttribute('aria-expanded', String(open === 'users')));

  commands.register({
    id: 'view.users',
    label: 'view.users',
    run: () => dock.toggle('users'),
    checked: () => dock.isOpen('users'),
  });
  dock.onChange(() => commands.refresh());

  const goTo = (viewId: number) => {
    const own = viewId === session.state.status?.viewId;
    const at = own ? (ownCursor ? { part: session.state.part, rect: ownCursor } : undefined) : cursors.get(viewId);
    if (!at) return;
    if (at.part !== session.state.part && session.state.status?.docType !== 'text') {
      session.once('part', () => app.view.scrollIntoView(at.rect));
      session.send({ type: 'setPart', part: at.part });
    } else app.view.scrollIntoView(at.rect);
  };

  const render = (views: ViewInfo[]) => {
    const self = session.state.status?.viewId;
    const name = (v: ViewInfo) => (v.viewId === self ? t('users.you', { name: v.userName }) : v.userName);
    // The avatars and "+n" are drawn by CSS: the button's name is its aria-label, which names every user.
    toolbar.replaceChildren(
      ...views.slice(0, 5).map((v) => avatar(v)),
      ...(views.length > 5 ? [el('span', { className: 'ode-users-more', attrs: { 'aria-hidden': 'true', 'data-more': `+${views.length - 5}` } })] : []),
    );
    const label = t('users.toolbar', { count: views.length });
    toolbar.setAttribute('aria-label', `${label}: ${views.map((v) => v.userName).join(', ')}`);
    // The tooltip also shows each user's UserExtraInfo.mail (shared with every view, spec: CheckFileInfo).
    toolbar.title = `${label}: ${views.map((v) => (mailOf(v) ? `${v.userName} <${mailOf(v)}>` : v.userName)).join(', ')}`;
    heading.textContent = t('users.title', { count: views.length });
    list.replaceChildren(
      ...views.map((v) => {
        const mail = mailOf(v);
        const who = el('span', { className: 'ode-user-name' }, name(v));
        if (mail) who.append(el('span', { className: 'ode-user-mail' }, mail));
        const label = [name(v), mail, v.anonymous ? t('users.guest') : undefined, v.readonly ? t('users.readonly') : undefined].filter(Boolean).join(', ');
        const item = el('button', { type: 'button', className: 'ode-user-item', attrs: { 'aria-label': label } }, avatar(v, 'large'), who);
        item.title = mail ? `${t('users.goTo', { name: v.userName })} (${mail})` : t('users.goTo', { name: v.userName });
        // IsAnonymousUser (or is_guest): a guest to everyone (host/restrictions.ts registers the word).
        if (v.anonymous) item.append(el('span', { className: 'ode-badge ode-user-guest' }, t('users.guest')));
        if (v.readonly) item.append(el('span', { className: 'ode-badge' }, t('users.readonly')));
        item.addEventListener('click', () => goTo(v.viewId));
        return el('li', { className: 'ode-user-row', attrs: { 'data-view-id': String(v.viewId) } }, item);
      }),
    );
  };

  session.on('views', (m) => {
    const ids = new Set(m.views.map((v) => v.viewId));
    for (const id of cursors.keys()) if (!ids.has(id)) cursors.delete(id);
    render(m.views);
  });
  session.on('status', () => render(session.state.views));
  const keep = (viewId: number, part: number, rect: Rect | null) => {
    if (rect && (rect[2] > 0 || rect[3] > 0)) cursors.set(viewId, { part, rect });
  };
  session.on('viewCursor', (m) => m.visible && keep(m.viewId, m.part, m.rect));
  session.on('viewCellCursor', (m) => keep(m.viewId, m.part, m.rect));
  session.on('viewGraphicSelection', (m) => keep(m.viewId, m.part, m.rect));
  session.on('cursor', (m) => {
    if (m.rect[2] > 0 || m.rect[3] > 0) ownCursor = m.rect;
  });
  session.on('cellCursor', (m) => {
    if (m.rect) ownCursor = m.rect;
  });
}
