/**
 * Insert > Citation (`insert.citation`) and Insert > Bibliography (`insert.bibliography`) for text documents whose
 * user has UserPrivateInfo.CitationAPIKey (the daemon says so in `services`; the key stays in the daemon):
 * the citation dialog lists the user's library (editor.md `citationList`), the chosen items' citation goes in at
 * the cursor, and the bibliography of every cited item (docs/citations.md).
 */
import type { CitationListItem } from '../../../protocol/editor.ts';
import { el } from '../chrome/panels-dom.ts';
import type { App } from '../core/app.ts';
import { registerMessages, t } from '../core/i18n.ts';

registerMessages({
  en: {
    'insert.citation': 'Citation…',
    'insert.bibliography': 'Bibliography',
    'cite.title': 'Insert a citation',
    'cite.search': 'Search your library',
    'cite.style': 'Citation style',
    'cite.list': 'Library items',
    'cite.insert': 'Insert',
    'cite.close': 'Close',
    'cite.loading': 'Loading your library…',
    'cite.empty': 'No item matches.',
    'cite.failed': 'Citation: {message}',
    'cite.inserted': 'Citation inserted: {text}',
    'cite.bibInserted': 'Bibliography inserted ({count} items).',
  },
  fr: {
    'insert.citation': 'Citation…',
    'insert.bibliography': 'Bibliographie',
    'cite.title': 'Insérer une citation',
    'cite.search': 'Rechercher dans votre bibliothèque',
    'cite.style': 'Style de citation',
    'cite.list': 'Éléments de la bibliothèque',
    'cite.insert': 'Insérer',
    'cite.close': 'Fermer',
    'cite.loading': 'Chargement de votre bibliothèque…',
    'cite.empty': 'Aucun élément ne correspond.',
    'cite.failed': 'Citation : {message}',
    'cite.inserted': 'Citation insérée : {text}',
    'cite.bibInserted': 'Bibliographie insérée ({count} éléments).',
  },
  de: {
    'insert.citation': 'Zitat…',
    'insert.bibliography': 'Literaturverzeichnis',
    'cite.title': 'Zitat einfügen',
    'cite.search': 'Bibliothek durchsuchen',
    'cite.style': 'Zitierstil',
    'cite.list': 'Einträge der Bibliothek',
    'cite.insert': 'Einfügen',
    'cite.close': 'Schließen',
    'cite.loading': 'Bibliothek wird geladen…',
    'cite.empty': 'Kein Eintrag passt.',
    'cite.failed': 'Zitat: {message}',
    'cite.inserted': 'Zitat eingefügt: {text}',
    'cite.bibInserted': 'Literaturverzeichnis eingefügt ({count} Einträge).',
  },
});

/** CSL style ids offered (Zotero style repository). */
const STYLES: Array<[string, string]> = [
  ['apa', 'APA'],
  ['chicago-author-date', 'Chicago (author-date)'],
  ['modern-language-association', 'MLA'],
  ['harvard-cite-them-right', 'Harvard'],
  ['ieee', 'IEEE'],
  ['nature', 'Nature'],
];
const STYLE_KEY = 'ode.citationStyle';

/** Mounts Insert > Citation and Insert > Bibliography (shown only when the daemon's `services` says citations are on). */
export function mountCitations(app: App): void {
  const { session, commands, slots } = app;
  let style = (() => {
    try {
      return localStorage.getItem(STYLE_KEY) ?? 'apa';
    } catch {
      return 'apa';
    }
  })();
  let items: CitationListItem[] = [];
  let chosen: string | undefined;

  const dialog = el('dialog', { className: 'ode-cite-dialog' });
  dialog.setAttribute('aria-labelledby', 'ode-cite-title');
  const search = el('input', { type: 'search', placeholder: t('cite.search') });
  search.setAttribute('aria-label', t('cite.search'));
  const styleSelect = el('select');
  styleSelect.setAttribute('aria-label', t('cite.style'));
  for (const [id, name] of STYLES) styleSelect.append(el('option', { value: id, textContent: name, selected: id === style }));
  const list = el('ul', { className: 'ode-cite-list' });
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', t('cite.list'));
  const info = el('p', { className: 'ode-cite-info' });
  info.setAttribute('role', 'status');
  const insert = el('button', { type: 'button', textContent: t('cite.insert'), disabled: true });
  const close = el('button', { type: 'button', textContent: t('cite.close') });
  dialog.append(
    el('h2', { id: 'ode-cite-title', textContent: t('cite.title') }),
    el('div', { className: 'ode-cite-row' }, search, styleSelect),
    info,
    list,
    el('div', { className: 'ode-cite-buttons' }, insert, close),
  );
  slots.popups.append(dialog);

  const render = () => {
    const q = search.value.trim().toLowerCase();
    const shown = items.filter((i) => !q || `${i.title} ${i.creators} ${i.date}`.toLowerCase().includes(q));
    list.replaceChildren(
      ...shown.map((i) => {
        const li = el(
          'li',
          { tabIndex: 0, className: 'ode-cite-item' },
          el('span', { className: 'ode-cite-item-title', textContent: i.title || i.key }),
          el('span', { className: 'ode-cite-item-meta', textContent: `${i.creators} · ${i.date} · ${i.citation}` }),
        );
        li.setAttribute('role', 'option');
        li.setAttribute('aria-selected', String(i.key === chosen));
        li.dataset.key = i.key;
        const pick = () => {
          chosen = i.key;
          insert.disabled = false;
          for (const o of list.children) o.setAttribute('aria-selected', String((o as HTMLElement).dataset.key === chosen));
        };
        li.addEventListener('click', pick);
        li.addEventListener('dblclick', () => (pick(), doInsert()));
        li.addEventListener('keydown', (e) => {
          if (e.key === 'Enter') pick(), doInsert();
          else if (e.key === ' ') e.preventDefault(), pick();
          else if (e.key === 'ArrowDown') e.preventDefault(), (li.nextElementSibling as HTMLElement | null)?.focus();
          else if (e.key === 'ArrowUp') e.preventDefault(), (li.previousElementSibling as HTMLElement | null)?.focus();
        });
        return li;
      }),
    );
    info.textContent = items.length && !shown.length ? t('cite.empty') : '';
  };

  const load = () => {
    items = [];
    chosen = undefined;
    insert.disabled = true;
    list.replaceChildren();
    info.textContent = t('cite.loading');
    session.send({ type: 'citationList', style });
  };

  const doInsert = () => {
    if (!chosen) return;
    session.send({ type: 'citationInsert', itemKeys: [chosen], style });
    dialog.close();
  };

  search.addEventListener('input', render);
  styleSelect.addEventListener('change', () => {
    style = styleSelect.value;
    try {
      localStorage.setItem(STYLE_KEY, style);
    } catch {
      // Storage may be off (private mode, sandbox): the style is kept for this page only.
    }
    load();
  });
  insert.addEventListener('click', doInsert);
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => app.view?.focus());

  session.on('citationList', (m) => {
    items = m.items;
    info.textContent = '';
    render();
  });
  session.on('citationResult', (m) => {
    if (!m.ok) {
      if (m.action === 'list') info.textContent = t('cite.failed', { message: m.error?.message ?? '' });
      else app.notify(t('cite.failed', { message: m.error?.message ?? '' }), 'error');
    } else if (m.action === 'citation') app.notify(t('cite.inserted', { text: m.text ?? '' }));
    else if (m.action === 'bibliography') app.notify(t('cite.bibInserted', { count: m.count ?? 0 }));
  });

  session.on('services', (m) => {
    if (!m.citations || session.state.status?.docType !== 'text') return;
    const editable = () => session.live && !session.state.status?.readonly;
    commands.register(
      {
        id: 'insert.citation',
        label: 'insert.citation',
        enabled: editable,
        run: () => {
          dialog.showModal();
          search.focus();
          load();
        },
      },
      { id: 'insert.bibliography', label: 'insert.bibliography', enabled: editable, run: () => session.send({ type: 'bibliographyInsert', style }) },
    );
  });
}
