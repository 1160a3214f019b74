/**
 * The commands the chrome registers (the shared brief's [chrome] ids), per document type, implemented with UNO
 * commands (LibreOffice 7.4 names and argument shapes) and editor messages (daemon/protocol/editor.md):
 * save, save as, rename, download as, print, repair, undo/redo, select all, the insert and format commands, zoom,
 * ruler and help. Commands that take a value (font name and size, style, colours) take it as `run(arg)`; run
 * without one they ask for it.
 */
import type { Msg } from '../core/session.ts';
import type { App } from '../core/app.ts';
import type { UiCommand } from '../core/commands.ts';
import { t } from '../core/i18n.ts';
import {
  askComment,
  askLink,
  askNewName,
  askRepair,
  askSaveAsName,
  askSpecialCharacter,
  askTableSize,
  colorPalette,
  pickLocalImage,
  showShortcuts,
} from './chrome-dialogs.ts';
import { colorLong } from './colors.ts';
import { CommentDraft } from './comment-draft.ts';
import { stateText } from './dom.ts';

export type DocType = Msg<'status'>['docType'];

/** The formats of the File > Download as menu, per document type (output formats of daemon/server/formats). */
export const DOWNLOAD_FORMATS: Record<DocType, string[]> = {
  text: ['pdf', 'odt', 'docx', 'doc', 'rtf', 'txt', 'html'],
  spreadsheet: ['pdf', 'ods', 'xlsx', 'xls', 'csv', 'html'],
  presentation: ['pdf', 'odp', 'pptx', 'ppt', 'png', 'svg'],
  drawing: ['pdf', 'odg', 'png', 'svg'],
};

/** The zoom steps of zoom in / out (1 = 100 %). */
export const ZOOM_STEPS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4];

type UnoArgs = Record<string, { type: string; value: unknown }>;

/** What the chrome's commands need from the rest of the chrome (the toolbar's controls, the ruler). */
export interface ChromeHooks {
  /** Focuses a toolbar control (`fontName`, `fontSize`, `style`) so the user picks a value there. */
  focusControl(name: 'fontName' | 'fontSize' | 'style'): void;
  /** The element a palette opens under (the toolbar button of the command, else the toolbar). */
  anchorOf(id: string): HTMLElement;
  toggleRuler(): void;
  rulerShown(): boolean;
}

/** Registers the chrome's commands for a document of type `docType` (called on the first `status`). */
export function registerChromeCommands(app: App, docType: DocType, hooks: ChromeHooks): void {
  const { session, commands } = app;
  const status = () => session.state.status;
  const live = () => session.live;
  const editable = () => live() && !status()?.readonly;
  const commentable = () => live() && (!status()?.readonly || !!status()?.commentsOnly);
  const state = (name: string) => stateText(session.state.states.get(name));
  const uno = (command: string, args?: UnoArgs) => {
    session.uno(command, args);
    app.events.emit('userActive');
  };
  // The selected text (the link dialog's default text); nothing when copying is refused (DisableCopy).
  let selected = false;
  session.on('selection', (m) => (selected = m.rects.length > 0));
  const selectionText = async () => {
    try {
      const m = await session.request({ type: 'clipboardGet', mimeTypes: ['text/plain;charset=utf-8'] }, 'clipboard', () => true, 2_000);
      return (m.items.find((i) => i.mimeType.startsWith('text/plain'))?.data ?? '').trim();
    } catch {
      return '';
    }
  };
  const isText = docType === 'text';
  const isCalc = docType === 'spreadsheet';
  const isImpress = docType === 'presentation';
  const list: UiCommand[] = [];
  const add = (c: UiCommand) => list.push(c);
  const toggle = (id: string, command: string, shortcut?: string, stateName = command) =>
    add({ id, label: id, shortcut, state: stateName, enabled: editable, run: () => uno(command) });

  // File
  // A comments-only view (a pdf opened with view_comment) saves its comments back (the kit lifts the view's
  // read-only state for the save: test/editing/pdf-comments.test.ts).
  add({ id: 'file.save', label: 'file.save', shortcut: 'Ctrl+S', icon: 'save', enabled: commentable, run: () => session.send({ type: 'save' }) });
  const fileInfo = status()?.fileInfo ?? {};
  const fileName = () => String(status()?.fileInfo.BaseFileName ?? '');
  if (fileInfo.UserCanNotWriteRelative === false)
    add({
      id: 'file.saveAs',
      label: 'file.saveAs',
      enabled: live,
      run: async () => {
        const name = await askSaveAsName(fileName());
        if (!name) return;
        const m = await session.request({ type: 'saveAs', name }, 'savedAs');
        app.notify(
          m.ok ? t('notify.savedAs', { name: m.name ?? name }) : t('notify.saveAsFailed', { message: m.error?.message ?? '?' }),
          m.ok ? 'info' : 'error',
        );
      },
    });
  if (fileInfo.SupportsRename === true && fileInfo.UserCanRename === true)
    add({
      id: 'file.rename',
      label: 'file.rename',
      enabled: live,
      run: async () => {
        const base = fileName().replace(/\.[^.]+$/, '');
        const name = await askNewName(base);
        if (!name || name === base) return;
        const m = await session.request({ type: 'rename', name }, 'renamed');
        app.notify(
          m.ok ? t('notify.renamed', { name: m.name ?? name }) : t('notify.renameFailed', { message: m.error?.message ?? '?' }),
          m.ok ? 'info' : 'error',
        );
      },
    });
  for (const ext of DOWNLOAD_FORMATS[docType])
    add({ id: `file.downloadAs.${ext}`, label: `file.downloadAs.${ext}`, enabled: live, run: () => void app.exportDocument(ext, 'download') });
  add({ id: 'file.print', label: 'file.print', shortcut: 'Ctrl+P', icon: 'print', enabled: live, run: () => void app.exportDocument('pdf', 'print') });
  add({
    id: 'file.repair',
    label: 'file.repair',
    enabled: editable,
    run: async () => {
      const steps = await askRepair(app);
      if (steps) uno('.uno:Undo', { Repair: { type: 'boolean', value: true }, Undo: { type: 'unsigned short', value: steps } });
    },
  });

  // Edit
  add({
    id: 'edit.undo',
    label: 'edit.undo',
    shortcut: 'Ctrl+Z',
    icon: 'undo',
    enabled: () => editable() && state('.uno:Undo') !== 'disabled',
    run: () => uno('.uno:Undo'),
  });
  add({
    id: 'edit.redo',
    label: 'edit.redo',
    shortcut: 'Ctrl+Y',
    icon: 'redo',
    enabled: () => editable() && state('.uno:Redo') !== 'disabled',
    run: () => uno('.uno:Redo'),
  });
  add({ id: 'edit.selectAll', label: 'edit.selectAll', shortcut: 'Ctrl+A', enabled: live, run: () => uno('.uno:SelectAll') });

  // Insert
  add({
    id: 'insert.image',
    label: 'insert.image',
    icon: 'image',
    enabled: editable,
    run: async () => {
      const image = await pickLocalImage();
      if (image) session.send({ type: 'paste', mimeType: image.mimeType, data: image.base64 });
    },
  });
  if (!isCalc)
    add({
      id: 'insert.table',
      label: 'insert.table',
      icon: 'table',
      enabled: editable,
      run: async (arg) => {
        const m = /^(\d+)x(\d+)$/.exec(arg ?? '');
        const size = m ? { cols: Number(m[1]), rows: Number(m[2]) } : await askTableSize();
        if (size) uno('.uno:InsertTable', { Columns: { type: 'long', value: size.cols }, Rows: { type: 'long', value: size.rows } });
      },
    });
  add({
    id: 'insert.link',
    label: 'insert.link',
    shortcut: 'Ctrl+K',
    icon: 'link',
    enabled: editable,
    run: async () => {
      const link = await askLink(selected ? await selectionText() : '');
      if (link) uno('.uno:SetHyperlink', { 'Hyperlink.Text': { type: 'string', value: link.text }, 'Hyperlink.URL': { type: 'string', value: link.url } });
    },
  });
  add({
    id: 'insert.comment',
    label: 'insert.comment',
    shortcut: 'Ctrl+Alt+C',
    icon: 'comment',
    enabled: commentable,
    run: async (arg) => {
      const draft = new CommentDraft(session);
      const insert = (text: string) => {
        uno('.uno:InsertAnnotation', { Text: { type: 'string', value: text } });
        draft.sent();
      };
      if (arg) return insert(arg);
      // A comment still being typed in the dialog is inserted before a save (not the autosave kind that keeps the
      // edit: DontTerminateEdit) or an export, and when the page goes away (the exit save), as the cell being
      // edited is (issue 16). The daemon holds the text as it is typed (CommentDraft), for a tab closed before the
      // `pagehide` message got out.
      let stop: (() => void) | undefined;
      const text = await askComment({
        onInput: (value) => draft.update('.uno:InsertAnnotation', {}, value),
        onOpen: (take) => {
          const commit = () => {
            const pending = take();
            if (pending) insert(pending);
          };
          const unhook = session.beforeSend((m) => {
            if ((m.type === 'save' && !m.dontTerminateEdit) || m.type === 'download') commit();
          });
          addEventListener('pagehide', commit);
          stop = () => {
            unhook();
            removeEventListener('pagehide', commit);
          };
        },
        onSave: () => void app.commands.run('file.save'),
      });
      stop?.();
      if (text) insert(text);
      else draft.drop();
    },
  });
  if (isText) add({ id: 'insert.pageBreak', label: 'insert.pageBreak', shortcut: 'Ctrl+Enter', enabled: editable, run: () => uno('.uno:InsertPagebreak') });
  if (isText || isCalc || isImpress) add({ id: 'insert.chart', label: 'insert.chart', enabled: editable, run: () => uno('.uno:InsertObjectChart') });
  add({
    id: 'insert.specialCharacter',
    label: 'insert.specialCharacter',
    icon: 'omega',
    enabled: editable,
    run: async (arg) => {
      const ch = arg ?? (await askSpecialCharacter());
      if (ch) session.send({ type: 'textInput', text: ch });
      app.view.focus();
    },
  });

  // Format
  toggle('format.bold', '.uno:Bold', 'Ctrl+B');
  toggle('format.italic', '.uno:Italic', 'Ctrl+I');
  toggle('format.underline', '.uno:Underline', 'Ctrl+U');
  toggle('format.strikethrough', '.uno:Strikeout');
  add({
    id: 'format.fontName',
    label: 'format.fontName',
    state: undefined,
    enabled: editable,
    run: (arg) => (arg ? uno('.uno:CharFontName', { 'CharFontName.FamilyName': { type: 'string', value: arg } }) : hooks.focusControl('fontName')),
  });
  add({
    id: 'format.fontSize',
    label: 'format.fontSize',
    enabled: editable,
    run: (arg) =>
      arg && Number(arg) > 0 ? uno('.uno:FontHeight', { 'FontHeight.Height': { type: 'float', value: Number(arg) } }) : hooks.focusControl('fontSize'),
  });
  const color = (id: string, command: string, argName: string) =>
    add({
      id,
      label: id,
      icon: id === 'format.fontColor' ? 'fontColor' : 'highlight',
      enabled: editable,
      run: (arg) => {
        const apply = (hex: string) => {
          uno(command, { [argName]: { type: 'long', value: colorLong(hex) } });
          app.view.focus();
        };
        if (arg) apply(arg);
        else colorPalette(hooks.anchorOf(id), t(id), apply);
      },
    });
  color('format.fontColor', '.uno:Color', 'Color');
  // Highlighting is named differently per application (Writer BackColor, Calc cell BackgroundColor, Impress CharBackColor).
  if (isCalc) color('format.highlightColor', '.uno:BackgroundColor', 'BackgroundColor');
  else if (isText) color('format.highlightColor', '.uno:BackColor', 'BackColor');
  else color('format.highlightColor', '.uno:CharBackColor', 'CharBackColor');
  const align = isCalc
    ? { left: '.uno:AlignLeft', center: '.uno:AlignHorizontalCenter', right: '.uno:AlignRight', justify: '.uno:AlignBlock' }
    : { left: '.uno:LeftPara', center: '.uno:CenterPara', right: '.uno:RightPara', justify: '.uno:JustifyPara' };
  toggle('format.alignLeft', align.left, 'Ctrl+L');
  toggle('format.alignCenter', align.center, 'Ctrl+E');
  toggle('format.alignRight', align.right, 'Ctrl+R');
  toggle('format.justify', align.justify, 'Ctrl+J');
  if (!isCalc) {
    toggle('format.bulletList', '.uno:DefaultBullet');
    toggle('format.numberedList', '.uno:DefaultNumbering');
  }
  if (isText || isCalc)
    add({
      id: 'format.paragraphStyle',
      label: 'format.paragraphStyle',
      enabled: editable,
      run: (arg) =>
        arg
          ? uno('.uno:StyleApply', { Style: { type: 'string', value: arg }, FamilyName: { type: 'string', value: isCalc ? 'CellStyles' : 'ParagraphStyles' } })
          : hooks.focusControl('style'),
    });
  add({
    id: 'format.clear',
    label: 'format.clear',
    shortcut: 'Ctrl+M',
    icon: 'clear',
    enabled: editable,
    run: () => uno(isText ? '.uno:ResetAttributes' : '.uno:SetDefault'),
  });
  if (isCalc) {
    toggle('format.mergeCells', '.uno:ToggleMergeCells');
    add({
      id: 'format.numberCurrency',
      label: 'format.numberCurrency',
      icon: 'currency',
      state: '.uno:NumberFormatCurrency',
      enabled: editable,
      run: () => uno('.uno:NumberFormatCurrency'),
    });
    add({
      id: 'format.numberPercent',
      label: 'format.numberPercent',
      icon: 'percent',
      state: '.uno:NumberFormatPercent',
      enabled: editable,
      run: () => uno('.uno:NumberFormatPercent'),
    });
    add({ id: 'format.numberStandard', label: 'format.numberStandard', icon: 'number', enabled: editable, run: () => uno('.uno:NumberFormatStandard') });
    add({ id: 'insert.autoSum', label: 'insert.autoSum', icon: 'sum', enabled: editable, run: () => uno('.uno:AutoSum') });
  }

  // View
  const zoomTo = (z: number) => app.view.setZoom(Math.max(ZOOM_STEPS[0], Math.min(ZOOM_STEPS[ZOOM_STEPS.length - 1], z)));
  // No zoom shortcuts: LibreOffice has Ctrl+- (soft hyphen) and Ctrl+0 (Text Body) in the document.
  add({
    id: 'view.zoomIn',
    label: 'view.zoomIn',
    icon: 'zoomIn',
    enabled: live,
    run: () => zoomTo(ZOOM_STEPS.find((s) => s > app.view.zoom + 1e-6) ?? app.view.zoom),
  });
  add({
    id: 'view.zoomOut',
    label: 'view.zoomOut',
    icon: 'zoomOut',
    enabled: live,
    run: () => zoomTo([...ZOOM_STEPS].reverse().find((s) => s < app.view.zoom - 1e-6) ?? app.view.zoom),
  });
  add({ id: 'view.zoomReset', label: 'view.zoomReset', enabled: live, run: (arg) => zoomTo(arg ? Number(arg) : 1) });
  if (isText) add({ id: 'view.ruler', label: 'view.ruler', checked: hooks.rulerShown, run: hooks.toggleRuler });

  // Help
  add({ id: 'help.shortcuts', label: 'help.shortcuts', shortcut: 'Ctrl+/', run: () => void showShortcuts(shortcutRows(app)) });
  // A command another module registered first stays (host/ puts its own file.saveAs with SaveAsPostmessage).
  commands.register(...list.filter((c) => !commands.get(c.id)));
}

/** The shortcuts dialog's rows: the registered commands that have one, and the chrome's own keys. */
function shortcutRows(app: App): Array<[string, string]> {
  const rows: Array<[string, string]> = [
    ['Alt, F10', t('shortcut.menubar')],
    ['Ctrl+Alt+T', t('shortcut.toolbar')],
    ['F6, Shift+F6', t('shortcut.regions')],
  ];
  for (const c of app.commands.all()) if (c.shortcut && !app.commands.isHidden(c.id)) rows.push([c.shortcut, t(c.label).replace(/…$/, '')]);
  return rows;
}
