/**
 * The comments panel (issue 5 "Chrome": comments panel) in the right dock, toggled by `view.comments`. Lists the
 * document's comments (`.uno:ViewAnnotations`, comments-model.ts) as threads with author, date and text; where
 * the view may comment (editable, or pdf in view_comment), each comment offers reply, edit, delete and (text
 * documents) resolve. Activating a comment scrolls the document to its anchor.
 *
 * Kept live two ways: `comments` messages (LOK's COMMENT callback) are applied as they come; LibreOffice 7.4
 * sends them only when the kit turns tiled annotations off (LOK_FEATURE_NO_TILED_ANNOTATIONS), so while the
 * panel is open it also asks `.uno:ViewAnnotations` again after the document changed (invalidations, debounced).
 */
import type { App } from '../core/app.ts';
import { language, registerMessages, t } from '../core/i18n.ts';
import { applyCommentAction, commentCommands, commentDate, parseAnnotations, threads, type DocComment } from './comments-model.ts';
import type { CommentDraftCommand } from '../../../protocol/editor.ts';
import { CommentDraft } from './comment-draft.ts';
import { button, el, type RightDock } from './panels-dom.ts';

registerMessages({
  en: {
    'view.comments': 'Comments',
    'comments.none': 'No comments in this document.',
    'comments.reply': 'Reply',
    'comments.edit': 'Edit',
    'comments.delete': 'Delete',
    'comments.resolve': 'Resolve',
    'comments.reopen': 'Reopen',
    'comments.resolved': 'Resolved',
    'comments.send': 'Send',
    'comments.save': 'Save',
    'comments.cancel': 'Cancel',
    'comments.replyLabel': 'Reply to {author}',
    'comments.editLabel': 'Edit the comment of {author}',
    'comments.goTo': 'Comment by {author}: show in the document',
    'comments.add': 'Add a comment',
    'comments.unknownAuthor': 'Unknown author',
    'comments.loading': 'Loading comments…',
    'comments.reply.count': '{count} replies',
  },
  fr: {
    'view.comments': 'Commentaires',
    'comments.none': 'Aucun commentaire dans ce document.',
    'comments.reply': 'Répondre',
    'comments.edit': 'Modifier',
    'comments.delete': 'Supprimer',
    'comments.resolve': 'Résoudre',
    'comments.reopen': 'Rouvrir',
    'comments.resolved': 'Résolu',
    'comments.send': 'Envoyer',
    'comments.save': 'Enregistrer',
    'comments.cancel': 'Annuler',
    'comments.replyLabel': 'Répondre à {author}',
    'comments.editLabel': 'Modifier le commentaire de {author}',
    'comments.goTo': 'Commentaire de {author} : afficher dans le document',
    'comments.add': 'Ajouter un commentaire',
    'comments.unknownAuthor': 'Auteur inconnu',
    'comments.loading': 'Chargement des commentaires…',
    'comments.reply.count': '{count} réponses',
  },
  de: {
    'view.comments': 'Kommentare',
    'comments.none': 'Keine Kommentare in diesem Dokument.',
    'comments.reply': 'Antworten',
    'comments.edit': 'Bearbeiten',
    'comments.delete': 'Löschen',
    'comments.resolve': 'Erledigt',
    'comments.reopen': 'Wieder öffnen',
    'comments.resolved': 'Erledigt',
    'comments.send': 'Senden',
    'comments.save': 'Speichern',
    'comments.cancel': 'Abbrechen',
    'comments.add': 'Kommentar hinzufügen',
  },
});

/** How long the document must be quiet before the open panel reads the comments again (ms). */
const REFRESH_DEBOUNCE_MS = 700;

/** A reply or an edit being written in the panel: the comment's id, the text so far, and (edit) the text it started from. */
type Draft = { id: string; mode: 'reply' | 'edit'; text: string; original: string; focused: boolean };

/** Mounts the comments panel; registers `view.comments`. */
export function mountComments(app: App, dock: RightDock): void {
  const { session, commands } = app;
  let comments: DocComment[] = [];
  let loaded = false;
  let draft: Draft | undefined;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;

  const add = button(t('comments.add'), t('comments.add'), () => commands.run('insert.comment'));
  const list = el('div', { className: 'ode-comments-list', attrs: { role: 'list' } }, t('comments.loading'));
  const body = el('div', { className: 'ode-comments' }, add, list);
  dock.add('comments', t('view.comments'), body, () => void refresh());

  commands.register({
    id: 'view.comments',
    label: 'view.comments',
    icon: 'comment',
    run: () => dock.toggle('comments'),
    checked: () => dock.isOpen('comments'),
  });
  dock.onChange(() => commands.refresh());

  const canComment = () => session.live && (!session.state.status?.readonly || session.state.status.commentsOnly);

  const refresh = async () => {
    if (!session.live) return;
    try {
      const m = await session.request({ type: 'commandValues', command: '.uno:ViewAnnotations' }, 'commandValues', (r) => r.command === '.uno:ViewAnnotations');
      comments = parseAnnotations(m.value);
      loaded = true;
      render();
    } catch {
      // The socket closed or LibreOffice did not answer: the list stays as it was.
    }
  };
  const refreshSoon = () => {
    if (!dock.isOpen('comments')) return;
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => void refresh(), REFRESH_DEBOUNCE_MS);
  };

  const uno = (command: string, args: Record<string, string>) => {
    session.uno(command, Object.fromEntries(Object.entries(args).map(([k, v]) => [k, { type: 'string', value: v }])));
    app.events.emit('userActive');
    refreshSoon();
  };

  /**
   * Sends the reply or edit being written (issue 16: what a user typed is in every save and export, as the cell
   * being edited is). With `changedOnly` an edit whose text is unchanged is not sent. True when it sent one.
   */
  const sendDraft = (changedOnly: boolean): boolean => {
    const d = draft;
    const text = d?.text.trim();
    if (!d || !text || !canComment() || (changedOnly && d.mode === 'edit' && text === d.original.trim())) return false;
    const cmds = commentCommands(session.state.status?.docType ?? 'text');
    if (d.mode === 'reply' && cmds.reply) uno(cmds.reply, { Id: d.id, Text: text });
    else uno(cmds.edit, { Id: d.id, Text: text });
    draft = undefined;
    held.sent();
    return true;
  };
  // The daemon holds the reply or edit as it is typed, for a tab closed before the `pagehide` message got out.
  const held = new CommentDraft(session);
  const holdDraft = () => {
    const d = draft;
    if (!d || !canComment() || (d.mode === 'edit' && d.text.trim() === d.original.trim())) return held.drop();
    const cmds = commentCommands(session.state.status?.docType ?? 'text');
    const command = d.mode === 'reply' && cmds.reply ? cmds.reply : cmds.edit;
    held.update(command as CommentDraftCommand, { Id: d.id }, d.text);
  };
  // Before a save that ends edits (all but the autosave kind asking DontTerminateEdit) and before an export; when
  // the page goes away, for the exit save.
  session.beforeSend((m) => {
    if (((m.type === 'save' && !m.dontTerminateEdit) || m.type === 'download') && sendDraft(true)) queueMicrotask(render);
  });
  addEventListener('pagehide', () => sendDraft(true));

  const goTo = (c: DocComment) => {
    if (!c.anchor) return;
    const anchor = c.anchor;
    if (session.state.status?.docType !== 'text' && c.part !== session.state.part) {
      session.once('part', () => app.view.scrollIntoView(anchor));
      session.send({ type: 'setPart', part: c.part });
    } else app.view.scrollIntoView(anchor);
  };

  const dateText = (c: DocComment) => {
    const d = commentDate(c.dateTime);
    return d ? new Intl.DateTimeFormat(language(), { dateStyle: 'medium', timeStyle: 'short' }).format(d) : c.dateTime;
  };

  const form = (c: DocComment, mode: 'reply' | 'edit'): HTMLElement => {
    const author = c.author || t('comments.unknownAuthor');
    const label = t(mode === 'reply' ? 'comments.replyLabel' : 'comments.editLabel', { author });
    const area = el('textarea', { className: 'ode-comment-input', rows: 3, value: draft?.text ?? '', attrs: { 'aria-label': label } });
    area.addEventListener('input', () => {
      if (!draft) return;
      draft.text = area.value;
      holdDraft();
    });
    area.addEventListener('focus', () => draft && (draft.focused = true));
    area.addEventListener('blur', () => draft && (draft.focused = false));
    const submit = () => {
      if (!area.value.trim() || !draft) return;
      draft.text = area.value;
      draft.focused = false;
      sendDraft(false);
      render();
    };
    const cancel = () => {
      if (draft) draft.focused = false;
      draft = undefined;
      held.drop();
      render();
    };
    area.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) e.preventDefault(), submit();
      else if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 's') {
        // Ctrl+S here saves the document with what is being written (the page's shortcuts skip input fields).
        e.preventDefault();
        if (draft) draft.focused = false;
        app.view.focus();
        app.commands.run('file.save');
      } else if (e.key === 'Escape') e.preventDefault(), e.stopPropagation(), cancel();
    });
    const ok = button(
      t(mode === 'reply' ? 'comments.send' : 'comments.save'),
      t(mode === 'reply' ? 'comments.send' : 'comments.save'),
      submit,
      'ode-button ode-primary',
    );
    const no = button(t('comments.cancel'), t('comments.cancel'), cancel);
    if (draft?.focused !== false) queueMicrotask(() => area.focus());
    return el('div', { className: 'ode-comment-form' }, area, el('div', { className: 'ode-comment-actions' }, ok, no));
  };

  const item = (c: DocComment, isRoot: boolean): HTMLElement => {
    const author = c.author || t('comments.unknownAuthor');
    const goButton = el(
      'button',
      { type: 'button', className: 'ode-comment-head', attrs: { 'aria-label': t('comments.goTo', { author }) } },
      el('span', { className: 'ode-comment-author' }, author),
      el('time', { className: 'ode-comment-date', dateTime: c.dateTime }, dateText(c)),
    );
    goButton.addEventListener('click', () => goTo(c));
    const text = el('p', { className: 'ode-comment-text' }, c.text);
    text.addEventListener('click', () => goTo(c));
    const article = el(
      'article',
      { className: `ode-comment${isRoot ? '' : ' ode-comment-reply'}${c.resolved ? ' ode-comment-resolved' : ''}`, attrs: { 'data-comment-id': c.id } },
      goButton,
      text,
    );
    if (c.resolved) article.append(el('span', { className: 'ode-badge' }, t('comments.resolved')));
    if (canComment()) {
      const cmds = commentCommands(session.state.status?.docType ?? 'text');
      const actions = el('div', { className: 'ode-comment-actions' });
      const open = (mode: 'reply' | 'edit') => {
        draft = { id: c.id, mode, text: mode === 'edit' ? c.text : '', original: mode === 'edit' ? c.text : '', focused: true };
        held.drop();
        render();
      };
      if (isRoot && cmds.reply) actions.append(button(t('comments.replyLabel', { author }), t('comments.reply'), () => open('reply'), 'ode-link-button'));
      actions.append(button(t('comments.editLabel', { author }), t('comments.edit'), () => open('edit'), 'ode-link-button'));
      actions.append(button(`${t('comments.delete')}: ${author}`, t('comments.delete'), () => uno(cmds.remove, { Id: c.id }), 'ode-link-button'));
      if (isRoot && cmds.resolve)
        actions.append(
          button(
            `${t(c.resolved ? 'comments.reopen' : 'comments.resolve')}: ${author}`,
            t(c.resolved ? 'comments.reopen' : 'comments.resolve'),
            () => uno(cmds.resolve!, { Id: c.id }),
            'ode-link-button',
          ),
        );
      article.append(actions);
      if (draft?.id === c.id) article.append(form(c, draft.mode));
    }
    return article;
  };

  const render = () => {
    add.hidden = !canComment() || commands.isHidden('insert.comment');
    if (!loaded) return;
    // Someone is writing a reply or an edit: the list is rebuilt when they send or cancel it.
    if (draft && document.activeElement instanceof HTMLTextAreaElement && list.contains(document.activeElement)) return;
    if (draft && !comments.some((c) => c.id === draft!.id)) (draft = undefined), held.drop();
    const all = threads(comments);
    if (all.length === 0) return list.replaceChildren(el('p', { className: 'ode-panel-empty' }, t('comments.none')));
    list.replaceChildren(
      ...all.map((th) => {
        const thread = el(
          'div',
          { className: 'ode-comment-thread', attrs: { role: 'listitem' } },
          item(th.root, true),
          ...th.replies.map((r) => item(r, false)),
        );
        return thread;
      }),
    );
  };

  session.on('comments', (m) => {
    comments = applyCommentAction(comments, m.action, m.comment);
    if (loaded) render();
  });
  // A comment this view inserts shows at once beside the document (Collabora shows it in the margin): the panel
  // opens if it was closed, and lists it when LibreOffice has added it.
  session.on('sent', (m) => {
    if (m.type !== 'uno' || m.command !== commentCommands(session.state.status?.docType ?? 'text').insert) return;
    if (!dock.isOpen('comments')) dock.toggle('comments', true);
    else refreshSoon();
  });
  session.on('invalidate', refreshSoon);
  session.on('reloaded', refreshSoon);
  session.on('modified', refreshSoon);
  session.on('status', () => {
    loaded = false;
    if (dock.isOpen('comments')) void refresh();
  });
  commands.on('changed', (id) => {
    if (id === 'insert.comment' || id === undefined) add.hidden = !canComment() || commands.isHidden('insert.comment');
  });
}
