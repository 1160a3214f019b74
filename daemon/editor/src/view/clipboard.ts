import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';

const TEXT = 'text/plain;charset=utf-8';
const HTML = 'text/html';
/** Plain text up to this length goes in as typed text (one undo step, the cursor's formatting). */
const TYPE_LIMIT = 2000;

/** The content of this view's selection, fetched ahead of a copy (LibreOffice's answer is asynchronous). */
interface Cached {
  seq: number;
  text: string;
  html: string;
}

/** Escapes a value for an HTML attribute. */
const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** Puts the spec's `<div id="meta-origin" data-odeorigin="...">` first in the body of `html` (spec "HTML clipboard extensions"). */
export function withMetaOrigin(html: string, origin: string): string {
  const div = `<div id="meta-origin" data-odeorigin="${attr(origin)}"></div>`;
  const body = /<body[^>]*>/i.exec(html);
  if (body) return html.slice(0, body.index + body[0].length) + div + html.slice(body.index + body[0].length);
  return `<html><body>${div}${html}</body></html>`;
}

/** The `data-odeorigin` of clipboard HTML, if it carries one. */
export function metaOriginOf(html: string): string | undefined {
  const m = /<div[^>]*\bid="meta-origin"[^>]*>/i.exec(html);
  const v = m && /\bdata-odeorigin="([^"]*)"/i.exec(m[0]);
  return v
    ? v[1]
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&amp;/g, '&')
    : undefined;
}

/**
 * Copy, cut and paste of the document view (issue 5 "copy, cut and paste with text and HTML"): the commands
 * `edit.cut`, `edit.copy`, `edit.paste` and the browser's clipboard events on the hidden input (Ctrl+C/X/V).
 * Copy writes the selection's text/plain and text/html (with the spec's meta-origin marker, then the document
 * type's `decorateHtml`) from a cache filled after each selection change; LibreOffice also copies to its own
 * clipboard (`.uno:Copy`), so pasting our own HTML back into this view uses LibreOffice's internal flavour
 * (`.uno:Paste`). Other HTML goes to the document type's `pasteHtml`, else is pasted as text/html; plain text is
 * typed (short) or pasted. With DisableCopy nothing of the document reaches the system clipboard (only the marker),
 * and internal copy and paste still work through `.uno:Copy`/`.uno:Paste`.
 */
export class ViewClipboard {
  private seq = 0;
  private cache: Cached | undefined;
  private inflight: Promise<Cached> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private hasSelection = false;

  constructor(
    private readonly app: App,
    input: HTMLTextAreaElement,
  ) {
    input.addEventListener('copy', (e) => this.onCopy(e, false));
    input.addEventListener('cut', (e) => this.onCopy(e, true));
    input.addEventListener('paste', (e) => {
      e.preventDefault();
      const data = e.clipboardData;
      void this.paste(data?.getData('text/html') ?? '', data?.getData('text/plain') ?? '');
    });
    app.commands.register(
      { id: 'edit.cut', label: 'view.cut', shortcut: 'Ctrl+X', run: () => void this.copyCommand(true), enabled: () => !this.readonly() },
      { id: 'edit.copy', label: 'view.copy', shortcut: 'Ctrl+C', run: () => void this.copyCommand(false) },
      { id: 'edit.paste', label: 'view.paste', shortcut: 'Ctrl+V', run: () => void this.pasteCommand(), enabled: () => !this.readonly() },
    );
  }

  private readonly = () => this.app.session.state.status?.readonly === true;
  private disableCopy = () => this.app.session.state.status?.fileInfo.DisableCopy === true;

  /** The marker of this view's copies: the daemon's origin, the document (WOPISrc) and the view. */
  get origin(): string {
    const viewId = this.app.session.state.status?.viewId ?? 0;
    return `${location.origin}/ode/clipboard?WOPISrc=${encodeURIComponent(this.app.config.wopiSrc)}&ViewId=${viewId}`;
  }

  /** The selection changed (rects of the new one): the cache is refilled a moment later. */
  selectionChanged(nonEmpty: boolean): void {
    this.seq++;
    this.cache = undefined;
    this.inflight = undefined;
    this.hasSelection = nonEmpty;
    clearTimeout(this.timer);
    if (nonEmpty && !this.disableCopy()) this.timer = setTimeout(() => void this.content().catch(() => undefined), 150);
  }

  /** The selection's text and HTML (decorated), from the cache or asked now. */
  private content(): Promise<Cached> {
    if (this.cache?.seq === this.seq) return Promise.resolve(this.cache);
    if (this.inflight) return this.inflight;
    const seq = this.seq;
    const p = this.app.session
      .request({ type: 'clipboardGet', mimeTypes: [TEXT, HTML] }, 'clipboard', () => true, 10_000)
      .then(async (m) => {
        const text = m.items.find((i) => i.mimeType.startsWith('text/plain'))?.data ?? '';
        const raw = m.items.find((i) => i.mimeType.startsWith(HTML))?.data ?? '';
        let html = raw ? withMetaOrigin(raw, this.origin) : '';
        if (html && this.app.clipboard.decorateHtml) html = await this.app.clipboard.decorateHtml(html);
        const c = { seq, text, html };
        if (seq === this.seq) this.cache = c;
        return c;
      });
    this.inflight = p;
    p.catch(() => undefined).finally(() => this.inflight === p && (this.inflight = undefined));
    return p;
  }

  /** Only the marker: what a copy with DisableCopy leaves on the system clipboard. */
  private markerOnly(): Cached {
    return { seq: this.seq, text: '', html: withMetaOrigin('', this.origin) };
  }

  private afterCopy(cut: boolean): void {
    if (!cut) return;
    if (this.disableCopy()) return this.app.session.uno('.uno:Cut');
    this.app.session.send({ type: 'key', event: 'input', charCode: 0, keyCode: 1286 });
    this.app.session.send({ type: 'key', event: 'up', charCode: 0, keyCode: 1286 });
  }

  /** The browser's copy/cut event: answered from the cache, else through the async clipboard API. */
  private onCopy(e: ClipboardEvent, cut: boolean): void {
    e.preventDefault();
    if (cut && this.readonly()) return;
    // LibreOffice's own clipboard: what pasting our HTML back into this view uses.
    if (!cut || !this.disableCopy()) this.app.session.uno('.uno:Copy');
    const now = this.disableCopy() ? this.markerOnly() : this.cache?.seq === this.seq ? this.cache : undefined;
    if (now && e.clipboardData) {
      e.clipboardData.setData('text/plain', now.text);
      if (now.html) e.clipboardData.setData('text/html', now.html);
    } else void this.writeAsync(this.content());
    this.afterCopy(cut);
  }

  /** Writes content that is still on its way: ClipboardItem takes promises (the user gesture is now). */
  private async writeAsync(content: Promise<Cached>): Promise<void> {
    try {
      const blob = (type: string, pick: (c: Cached) => string) => content.then((c) => new Blob([pick(c)], { type }));
      await navigator.clipboard.write([new ClipboardItem({ 'text/plain': blob('text/plain', (c) => c.text), 'text/html': blob('text/html', (c) => c.html) })]);
    } catch {
      this.app.notify(t('view.copyFailed'), 'error');
    }
  }

  /** Copy or cut (edit.copy / edit.cut, Ctrl+C / Ctrl+X): the system clipboard through the async clipboard API. */
  async copyCommand(cut: boolean): Promise<void> {
    if (cut && this.readonly()) return;
    if (!cut || !this.disableCopy()) this.app.session.uno('.uno:Copy');
    await this.writeAsync(this.disableCopy() ? Promise.resolve(this.markerOnly()) : this.content());
    this.afterCopy(cut);
    this.app.view.focus();
  }

  /** edit.paste from a menu or toolbar: reads the system clipboard (the browser may ask the user). */
  private async pasteCommand(): Promise<void> {
    let html = '';
    let text = '';
    try {
      for (const item of await navigator.clipboard.read()) {
        if (!html && item.types.includes('text/html')) html = await (await item.getType('text/html')).text();
        if (!text && item.types.includes('text/plain')) text = await (await item.getType('text/plain')).text();
      }
    } catch {
      // Without the permission: LibreOffice's own clipboard (what was copied inside the document).
      this.app.session.uno('.uno:Paste');
      return;
    }
    await this.paste(html, text);
    this.app.view.focus();
  }

  /** Pastes clipboard content at the cursor. */
  async paste(html: string, text: string): Promise<void> {
    if (this.readonly()) return;
    const origin = html ? metaOriginOf(html) : undefined;
    if (origin !== undefined && origin === this.origin) return this.app.session.uno('.uno:Paste');
    if (html && (await this.app.clipboard.pasteHtml?.(html))) return;
    // LibreOffice's HTML import wants a whole document (browsers hand out fragments).
    if (html)
      return this.app.session.send({
        type: 'paste',
        mimeType: HTML,
        data: /<html[\s>]/i.test(html) ? html : `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${html}</body></html>`,
      });
    if (!text) return;
    if (text.length <= TYPE_LIMIT && !/[\r\n\t]/.test(text)) this.app.session.send({ type: 'textInput', text });
    else this.app.session.send({ type: 'paste', mimeType: TEXT, data: text });
  }

  /** Whether the view has a selection (copy has something to copy). */
  get selected(): boolean {
    return this.hasSelection;
  }
}
