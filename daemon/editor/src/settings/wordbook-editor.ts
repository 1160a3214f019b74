/**
 * The in-place editor of one wordbook (`.dic`): its words, each with a Remove button, a New word field (Enter or
 * Add), and Save (the file is uploaded again under the same name) or Cancel. Accessible: every control is labelled
 * and reachable by keyboard; focus goes to the New word field when it opens and after each add or remove.
 */
import { t } from '../core/i18n.ts';
import { el } from './dom.ts';
import { addWord, type Wordbook } from './wordbook.ts';

/** What the editor needs: the file name, the parsed words (edited in place), and what Save and Cancel do. */
export interface WordbookEditorOptions {
  file: string;
  book: Wordbook;
  onSave: (book: Wordbook) => void;
  onCancel: () => void;
}

/** Builds the editor element; it re-renders itself on each change. */
export function wordbookEditor(o: WordbookEditorOptions): HTMLElement {
  const titleId = `ode-wb-title-${o.file.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const root = el('div', { class: 'ode-wordbook-editor', role: 'group', 'aria-labelledby': titleId });
  const render = (focusInput: boolean) => {
    const input = el('input', { type: 'text', id: `${titleId}-new`, class: 'ode-wordbook-new', autocomplete: 'off', spellcheck: 'false' });
    const list = el('ul', { class: 'ode-wordbook-words', 'aria-labelledby': titleId });
    for (const word of o.book.words) {
      list.append(
        el(
          'li',
          { 'data-word': word },
          el('span', { class: 'ode-wordbook-word' }, word),
          ' ',
          el(
            'button',
            {
              type: 'button',
              class: 'ode-wordbook-remove',
              'aria-label': t('wordbook.removeLabel', { word }),
              onclick: () => {
                o.book.words = o.book.words.filter((w) => w !== word);
                render(true);
              },
            },
            t('wordbook.remove'),
          ),
        ),
      );
    }
    const form = el(
      'form',
      {
        class: 'ode-wordbook-add',
        onsubmit: (e: Event) => {
          e.preventDefault();
          if (addWord(o.book, input.value)) render(true);
          else input.select();
        },
      },
      el('label', { for: input.id }, t('wordbook.newWord')),
      ' ',
      input,
      ' ',
      el('button', { type: 'submit' }, t('wordbook.add')),
    );
    root.replaceChildren(
      el('h3', { id: titleId }, t('wordbook.words', { file: o.file })),
      o.book.words.length ? list : el('p', { class: 'ode-settings-empty' }, t('wordbook.none')),
      form,
      el(
        'div',
        { class: 'ode-wordbook-actions' },
        el('button', { type: 'button', class: 'ode-wordbook-save', onclick: () => o.onSave(o.book) }, t('wordbook.save')),
        ' ',
        el('button', { type: 'button', class: 'ode-wordbook-cancel', onclick: () => o.onCancel() }, t('wordbook.cancel')),
      ),
    );
    if (focusInput) input.focus();
  };
  render(false);
  root.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') o.onCancel();
  });
  return root;
}
