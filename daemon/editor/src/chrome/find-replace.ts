/**
 * Find and replace (issue 5 "Chrome", Edit > Find and Replace): a non-modal bar over the top right of the document,
 * opened by `edit.findReplace`, Ctrl+F (find) and Ctrl+H (replace). Searches with LibreOffice's `.uno:ExecuteSearch`
 * (find-replace-search.ts builds its SearchItem arguments); `searchNotFound` says "not found", `searchResult`
 * gives the count of a find-all. The replace row is hidden for read-only views.
 *
 * Find all highlights every match (issue 23: 9 matches reported, one highlighted): LibreOffice selects them all but
 * its selection callback shows one, so the editor draws the rectangles of the search result over the tiles (as
 * Collabora Online does with its search results layer) until the search changes or the bar closes. "n of N": the
 * first find of a search asks LibreOffice for all matches (a find-all, which gives their rectangles and count) and
 * then for the next one; each find then shows its position among them.
 */
import type { App } from '../core/app.ts';
import { registerMessages, t } from '../core/i18n.ts';
import { matchIndex, searchArgs, searchMatches, SEARCH, type SearchMatch } from './find-replace-search.ts';
import { button, el } from './panels-dom.ts';

registerMessages({
  en: {
    'edit.findReplace': 'Find and Replace…',
    'find.bar': 'Find and replace',
    'find.find': 'Find',
    'find.replaceWith': 'Replace with',
    'find.matchCase': 'Match case',
    'find.wholeWords': 'Whole words only',
    'find.next': 'Find next',
    'find.previous': 'Find previous',
    'find.all': 'Find all',
    'find.replace': 'Replace',
    'find.replaceAll': 'Replace all',
    'find.close': 'Close find and replace',
    'find.notFound': 'Not found: “{text}”',
    'find.count': '{count} matches',
    'find.one': '1 match',
    'find.replacedAll': 'Replaced every match',
    'find.nOfCount': '{n} of {count}',
  },
  fr: {
    'edit.findReplace': 'Rechercher et remplacer…',
    'find.bar': 'Rechercher et remplacer',
    'find.find': 'Rechercher',
    'find.replaceWith': 'Remplacer par',
    'find.matchCase': 'Respecter la casse',
    'find.wholeWords': 'Mots entiers uniquement',
    'find.next': 'Suivant',
    'find.previous': 'Précédent',
    'find.all': 'Tout rechercher',
    'find.replace': 'Remplacer',
    'find.replaceAll': 'Tout remplacer',
    'find.close': 'Fermer la recherche',
    'find.notFound': 'Introuvable : « {text} »',
    'find.count': '{count} résultats',
    'find.one': '1 résultat',
    'find.replacedAll': 'Toutes les occurrences sont remplacées',
    'find.nOfCount': '{n} sur {count}',
  },
  de: {
    'edit.findReplace': 'Suchen und Ersetzen…',
    'find.bar': 'Suchen und Ersetzen',
    'find.find': 'Suchen',
    'find.replaceWith': 'Ersetzen durch',
    'find.matchCase': 'Groß-/Kleinschreibung',
    'find.wholeWords': 'Nur ganze Wörter',
    'find.next': 'Weitersuchen',
    'find.previous': 'Rückwärts suchen',
    'find.all': 'Alle suchen',
    'find.replace': 'Ersetzen',
    'find.replaceAll': 'Alle ersetzen',
    'find.close': 'Suche schließen',
    'find.notFound': 'Nicht gefunden: „{text}“',
    'find.count': '{count} Treffer',
    'find.one': '1 Treffer',
    'find.replacedAll': 'Alle Treffer ersetzt',
    'find.nOfCount': '{n} von {count}',
  },
});

/** Mounts the find and replace bar; registers `edit.findReplace` (argument `replace` opens it on the replace field). */
export function mountFindReplace(app: App): void {
  const { session, slots, commands } = app;
  const find = el('input', { type: 'search', className: 'ode-find-input', placeholder: t('find.find'), attrs: { 'aria-label': t('find.find') } });
  const replace = el('input', {
    type: 'text',
    className: 'ode-find-input',
    placeholder: t('find.replaceWith'),
    attrs: { 'aria-label': t('find.replaceWith') },
  });
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
    el(
      'div',
      { className: 'ode-find-row ode-find-options' },
      el('label', {}, matchCase, t('find.matchCase')),
      el('label', {}, wholeWords, t('find.wholeWords')),
      result,
    ),
  );
  slots.doc.append(bar);
  /** The text of the last search, so that `searchNotFound` and `searchResult` are matched to it. */
  let lastCommand: number = SEARCH.find;
  /** The search the matches below are for (text and options), and those matches (a find-all's result). */
  let counted: { key: string; matches: SearchMatch[]; count: number } | undefined;
  /** A find waiting for the find-all that counts its search. */
  let afterCount: { key: string; backward: boolean } | undefined;
  const searchKey = () => JSON.stringify([find.value, matchCase.checked, wholeWords.checked]);

  // The find-all highlights: one box per rectangle in the document view's scrolling element (so they scroll with
  // the document; placed again after a zoom), current part only.
  const highlights = el('div', { className: 'ode-find-highlights', attrs: { 'aria-hidden': 'true' } });
  let highlighted: SearchMatch[] = [];
  const drawHighlights = () => {
    const view = app.view;
    if (!view) return;
    if (!highlights.isConnected) view.scroller.append(highlights);
    const { scrollLeft, scrollTop } = view.scroller;
    const part = session.state.status?.docType === 'text' ? 0 : session.state.part;
    highlights.replaceChildren(
      ...highlighted
        .filter((m) => m.part === part || session.state.status?.docType === 'text')
        .flatMap((m) => m.rects)
        .map((r) => {
          const v = view.toView(r);
          return el('div', {
            className: 'ode-find-match',
            attrs: { style: `left:${v.left + scrollLeft}px;top:${v.top + scrollTop}px;width:${v.width}px;height:${v.height}px` },
          });
        }),
    );
  };
  const clearHighlights = () => {
    highlighted = [];
    highlights.replaceChildren();
  };
  session.on('part', () => highlighted.length && drawHighlights());
  let watching = false;
  session.on('status', () => {
    if (watching || !app.view) return;
    watching = true;
    let zoom = app.view.zoom;
    app.view.onViewportChange(() => {
      if (app.view.zoom === zoom) return;
      zoom = app.view.zoom;
      if (highlighted.length) drawHighlights();
    });
  });

  const readonly = () => session.state.status?.readonly !== false;

  function search(command: number, backward: boolean): void {
    const text = find.value;
    if (!text || !session.live) return;
    if ((command === SEARCH.replace || command === SEARCH.replaceAll) && readonly()) return;
    const key = searchKey();
    clearHighlights();
    // Replacing changes the matches: counted again at the next find.
    if (command === SEARCH.replace || command === SEARCH.replaceAll) counted = undefined;
    // The first find of a search counts its matches first (a find-all), then finds (on its result).
    if (command === SEARCH.find && counted?.key !== key) {
      afterCount = { key, backward };
      command = SEARCH.findAll;
    } else afterCount = undefined;
    send(command, backward);
    app.events.emit('userActive');
    if (command === SEARCH.replaceAll) result.textContent = t('find.replacedAll');
  }

  function send(command: number, backward: boolean): void {
    lastCommand = command;
    result.textContent = '';
    result.classList.remove('ode-error');
    const area = app.view?.visibleArea();
    session.uno(
      '.uno:ExecuteSearch',
      searchArgs({
        text: find.value,
        replace: replace.value,
        backward,
        command,
        matchCase: matchCase.checked,
        wholeWords: wholeWords.checked,
        start: area ? [area.x, area.y] : undefined,
      }),
    );
  }

  function show(focusReplace: boolean): void {
    replaceRow.hidden = readonly();
    bar.hidden = false;
    // Ctrl+H goes to the replace field only when there is something to find (issue 23: it went to Replace with
    // Find empty, so the first thing typed was the replacement).
    const target = focusReplace && !replaceRow.hidden && find.value !== '' ? replace : find;
    target.focus();
    target.select();
  }

  function hide(): void {
    bar.hidden = true;
    result.textContent = '';
    clearHighlights();
    counted = undefined;
    afterCount = undefined;
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

  // A changed search (text or options) has other matches.
  for (const input of [find, matchCase, wholeWords]) {
    input.addEventListener('input', () => {
      clearHighlights();
      counted = undefined;
      afterCount = undefined;
      result.textContent = '';
    });
  }
  // The document changed: the matches may have moved (counted again at the next find).
  session.on('modified', () => (counted = afterCount ? counted : undefined));
  session.on('sent', (m) => {
    if ((m.type === 'key' || m.type === 'textInput' || m.type === 'uno') && !(m.type === 'uno' && m.command === '.uno:ExecuteSearch')) {
      counted = undefined;
      if (highlighted.length) clearHighlights();
    }
  });

  session.on('searchNotFound', (m) => {
    if (bar.hidden) return;
    afterCount = undefined;
    result.textContent = t('find.notFound', { text: m.searchString || find.value });
    result.classList.add('ode-error');
  });
  session.on('searchResult', (m) => {
    if (bar.hidden) return;
    const r = m.result as { highlightAll?: unknown; searchResultSelection?: unknown };
    const matches = searchMatches(m.result);
    // Every entry is a match, with or without rectangles to draw.
    const count = Array.isArray(r.searchResultSelection) ? r.searchResultSelection.length : matches.length;
    const everything = r.highlightAll === true || r.highlightAll === 'true' || lastCommand === SEARCH.findAll;
    result.classList.remove('ode-error');
    if (everything) {
      counted = { key: afterCount?.key ?? searchKey(), matches, count };
      if (afterCount) {
        // Counted for a find: now the find itself.
        const { backward } = afterCount;
        afterCount = undefined;
        send(SEARCH.find, backward);
        return;
      }
      highlighted = matches;
      drawHighlights();
      result.textContent = count === 1 ? t('find.one') : t('find.count', { count });
    } else if (counted && counted.key === searchKey() && matches.length) {
      const n = matchIndex(counted.matches, matches[0]);
      if (n >= 0) result.textContent = t('find.nOfCount', { n: n + 1, count: counted.count });
    }
  });
  session.on('status', () => {
    if (!bar.hidden) replaceRow.hidden = readonly();
  });
}
