/**
 * The status bar (issue 5 "Chrome": page or sheet, word count, zoom, language, save state) in the `status` slot,
 * and `app.notify`. What LibreOffice 7.4 reports in its state callbacks is read here:
 *   `.uno:StatePageNumber`  "Page 2 of 6" (text: "Page 2 of 6 (Page 4)" when the page number differs)
 *   `.uno:StateWordCount`   "328 words, 2,130 characters", "Selected: 11 words, 33 characters"
 *   `.uno:StateTableCell`   spreadsheets: the selection's summary ("Average: ; Sum: 0": shown "Sum: 0")
 *   `.uno:RowColSelCount`   spreadsheets: "Selected: 3 rows, 2 columns" (a JSON string in 25.2: unquoted)
 *   `.uno:LanguageStatus`   "English (USA);en-US" ("*" when the selection mixes languages)
 * The element `.ode-state` always shows the save state ("Ready", "Unsaved changes", "Saving…", "All changes saved").
 */
import type { App } from '../core/app.ts';
import { registerMessages, t } from '../core/i18n.ts';
import { CLOSE } from '../../../protocol/editor.ts';
import { stateText } from './dom.ts';
import { el, popupMenu } from './panels-dom.ts';
import { RECONNECT_CODES } from '../host/reconnect.ts';

registerMessages({
  en: {
    'status.opening': 'Opening the document…',
    'status.ready': 'Ready',
    'status.readonly': 'Read-only',
    'status.unsaved': 'Unsaved changes',
    'status.saved': 'All changes saved',
    'status.saving': 'Saving…',
    'status.notSaved': 'Not saved: {message}',
    'status.storage.retrying': 'Storage unreachable, retrying…',
    'status.storage.unauthorized': 'Storage refused the access: changes cannot be saved',
    'status.storage.too_large': 'The file is too large for the storage: read-only',
    'status.storage.ok': 'All changes saved',
    'status.disconnected': 'Disconnected: {reason}. Reload the page to continue.',
    'status.reconnecting': 'Connection lost: reconnecting…',
    'status.page': 'Page {page} of {pages}',
    'status.sheet': 'Sheet {n} of {count}: {name}',
    'status.slide': 'Slide {n} of {count}',
    'status.drawingPage': 'Page {n} of {count}',
    'status.words': '{words} words, {chars} characters',
    'status.selectedWords': 'Selected: {words} words, {chars} characters',
    'status.language': 'Language: {language}',
    'status.languageMixed': 'Multiple languages',
    'status.zoom': 'Zoom: {percent}%',
    'status.zoomMenu': 'Zoom',
    'status.zoomFit': 'Fit width',
    'status.readonlyBadge': 'Read-only',
    'status.readonlyTitle': 'You can read but not edit this document',
    'status.commentsOnlyBadge': 'Comments only',
    'status.commentsOnlyTitle': 'You can add comments and save them; the pages themselves cannot be edited',
    'status.bar': 'Status bar',
  },
  fr: {
    'status.opening': 'Ouverture du document…',
    'status.ready': 'Prêt',
    'status.readonly': 'Lecture seule',
    'status.unsaved': 'Modifications non enregistrées',
    'status.saved': 'Toutes les modifications sont enregistrées',
    'status.saving': 'Enregistrement…',
    'status.notSaved': 'Non enregistré : {message}',
    'status.storage.retrying': 'Stockage injoignable, nouvel essai…',
    'status.storage.unauthorized': 'Le stockage refuse l’accès : les modifications ne peuvent pas être enregistrées',
    'status.storage.too_large': 'Le fichier est trop gros pour le stockage : lecture seule',
    'status.storage.ok': 'Toutes les modifications sont enregistrées',
    'status.disconnected': 'Déconnecté : {reason}. Rechargez la page pour continuer.',
    'status.reconnecting': 'Connexion perdue : reconnexion…',
    'status.page': 'Page {page} sur {pages}',
    'status.sheet': 'Feuille {n} sur {count} : {name}',
    'status.slide': 'Diapositive {n} sur {count}',
    'status.drawingPage': 'Page {n} sur {count}',
    'status.words': '{words} mots, {chars} caractères',
    'status.selectedWords': 'Sélection : {words} mots, {chars} caractères',
    'status.language': 'Langue : {language}',
    'status.languageMixed': 'Plusieurs langues',
    'status.zoom': 'Zoom : {percent} %',
    'status.zoomMenu': 'Zoom',
    'status.zoomFit': 'Pleine largeur',
    'status.readonlyBadge': 'Lecture seule',
    'status.readonlyTitle': 'Vous pouvez lire ce document mais pas le modifier',
    'status.commentsOnlyBadge': 'Commentaires seulement',
    'status.commentsOnlyTitle': 'Vous pouvez ajouter des commentaires et les enregistrer ; les pages elles-mêmes ne sont pas modifiables',
    'status.bar': 'Barre d’état',
  },
  de: {
    'status.opening': 'Dokument wird geöffnet…',
    'status.ready': 'Bereit',
    'status.readonly': 'Schreibgeschützt',
    'status.unsaved': 'Ungespeicherte Änderungen',
    'status.saved': 'Alle Änderungen gespeichert',
    'status.saving': 'Wird gespeichert…',
    'status.notSaved': 'Nicht gespeichert: {message}',
    'status.page': 'Seite {page} von {pages}',
    'status.sheet': 'Tabelle {n} von {count}: {name}',
    'status.slide': 'Folie {n} von {count}',
    'status.drawingPage': 'Seite {n} von {count}',
    'status.words': '{words} Wörter, {chars} Zeichen',
    'status.selectedWords': 'Ausgewählt: {words} Wörter, {chars} Zeichen',
    'status.language': 'Sprache: {language}',
    'status.languageMixed': 'Mehrere Sprachen',
    'status.zoom': 'Zoom: {percent} %',
    'status.zoomFit': 'Seitenbreite',
    'status.readonlyBadge': 'Schreibgeschützt',
    'status.commentsOnlyBadge': 'Nur Kommentare',
  },
});

/** "Page 2 of 6 (Page 4)" -> {page: 2, pages: 6}; undefined when the text has not two numbers. */
export function parsePageNumber(value: string): { page: number; pages: number } | undefined {
  const m = /(\d+)\D+?(\d+)/.exec(value);
  return m ? { page: Number(m[1]), pages: Number(m[2]) } : undefined;
}

/**
 * "328 words, 2,130 characters" -> {words: '328', chars: '2,130', selected: false}; "Selected: 11 words, 33
 * characters" -> selected. Numbers stay as LibreOffice formatted them (grouping separators of its locale).
 */
export function parseWordCount(value: string): { words: string; chars: string; selected: boolean } | undefined {
  const numbers = value.match(/\d(?:[\d.,\u00a0\u202f']*\d)?/g);
  if (!numbers || numbers.length < 2) return undefined;
  const before = value.slice(0, value.search(/\d/));
  return { words: numbers[0], chars: numbers[1], selected: before.includes(':') };
}

/** "English (USA);en-US" -> "English (USA)"; "*" (mixed) -> null; "" -> undefined. */
export function parseLanguage(value: string): string | null | undefined {
  const name = value.split(';')[0].trim();
  if (name === '*') return null;
  return name || undefined;
}

/**
 * The text of `.uno:RowColSelCount` (spreadsheets): LibreOffice 25.2 sends it as a JSON string
 * (`"Selected: 4 rows, 1 column"`, with the quotes; `""` for a single cell): the text without quotes, '' for none.
 */
export function selectionCount(value: string | undefined): string {
  return stateText(value).trim();
}

/**
 * The text of `.uno:StateTableCell` (spreadsheets: the status bar functions of the selection, "Average: 2; Sum: 6";
 * LibreOffice leaves a function's value empty when it has nothing to count: "Average: ; Sum: 0" for an empty
 * cell): the functions that have a value, joined by "; " (''; an error value such as "Err:502" is kept). A value
 * that is not `name: value` pairs is shown as LibreOffice sent it (without JSON quotes).
 */
export function selectionSummary(value: string | undefined): string {
  const text = stateText(value).trim();
  if (!text) return '';
  const pairs = text
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  if (!pairs.every((p) => p.includes(':'))) return text;
  return pairs.filter((p) => p.slice(p.indexOf(':') + 1).trim() !== '').join('; ');
}

/** The zoom levels the zoom menu offers (1 = 100 %). */
const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];

/** Mounts the status bar and sets `app.notify`. */
export function mountStatusBar(app: App): void {
  const { session, slots } = app;
  const state = el('span', { className: 'ode-state', attrs: { role: 'status' } }, t('status.opening'));
  const readonly = el('span', { className: 'ode-badge ode-readonly-badge', hidden: true, title: t('status.readonlyTitle') }, t('status.readonlyBadge'));
  const notice = el('span', { className: 'ode-notice', attrs: { role: 'status' } });
  const alert = el('span', { className: 'ode-notice ode-error', attrs: { role: 'alert' } });
  const position = el('span', { className: 'ode-status-position', attrs: { role: 'status' } });
  const words = el('span', { className: 'ode-status-words', attrs: { role: 'status' } });
  const summary = el('span', { className: 'ode-status-summary', attrs: { role: 'status' } });
  const language = el('span', { className: 'ode-status-language' });
  const zoom = el('button', { type: 'button', className: 'ode-status-zoom', attrs: { 'aria-haspopup': 'menu', 'aria-expanded': 'false' } }, '100%');
  const spacer = el('span', { className: 'ode-status-spacer' });
  slots.status.setAttribute('aria-label', t('status.bar'));
  slots.status.replaceChildren(state, readonly, notice, alert, spacer, position, words, summary, language, zoom);
  for (const e of [position, words, summary, language]) e.hidden = true;

  const showState = (text: string, error = false) => {
    state.textContent = text;
    state.classList.toggle('ode-error', error);
  };

  let noticeTimer: ReturnType<typeof setTimeout> | undefined;
  let alertTimer: ReturnType<typeof setTimeout> | undefined;
  app.notify = (text, kind = 'info') => {
    const target = kind === 'error' ? alert : notice;
    target.textContent = text;
    if (kind === 'error') {
      clearTimeout(alertTimer);
      alertTimer = setTimeout(() => (alert.textContent = ''), 15_000);
    } else {
      clearTimeout(noticeTimer);
      noticeTimer = setTimeout(() => (notice.textContent = ''), 6_000);
    }
  };

  // Position: page (text), sheet (spreadsheets), slide (presentations), page (drawings).
  const showPosition = () => {
    const s = session.state.status;
    if (!s) return;
    const n = session.state.part + 1;
    const count = s.parts;
    if (s.docType === 'text') {
      const p = parsePageNumber(session.state.states.get('.uno:StatePageNumber') ?? '');
      position.textContent = p ? t('status.page', p) : '';
    } else if (s.docType === 'spreadsheet') {
      position.textContent = t('status.sheet', { n, count, name: s.partNames[session.state.part] ?? '' });
    } else {
      position.textContent = t(s.docType === 'presentation' ? 'status.slide' : 'status.drawingPage', { n, count });
    }
    position.hidden = !position.textContent;
  };

  const showZoom = () => {
    const percent = Math.round((app.view?.zoom ?? 1) * 100);
    zoom.textContent = `${percent}%`;
    zoom.setAttribute('aria-label', t('status.zoom', { percent }));
    zoom.title = t('status.zoom', { percent });
  };
  zoom.addEventListener('click', () => {
    const current = app.view?.zoom ?? 1;
    const fit = () => {
      const width = session.state.status?.width ?? 0;
      if (width > 0) app.view.setZoom(Math.max(0.25, Math.min(4, ((app.view.scroller.clientWidth - 24) * 15) / width)));
    };
    popupMenu(slots.popups, zoom, t('status.zoomMenu'), [
      ...ZOOMS.map((z) => ({ text: `${Math.round(z * 100)}%`, checked: Math.abs(z - current) < 0.001, run: () => app.view.setZoom(z) })),
      ...(session.state.status?.docType === 'spreadsheet' ? [] : [{ text: t('status.zoomFit'), run: fit }]),
    ]);
  });

  let watchingZoom = false;
  session.on('status', (m) => {
    // A view that may comment and save its comments (a PDF opened for editing: commentsOnly, the toolbar then offers
    // Comment and Save: host/policy.ts) is read-only for LibreOffice, but "Read-only" would tell its user that nothing
    // can be done: the badge says what can.
    const commentsOnly = m.readonly && m.commentsOnly;
    showState(m.readonly && !commentsOnly ? t('status.readonly') : t('status.ready'));
    readonly.textContent = t(commentsOnly ? 'status.commentsOnlyBadge' : 'status.readonlyBadge');
    readonly.title = t(commentsOnly ? 'status.commentsOnlyTitle' : 'status.readonlyTitle');
    readonly.hidden = !m.readonly;
    showPosition();
    showZoom();
    if (!watchingZoom && app.view) (watchingZoom = true), app.view.onViewportChange(showZoom);
  });
  session.on('part', showPosition);
  session.on('documentSize', showPosition);
  session.on('stateChanged', (m) => {
    const docType = session.state.status?.docType;
    switch (m.command) {
      case '.uno:StatePageNumber':
        return showPosition();
      case '.uno:StateWordCount': {
        const w = parseWordCount(m.value);
        words.textContent = w ? t(w.selected ? 'status.selectedWords' : 'status.words', { words: w.words, chars: w.chars }) : '';
        words.hidden = !words.textContent;
        return;
      }
      case '.uno:StateTableCell':
      case '.uno:RowColSelCount': {
        if (docType !== 'spreadsheet') return;
        const parts = [
          selectionCount(session.state.states.get('.uno:RowColSelCount')),
          selectionSummary(session.state.states.get('.uno:StateTableCell')),
        ].filter((s) => s !== '');
        summary.textContent = parts.join(' · ');
        summary.hidden = !summary.textContent;
        return;
      }
      case '.uno:LanguageStatus': {
        const name = parseLanguage(m.value);
        language.textContent = name === null ? t('status.languageMixed') : (name ?? '');
        language.title = t('status.language', { language: language.textContent });
        language.hidden = !language.textContent;
        return;
      }
      default:
        return;
    }
  });

  // Save state.
  // A spreadsheet cell being edited shows LibreOffice's text caret (LOK_CALLBACK_CURSOR_VISIBLE true, a `cursor`
  // message without a rectangle): its text is not in a save made with DontTerminateEdit (the autosave timer, a
  // host's Action_Save asking it), so the state does not say "saved" then (issue 16), unless the last save says it
  // holds the cell (`saved` without `cellKept`: the idle save enters the cell and puts it back into edit mode).
  let cellEditing = false;
  let cellKept = true;
  session.on('cursor', (m) => {
    if (m.rect.every((v) => v === 0)) cellEditing = m.visible && session.state.status?.docType === 'spreadsheet';
  });
  const savedOrPending = () => (cellEditing && cellKept ? t('status.unsaved') : t('status.saved'));
  session.on('sent', (m) => {
    if (m.type === 'save') showState(t('status.saving'));
  });
  session.on('modified', (m) => {
    // LibreOffice says "not modified" once after loading: the state stays "Ready" until something changed.
    if (!m.modified && !session.state.everModified) return;
    showState(m.modified ? t('status.unsaved') : savedOrPending());
  });
  session.on('saved', (m) => {
    if (m.ok) cellKept = m.cellKept === true;
    if (m.ok) return showState(savedOrPending());
    const text = t('status.notSaved', { message: m.error?.message ?? 'unknown error' });
    showState(text, true);
    app.notify(text, 'error');
  });
  session.on('storage', (m) => {
    showState(t(`status.storage.${m.state}`), m.state !== 'ok');
    state.title = m.message;
    if (m.state === 'too_large') {
      readonly.textContent = t('status.readonlyBadge');
      readonly.title = t('status.readonlyTitle');
      readonly.hidden = false;
    }
  });
  session.on('error', (m) => app.notify(m.message, 'error'));
  session.on('kitDied', (m) => showState(m.message, true));
  session.on('idle', (m) => showState(m.message, true));
  session.on('closed', (code, reason) => {
    if (code === CLOSE.normal) return;
    // A dropped connection or a restarting daemon: host/reconnect.ts reopens the document by itself.
    if (RECONNECT_CODES.has(code) && session.state.status && !session.state.draining) showState(t('status.reconnecting'), true);
    else showState(t('status.disconnected', { reason: reason || `code ${code}` }), true);
  });
}
