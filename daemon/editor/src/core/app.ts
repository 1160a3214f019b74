import type { Rect } from '../../../protocol/editor.ts';
import type { EditorConfig } from '../connection.ts';
import { CommandRegistry } from './commands.ts';
import { Emitter } from './emitter.ts';
import type { EditorSession } from './session.ts';

/**
 * The editor's page layout: named slots modules put their parts in. Grid (editor.css):
 *   menubar / toolbar / formulaBar (spreadsheets), together in the page's banner (`header`)
 *   left (slides, pages) | doc (the document view; calc headers around it) | right (comments, users)
 *   bottomBar (sheet tabs) / status
 * `overlay` covers everything (idle, closed, dialogs); `popups` holds menus and context menus.
 */
export interface Slots {
  menubar: HTMLElement;
  toolbar: HTMLElement;
  formulaBar: HTMLElement;
  left: HTMLElement;
  doc: HTMLElement;
  right: HTMLElement;
  bottomBar: HTMLElement;
  status: HTMLElement;
  overlay: HTMLElement;
  popups: HTMLElement;
}

/** What the document view offers other modules (implemented by view/tile-view.ts). Twips in the document, CSS px on screen. */
export interface DocumentView {
  /** The scrolling element (receives mouse input; calc headers follow its scroll). */
  readonly scroller: HTMLElement;
  readonly zoom: number;
  readonly part: number;
  setZoom(zoom: number): void;
  /** Client px to document twips. */
  toTwips(clientX: number, clientY: number): [number, number];
  /** Document twips rectangle to px relative to the scroller's visible top-left corner. */
  toView(rect: Rect): { left: number; top: number; width: number; height: number };
  /** The visible area in twips. */
  visibleArea(): { x: number; y: number; width: number; height: number };
  /** Scrolls so that `rect` (twips) is visible. */
  scrollIntoView(rect: Rect): void;
  /** Calls `fn` after every scroll, zoom or resize. Returns the unsubscribe function. */
  onViewportChange(fn: () => void): () => void;
  /** Focuses the hidden text input (typing goes to the document). */
  focus(): void;
  /** This view's caret (twips; its last place when hidden). */
  readonly caretRect?: Rect;
}

/**
 * How a document type extends copy and paste (view/clipboard.ts calls it): spreadsheets add the
 * `data-sheets-*` attributes on copy and read them (span form too) on paste (spec: HTML clipboard extensions).
 */
export interface ClipboardAdapter {
  /** Rewrites the HTML LibreOffice gave for the selection before it goes to the system clipboard. */
  decorateHtml?(html: string): Promise<string> | string;
  /** Handles pasted HTML itself; returns false to let LibreOffice paste it. */
  pasteHtml?(html: string): Promise<boolean> | boolean;
}

/** Events between modules that are not server messages. */
export type AppEvents = {
  /** The document is shown and can be edited (after the first tiles are painted). */
  documentLoaded: () => void;
  /** Loading failed (the socket closed before `status`, or `status` never came). */
  loadFailed: (reason: string) => void;
  /** The user did something (key, mouse): the host's User_Idle timer restarts. */
  userActive: () => void;
  /** The theme changed (`light` or `dark`). */
  themeChanged: (theme: 'light' | 'dark') => void;
  /** A tile frame was painted on the canvas (benchmarks: keystroke to painted change). */
  painted: () => void;
  /** Play a slideshow from this exported document (absolute URL; host/ exports, slides/ plays it). */
  slideshow: (url: string) => void;
};

/** Everything a module gets at mount (main.ts creates it). */
export interface App {
  readonly config: EditorConfig;
  readonly session: EditorSession;
  readonly commands: CommandRegistry;
  readonly slots: Slots;
  readonly events: Emitter<AppEvents>;
  /** Set by the view module at mount. */
  view: DocumentView;
  /** Set by the document-type module that extends the clipboard (calc). */
  clipboard: ClipboardAdapter;
  /** Sends a PostMessage to the host (set by host/; a no-op without PostMessageOrigin). */
  postToHost(messageId: string, values?: Record<string, unknown>): void;
  /**
   * Exports the document in `format` (an output extension: pdf, docx, ...) for `purpose` and delivers it: a
   * download, the browser's print dialog, a slideshow, or, with DownloadAsPostMessage, a Download_As PostMessage
   * to the host (set by host/; the chrome's File menu calls it).
   */
  exportDocument(format: string, purpose: 'download' | 'print' | 'slideshow'): Promise<void>;
  /** Shows a short message in the status bar (set by chrome/). */
  notify(text: string, kind?: 'info' | 'error'): void;
}

function slot(tag: string, className: string, label?: string): HTMLElement {
  const e = document.createElement(tag);
  e.className = className;
  if (label) e.setAttribute('aria-label', label);
  return e;
}

/** Builds the page layout in `root` and the App every module mounts on. */
export function createApp(root: HTMLElement, config: EditorConfig, session: EditorSession): App {
  const slots: Slots = {
    menubar: slot('nav', 'ode-menubar'),
    toolbar: slot('div', 'ode-toolbar'),
    formulaBar: slot('div', 'ode-formula-bar'),
    left: slot('aside', 'ode-left'),
    doc: slot('main', 'ode-main'),
    right: slot('aside', 'ode-right'),
    // A landmark once the chrome names it (a named section is a region).
    bottomBar: slot('section', 'ode-bottom-bar'),
    status: slot('footer', 'ode-status'),
    overlay: slot('div', 'ode-overlay'),
    popups: slot('div', 'ode-popups'),
  };
  slots.formulaBar.hidden = true;
  slots.left.hidden = true;
  slots.right.hidden = true;
  slots.bottomBar.hidden = true;
  slots.overlay.hidden = true;
  const middle = slot('div', 'ode-middle');
  middle.append(slots.left, slots.doc, slots.right);
  // Every part of the page in a landmark (axe's `region` rule, WCAG 1.3.1): the menu bar, toolbar and formula bar in
  // the banner, the document in main, the side panels in asides, the sheet tabs in a named section, the status bar
  // in the contentinfo footer; each top-level, none inside another (the page's #ode-app has no role).
  const top = slot('header', 'ode-top');
  top.append(slots.menubar, slots.toolbar, slots.formulaBar);
  root.replaceChildren(top, middle, slots.bottomBar, slots.status, slots.overlay, slots.popups);
  const notImplemented = () => undefined;
  return {
    config,
    session,
    commands: new CommandRegistry(),
    slots,
    events: new Emitter<AppEvents>(),
    view: undefined as unknown as DocumentView,
    clipboard: {},
    postToHost: notImplemented,
    exportDocument: async () => undefined,
    notify: notImplemented,
  };
}
