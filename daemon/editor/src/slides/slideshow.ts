import { button } from '../chrome/panels-dom.ts';
import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';

/** What the daemon's slideshow export posts to its parent page (sessions/export.ts adds the script that sends it). */
interface SlideshowMessage {
  type: 'ode-slideshow';
  action: 'exit';
}

/**
 * The slideshow layer: the presentation exported by LibreOffice as SVG (its own JavaScript player: arrows, space,
 * Page Up/Down, Home/End, clicks) shown in a sandboxed frame over the whole window (the current tab, not full
 * screen, as the spec says). The export is served from the daemon's one-use URL with its own CSP (scripts of
 * that document only, no access to this page). Escape, in the player or here, leaves it; so does the exit
 * button.
 */
export class Slideshow {
  private layer: HTMLDivElement | undefined;
  private frame: HTMLIFrameElement | undefined;
  private returnFocus: HTMLElement | null = null;
  private readonly onMessage = (e: MessageEvent) => {
    const m = e.data as Partial<SlideshowMessage> | null;
    if (this.frame && e.source === this.frame.contentWindow && m?.type === 'ode-slideshow' && m.action === 'exit') this.close();
  };
  private readonly onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      this.close();
    }
  };

  constructor(private readonly app: App) {}

  get open(): boolean {
    return this.layer !== undefined;
  }

  /** Shows the exported slideshow at `url` over the window and gives it the keyboard. */
  show(url: string): void {
    this.close();
    this.returnFocus = document.activeElement as HTMLElement | null;
    const layer = document.createElement('div');
    layer.className = 'ode-slideshow';
    layer.setAttribute('role', 'dialog');
    layer.setAttribute('aria-modal', 'true');
    layer.setAttribute('aria-label', t('slides.show.label'));
    const frame = document.createElement('iframe');
    frame.className = 'ode-slideshow-frame';
    frame.title = t('slides.show.label');
    // Scripts of the export only: an opaque origin, no access to this page, its storage or its socket.
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.src = url;
    const exit = button(t('slides.show.exit'), '✕', () => this.close(), 'ode-slideshow-exit');
    layer.append(frame, exit);
    layer.addEventListener('keydown', this.onKey);
    window.addEventListener('message', this.onMessage);
    document.body.append(layer);
    // The player's keys (arrows, Space, Enter, Page Down: what presenter clickers send) work from the first one
    // only if the loaded document has the focus: focusing the frame before it loads gives it to the initial blank
    // document, and focusing it again on load is a no-op (the element already has the focus), so the player's
    // document never gets it. Move the focus to the exit button meanwhile, and into the frame once it has loaded.
    frame.addEventListener('load', () => {
      if (document.activeElement === frame) exit.focus();
      frame.focus();
      frame.contentWindow?.focus();
    });
    this.layer = layer;
    this.frame = frame;
    exit.focus();
  }

  /** Leaves the slideshow; the document gets the keyboard back. */
  close(): void {
    if (!this.layer) return;
    window.removeEventListener('message', this.onMessage);
    this.layer.remove();
    this.layer = undefined;
    this.frame = undefined;
    if (this.returnFocus?.isConnected) this.returnFocus.focus();
    else this.app.view?.focus();
  }
}
