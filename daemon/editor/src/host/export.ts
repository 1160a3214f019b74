import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';
import type { HostBridge } from './bridge.ts';

let nextId = 0;

/** Asks the daemon for an export (`download` -> `downloadReady`) and returns its absolute one-use URL. @throws Error when refused. */
async function prepare(app: App, format: string, purpose: 'download' | 'print' | 'slideshow'): Promise<string> {
  const id = `dl${++nextId}`;
  const { session } = app;
  let offError = () => {};
  const refused = new Promise<never>((_, reject) => {
    offError = session.on('error', (m) => {
      if (m.code === 'forbidden' || m.code === 'not_implemented' || m.code === 'export_failed') reject(new Error(m.message));
    });
  });
  try {
    const ready = await Promise.race([session.request({ type: 'download', id, format, purpose }, 'downloadReady', (m) => m.id === id, 120_000), refused]);
    return new URL(ready.url, location.href).href;
  } finally {
    offError();
  }
}

/**
 * Prints a PDF: the browser's PDF viewer in a new tab (the editor page's CSP allows no blob: frame, and the one-use
 * download is an attachment), where the user prints it; when the tab is blocked, a banner offers the link.
 */
async function printPdf(app: App, url: string): Promise<void> {
  const blob = await (await fetch(url)).blob();
  const local = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
  setTimeout(() => URL.revokeObjectURL(local), 10 * 60_000);
  if (!window.open(local, '_blank')) {
    const a = Object.assign(document.createElement('a'), { href: local, target: '_blank', textContent: t('host.print.open') });
    app.notify(t('host.print.blocked'));
    a.className = 'ode-host-print-link';
    app.slots.popups.append(a);
    a.addEventListener('click', () => setTimeout(() => a.remove(), 0));
    a.focus();
  }
}

/**
 * `app.exportDocument` (editor.md `download`): exports the document in `format` for `purpose`, then delivers it.
 * With DownloadAsPostMessage (CheckFileInfo, or `checkfileinfo_override`, applied by the daemon) the host gets
 * Download_As {Type: print|slideshow|export, URL}; otherwise the browser downloads it (an <a download>), prints it,
 * or hands it to the slideshow (`app.events` `slideshow`).
 */
export function installExport(app: App, bridge: HostBridge): void {
  app.exportDocument = async (format, purpose) => {
    let url: string;
    try {
      url = await prepare(app, format, purpose);
    } catch (e) {
      app.notify(t('host.export.failed', { message: (e as Error).message }), 'error');
      return;
    }
    if (app.session.state.status?.fileInfo.DownloadAsPostMessage === true && bridge.connected) {
      bridge.send('Download_As', { Type: purpose === 'download' ? 'export' : purpose, URL: url });
      return;
    }
    if (purpose === 'print') return printPdf(app, url);
    if (purpose === 'slideshow') return app.events.emit('slideshow', url);
    const a = Object.assign(document.createElement('a'), { href: url, download: '', rel: 'noopener' });
    document.body.append(a);
    a.click();
    a.remove();
  };
}
