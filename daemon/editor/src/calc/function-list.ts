import type { CalcFunction } from '../../../protocol/editor.ts';
import type { App } from '../core/app.ts';
import { registerMessages, t } from '../core/i18n.ts';
import type { CellCursors } from './cell-cursor.ts';

registerMessages({
  en: { 'calc.functionList': 'Functions' },
  fr: { 'calc.functionList': 'Fonctions' },
  de: { 'calc.functionList': 'Funktionen' },
});

/** The name being typed at the end of a formula (`=A1+SU` -> `SU`): letters, digits, `_` and `.` after a letter. */
export function partialName(formula: string): string {
  return /[A-Za-z_][A-Za-z0-9_.]*$/.exec(formula)?.[0] ?? '';
}

/**
 * What to send for choosing `name` while `formula` is typed: how many characters to delete (the partial name,
 * when the name starts with it, ignoring case) and the text to type (the name and its opening parenthesis).
 */
export function completion(formula: string, name: string): { back: number; text: string } {
  const partial = partialName(formula);
  const back = partial && name.toUpperCase().startsWith(partial.toUpperCase()) ? partial.length : 0;
  return { back, text: `${name}(` };
}

/**
 * Formula autocomplete (issue 16; Collabora Online's formula autocomplete popup): while a formula is typed in a
 * cell, LibreOffice sends the functions whose names start with the name being typed (`calcFunctionList`,
 * LOK_CALLBACK_CALC_FUNCTION_LIST: under LibreOfficeKit it sends this instead of showing its own tip). They are
 * offered in a list under the cell (role listbox, each option's title its signature and description); Up and
 * Down move in it, Enter or Tab (or a click) chooses: the partial name is deleted and the whole name and `(` are
 * typed, as LibreOffice's own completion does; Escape closes the list without ending the cell's edit. The list
 * closes when the cell's edit ends or the cell cursor moves.
 */
export function mountFunctionList(app: App, cursors: CellCursors): void {
  const { session } = app;
  const list = Object.assign(document.createElement('ul'), { className: 'ode-function-list', hidden: true });
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', t('calc.functionList'));
  app.slots.popups.append(list);
  let functions: CalcFunction[] = [];
  let current = 0;
  let formula = '';

  const close = () => {
    list.hidden = true;
    functions = [];
  };
  const select = (i: number) => {
    current = (i + functions.length) % functions.length;
    list.querySelectorAll('[role=option]').forEach((o, k) => o.setAttribute('aria-selected', String(k === current)));
    list.children[current]?.scrollIntoView({ block: 'nearest' });
  };
  const choose = (i: number) => {
    const f = functions[i];
    close();
    if (!f || !session.live) return;
    const { back, text } = completion(formula, f.name);
    for (let k = 0; k < back; k++) {
      session.send({ type: 'key', event: 'input', charCode: 8, keyCode: 1283 });
      session.send({ type: 'key', event: 'up', charCode: 8, keyCode: 1283 });
    }
    session.send({ type: 'textInput', text });
    app.events.emit('userActive');
    app.view.focus();
  };
  const place = () => {
    const rect = cursors.rect;
    const box = app.view.scroller.getBoundingClientRect();
    const at = rect ? app.view.toView(rect) : { left: 0, top: 0, width: 0, height: 0 };
    list.style.left = `${Math.round(box.left + at.left)}px`;
    list.style.top = `${Math.round(box.top + at.top + at.height + 2)}px`;
  };
  const show = (fs: CalcFunction[]) => {
    functions = fs;
    list.replaceChildren(
      ...fs.map((f, i) => {
        const li = document.createElement('li');
        li.setAttribute('role', 'option');
        li.id = `ode-function-${i}`;
        li.title = [f.signature, f.description].filter(Boolean).join('\n');
        const name = Object.assign(document.createElement('span'), { className: 'ode-function-name', textContent: f.name });
        const about = Object.assign(document.createElement('span'), { className: 'ode-function-about', textContent: f.description });
        li.append(name, about);
        li.addEventListener('mousedown', (e) => e.preventDefault()); // the document keeps the focus
        li.addEventListener('click', () => choose(i));
        return li;
      }),
    );
    list.hidden = false;
    place();
    select(0);
  };

  session.on('calcFunctionList', (m) => {
    const input = document.activeElement;
    if (!m.functions.length || session.state.status?.readonly || !(input instanceof HTMLElement) || !input.classList.contains('ode-input')) return close();
    show(m.functions);
  });
  session.on('cellFormula', (m) => {
    formula = m.formula;
    // Typing on past every suggestion (`=SUMX`), or a formula no longer ending in a name: the list goes.
    const partial = partialName(formula).toUpperCase();
    if (!list.hidden && (!partial || !functions.some((f) => f.name.toUpperCase().startsWith(partial)))) close();
  });
  session.on('cursor', (m) => {
    // The cell's edit ended (LibreOffice hid its text caret).
    if (m.rect.every((v) => v === 0) && !m.visible) close();
  });
  // The cell cursor moved to another cell (LibreOffice may send the same cell again while it is edited).
  let cell = '';
  session.on('cellCursor', (m) => {
    const at = m.rect ? `${m.rect[0]},${m.rect[1]}` : '';
    if (at !== cell) close();
    cell = at;
  });
  app.view.onViewportChange(() => !list.hidden && place());
  window.addEventListener(
    'keydown',
    (e) => {
      if (list.hidden || e.isComposing || e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (!target?.classList?.contains('ode-input')) return;
      const keys = ['ArrowDown', 'ArrowUp', 'Enter', 'Tab', 'Escape'];
      if (!keys.includes(e.key) || (e.shiftKey && e.key !== 'Tab')) return;
      // Before the document view's own handler (it would send the key to LibreOffice).
      e.preventDefault();
      e.stopImmediatePropagation();
      if (e.key === 'ArrowDown') select(current + 1);
      else if (e.key === 'ArrowUp') select(current - 1);
      else if (e.key === 'Escape') close();
      else choose(current);
    },
    true,
  );
  window.addEventListener('mousedown', (e) => !list.contains(e.target as Node) && close(), true);
}
