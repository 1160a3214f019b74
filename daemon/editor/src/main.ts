/**
 * The browser editor served at discovery's urlsrc (issue 5), first cut: the document as canvas tiles, typing (IME
 * included), clicking, Save, the users editing with you and their carets, parts (sheets, slides), zoom, and the
 * save/storage state. Speaks daemon/protocol/editor.md; imports nothing but protocol/.
 */
import type { ServerMessage, ViewInfo } from '../../protocol/editor.ts';
import { Connection, readConfig } from './connection.ts';
import { attachInput } from './input.ts';
import { TileView } from './tile-view.ts';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

const config = readConfig(document);
const app = document.getElementById('ode-app')!;
app.textContent = '';
app.setAttribute('aria-busy', 'true');

const title = el('span', { className: 'ode-title' }, 'Loading…');
const saveButton = el('button', { type: 'button', className: 'ode-button', title: 'Save (Ctrl+S)', disabled: true }, 'Save');
const zoom = el('select', { className: 'ode-select', title: 'Zoom' }, ...[50, 75, 100, 125, 150, 200].map((z) => el('option', { value: String(z / 100), selected: z === 100 }, `${z}%`)));
const parts = el('select', { className: 'ode-select', title: 'Sheet, slide or page', hidden: true });
const users = el('span', { className: 'ode-users', role: 'list', ariaLabel: 'Users editing' });
const state = el('span', { className: 'ode-state', role: 'status' }, 'Opening the document…');
const toolbar = el('header', { className: 'ode-toolbar', role: 'toolbar', ariaLabel: 'Document' }, title, saveButton, parts, zoom, users);
const main = el('main', { className: 'ode-main' });
const status = el('footer', { className: 'ode-status' }, state);
app.append(toolbar, main, status);

let part = 0;
let views: ViewInfo[] = [];
let modified = false;
const view = new TileView(main, {
  requestTiles: (p, width, height, tileTwips, positions) => connection.send({ type: 'tiles', part: p, width, height, tileTwipWidth: tileTwips, tileTwipHeight: tileTwips, positions }),
});
const save = () => {
  state.textContent = 'Saving…';
  connection.send({ type: 'save' });
};
const input = attachInput(view, (m) => connection.send(m), save);
saveButton.addEventListener('click', save);
zoom.addEventListener('change', () => view.setZoom(Number(zoom.value)));
parts.addEventListener('change', () => {
  part = Number(parts.value);
  connection.send({ type: 'setPart', part });
});

function showState(text: string, error = false): void {
  state.textContent = text;
  state.classList.toggle('ode-error', error);
}

function onMessage(m: ServerMessage): void {
  switch (m.type) {
    case 'status': {
      app.setAttribute('aria-busy', 'false');
      title.textContent = String(m.fileInfo.BaseFileName ?? 'Document');
      document.title = `${title.textContent} — Ode`;
      saveButton.disabled = m.readonly || m.fileInfo.HideSaveOption === true;
      parts.hidden = m.parts <= 1 || m.docType === 'text';
      parts.replaceChildren(...m.partNames.map((n, i) => el('option', { value: String(i), selected: i === m.part }, n || `Part ${i + 1}`)));
      part = m.part;
      view.setDocument(part, m.width, m.height);
      showState(m.readonly ? 'Read-only' : 'Ready');
      input.focus({ preventScroll: true });
      return;
    }
    case 'documentSize':
      return view.setDocument(part, m.width, m.height);
    case 'invalidate':
      return view.invalidate(m.part, m.x, m.y, m.width, m.height, m.all === true);
    case 'cursor':
      return view.setCursor(m.rect, m.visible);
    case 'selection':
      return view.setSelection(m.rects);
    case 'views':
      views = m.views;
      users.replaceChildren(
        ...views.map((v) => {
          const badge = el('span', { className: 'ode-user', role: 'listitem', title: v.userName }, v.userName.slice(0, 1).toUpperCase());
          badge.style.setProperty('--c', v.color);
          return badge;
        }),
      );
      view.keepOthers(new Set(views.map((v) => v.viewId)));
      return;
    case 'viewCursor': {
      const who = views.find((v) => v.viewId === m.viewId);
      if (who && m.part === part) view.setOtherCursor(m.viewId, m.rect, m.visible, who.userName, who.color);
      return;
    }
    case 'modified':
      modified = m.modified;
      return showState(modified ? 'Unsaved changes' : 'All changes saved');
    case 'saved':
      return m.ok ? showState('All changes saved') : showState(`Not saved: ${m.error?.message ?? 'unknown error'}`, true);
    case 'storage':
      return showState(m.message, m.state !== 'ok');
    case 'conflict':
      if (confirm('This document was changed by someone else. OK: keep your version (overwrite). Cancel: load theirs (your changes are discarded).')) connection.send({ type: 'resolveConflict', choice: 'overwrite' });
      else connection.send({ type: 'resolveConflict', choice: 'reload' });
      return;
    case 'reloaded':
      return view.invalidate(-1, 0, 0, 0, 0, true);
    case 'tokenExpiring':
      return showState('Your access expires soon: save your work.', true);
    case 'error':
      return showState(m.message, true);
    case 'kitDied':
    case 'idle':
      return showState(m.message, true);
    default:
      return;
  }
}

const connection = new Connection(config, onMessage, (h, png) => void view.tileArrived(h, png), (code, reason) => {
  if (code !== 1000) showState(`Disconnected: ${reason || `code ${code}`}. Reload the page to continue.`, true);
  saveButton.disabled = true;
});
