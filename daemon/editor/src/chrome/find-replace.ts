/**
 * Find and replace (issue 5 "Chrome", Edit > Find and Replace): a non-modal bar over the top right of the document,
 * opened by `edit.findReplace`, Ctrl+F (find) and Ctrl+H (replace). Searches with LibreOffice's `.uno:ExecuteSearch`
 * (find-replace-search.ts builds its SearchItem arguments); `searchNotFound` says "not found", `searchResult`
 * gives the count of a find-all. The replace row is hidden for read-only views.
 */
import type { App } from '../core/app.ts';
import { registerMessages, t } from '../core/i18n.ts';
import { searchArgs, SEARCH } from './find-replace-search.ts';
import { button, el } from './panels-dom.ts';

registerMessages({
  en: {
    'edit.findReplace': 'Find and Replace…', 'find.bar': 'Find and replace', 'find.find': 'Find', 'find.replaceWith': 'Replace with',
    'find.matchCase': 'Match case', 'find.wholeWords': 'Whole words only', 'find.next': 'Find next', 'find.previous': 'Find previous',
    'find.all': 'Find all', 'find.replace': 'Replace', 'find.replaceAll': 'Replace all', 'find.close': 'Close find and replace',
    'find.notFound': 'Not found: “{text}”', 'find.count': '{count} matches', 'find.one': '1 match', 'find.replacedAll': 'Replaced every match',
  },
  fr: {
    'edit.findReplace': 'Rechercher et remplacer…', 'find.bar': 'Rechercher et remplacer', 'find.find': 'Rechercher', 'find.replaceWith': 'Remplacer par',
    'find.matchCase': 'Respecter la casse', 'find.wholeWords': 'Mots entiers uniquement', 'find.next': 'Suivant', 'find.previous': 'Précédent',
    'find.all': 'Tout rechercher', 'find.replace': 'Remplacer', 'find.replaceAll': 'Tout remplacer', 'find.close': 'Fermer la recherche',
    'find.notFound': 'Introuvable : « {text} »', 'find.count': '{count} résultats', 'find.one': '1 résultat', 'find.replacedAll': 'Toutes les occurrences sont remplacées',
  },
  de: {
    'edit.findReplace': 'Suchen und Ersetzen…', 'find.bar': 'Suchen und Ersetzen', 'find.find': 'Suchen', 'find.replaceWith': 'Ersetzen durch',
    'find.matchCase': 'Groß-/Kleinschreibung', 'find.wholeWords': 'Nur ganze Wörter', 'find.next': 'Weitersuchen', 'find.previous': 'Rückwärts suchen',
    'find.all': 'Alle suchen', 'find.replace': 'Ersetzen', 'find.replaceAll': 'Alle ersetzen', 'find.close': 'Suche schließen',
    'find.notFound': 'Nicht gefunden: „{text}“', 'find.count': '{count} Treffer', 'find.one': '1 Treffer', 'find.replacedAll': 'Alle Treffer ersetzt',
  },
});

/** Mounts the find and replace bar; registers `edit.findReplace` (argument `replace` opens it on the replace field). */
export function mountFindReplace(app: App): void {
  const { session, slots, commands } = app;
  const find = el('input', { type: 'search', className: 'ode-find-input', placeholder: t('find.find'), attrs: { 'aria-label': t('find.find') } });
  const replace = el('input', { type: 'text', className: 'ode-find-input', placeholder: t('find.replaceWith'), attrs: { 'aria-label': t('find.replaceWith') } });
  const matchCase = el('input', { type: 'checkbox' });
  const wholeWords = el('input', { type: 'checkbox' });
  const result = el('span', { className: 'ode-find-result', attrs: { role: 'status', 'aria-live': 'polite' } });
  const close = button(t('find.close'), '×', () => hide(), 'ode-icon-button');
  const prev = button(t('find.previous'), '↑', () => search(SEARCH.find, true), 'ode-icon-button');
  const next = button(t('find.next'), '↓', () => search(SEARCH.find, false), 'ode-icon-button');
  const all = button(t('find.all'), t('find.all'), () => search(SEARCH.findAll, false));
  const replaceOne = button(t('find.replace'), t('find.replace'), () => search(SEARCH.replace, false));
  const replaceAll = button(t('find.replaceAll'), t('find.replaceAll'), () => search(SEARCH.replaceAll, false));
  const replaceRow = el('div', { className: 'ode-find-row' }, replace, replaceOne, replaceAll);
  const bar = el(
    'form',
    { className: 'ode-find-bar', hidden: true, attrs: { role: 'search', 'aria-label': t('find.bar') } },
    el('div', { className: 'ode-find-row' }, find, prev, next, all, close),
    replaceRow,
    el('div', { className: 'ode-find-row ode-find-options' }, el('label', {}, matchCase, t('find.matchCase')), el('label', {}, wholeWords, t('find.wholeWords')), result),
  );
  slots.doc.append(bar);
  /** The text of the last search, so that `searchNotFound` and `searchResult` are matched to it. */
  let lastCommand: number = SEARCH.find;

  const readonly = () => session.state.status?.readonly !== false;

  function search(command: number, backward: boolean): void {
    const text = find.value;
    if (!text || !session.live) return;
    if ((command === SEARCH.replace || command === SEARCH.replaceAll) && readonly()) return;
    lastCommand = command;
    result.textContent = '';
    result.classList.remove('ode-error');
    const area = app.view?.visibleArea();
    session.uno('.uno:ExecuteSearch', searchArgs({ text, replace: replace.value, backward, command, matchCase: matchCase.checked, wholeWords: wholeWords.checked, start: area ? [area.x, area.y] : undefined }));
    app.events.emit('userActive');
    if (command === SEARCH.replaceAll) result.textContent = t('find.replacedAll');
  }

  function show(focusReplace: boolean): void {
    replaceRow.hidden = readonly();
    bar.hidden = false;
    const target = focusReplace && !replaceRow.hidden ? replace : find;
    target.focus();
    target.select();
  }

  function hide(): void {
    bar.hidden = true;
    result.textContent = '';
    app.view?.focus();
  }

  commands.register({
    id: 'edit.findReplace',
    label: 'edit.findReplace',
    shortcut: 'Ctrl+H',
    enabled: () => session.live,
    run: (arg) => show(arg === 'replace'),
  });

  bar.addEventListener('submit', (e) => (e.preventDefault(), search(SEARCH.find, false)));
  bar.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      hide();
    } else if (e.key === 'Enter' && e.target === find) {
      e.preventDefault();
      search(SEARCH.find, e.shiftKey);
    } else if (e.key === 'Enter' && e.target === replace) {
      e.preventDefault();
      search(SEARCH.replace, false);
    }
  });
  // Ctrl+F and Ctrl+H before the document's input (and the browser's own find) see them.
  window.addEventListener(
    'keydown',
    (e) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      const key = e.key.toLowerCase();
      if (key !== 'f' && key !== 'h') return;
      if (commands.isHidden('edit.findReplace') || !commands.isEnabled('edit.findReplace')) return;
      e.preventDefault();
      e.stopPropagation();
      commands.get('edit.findReplace')!.run(key === 'h' ? 'replace' : undefined);
    },
    true,
  );

  session.on('searchNotFound', (m) => {
    if (bar.hidden) return;
    result.textContent = t('find.notFound', { text: m.searchString || find.value });
    result.classList.add('ode-error');
  });
  session.on('searchResult', (m) => {
    if (bar.hidden) return;
    const r = m.result as { highlightAll?: unknown; searchResultSelection?: unknown[] };
    const count = Array.isArray(r.searchResultSelection) ? r.searchResultSelection.length : 0;
    const everything = r.highlightAll === true || r.highlightAll === 'true' || lastCommand === SEARCH.findAll;
    result.classList.remove('ode-error');
    if (everything) result.textContent = count === 1 ? t('find.one') : t('find.count', { count });
  });
  session.on('status', () => {
    if (!bar.hidden) replaceRow.hidden = readonly();
  });
}
