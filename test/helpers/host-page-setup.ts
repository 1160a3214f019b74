import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './browser.ts';
import { startDaemon, type TestDaemon } from './daemon.ts';
import { FakeWopiHost } from './fake-wopi-host.ts';
import { startHostPage, type HostPage, type HostPageOptions } from './host-page.ts';

/** A daemon, a fake WOPI host and Chromium for the tests that open documents in host pages (useHostPageEditing). */
export interface HostPageEditing {
  daemon: TestDaemon;
  wopi: FakeWopiHost;
  browser: Browser;
}

/**
 * For the describe block (or file) it is called in: before all tests starts a daemon with `config` over the test
 * defaults (a function: called then, after the beforeAll hooks registered earlier) and `readyKits` prespawned kits
 * (startDaemon), a fake WOPI host and Chromium; after them stops all three.
 * Returns the object the beforeAll fills in: read it in tests and later hooks.
 */
export function useHostPageEditing(config: Record<string, unknown> | (() => Record<string, unknown>), readyKits?: number): HostPageEditing {
  const env = {} as HostPageEditing;
  beforeAll(async () => {
    env.daemon = await startDaemon(typeof config === 'function' ? config() : config, readyKits);
    env.wopi = await FakeWopiHost.start();
    env.browser = await launchChromium();
  }, 150_000);
  afterAll(async () => {
    await env.browser?.close();
    await env.daemon?.stop();
    await env.wopi?.stop();
  });
  return env;
}

/**
 * Starts a host page with `opts` (the Collabora-style page embedding the editor, host-page.ts), opens it in a new
 * tab of `browser` with a `viewport` (px, default 1200 x 760; `onPage` is called before the page loads, to listen
 * to it), and resolves once the editor said Document_Loaded (App_LoadingStatus) within `timeoutMs` (default 90 s).
 * @throws Error when Document_Loaded does not arrive in time.
 */
export async function openHostPage(
  browser: Browser,
  opts: HostPageOptions,
  o: { viewport?: { width: number; height: number }; timeoutMs?: number; onPage?: (page: Page) => void } = {},
): Promise<{ host: HostPage; page: Page; frame: FrameLocator }> {
  const host = await startHostPage(opts);
  const page = await browser.newPage({ viewport: o.viewport ?? { width: 1200, height: 760 } });
  o.onPage?.(page);
  await page.goto(host.url);
  await host.waitFor('App_LoadingStatus', (m) => m.Values.Status === 'Document_Loaded', o.timeoutMs ?? 90_000);
  return { host, page, frame: page.frameLocator('#ode') };
}
