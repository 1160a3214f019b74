import type { App } from '../core/app.ts';
import { registerMessages, t } from '../core/i18n.ts';
import { mountPanels } from './panels.ts';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

registerMessages({
  en: { 'file.save': 'Save', 'title.loading': 'Loading…' },
  fr: { 'file.save': 'Enregistrer', 'title.loading': 'Chargement…' },
});

/**
 * The chrome around the document (issue 5 "Chrome"), first cut: title, Save, parts, zoom; the panels (status bar,
 * users) come from panels.ts. Registers `file.save`.
 */
export function mountChrome(app: App): void {
  const { session, slots, commands } = app;
  const title = el('span', { className: 'ode-title' }, t('title.loading'));
  const saveButton = el('button', { type: 'button', className: 'ode-button', title: `${t('file.save')} (Ctrl+S)`, disabled: true }, t('file.save'));
  const zoom = el('select', { className: 'ode-select', title: 'Zoom' }, ...[50, 75, 100, 125, 150, 200].map((z) => el('option', { value: String(z / 100), selected: z === 100 }, `${z}%`)));
  const parts = el('select', { className: 'ode-select', title: 'Sheet, slide or page', hidden: true });
  slots.toolbar.setAttribute('role', 'toolbar');
  slots.toolbar.append(title, saveButton, parts, zoom);

  commands.register({
    id: 'file.save',
    label: 'file.save',
    shortcut: 'Ctrl+S',
    enabled: () => session.live && !session.state.status?.readonly,
    run: () => session.send({ type: 'save' }),
  });
  saveButton.addEventListener('click', () => commands.run('file.save'));
  zoom.addEventListener('change', () => app.view.setZoom(Number(zoom.value)));
  parts.addEventListener('change', () => session.send({ type: 'setPart', part: Number(parts.value) }));

  session.on('status', (m) => {
    title.textContent = String(m.fileInfo.BaseFileName ?? 'Document');
    document.title = `${title.textContent} — Ode`;
    saveButton.disabled = m.readonly;
    saveButton.hidden = commands.isHidden('file.save');
    parts.hidden = m.parts <= 1 || m.docType === 'text';
    parts.replaceChildren(...m.partNames.map((n, i) => el('option', { value: String(i), selected: i === m.part }, n || `Part ${i + 1}`)));
  });
  session.on('closed', () => (saveButton.disabled = true));
  mountPanels(app);
}
