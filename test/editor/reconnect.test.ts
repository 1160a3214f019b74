import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { docxText } from '../helpers/docx.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';
import { startHostPage, type HostPage } from '../helpers/host-page.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
const CONFIG = { documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } };

/** Page objects read in the editor frame (the tests are type-checked for Node, not the DOM). */
interface FrameGlobal {
  document: { querySelector(s: string): { scrollTop: number; scrollLeft: number; textContent: string | null } | null };
}
const scrollOf = () => {
  const s = (globalThis as unknown as FrameGlobal).document.querySelector('.ode-doc');
  return s ? { top: s.scrollTop, left: s.scrollLeft } : undefined;
};

/**
 * Issue 23, item 9, in Chromium: the daemon stops (its sockets close 1001) and starts again on the same port; the
 * editor shows that it reconnects, comes back by itself (no button pressed) on the same document with the user's
 * zoom and scroll position, and typing goes on and is saved (the WOPI host's stored file read back). Each try (a CI
 * retry too) opens its own file in a page of its own, on a running daemon (a failed try may have left it stopped).
 */
describe('editor reconnection after a daemon restart', () => {
  let daemon: TestDaemon | undefined;
  let wopi: FakeWopiHost;
  let host: HostPage;
  let browser: Browser;
  let page: Page;
  let frame: FrameLocator;
  let port: number;
  /** Counts the tries: each one's file has its own id. */
  let tries = 0;

  beforeAll(async () => {
    wopi = await FakeWopiHost.start();
    browser = await launchChromium();
  }, 150_000);
  beforeEach(async () => {
    daemon ??= await startDaemon(CONFIG, 1);
    port = Number(new URL(daemon.url).port);
  }, 150_000);
  afterEach(async () => {
    await page?.close();
    await host?.stop();
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await wopi?.stop();
  });

  const loadedCount = () => host.messages().filter((m) => m.MessageId === 'App_LoadingStatus' && m.Values.Status === 'Document_Loaded').length;
  const editorFrame = () => page.frames().find((f) => f.name() === 'ode')!;

  it('comes back by itself with the zoom and scroll position; typing after it is saved', async () => {
    const id = `restart-${++tries}`;
    const stored = () => docxText(wopi.files.get(id)!.bytes);
    const src = wopi.addFile(id, `${id}.docx`, DOCX);
    host = await startHostPage({ daemonUrl: daemon!.url, wopiSrc: src, token: wopi.token, fileInfo: { UserCanWrite: true, UserFriendlyName: 'Ada' } });
    page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    await page.goto(host.url);
    await host.waitFor('App_LoadingStatus', (m) => m.Values.Status === 'Document_Loaded', 90_000);
    frame = page.frameLocator('#ode');

    // Before: some text at the end, zoom 200 %, scrolled down.
    await frame.locator('.ode-state').waitFor();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' before');
    // LibreOffice has the typing (the daemon's stop saves what the kit has).
    await expect.poll(() => frame.locator('.ode-state').textContent(), { timeout: 30_000 }).toBe('Unsaved changes');
    await frame.locator('.ode-status-zoom').click();
    await frame.getByRole('menuitemradio', { name: '200%' }).click();
    await expect.poll(() => frame.locator('.ode-status-zoom').textContent()).toBe('200%');
    await editorFrame().evaluate(() => {
      const s = (globalThis as unknown as FrameGlobal).document.querySelector('.ode-doc')!;
      s.scrollTop = 400;
      s.scrollLeft = 0;
    });
    const before = await editorFrame().evaluate(scrollOf);
    expect(before!.top).toBeGreaterThan(300);

    // The daemon stops (it saves, then closes every socket with 1001) and starts again on the same port.
    await daemon!.stop();
    daemon = undefined;
    await frame.locator('.ode-reconnecting').filter({ hasText: 'Reconnecting…' }).waitFor({ timeout: 30_000 });
    expect(await frame.getByRole('status').filter({ hasText: 'reconnecting…' }).textContent()).toBe('Connection lost: reconnecting…');
    expect(await frame.getByRole('button', { name: 'Reload' }).count()).toBe(0);
    expect(stored()).toContain(' before');
    daemon = await startDaemon(CONFIG, 1, port);

    // Back by itself: a second Document_Loaded, the zoom and scroll position as they were.
    await expect.poll(loadedCount, { timeout: 90_000 }).toBe(2);
    await expect.poll(() => frame.locator('.ode-status-zoom').textContent(), { timeout: 30_000 }).toBe('200%');
    await expect.poll(async () => (await editorFrame().evaluate(scrollOf))?.top, { timeout: 30_000 }).toBe(before!.top);
    expect(await frame.locator('.ode-reconnecting').count()).toBe(0);
    // A daemon that stopped on purpose saved first (1001): no "stopped unexpectedly" banner (host/reconnect.ts).
    expect(await frame.locator('.ode-host-banner', { hasText: 'stopped unexpectedly' }).count()).toBe(0);

    // Typing goes on and is saved.
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' after');
    await expect.poll(() => frame.locator('.ode-state').textContent(), { timeout: 30_000 }).toBe('Unsaved changes');
    await page.keyboard.press('Control+s');
    await expect.poll(stored, { timeout: 30_000 }).toContain(' after');
    expect(stored()).toMatch(/ before.* after$/);
    await page.screenshot({ path: 'test/artifacts/reconnect-after-restart.png' });
  }, 240_000);
});
