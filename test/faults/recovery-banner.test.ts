import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import * as utf7 from 'utf7';
import { afterAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';
import { COPY, DOCX, writeRecoveryCopy } from './recovery-fixtures.ts';
import { startHostPage, type HostPage } from '../helpers/host-page.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The recovery banner in Debian's Chromium (issue 17, item 8; daemon/editor/src/host/recovery-banner.ts): a daemon
 * restarted with a recovery copy of a document whose stored file changed meanwhile keeps it (409), and the user who
 * opens the document through a host page sees a banner offering it; "Save as a copy" stores it beside the document
 * (the host's new file holds the copy's bytes) and the banner goes. The host page's WOPI proxy is the document's
 * WOPISrc, so a first daemon only serves the host page its discovery; the second starts on the same port with the
 * state the first would have left.
 */
describe('the recovery banner in the editor', () => {
  let first: TestDaemon | undefined;
  let daemon: TestDaemon | undefined;
  let wopi: FakeWopiHost | undefined;
  let host: HostPage | undefined;
  let browser: Browser | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'ode-recovery-banner-'));
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
    await first?.stop();
    await daemon?.stop();
    await wopi?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('offers the kept edits and saves them as a copy', { timeout: 240_000 }, async () => {
    execFileSync(process.execPath, ['daemon/editor/build.mjs']);
    wopi = await FakeWopiHost.start();
    const w = wopi;
    const src = w.addFile('rb1', 'minutes.docx', DOCX, { UserCanNotWriteRelative: false });
    first = await startDaemon({}, 1, 0, { fakeKits: true });
    const port = Number(new URL(first.url).port);
    host = await startHostPage({ daemonUrl: first.url, wopiSrc: src, token: w.token });
    await first.stop();
    first = undefined;

    // What the killed daemon left: a copy of minutes.docx built on the stored version the host then replaced.
    const stateDir = join(dir, 'state');
    const recovery = join(stateDir, 'recovery');
    mkdirSync(recovery, { recursive: true });
    writeRecoveryCopy(recovery, 'minutes.docx', COPY, {
      wopiSrc: host.wopiSrc,
      fileName: 'minutes.docx',
      token: w.token,
      tokenTtl: Date.now() + 3_600_000,
      lastModifiedTime: w.files.get('rb1')!.lastModifiedTime,
      source: 'journal',
      createdAt: Date.now() - 600_000,
    });
    w.touch('rb1', DOCX);

    daemon = await startDaemon(
      { state_dir: stateDir, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600, idle_unload_secs: 3600 } },
      1,
      port,
    );
    const d = daemon;
    const deadline = Date.now() + 30_000;
    while (!d.server.documents.recovery.list().some((c) => c.state === 'conflict') && Date.now() < deadline) await sleep(100);
    expect(d.server.documents.recovery.list().map((c) => c.state)).toEqual(['conflict']);

    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
    await page.goto(host.url);
    await host.waitFor('App_LoadingStatus', (m) => m.Values.Status === 'Document_Loaded', 90_000);
    const frame = page.frameLocator('#ode');
    const banner = frame.getByRole('alert').filter({ hasText: 'Ode kept changes to this document' });
    await banner.waitFor({ timeout: 30_000 });
    expect(await banner.textContent()).toContain('the stored file was changed meanwhile');
    await banner.getByRole('button', { name: 'Save as a copy' }).click();
    // The fake host keeps X-WOPI-SuggestedTarget as sent (UTF-7, MS-WOPI): decoded with the utf7 package.
    const recovered = () => [...w.files.values()].find((f) => utf7.decode(f.name).startsWith('minutes (recovered '));
    await expect.poll(() => recovered()?.bytes.length ?? 0, { timeout: 30_000 }).toBe(COPY.length);
    const added = recovered()!;
    expect(Buffer.from(added.bytes).equals(COPY)).toBe(true);
    expect(Buffer.from(w.files.get('rb1')!.bytes).equals(DOCX)).toBe(true);
    await expect.poll(() => frame.locator('.ode-recovery-banner').count(), { timeout: 10_000 }).toBe(0);
    expect(d.server.documents.recovery.list()).toEqual([]);
  });
});
