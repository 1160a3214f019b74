import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';

/** Reads an image through an <img> (CORS anonymous) and a canvas, as PNG: for hosts whose images the page's connect-src forbids. */
function viaImage(url: string): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.crossOrigin = 'anonymous';
    img.onload = () => {
      const c = Object.assign(document.createElement('canvas'), { width: img.naturalWidth, height: img.naturalHeight });
      try {
        c.getContext('2d')!.drawImage(img, 0, 0);
        c.toBlob((b) => (b ? resolve(b) : reject(new Error('no PNG'))), 'image/png');
      } catch (e) {
        reject(e as Error);
      }
    };
    img.onerror = () => reject(new Error('the image did not load'));
    img.src = url;
  });
}

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/**
 * PostMessage Action_InsertGraphic {filename, url}: the browser fetches the image (fetch, else an <img> read
 * through a canvas) and pastes it at the cursor (editor.md `paste`). When the image's server does not allow it
 * (CORS, or the page's CSP), the user is told.
 */
export async function insertGraphic(app: App, url: string): Promise<void> {
  let blob: Blob | undefined;
  try {
    const r = await fetch(url, { credentials: 'omit' });
    if (r.ok) blob = await r.blob();
  } catch {
    // CORS or CSP: try the image element.
  }
  if (!blob || !blob.type.startsWith('image/')) blob = await viaImage(url).catch(() => undefined);
  if (!blob) return app.notify(t('host.image.failed'), 'error');
  app.session.send({ type: 'paste', mimeType: blob.type || 'image/png', data: base64(new Uint8Array(await blob.arrayBuffer())) });
}
