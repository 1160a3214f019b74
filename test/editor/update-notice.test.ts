import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';
import { startHostPage, type HostPage } from '../helpers/host-page.ts';

/** Ode's version, read here from package.json (not from the code under test). */
const ODE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));

/**
 * The update notice in Debian's Chromium (docs/updates.md): a real daemon whose updates.url is a small real update
 * server answering a newer release, a host page per user (test/helpers/host-page.ts) that sets IsAdminUser in
 * CheckFileInfo, one page.
 */
let daemon: TestDaemon;
let wopi: FakeWopiHost;
let browser: Browser;
let page: Page;
let updates: Server;
const hosts: HostPage[] = [];
/** Text frames the editor received on its WebSocket, in order. */
const frames: string[] = [];
let src = '';

beforeAll(async () => {
  execFileSync(process.execPath, ['daemon/editor/build.mjs']);
  updates = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"odewsd_version":"25.2.1"}');
  });
  await new Promise<void>((r) => updates.listen(0, '127.0.0.1', () => r()));
  daemon = await startDaemon({
    documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600, idle_unload_secs: 3600 },
    updates: { url: `http://127.0.0.1:${(updates.address() as AddressInfo).port}` },
  });
  wopi = await FakeWopiHost.start();
  src = wopi.addFile('notice1', 'letter.docx', DOCX);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  page.on('websocket', (ws) => ws.on('framereceived', (f) => typeof f.payload === 'string' && frames.push(f.payload)));
}, 120_000);
afterAll(async () => {
  await browser?.close();
  for (const h of hosts) await h.stop();
  await daemon?.stop();
  await wopi?.stop();
  await new Promise<void>((r) => (updates ? updates.close(() => r()) : r()));
});

/** Opens the document in the page through a new host page whose CheckFileInfo has `fileInfo`; resolves once loaded. */
async function openAs(fileInfo: Record<string, unknown>, params: Record<string, string> = {}): Promise<HostPage> {
  const host = await startHostPage({ daemonUrl: daemon.url, wopiSrc: src, token: wopi.token, fileInfo, params });
  hosts.push(host);
  frames.length = 0;
  await page.goto(host.url);
  await host.waitFor('App_LoadingStatus', (m) => m.Values.Status === 'Document_Loaded', 60_000);
  return host;
}

describe('the update notice in the editor', () => {
  it('an IsAdminUser view shows a polite, dismissible notice (in the UI language) naming both versions', async () => {
    await openAs({ IsAdminUser: true }, { lang: 'de-DE' });
    const frame = page.frameLocator('#ode');
    const notice = frame.getByRole('status').filter({ hasText: 'Eine neuere Ode-Version ist verfügbar' });
    await notice.waitFor({ timeout: 30_000 });
    const text = await notice.textContent();
    expect(text).toContain('25.2.1');
    expect(text).toContain(ODE_VERSION);
    expect(await notice.getAttribute('aria-live')).toBe('polite');
    await notice.getByRole('button', { name: 'Hinweis auf die neue Version schließen' }).click();
    await expect.poll(() => frame.locator('.ode-update-notice').count()).toBe(0);
    // The document has the focus again.
    await expect.poll(() => frame.locator('.ode-input:focus').count()).toBe(1);
  }, 120_000);

  it('a view without IsAdminUser gets no notice', async () => {
    await openAs({ IsAdminUser: false });
    // The document painted: its tiles came after the moment the daemon decides on the notice (right after status,
    // from the cached check), so a notice would be here by now.
    expect(frames.some((f) => f.includes('"type":"status"'))).toBe(true);
    expect(frames.some((f) => f.includes('"updateAvailable"'))).toBe(false);
    expect(await page.frameLocator('#ode').locator('.ode-update-notice').count()).toBe(0);
  }, 120_000);
});
