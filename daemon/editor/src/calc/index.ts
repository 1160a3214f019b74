import type { App } from '../core/app.ts';
import { CellCursors } from './cell-cursor.ts';
import { CalcClipboard } from './clipboard.ts';
import { FillHandle } from './fill-handle.ts';
import { mountFormulaBar } from './formula-bar.ts';
import { mountFunctionList } from './function-list.ts';
import { Headers } from './headers.ts';
import './messages.ts';
import { mountSheetTabs, Sheets } from './sheet-tabs.ts';

/**
 * Spreadsheets (issue 5 "Spreadsheets: cell cursor, formula bar, row and column headers, sheet tabs"; spec "HTML
 * clipboard extensions"): everything here appears once `status` says `docType: 'spreadsheet'`. Registers the
 * sheet, data and cell commands (`sheet.*`, `data.sortAscending`, `data.sortDescending`, `data.autoFilter`,
 * `format.cells`, `insert.function`) and sets `app.clipboard`.
 */
export function mountCalc(app: App): void {
  const { session } = app;
  let mounted = false;
  session.on('status', (status) => {
    if (status.docType !== 'spreadsheet' || mounted) return;
    mounted = true;
    mount(app);
    // LibreOffice (7.4 as 25.2: test/kit-editing/calc-active-sheet.test.ts) opens a workbook on the file's active
    // sheet while the daemon's status says part 0: make LibreOffice's current sheet the one the view shows.
    session.send({ type: 'setPart', part: status.part });
  });
}

function mount(app: App): void {
  const { session, slots, commands } = app;
  slots.doc.classList.add('ode-calc');
  const layer = Object.assign(document.createElement('div'), { className: 'ode-calc-layer' });
  slots.doc.append(layer);

  const cursors = new CellCursors(app, layer);
  new FillHandle(app, layer);
  const headers = new Headers(app, cursors);
  const sheets = new Sheets(app);
  slots.formulaBar.hidden = false;
  mountFormulaBar(app, cursors);
  mountFunctionList(app, cursors);
  slots.bottomBar.hidden = false;
  const tabs = mountSheetTabs(app, sheets);
  app.clipboard = new CalcClipboard(app);

  const writable = () => session.live && !session.state.status?.readonly;
  const uno = (command: string) => () => session.uno(command);
  commands.register(
    { id: 'sheet.insert', label: 'sheet.insert', icon: '+', enabled: writable, run: () => sheets.insert() },
    { id: 'sheet.delete', label: 'sheet.delete', enabled: () => writable() && sheets.names.length > 1, run: () => sheets.remove() },
    { id: 'sheet.rename', label: 'sheet.rename', enabled: writable, run: (name) => (name ? sheets.rename(name) : tabs.rename()) },
    { id: 'sheet.moveLeft', label: 'sheet.moveLeft', enabled: () => writable() && sheets.current > 0, run: () => sheets.move(-1) },
    { id: 'sheet.moveRight', label: 'sheet.moveRight', enabled: () => writable() && sheets.current < sheets.names.length - 1, run: () => sheets.move(1) },
    { id: 'data.sortAscending', label: 'data.sortAscending', icon: 'A↓', enabled: writable, run: uno('.uno:SortAscending') },
    { id: 'data.sortDescending', label: 'data.sortDescending', icon: 'Z↓', enabled: writable, run: uno('.uno:SortDescending') },
    {
      id: 'data.autoFilter',
      label: 'data.autoFilter',
      state: '.uno:DataFilterAutoFilter',
      enabled: writable,
      run: uno('.uno:DataFilterAutoFilter'),
      checked: () => session.state.states.get('.uno:DataFilterAutoFilter') === 'true',
    },
    // LibreOffice dialogs: the dialogs module shows them (dialog channel).
    { id: 'format.cells', label: 'format.cells', enabled: writable, run: uno('.uno:FormatCellDialog') },
    { id: 'insert.function', label: 'insert.function', icon: 'fx', enabled: writable, run: uno('.uno:FunctionDialog') },
  );

  session.on('cellCursor', (m) => {
    cursors.setOwn(m.rect);
    headers.draw();
  });
  session.on('viewCellCursor', (m) => {
    const who = session.state.views.find((v) => v.viewId === m.viewId);
    if (who && m.viewId !== session.state.status?.viewId) cursors.setOther(m.viewId, m.part, m.rect, who.userName, who.color);
  });
  session.on('views', (m) => cursors.keep(new Set(m.views.map((v) => v.viewId))));
  session.on('headerInvalidated', () => headers.ask());
  session.on('sheetGeometryInvalidated', () => headers.ask());
  session.on('part', () => {
    tabs.render();
    cursors.draw();
    headers.ask();
    commands.refresh();
  });
  session.on('documentSize', () => {
    tabs.render();
    headers.ask();
    commands.refresh();
  });
  // Hide_Button / CheckFileInfo may hide sheet commands at any time.
  commands.on('changed', () => tabs.render());
  tabs.render();
  headers.ask();
}
