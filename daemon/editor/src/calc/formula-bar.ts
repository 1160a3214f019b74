import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';
import type { CellCursors } from './cell-cursor.ts';
import { enterString, goToCell } from './uno.ts';

/** Commands that move cell contents under a still cell cursor (LibreOffice 25.2 sc: SID_SORT_ASCENDING, ...). */
const RESORTING = new Set(['.uno:SortAscending', '.uno:SortDescending']);

/** A cell, a range, a whole column or row, optionally on a sheet: what the name box accepts before asking LibreOffice. */
const ADDRESS = /^(?:(?:\$?'[^']+'|\$?[\w ]+)[.!])?(?:\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}|\$?\d+:\$?\d+)$/;

/**
 * The formula bar (issue 5 "Spreadsheets: formula bar"; slot `formulaBar`): the name box shows the cell address
 * (`cellAddress`) and jumps to an address typed in it (Enter: `.uno:GoToCell` ToPoint); the fx button runs
 * `insert.function` (LibreOffice's Function Wizard dialog); the formula input shows the current cell's content
 * (`cellFormula`); Enter puts the edited content in the cell (`.uno:EnterString`), Escape puts the cell's content
 * back. Both inputs give the focus back to the document afterwards. Text typed in the formula input and not yet
 * entered is entered before every save but one asking `dontTerminateEdit` (issue 16: a save keeps what the user
 * typed, as LibreOffice's own save enters the cell being edited) and when the page goes away (the exit save).
 * Before a download (every export: Download as, print, Action_Export) both the formula input's text and a cell
 * being edited in the document are entered: LibreOffice's export (storeToURL) does not enter the cell itself, its
 * `.uno:GoToCell` to the cell's own address does (setting the cell cursor ends the edit, as Enter; shown by
 * test/editor-tasks/calc-tasks.test.ts), and the kit writes the export after it (kit.md `exportDoc`).
 */
export function mountFormulaBar(app: App, cursors: CellCursors): void {
  const bar = app.slots.formulaBar;
  bar.setAttribute('role', 'group');
  bar.setAttribute('aria-label', t('calc.formulaBar'));
  const nameBox = Object.assign(document.createElement('input'), { className: 'ode-name-box', type: 'text', spellcheck: false, autocomplete: 'off' });
  nameBox.setAttribute('aria-label', t('calc.nameBox'));
  const fx = Object.assign(document.createElement('button'), {
    type: 'button',
    className: 'ode-button ode-fx',
    textContent: 'fx',
    title: t('insert.function'),
  });
  // The name holds the visible "fx" (WCAG 2.5.3 label in name: a speech user says what they see).
  fx.setAttribute('aria-label', `fx: ${t('insert.function')}`);
  const formula = Object.assign(document.createElement('input'), { className: 'ode-formula-input', type: 'text', spellcheck: false, autocomplete: 'off' });
  formula.setAttribute('aria-label', t('calc.formula'));
  bar.append(nameBox, fx, formula);

  let address = '';
  let content = '';
  /** The formula input is being edited: incoming `cellFormula` does not overwrite what the user typed. */
  let editing = false;
  /**
   * A cell is being edited in LibreOffice: its text caret is shown (LOK_CALLBACK_CURSOR_VISIBLE, a `cursor`
   * message without a rectangle), as chrome/status-bar.ts reads it.
   */
  let cellEditing = false;
  app.session.on('cursor', (m) => {
    if (m.rect.every((v) => v === 0)) cellEditing = m.visible;
  });

  app.session.on('cellAddress', (m) => {
    address = m.address;
    if (document.activeElement !== nameBox) nameBox.value = address;
  });
  app.session.on('cellFormula', (m) => {
    content = m.formula;
    if (!editing) formula.value = content;
  });
  app.session.on('status', (m) => {
    formula.readOnly = m.readonly;
    fx.disabled = m.readonly;
  });

  nameBox.addEventListener('focus', () => nameBox.select());
  nameBox.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      const wanted = nameBox.value.trim();
      if (!ADDRESS.test(wanted)) {
        app.notify(t('calc.badAddress', { address: wanted }), 'error');
        nameBox.select();
        return;
      }
      cursors.follow();
      goToCell(app, wanted);
      app.view.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      nameBox.value = address;
      app.view.focus();
    }
  });
  nameBox.addEventListener('blur', () => (nameBox.value = address));

  fx.addEventListener('click', () => app.commands.run('insert.function'));
  app.commands.on('changed', () => (fx.hidden = app.commands.isHidden('insert.function')));

  /** Enters what the formula input holds when the user changed it (before a save, when leaving the page). */
  const commitPending = () => {
    if (!editing || formula.readOnly || !app.session.live) return;
    editing = false;
    enterString(app, formula.value);
  };
  app.session.beforeSend((m) => {
    if (m.type === 'save' && !m.dontTerminateEdit) commitPending();
    if (m.type === 'download') {
      commitPending();
      if (cellEditing && address && !formula.readOnly && app.session.live) goToCell(app, address);
    }
  });
  window.addEventListener('pagehide', commitPending);

  // A sort changes the current cell's content without moving the cell cursor, and LibreOffice does not send the
  // cell's content again (issue 23: the formula bar kept the value from before the sort; measured on 25.2: selecting
  // the same range again sends nothing either, the new content comes with the next selection change). Right after
  // the sort command (commands run in order) the selection is changed and put back: the range's first cell alone
  // (a single cell: as a one-cell range), then the address again; LibreOffice then sends the new content.
  app.session.on('sent', (m) => {
    if (m.type !== 'uno' || !RESORTING.has(m.command) || !address || !app.session.live) return;
    const [first, last] = address.split(':');
    goToCell(app, last ? first : `${first}:${first}`);
    goToCell(app, address);
  });

  formula.addEventListener('input', () => (editing = true));
  formula.addEventListener('keydown', (e) => {
    if (e.isComposing) return;
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
      // Save from the formula bar: the page's shortcuts skip input fields, this one is the document's. The text is
      // entered first and the save waits for LibreOffice's answer to it (it may run the command after the save).
      e.preventDefault();
      if (!editing || formula.readOnly || !app.session.live) return app.commands.run('file.save');
      editing = false;
      const args = JSON.stringify({ StringName: { type: 'string', value: formula.value } });
      void app.session
        .request({ type: 'uno', command: '.uno:EnterString', args, notify: true }, 'unoResult', (m) => m.command === '.uno:EnterString', 10_000)
        .catch(() => undefined)
        .finally(() => app.commands.run('file.save'));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (editing && !formula.readOnly) enterString(app, formula.value);
      editing = false;
      app.events.emit('userActive');
      app.view.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      editing = false;
      formula.value = content;
      app.view.focus();
    }
  });
  formula.addEventListener('blur', () => {
    // Leaving the input without Enter cancels, as in LibreOffice.
    editing = false;
    formula.value = content;
  });
}
