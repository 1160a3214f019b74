import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.ts';
import type { LoggedMessage } from '../helpers/collabora-host-common.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { docxText } from '../helpers/docx.ts';
import { MoodleHost, phpDateC } from '../helpers/moodle-host.ts';

/**
 * Moodle's mod_collabora against Ode, in Debian's Chromium with a real daemon and LibreOffice
 * (test/helpers/moodle-host.ts imitates the plugin, quirks included). Its quirk: the activity page opens the editor
 * with a GET form, so the access token comes in the editor page's query, not in a posted form; Collabora reads it
 * there (Poco's HTMLForm over a GET is its query), and before Ode did too, the page answered 400 and the activity
 * stayed blank. And: its PutFile answers an empty 200, no LastModifiedTime, though its CheckFileInfo has one, which
 * the save changed; before Ode asked CheckFileInfo for it after the PutFile, the next storage check (every
 * documents.check_secs, here 2 s) took Ode's own save for a change made elsewhere: the document reloaded under the
 * user's typing, or the conflict question came up. Each test opens its own page on its own copy of the document.
 */

interface HostWindow {
  hostLog: LoggedMessage[];
}
// Page functions run in Chromium (playwright sends their source): each names nothing outside itself.

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

let daemon: TestDaemon;
let browser: Browser;
beforeAll(async () => {
  daemon = await startDaemon({ documents: { check_secs: 2, idle_save_secs: 3600, autosave_secs: 3600, idle_unload_secs: 3600 } });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

/** Opens the activity page of a fresh Moodle-style host and waits for Document_Loaded; returns the editor's frame. */
async function openActivity(host: MoodleHost, page: Page): Promise<Frame> {
  await page.goto(host.pageUrl);
  try {
    await page.waitForFunction(
      () => (globalThis as unknown as HostWindow).hostLog.some((m) => m.MessageId === 'App_LoadingStatus' && m.Values.Status === 'Document_Loaded'),
      undefined,
      { timeout: 90_000 },
    );
  } catch (e) {
    const frameText = await page
      .frame({ name: 'collaboraiframe_1' })
      ?.locator('body')
      .innerText()
      .catch(() => '?');
    throw new Error(
      `no Document_Loaded: host requests [${host.requests.map((r) => `${r.operation} ${r.status ?? '-'}`).join(', ')}], editor frame says ${frameText}`,
      {
        cause: e,
      },
    );
  }
  return page.frame({ name: 'collaboraiframe_1' })!;
}

describe("Moodle's mod_collabora (GET form with the token in the query, no PutFile LastModifiedTime)", () => {
  it('the activity opens the document from the GET form, a user types and saves, and the stored docx holds the text', async () => {
    const host = await MoodleHost.start({
      daemonUrl: daemon.url,
      fileName: 'Group essay.docx',
      mimeType: DOCX,
      content: readFileSync(join(CORPUS, 'properties/documentProperties.docx')),
    });
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    try {
      const frame = await openActivity(host, page);
      // The editor page came by GET, its query holding the form's fields (the urlsrc's own query replaced).
      const editorUrl = new URL(frame.url());
      expect([...editorUrl.searchParams.keys()].sort()).toEqual(['WOPISrc', 'access_token', 'closebutton', 'lang']);
      // Every WOPI request carried the token from that query (the host answers 500 to any other; the favicon is 404).
      expect(host.of('CheckFileInfo').map((r) => r.status)).toContain(200);
      expect(host.requests.filter((r) => ['CheckFileInfo', 'GetFile', 'PutFile'].includes(r.operation) && r.status !== 200)).toEqual([]);
      await frame.focus('.ode-input');
      await page.keyboard.type('MoodleTyped ');
      await page.waitForFunction(
        () => (globalThis as unknown as HostWindow).hostLog.some((m) => m.MessageId === 'Doc_ModifiedStatus' && m.Values.Modified === true),
        undefined,
        { timeout: 30_000 },
      );
      await frame.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => docxText(host.file.bytes).includes('MoodleTyped'), { timeout: 60_000 }).toBe(true);
      // The PutFile went to the contents URL with the document as its body: mod_collabora tells it apart by the body.
      expect(host.of('PutFile').every((r) => r.path.endsWith(`/wopi/files/${host.fileId}/contents`) && r.body.length > 0)).toBe(true);
    } finally {
      await page.close();
      await host.stop();
    }
  }, 180_000);

  it("Ode's own save is not taken for a change made elsewhere: no reload, no conflict, and the next PutFile carries the time the save gave the file", async () => {
    const host = await MoodleHost.start({
      daemonUrl: daemon.url,
      fileName: 'Minutes.docx',
      mimeType: DOCX,
      content: readFileSync(join(CORPUS, 'properties/documentProperties.docx')),
    });
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    try {
      const frame = await openActivity(host, page);
      const modified = (n: number) =>
        page.waitForFunction(
          (k) => (globalThis as unknown as HostWindow).hostLog.filter((m) => m.MessageId === 'Doc_ModifiedStatus' && m.Values.Modified === true).length >= k,
          n,
          { timeout: 30_000 },
        );
      await frame.focus('.ode-input');
      await page.keyboard.type('FirstWord ');
      await modified(1);
      await frame.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => docxText(host.file.bytes).includes('FirstWord'), { timeout: 60_000 }).toBe(true);
      const savedAt = phpDateC(host.file.timemodified);
      // Storage checks after the save (every 2 s): the file's new time is Ode's own save, nothing to reload or ask.
      const checksBefore = host.of('CheckFileInfo').length;
      await expect.poll(() => host.of('CheckFileInfo').length, { timeout: 60_000 }).toBeGreaterThanOrEqual(checksBefore + 3);
      expect(host.of('GetFile')).toHaveLength(1);
      expect(await frame.getByRole('alertdialog').count()).toBe(0);
      await frame.focus('.ode-input');
      await page.keyboard.type('SecondWord ');
      await modified(2);
      const puts = host.of('PutFile').length;
      await frame.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => host.of('PutFile').length, { timeout: 60_000 }).toBeGreaterThan(puts);
      expect(host.of('PutFile').at(-1)!.headers['x-cool-wopi-timestamp']).toBe(savedAt);
      await expect.poll(() => docxText(host.file.bytes), { timeout: 60_000 }).toMatch(/SecondWord.*FirstWord|FirstWord.*SecondWord/);
      expect(host.of('GetFile')).toHaveLength(1);
    } finally {
      await page.close();
      await host.stop();
    }
  }, 180_000);
});
