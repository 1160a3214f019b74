import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, painted } from '../helpers/browser.ts';
import type { LoggedMessage } from '../helpers/collabora-host-common.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { docxText } from '../helpers/docx.ts';
import { RichdocumentsHost, toIso8601Micro } from '../helpers/richdocuments-host.ts';
import { SdkHost } from '../helpers/sdk-host.ts';

/**
 * Issue 14 "Must show", in Debian's Chromium against a real daemon and LibreOffice: hosts written for Collabora
 * Online, imitated with their quirks (test/helpers/sdk-host.ts, test/helpers/richdocuments-host.ts), work with Ode
 * with only the server URL changed. For each: the document loads, a user types and saves, the host's stored file
 * holds the text (read back independently: the bytes of a .txt, word/document.xml of a .docx through fflate), a
 * rename keeps the content, the PostMessages the host page receives stay few, the settings are fetched.
 */

/** What the host pages keep (collabora-host-common.ts PAGE_RECORDER), as page functions see it. */
interface HostWindow {
  hostLog: LoggedMessage[];
  hostCount: number;
}
// Page functions run in Chromium (playwright sends their source): each names nothing outside itself.

let daemon: TestDaemon;
let browser: Browser;
beforeAll(async () => {
  daemon = await startDaemon({ documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600, idle_unload_secs: 3600 } });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

/** Waits until the page has received App_LoadingStatus Document_Loaded; returns the editor's frame. */
async function loaded(page: Page, frameName: string, requests: () => Array<{ operation: string; status?: number; proof?: string }>): Promise<Frame> {
  const consoleLines: string[] = [];
  page.on('console', (m) => consoleLines.push(m.text()));
  try {
    await page.waitForFunction(
      () => (globalThis as unknown as HostWindow).hostLog.some((m) => m.MessageId === 'App_LoadingStatus' && m.Values.Status === 'Document_Loaded'),
      undefined,
      { timeout: 90_000 },
    );
  } catch (e) {
    // Say what the host saw and what the page got: the failure names its cause.
    const seen = requests().map((r) => `${r.operation} ${r.status ?? '-'}${r.proof ? ` proof=${r.proof}` : ''}`);
    throw new Error(
      `no Document_Loaded: host requests [${seen.join(', ')}], page messages ${JSON.stringify(await log(page))}, console ${JSON.stringify(consoleLines.slice(-10))}`,
      { cause: e },
    );
  }
  return page.frame({ name: frameName })!;
}
const log = (page: Page) => page.evaluate(() => (globalThis as unknown as HostWindow).hostLog);
const count = (page: Page) => page.evaluate(() => (globalThis as unknown as HostWindow).hostCount);

/** Types `text` at the document's caret and saves with the toolbar's Save button. */
async function typeAndSave(page: Page, frame: Frame, text: string, puts: () => number): Promise<void> {
  await frame.focus('.ode-input');
  await page.keyboard.type(text);
  await page.waitForFunction(
    () => (globalThis as unknown as HostWindow).hostLog.some((m) => m.MessageId === 'Doc_ModifiedStatus' && m.Values.Modified === true),
    undefined,
    { timeout: 20_000 },
  );
  const before = puts();
  await frame.getByRole('button', { name: 'Save', exact: true }).click();
  await expect.poll(puts, { timeout: 30_000 }).toBeGreaterThan(before);
}

/** Renames the document from its title button (File > Rename's dialog). */
async function rename(page: Page, frame: Frame, current: string, to: string): Promise<void> {
  await frame.getByRole('button', { name: `Rename: ${current}` }).click();
  await frame.getByRole('dialog', { name: 'Rename' }).waitFor();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(to);
  await page.keyboard.press('Enter');
}

describe('an SDK-style host (Collabora SDK examples: multipart form, no PostMessageOrigin, discovery parsed from a string)', () => {
  let host: SdkHost;
  let page: Page;
  let frame: Frame;
  beforeAll(async () => {
    host = await SdkHost.start({ daemonUrl: daemon.url });
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(host.pageUrl);
    frame = await loaded(page, 'collabora-online-viewer', () => host.requests);
  }, 120_000);
  afterAll(async () => {
    await page?.close();
    await host?.stop();
  });

  it('reads discovery from a string with the strict parser and loads test.txt; Frame_Ready then Document_Loaded reach the page without PostMessageOrigin', async () => {
    expect(host.of('Discovery').map((r) => r.status)).toEqual([200]);
    expect(host.of('CheckFileInfo').length).toBeGreaterThan(0);
    expect(host.of('GetFile').length).toBeGreaterThan(0);
    const statuses = (await log(page)).filter((m) => m.MessageId === 'App_LoadingStatus').map((m) => m.Values.Status);
    expect(statuses.slice(0, 2)).toEqual(['Frame_Ready', 'Document_Loaded']);
    // Sent to the page's origin (ancestorOrigins), from the daemon's origin.
    expect(new Set((await log(page)).map((m) => m.origin))).toEqual(new Set([new URL(daemon.url).origin]));
  }, 60_000);

  it('honours css_variables and ui_defaults (UITheme=dark, TextRuler=true) posted in the multipart form', async () => {
    const look = await frame.evaluate(() => {
      const d = (globalThis as unknown as { document: { documentElement: { dataset: Record<string, string> } } }).document.documentElement;
      const style = (globalThis as unknown as { getComputedStyle(e: unknown): { getPropertyValue(n: string): string } }).getComputedStyle(d);
      return { co: style.getPropertyValue('--co-primary-element').trim(), accent: style.getPropertyValue('--accent').trim(), theme: d.dataset.theme };
    });
    expect(look).toEqual({ co: '#4c566a', accent: '#4c566a', theme: 'dark' });
    await expect.poll(() => frame.locator('.ode-ruler').isVisible(), { timeout: 10_000 }).toBe(true);
  });

  it('fetches the user settings ({uri, stamp}) and their wordbook', async () => {
    await expect.poll(() => host.of('Settings').length, { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => host.of('SettingFile').length, { timeout: 20_000 }).toBeGreaterThan(0);
  });

  it('a user types and saves: the stored test.txt holds the text', async () => {
    await typeAndSave(page, frame, 'SdkTyped ', () => host.of('PutFile').length);
    const stored = host.file.bytes.toString('utf8');
    expect(stored).toContain('SdkTyped');
    expect(stored).toContain('Hello world!');
  }, 90_000);

  it('a rename keeps the content', async () => {
    const before = Buffer.from(host.file.bytes);
    await rename(page, frame, 'test.txt', 'renamed-by-sdk');
    await expect.poll(() => host.file.name, { timeout: 30_000 }).toBe('renamed-by-sdk.txt');
    await page.waitForFunction(() => (globalThis as unknown as HostWindow).hostLog.some((m) => m.MessageId === 'File_Rename'), undefined, { timeout: 20_000 });
    expect(host.file.bytes.toString('utf8')).toContain('SdkTyped');
    expect(host.file.bytes.equals(before)).toBe(true);
  }, 60_000);

  it('the page receives few PostMessages: Document_Loaded once, though the page answers it with Host_PostmessageReady', async () => {
    await new Promise((r) => setTimeout(r, 3000));
    const n = await count(page);
    const loadedCount = (await log(page)).filter((m) => m.MessageId === 'App_LoadingStatus' && m.Values.Status === 'Document_Loaded').length;
    expect(loadedCount).toBe(1);
    expect(n).toBeLessThan(60);
  }, 30_000);
});

describe('net.post_message_origin_required: true (the strict reading of the spec)', () => {
  it('the SDK-style host (no PostMessageOrigin) still edits, but its page receives no PostMessage', async () => {
    daemon.reconfigure({ net: { post_message_origin_required: true } });
    const host = await SdkHost.start({ daemonUrl: daemon.url });
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    try {
      await page.goto(host.pageUrl);
      await expect.poll(() => page.frame({ name: 'collabora-online-viewer' })?.url() ?? '', { timeout: 30_000 }).toContain('WOPISrc=');
      const frame = page.frame({ name: 'collabora-online-viewer' })!;
      await frame.waitForFunction(painted, undefined, { timeout: 90_000 });
      await new Promise((r) => setTimeout(r, 3000));
      expect({ count: await count(page), messages: (await log(page)).map((m) => `${m.MessageId} ${JSON.stringify(m.Values)}`) }).toEqual({
        count: 0,
        messages: [],
      });
    } finally {
      await page.close();
      await host.stop();
      daemon.reconfigure({ net: { post_message_origin_required: false } });
    }
  }, 150_000);
});

describe('a richdocuments-style host (proofs, LastModifiedTime with microseconds, 409/1010, Host_PostmessageReady on every Document_Loaded)', () => {
  let host: RichdocumentsHost;
  let page: Page;
  let frame: Frame;
  let id: string;
  beforeAll(async () => {
    host = await RichdocumentsHost.start(daemon.url);
    id = host.addFile(42, 'Letter.docx', readFileSync(join(CORPUS, 'properties/documentProperties.docx')));
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(host.pageUrl(id));
    frame = await loaded(page, 'collaboraframe_1', () => host.requests);
  }, 120_000);
  afterAll(async () => {
    await page?.close();
    await host?.stop();
  });

  it('loads the document; every WOPI request carries a proof the host accepts', async () => {
    expect(host.of('CheckFileInfo').length).toBeGreaterThan(0);
    expect(host.of('GetFile').map((r) => r.status)).toContain(200);
    const wopi = host.requests.filter((r) => r.path.includes('/wopi/files/'));
    expect(wopi.length).toBeGreaterThan(1);
    expect(wopi.filter((r) => r.proof !== 'ok').map((r) => `${r.operation}: ${r.proof}`)).toEqual([]);
  });

  it('fetches UserSettings and SharedSettings given as {uri, stamp}, and their files', async () => {
    // One listing per kind (userconfig and systemconfig).
    await expect.poll(() => host.of('Settings').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await expect.poll(() => host.of('SettingFile').length, { timeout: 20_000 }).toBeGreaterThan(0);
  });

  it('a user types and saves: PutFile carries the microsecond timestamp back; the stored docx holds the text', async () => {
    const mtime = toIso8601Micro(host.files.get(id)!.mtime);
    await typeAndSave(page, frame, 'RichTyped ', () => host.of('PutFile').filter((r) => r.status === 200).length);
    const put = host.of('PutFile').find((r) => r.status === 200)!;
    expect(put.headers['x-cool-wopi-timestamp']).toBe(mtime);
    expect(docxText(host.files.get(id)!.bytes)).toContain('RichTyped');
  }, 90_000);

  it('the page receives few PostMessages although it sends Host_PostmessageReady on every Document_Loaded', async () => {
    await new Promise((r) => setTimeout(r, 3000));
    const messages = await log(page);
    expect(messages.filter((m) => m.MessageId === 'App_LoadingStatus' && m.Values.Status === 'Document_Loaded')).toHaveLength(1);
    expect(await count(page)).toBeLessThan(60);
  }, 30_000);

  it('a rename sends the document: the renamed file holds the text (richdocuments writes the body into it)', async () => {
    await rename(page, frame, 'Letter.docx', 'Renamed letter');
    await expect.poll(() => host.files.get(id)!.name, { timeout: 30_000 }).toBe('Renamed letter.docx');
    // The editor says File_Rename once the daemon has the host's new LastModifiedTime (after the rename's CheckFileInfo).
    await page.waitForFunction(() => (globalThis as unknown as HostWindow).hostLog.some((m) => m.MessageId === 'File_Rename'), undefined, { timeout: 20_000 });
    expect((await log(page)).find((m) => m.MessageId === 'File_Rename')!.Values).toEqual({ NewName: encodeURIComponent('Renamed letter.docx') });
    const call = host.of('RENAME_FILE').at(-1)!;
    expect(call.body.length).toBeGreaterThan(0);
    expect(docxText(host.files.get(id)!.bytes)).toContain('RichTyped');
  }, 60_000);

  it('previews through /cool/convert-to/png with the file part named after the file, link targets by PUT', async () => {
    const png = await host.preview(id, 'png');
    expect(png.status).toBe(200);
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(0, 8)
        .toString('hex'),
    ).toBe('89504e470d0a1a0a');
    const targets = await host.linkTargets(id);
    expect(targets.status).toBe(200);
    expect(typeof (await targets.json())).toBe('object');
  }, 60_000);

  it("a save while another user locks the file gets 423 and stores nothing; once unlocked, Ode's retry stores the text, and so does the next save", async () => {
    const before = Buffer.from(host.files.get(id)!.bytes);
    host.lockedBy = 'bob';
    await frame.focus('.ode-input');
    await page.keyboard.type('WhileLocked ');
    const puts = host.of('PutFile').length;
    await frame.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => host.of('PutFile').length, { timeout: 30_000 }).toBeGreaterThan(puts);
    expect(host.of('PutFile').at(-1)!.status).toBe(423);
    expect(host.files.get(id)!.bytes.equals(before)).toBe(true);
    const stored = () => host.of('PutFile').filter((r) => r.status === 200).length;
    const ok = stored();
    host.lockedBy = undefined;
    // Ode tries a 423 again by itself (back-off from 500 ms): once unlocked, that retry stores the text.
    await expect.poll(stored, { timeout: 30_000 }).toBeGreaterThan(ok);
    expect(docxText(host.files.get(id)!.bytes)).toContain('WhileLocked');
    // A save clicked now is stored as well. The test waits for its PutFile: a save still in flight when the next
    // test changes the stored file would rightly meet a 409 and leave the conflict question on the page.
    const retried = stored();
    await frame.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(stored, { timeout: 30_000 }).toBeGreaterThan(retried);
    expect(docxText(host.files.get(id)!.bytes)).toContain('WhileLocked');
  }, 90_000);

  it('a save after someone else changed the file gets 409 with COOLStatusCode 1010 from the host', async () => {
    const stale = toIso8601Micro(host.files.get(id)!.mtime);
    host.touch(id);
    // Nothing covers the document (no dialog left from the saves before).
    expect(await frame.locator('.ode-overlay').innerText()).toBe('');
    const modified = (await log(page)).filter((m) => m.MessageId === 'Doc_ModifiedStatus' && m.Values.Modified === true).length;
    await frame.focus('.ode-input');
    await page.keyboard.type('Again ');
    await page.waitForFunction(
      (n) => (globalThis as unknown as HostWindow).hostLog.filter((m) => m.MessageId === 'Doc_ModifiedStatus' && m.Values.Modified === true).length > n,
      modified,
      { timeout: 20_000 },
    );
    const before = host.of('PutFile').length;
    await frame.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => host.of('PutFile').length, { timeout: 30_000 }).toBeGreaterThan(before);
    const put = host.of('PutFile').at(-1)!;
    // The header carried the mtime Ode knew, which is no longer the stored one.
    expect({ status: put.status, timestamp: put.headers['x-cool-wopi-timestamp'] }).toEqual({ status: 409, timestamp: stale });
    // Ode took the 409 with COOLStatusCode 1010 for a change made elsewhere: the user is asked, nothing is overwritten.
    const dialog = frame.getByRole('alertdialog');
    await dialog.waitFor({ timeout: 30_000 });
    expect(await dialog.textContent()).toContain('changed the stored document');
  }, 60_000);
});
