import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { unzipSync } from 'fflate';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { docxText } from '../helpers/docx.ts';
import { startHostPage, type HostPage } from '../helpers/host-page.ts';
import { openHostPage, useHostPageEditing } from '../helpers/host-page-setup.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));

/** A small PNG (w x h, one colour), written here so the test needs no image file. */
function png(w: number, h: number, rgb: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(w * 3).map((_, i) => rgb[i % 3])]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * The PostMessage API and the CheckFileInfo UI properties in Debian's Chromium against a real daemon: a host page on
 * another origin (test/helpers/host-page.ts: localhost vs the daemon's 127.0.0.1, also the WOPI host by proxying the
 * FakeWopiHost) posts the form into an iframe and records every PostMessage.
 */
const DOCUMENTS = { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600, idle_unload_secs: 3600 };
// One daemon and one browser for the file. The editor page may read images from the host pages
// (Action_InsertGraphic): they are on http://localhost.
const env = useHostPageEditing({ documents: DOCUMENTS, net: { content_security_policy: 'connect-src http://localhost:*; img-src http://localhost:*' } });
/** Counts the tries: each test, and each CI retry of one, opens a file of its own (`<name>-<try>`) in a page of its own. */
let tries = 0;

describe('host integration: PostMessage, CheckFileInfo properties, iframe parameters', () => {
  let page: Page;
  let host: HostPage;
  let frame: FrameLocator;
  let consoleLines: string[] = [];
  /** This try's file id. */
  let id = '';

  beforeEach(async () => {
    id = `hostdoc-${++tries}`;
    const src = env.wopi.addFile(id, 'letter.docx', DOCX);
    host = await startHostPage({
      daemonUrl: env.daemon.url,
      wopiSrc: src,
      token: env.wopi.token,
      params: { closebutton: 'true' },
      // The user is the owner (FakeWopiHost's UserId is user-1): Close_Session may end the document.
      fileInfo: { HidePrintOption: true, EnableOwnerTermination: true, OwnerId: 'user-1' },
      checkFileInfoOverride: 'DownloadAsPostMessage=true',
    });
    page = await env.browser.newPage({ viewport: { width: 1100, height: 760 } });
    const lines: string[] = (consoleLines = []);
    page.on('console', (m) => lines.push(m.text()));
    await page.goto(host.url);
    frame = page.frameLocator('#ode');
    // Each file is a new document: it waits for a kit of its own (a kit is not reused), slow at CI load.
    await host.waitFor('App_LoadingStatus', (m) => m.Values.Status === 'Document_Loaded', 90_000);
  }, 150_000);
  afterEach(async () => {
    await page?.close();
    await host?.stop();
  });

  const openFileMenu = async () => {
    await frame.getByRole('menuitem', { name: 'File' }).click();
    await frame.getByRole('menu', { name: 'File' }).waitFor();
  };
  const closeMenu = () => page.keyboard.press('Escape');
  /** How many items of the open File menu run `command`. */
  const inFileMenu = (command: string) => frame.getByRole('menu', { name: 'File' }).locator(`[data-command="${command}"]`).count();

  it('says Frame_Ready, then Document_Loaded, as JSON envelopes from the editor origin', async () => {
    const loaded = await host.waitFor('App_LoadingStatus', (m) => m.Values.Status === 'Document_Loaded', 10_000);
    const statuses = host
      .messages()
      .filter((m) => m.MessageId === 'App_LoadingStatus')
      .map((m) => m.Values.Status);
    expect(statuses.slice(0, 2)).toEqual(['Frame_Ready', 'Document_Loaded']);
    expect(loaded.origin).toBe(new URL(env.daemon.url).origin);
    expect(typeof loaded.raw).toBe('string');
    expect(typeof loaded.SendTime).toBe('number');
    expect(typeof loaded.Values.DocumentLoadedTime).toBe('number');
    // The daemon fetched the file through the host page, which is the WOPI host and the PostMessageOrigin.
    expect(host.requests().map((r) => r.operation)).toEqual(expect.arrayContaining(['CheckFileInfo', 'GetFile']));
  }, 90_000);

  it('answers Get_Views with Views_List (this view is the current one)', async () => {
    const since = host.messages().length;
    await host.post({ MessageId: 'Get_Views', SendTime: Date.now(), Values: {} });
    const list = await host.waitFor('Views_List', undefined, 10_000, since);
    const views = list.Values as unknown as Array<Record<string, unknown>>;
    expect(views).toHaveLength(1);
    expect(views[0]).toMatchObject({ UserId: 'user-1', UserName: 'Test User', IsCurrentView: true, ReadOnly: false });
    expect(typeof views[0].ViewId).toBe('number');
    expect(String(views[0].Color)).toMatch(/^#[0-9a-f]{6}$/i);
    // The View_Added of this view came when the views list first arrived.
    expect(host.messages().some((m) => m.MessageId === 'View_Added' && m.Values.UserId === 'user-1')).toBe(true);
  });

  it('ignores a message from a frame of another origin', async () => {
    const since = host.messages().length;
    const dropped = consoleLines.filter((l) => l.includes('PostMessage dropped')).length;
    await host.post({ MessageId: 'Get_Views', Values: {} }, { from: 'other' });
    await expect.poll(() => consoleLines.filter((l) => l.includes('PostMessage dropped')).length, { timeout: 30_000 }).toBeGreaterThan(dropped);
    expect(consoleLines.filter((l) => l.includes('PostMessage dropped')).at(-1)).toContain(`from ${host.origin.replace('localhost', '127.0.0.1')}`);
    expect(
      host
        .messages()
        .slice(since)
        .filter((m) => m.MessageId === 'Views_List'),
    ).toHaveLength(0);
  });

  it('hides Print (HidePrintOption); Hide_Button hides a menu item, Show_Button shows it again', async () => {
    await openFileMenu();
    await expect.poll(() => inFileMenu('file.save')).toBe(1);
    expect(await inFileMenu('file.print')).toBe(0);
    expect(await inFileMenu('file.close')).toBe(1);
    await closeMenu();
    // Collabora's name for the Save button.
    await host.post({ MessageId: 'Hide_Button', Values: { id: 'save' } });
    await openFileMenu();
    expect(await inFileMenu('file.save')).toBe(0);
    await closeMenu();
    await host.post({ MessageId: 'Show_Button', Values: { id: 'file.save' } });
    await openFileMenu();
    expect(await inFileMenu('file.save')).toBe(1);
    await closeMenu();
  });

  it('Insert_Button adds a toolbar button whose click posts Clicked_Button (insert_button answers clicked_button)', async () => {
    await host.post({ MessageId: 'Insert_Button', Values: { id: 'share-doc', hint: 'Share with the team', label: 'Share' } });
    await frame.getByRole('button', { name: 'Share with the team' }).click();
    expect((await host.waitFor('Clicked_Button', undefined, 10_000)).Values).toEqual({ Id: 'share-doc' });
    await host.post({ MessageId: 'insert_button', Values: { id: 'lower-case', hint: 'Lower case spelling' } });
    await frame.getByRole('button', { name: 'Lower case spelling' }).click();
    expect((await host.waitFor('clicked_button', undefined, 10_000)).Values).toEqual({ Id: 'lower-case' });
    // Hide_Button works on the host's own buttons too.
    await host.post({ MessageId: 'Hide_Button', Values: { id: 'share-doc' } });
    await expect.poll(() => frame.getByRole('button', { name: 'Share with the team' }).count()).toBe(0);
  });

  it('typing says Doc_ModifiedStatus; Action_Save stores the file at the host (PutFile) and answers Action_Save_Resp', async () => {
    await frame.locator('.ode-doc').click({ position: { x: 300, y: 200 } });
    await page.keyboard.type('Saved by the host ');
    await host.waitFor('Doc_ModifiedStatus', (m) => m.Values.Modified === true, 15_000);
    const puts = env.wopi.of('PutFile').length;
    const since = host.messages().length;
    await host.post({ MessageId: 'Action_Save', Values: { DontTerminateEdit: true, DontSaveIfUnmodified: false, Notify: true } });
    const resp = await host.waitFor('Action_Save_Resp', undefined, 30_000, since);
    expect(resp.Values).toMatchObject({ success: true, fileName: 'letter.docx' });
    expect(env.wopi.of('PutFile').length).toBe(puts + 1);
    expect(docxText(env.wopi.files.get(id)!.bytes)).toContain('Saved by the host');
    await host.waitFor('Doc_ModifiedStatus', (m) => m.Values.Modified === false, 10_000, since);
  }, 60_000);

  it('closebutton: the Close button posts UI_Close with EverModified true after typing', async () => {
    await frame.locator('.ode-doc').click({ position: { x: 300, y: 200 } });
    await page.keyboard.type('Modified ');
    await host.waitFor('Doc_ModifiedStatus', (m) => m.Values.Modified === true, 15_000);
    await frame.getByRole('button', { name: 'Close', exact: true }).click();
    expect((await host.waitFor('UI_Close', undefined, 10_000)).Values).toEqual({ EverModified: true });
  });

  it('DownloadAsPostMessage (checkfileinfo_override): Action_Print and Action_Export give Download_As whose URL downloads a PDF', async () => {
    // Print is hidden by HidePrintOption but still reachable through PostMessage (spec).
    await host.post({ MessageId: 'Action_Print', Values: {} });
    const print = await host.waitFor('Download_As', (m) => m.Values.Type === 'print', 60_000);
    await host.post({ MessageId: 'Action_Export', Values: { Format: 'pdf' } });
    const exported = await host.waitFor('Download_As', (m) => m.Values.Type === 'export', 60_000);
    for (const m of [print, exported]) {
      const url = String(m.Values.URL);
      expect(url.startsWith(`${env.daemon.url}/`)).toBe(true);
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(
        Buffer.from(await res.arrayBuffer())
          .subarray(0, 5)
          .toString('latin1'),
      ).toBe('%PDF-');
    }
  }, 90_000);

  it('Close_Session by the owner ends the document: Session_Closed and the closed overlay', async () => {
    await host.post({ MessageId: 'Close_Session', Values: {} });
    const closed = await host.waitFor('Session_Closed', undefined, 30_000);
    expect(closed.Values.Code).toBe(4409);
    const dialog = frame.getByRole('alertdialog');
    await dialog.waitFor({ timeout: 30_000 });
    expect(await dialog.textContent()).toContain('The owner closed this document for everyone.');
  }, 60_000);
});

describe('host integration: guest, remote insert, history, token banner, conflict, debug, read-only', () => {
  const hosts: HostPage[] = [];
  const pages: Page[] = [];
  /** Opens file `<name>-<try>` in a host page with `opts`; resolves with the page, once it said Document_Loaded, and the id. */
  const open = async (
    name: string,
    opts: { params?: Record<string, string>; fileInfo?: Record<string, unknown>; tokenTtl?: number; assets?: Record<string, { type: string; body: Buffer }> },
  ) => {
    const id = `${name}-${++tries}`;
    const opened = await openHostPage(
      env.browser,
      { daemonUrl: env.daemon.url, wopiSrc: env.wopi.addFile(id, `${id}.docx`, DOCX), token: env.wopi.token, ...opts },
      { viewport: { width: 1100, height: 760 }, timeoutMs: 90_000, onPage: (p) => pages.push(p) },
    );
    hosts.push(opened.host);
    return { ...opened, id };
  };

  // A failed try's page is closed too (a passing test closes its own).
  afterEach(async () => {
    for (const p of pages.splice(0)) await p.close();
  });
  afterAll(async () => {
    for (const h of hosts) await h.stop();
  });

  it('a guest with remote images, history, debug, an expiring token, inactive messages off: each shows as the spec says', async () => {
    const { host, page, frame } = await open('guestdoc', {
      params: { revisionhistory: 'true', debug: 'true' },
      fileInfo: {
        IsAnonymousUser: true,
        UserCanNotWriteRelative: false,
        EnableInsertRemoteImage: true,
        DisableInactiveMessages: true,
        EnableOwnerTermination: true,
        OwnerId: 'user-1',
      },
      // Expires in 5 minutes: the daemon warns at once (15 minutes before).
      tokenTtl: Date.now() + 5 * 60_000,
    });
    // The token banner, dismissed by a new token from the host.
    const banner = frame.getByRole('alert').filter({ hasText: /Your access expires at/ });
    await banner.waitFor({ timeout: 30_000 });
    await host.post({ MessageId: 'Reset_Access_Token', Values: { token: env.wopi.token, token_ttl: Date.now() + 3_600_000 } });
    await expect.poll(() => banner.count()).toBe(0);
    // IsAnonymousUser: "Guest", and no Save As even though UserCanNotWriteRelative is false.
    expect(await frame.getByText('Guest', { exact: true }).isVisible()).toBe(true);
    await frame.getByRole('menuitem', { name: 'File' }).click();
    expect(await frame.getByRole('menu', { name: 'File' }).locator('[data-command="file.saveAs"]').count()).toBe(0);
    await page.keyboard.press('Escape');
    // revisionhistory=true: See history posts UI_FileVersions.
    await frame.getByRole('button', { name: 'See history' }).click();
    await host.waitFor('UI_FileVersions', undefined, 10_000);
    // EnableInsertRemoteImage: Insert > Image from storage posts UI_InsertGraphic.
    await frame.getByRole('menuitem', { name: 'Insert' }).click();
    await frame.getByRole('menuitem', { name: 'Image from storage…' }).click();
    await host.waitFor('UI_InsertGraphic', undefined, 10_000);
    // debug=true: the debug panel is open and lists socket traffic; Ctrl+Shift+Alt+D toggles it.
    const debug = frame.getByRole('dialog', { name: 'Debug' });
    expect(await debug.isVisible()).toBe(true);
    // It lists the PostMessage traffic too.
    await expect.poll(() => debug.textContent()).toContain('UI_InsertGraphic');
    await page.screenshot({ path: 'test/artifacts/host-guest-debug.png' });
    await frame.locator('.ode-doc').click({ position: { x: 300, y: 200 } });
    await page.keyboard.press('Control+Shift+Alt+KeyD');
    await expect.poll(() => debug.isVisible()).toBe(false);
    // DisableInactiveMessages: the session closing shows no overlay; the host hears Session_Closed.
    await host.post({ MessageId: 'Close_Session', Values: {} });
    expect((await host.waitFor('Session_Closed', undefined, 30_000)).Values.Code).toBe(4409);
    expect(await frame.getByRole('alertdialog').count()).toBe(0);
    await page.close();
  }, 120_000);

  it('the conflict question: the stored file changed under unsaved changes; "Keep mine" overwrites it', async () => {
    const { host, page, frame, id } = await open('conflictdoc', {});
    await frame.locator('.ode-doc').click({ position: { x: 300, y: 200 } });
    await page.keyboard.type('Mine wins ');
    await host.waitFor('Doc_ModifiedStatus', (m) => m.Values.Modified === true, 15_000);
    env.wopi.touch(id);
    await host.post({ MessageId: 'Action_Save', Values: { Notify: true } });
    const dialog = frame.getByRole('alertdialog');
    await dialog.waitFor({ timeout: 30_000 });
    expect(await dialog.textContent()).toContain('changed the stored document');
    await page.screenshot({ path: 'test/artifacts/host-conflict.png' });
    // The focus is on the first answer: Enter chooses it (keyboard usable).
    await page.keyboard.press('Enter');
    await expect.poll(() => docxText(env.wopi.files.get(id)!.bytes), { timeout: 30_000 }).toContain('Mine wins');
    expect(await dialog.count()).toBe(0);
    await page.close();
  }, 90_000);

  it('Action_InsertGraphic: the image at the host URL lands in the document', async () => {
    const { host, page, frame, id } = await open('imagedoc', { assets: { 'red.png': { type: 'image/png', body: png(40, 30, [220, 30, 30]) } } });
    await frame.locator('.ode-doc').click({ position: { x: 300, y: 200 } });
    await host.post({ MessageId: 'Action_InsertGraphic', Values: { filename: 'red.png', url: `${host.origin}/red.png` } });
    await host.waitFor('Doc_ModifiedStatus', (m) => m.Values.Modified === true, 20_000);
    const since = host.messages().length;
    await host.post({ MessageId: 'Action_Save', Values: { Notify: true } });
    expect((await host.waitFor('Action_Save_Resp', undefined, 30_000, since)).Values.success).toBe(true);
    const media = Object.keys(unzipSync(new Uint8Array(env.wopi.files.get(id)!.bytes))).filter((n) => n.startsWith('word/media/'));
    expect(media.length).toBeGreaterThan(0);
    await page.screenshot({ path: 'test/artifacts/host-insert-graphic.png' });
    await page.close();
  }, 90_000);

  it('permission=readonly hides the editing commands; DisableCopy disables Copy', async () => {
    const { frame, page } = await open('readonlydoc', { params: { permission: 'readonly' }, fileInfo: { DisableCopy: true } });
    await frame.getByRole('menuitem', { name: 'Edit' }).click();
    const menu = frame.getByRole('menu', { name: 'Edit' });
    await menu.waitFor();
    expect(await menu.locator('[data-command="edit.paste"]').count()).toBe(0);
    expect(await menu.locator('[data-command="edit.cut"]').count()).toBe(0);
    expect(await menu.locator('[data-command="edit.copy"]').getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Escape');
    await frame.getByRole('menuitem', { name: 'File' }).click();
    expect(await frame.getByRole('menu', { name: 'File' }).locator('[data-command="file.save"]').count()).toBe(0);
    await page.close();
  }, 90_000);
});

describe('host integration: the idle overlay', () => {
  let host: HostPage | undefined;
  let page: Page | undefined;

  // Documents opened from now on are unloaded after 6 s without input (the earlier ones keep an hour).
  beforeAll(() => env.daemon.reconfigure({ documents: { ...DOCUMENTS, idle_unload_secs: 6 } }));
  afterEach(async () => {
    await page?.close();
    await host?.stop();
  });

  it('an unused document is unloaded: User_Idle, Session_Closed 4408, the overlay; "Continue editing" opens it again', async () => {
    const id = `idledoc-${++tries}`;
    const opened = await openHostPage(
      env.browser,
      { daemonUrl: env.daemon.url, wopiSrc: env.wopi.addFile(id, 'idle.docx', DOCX), token: env.wopi.token, tokenTtl: Date.now() + 3_600_000 },
      { viewport: { width: 1000, height: 700 }, timeoutMs: 90_000 },
    );
    host = opened.host;
    page = opened.page;
    await host.waitFor('User_Idle', undefined, 60_000);
    expect((await host.waitFor('Session_Closed', undefined, 30_000)).Values.Code).toBe(4408);
    const frame = page.frameLocator('#ode');
    const dialog = frame.getByRole('alertdialog', { name: 'You were inactive' });
    await dialog.waitFor({ timeout: 30_000 });
    await page.screenshot({ path: 'test/artifacts/host-idle.png' });
    const since = host.messages().length;
    const checks = () => env.wopi.of('CheckFileInfo').filter((r) => r.path.endsWith(`/${id}`)).length;
    const before = checks();
    await page.keyboard.press('Enter');
    // The editor page is posted again with the token: the document loads anew.
    await host.waitFor('App_LoadingStatus', (m) => m.Values.Status === 'Document_Loaded', 60_000, since);
    expect(checks()).toBe(before + 1);
    await page.close();
  }, 150_000);
});
