import type { App } from '../core/app.ts';
import { mountJsDialogs } from '../jsdialog/index.ts';
import { LoWindow } from './lo-window.ts';
import { registerDialogMessages } from './messages.ts';
import { parseWindowEvent } from './model.ts';

/** vcl KEY_ESCAPE and its character. */
const ESCAPE = { charCode: 27, keyCode: 1281 };

/**
 * The command ids whose UI is one of LibreOffice's own dialogs, by document type: the UNO command opens the dialog
 * in the kit and it comes back as a JSDialog (LibreOffice 25.2; jsdialog/) or through the window channel. (format.cells is calc's; any other dialog LibreOffice
 * opens, whoever asked for it, is shown the same way.)
 */
const DIALOG_COMMANDS: Array<{ id: string; uno: (docType: string) => string | undefined }> = [
  { id: 'format.paragraph', uno: () => '.uno:ParagraphDialog' },
  { id: 'format.character', uno: () => '.uno:FontDialog' },
  { id: 'format.page', uno: (d) => (d === 'text' ? '.uno:PageDialog' : d === 'spreadsheet' ? '.uno:PageFormatDialog' : '.uno:PageSetup') },
  { id: 'tools.spelling', uno: () => '.uno:SpellingAndGrammarDialog' },
  { id: 'tools.wordCount', uno: (d) => (d === 'text' ? '.uno:WordCountDialog' : undefined) },
];

/**
 * LibreOffice's own dialogs (issues 5 and 23; docs/editing.md, "Dialogs"). On LibreOffice 25.2 the dialogs come
 * as JSDialogs (LOK_CALLBACK_JSDIALOG: JSON widget trees), rendered as HTML by jsdialog/ (mountJsDialogs), whose
 * fields send `dialogEvent`s back. A dialog LibreOffice still sends as a window (LOK_CALLBACK_WINDOW: created,
 * invalidate, size_changed, close; every dialog on 7.4) is the fallback this module keeps: an accessible modal box
 * painted by LibreOffice (`windowPaint`), with the keyboard and the mouse going back to the window. Registers the
 * dialog commands (format.paragraph, format.character, format.page, tools.spelling, tools.wordCount).
 */
export function mountDialogs(app: App): void {
  registerDialogMessages();
  mountJsDialogs(app);
  const { session, commands } = app;
  const windows = new Map<number, LoWindow>();
  const layer = document.createElement('div');
  layer.className = 'ode-lod-layer';
  layer.hidden = true;
  app.slots.popups.append(layer);

  const dialogs = () => [...windows.values()].filter((w) => w.kind === 'dialog');
  const sync = () => {
    const open = dialogs();
    layer.hidden = open.length === 0;
    open.forEach((w, i) => (w.element.style.zIndex = String(i + 1)));
  };
  const escapeWindow = (id: number) => {
    session.send({ type: 'windowKey', windowId: id, event: 'input', ...ESCAPE });
    session.send({ type: 'windowKey', windowId: id, event: 'up', ...ESCAPE });
  };
  const close = (id: number) => {
    const w = windows.get(id);
    if (!w) return;
    windows.delete(id);
    // Its drop-downs go with it.
    for (const [childId, child] of windows) if (child.kind === 'child' && w.element.contains(child.element)) windows.delete(childId);
    const hadFocus = w.element.contains(document.activeElement);
    w.dispose();
    sync();
    if (hadFocus || dialogs().length === 0) {
      const top = dialogs().at(-1);
      if (top) top.focus();
      else app.view.focus();
    }
  };

  session.on('window', (m) => {
    const ev = parseWindowEvent(m.json);
    if (!ev) return;
    let w = windows.get(ev.id);
    switch (ev.action) {
      case 'created': {
        if (w) close(ev.id);
        const parent = ev.parentId !== undefined ? windows.get(ev.parentId) : undefined;
        // A popup whose parent window is gone or unknown is not shown: it would stay behind as an empty dialog.
        if (ev.type === 'dialog' || (ev.parentId === undefined && ev.type !== 'deck' && ev.type !== 'tooltip' && ev.type !== 'child')) {
          w = new LoWindow(ev.id, 'dialog', session, ev.title ?? '', () => escapeWindow(ev.id));
          windows.set(ev.id, w);
          layer.append(w.element);
          if (ev.size) w.resize(ev.size.width, ev.size.height);
          sync();
          w.focus();
        } else if (parent) {
          // A drop-down or popup of an open dialog: drawn over it at its position.
          w = new LoWindow(ev.id, 'child', session, '', () => escapeWindow(parent.id));
          windows.set(ev.id, w);
          parent.element.querySelector('.ode-lod-body')?.append(w.element);
          if (ev.position) w.place(ev.position.x, ev.position.y);
          if (ev.size) w.resize(ev.size.width, ev.size.height);
        }
        return;
      }
      case 'size_changed':
        if (w && ev.size) w.resize(ev.size.width, ev.size.height);
        return;
      case 'invalidate':
        w?.invalidate(ev.rect);
        return;
      case 'title_changed':
        w?.setTitle(ev.title ?? '');
        return;
      case 'cursor_invalidate':
        w?.setCaret(ev.rect);
        return;
      case 'cursor_visible':
        w?.setCaret(undefined, ev.visible);
        return;
      case 'hide':
        if (w) w.element.hidden = true;
        return;
      case 'show':
        if (w) w.element.hidden = false;
        return;
      case 'close':
        close(ev.id);
        return;
      default:
        return;
    }
  });
  session.on('windowPaint', (m) => windows.get(m.windowId)?.painted({ x: m.x, y: m.y, width: m.width, height: m.height }, m.png));
  // A dialog belongs to the document's kit: when the document goes (reload, kit died, closed), so do its windows.
  for (const type of ['reloaded', 'kitDied', 'idle'] as const) session.on(type, () => [...windows.keys()].forEach(close));

  const docType = () => session.state.status?.docType ?? 'text';
  const writable = () => session.state.status !== undefined && !session.state.status.readonly;
  commands.register(
    ...DIALOG_COMMANDS.map((d) => ({
      id: d.id,
      label: d.id,
      run: () => {
        const uno = d.uno(docType());
        if (uno) session.uno(uno);
      },
      enabled: () => writable() && d.uno(docType()) !== undefined,
    })),
  );
  session.on('status', () => commands.refresh());
}
