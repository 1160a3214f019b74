import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium: playwright-core drives it (no browser is downloaded). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** No sandbox (tests may run as root in a container), no GPU, and no network traffic of Chromium's own. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launches headless Chromium from CHROMIUM_PATH for a test or a benchmark; the caller closes it. Rejects (with
 * playwright's error) when the executable is missing or does not start.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** The demo host's file id of `name` in its folder (the name in base64url), as in `/?open=<id>`. */
export const fileId = (name: string): string => Buffer.from(name).toString('base64url');

/** The page objects the page functions below touch (the tests are type-checked for Node, not the DOM). */
interface PageGlobal {
  document: {
    querySelector(selector: string): {
      textContent: string | null;
      width: number;
      height: number;
      getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
    } | null;
  };
}

// Page functions run in Chromium (playwright sends their source): each is self-contained, it names nothing outside.

/** Page function: the editor's save state (`.ode-state`) says `text` (`Ready`, `Unsaved changes`, ...). */
export const stateIs = (text: string): boolean => (globalThis as unknown as PageGlobal).document.querySelector('.ode-state')?.textContent === text;

/** Page function: the document canvas shows the page (more than 1000 sampled pixels are not transparent). */
export const painted = (): boolean => {
  const c = (globalThis as unknown as PageGlobal).document.querySelector('.ode-canvas');
  if (!c || !c.width) return false;
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 16) if (d[i + 3] > 0) n++;
  return n > 1000;
};
