import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { minimalDocx } from '../editor-tasks/task-env.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { docxText } from '../helpers/docx.ts';
import type { HostPage, HostPageOptions } from '../helpers/host-page.ts';
import { openHostPage, useHostPageEditing } from '../helpers/host-page-setup.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));

/**
 * The PostMessages a host sends that Ode ignored until the new-user try, now handled as Collabora Online's Map.WOPI.js does:
 * Disable_Default_UIAction (UI_Save, UI_Close), Get_Export_Formats, Action_ChangeUIMode and Action_FollowUser, and
 * Insert_Button icons at Collabora's image paths and on an http: WOPI host (the editor page's img-src), in
 * Chromium through a host page (test/helpers/host-page.ts) against a real daemon and LibreOffice. Each test opens its
 * own copy of a document in its own page, so a retry starts afresh.
 */
const env = useHostPageEditing({ documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600, idle_unload_secs: 3600 } });

describe('host PostMessages as Collabora: default actions, export formats, UI mode, following a user', () => {
  const hosts: HostPage[] = [];
  let tries = 0;
  const open = async (name: string, bytes: Buffer, opts: Partial<HostPageOptions> = {}, console?: string[]) => {
    const id = `${name}-${++tries}`;
    const opened = await openHostPage(
      env.browser,
      { daemonUrl: env.daemon.url, wopiSrc: env.wopi.addFile(id, `${id}.docx`, bytes), token: env.wopi.token, ...opts },
      { viewport: { width: 1100, height: 760 }, timeoutMs: 90_000, onPage: (p) => p.on('console', (m) => console?.push(m.text())) },
    );
    hosts.push(opened.host);
    return { ...opened, id };
  };
  const type = async (page: Page, frame: ReturnType<Page['frameLocator']>, text: string) => {
    await frame.locator('.ode-doc').click({ position: { x: 300, y: 200 } });
    await page.keyboard.type(text);
  };
  afterAll(async () => {
    for (const h of hosts) await h.stop();
  });

  it('UI_Save: Ctrl+S posts UI_Save and saves; once the host disables it, only the host saves (Action_Save)', async () => {
    const { host, page, frame, id } = await open('save', DOCX);
    await type(page, frame, 'First words ');
    await host.waitFor('Doc_ModifiedStatus', (m) => m.Values.Modified === true, 30_000);
    let since = host.messages().length;
    const before = env.wopi.of('PutFile').length;
    await page.keyboard.press('Control+s');
    await host.waitFor('UI_Save', undefined, 30_000, since);
    await host.waitFor('Doc_ModifiedStatus', (m) => m.Values.Modified === false, 60_000, since);
    expect(env.wopi.of('PutFile').length).toBe(before + 1);

    // Moodle's and Nextcloud's pages: the default save off, UI_Save answered with Action_Save.
    await host.post({ MessageId: 'Disable_Default_UIAction', Values: { action: 'UI_Save', disable: true } });
    since = host.messages().length;
    await type(page, frame, 'Second words ');
    await host.waitFor('Doc_ModifiedStatus', (m) => m.Values.Modified === true, 30_000, since);
    const puts = env.wopi.of('PutFile').length;
    since = host.messages().length;
    await page.keyboard.press('Control+s');
    await host.waitFor('UI_Save', undefined, 30_000, since);
    // Saved only by the host's Action_Save (which saves even when unmodified): one PutFile, not two.
    await host.post({ MessageId: 'Action_Save', Values: { DontTerminateEdit: true, DontSaveIfUnmodified: false, Notify: true } });
    expect((await host.waitFor('Action_Save_Resp', undefined, 60_000, since)).Values.success).toBe(true);
    expect(env.wopi.of('PutFile').length).toBe(puts + 1);
    expect(docxText(env.wopi.files.get(id)!.bytes)).toContain('Second words');
    await page.close();
  }, 180_000);

  it('UI_Close: with the default disabled the document stays open; by default the view leaves (Session_Closed 1000)', async () => {
    const { host, page, frame } = await open('close', DOCX, { params: { closebutton: 'true' } });
    await host.post({ MessageId: 'Disable_Default_UIAction', Values: { action: 'UI_Close', disable: true } });
    const close = frame.getByRole('button', { name: 'Close', exact: true });
    let since = host.messages().length;
    await close.click();
    expect((await host.waitFor('UI_Close', undefined, 30_000, since)).Values).toEqual({ EverModified: false });
    // Still editing: typing modifies the document.
    await type(page, frame, 'Still open ');
    await host.waitFor('Doc_ModifiedStatus', (m) => m.Values.Modified === true, 30_000, since);
    expect(host.messages().some((m) => m.MessageId === 'Session_Closed')).toBe(false);

    await host.post({ MessageId: 'Disable_Default_UIAction', Values: { action: 'UI_Close', disable: false } });
    since = host.messages().length;
    await close.click();
    expect((await host.waitFor('UI_Close', undefined, 30_000, since)).Values).toEqual({ EverModified: true });
    expect((await host.waitFor('Session_Closed', undefined, 30_000, since)).Values.Code).toBe(1000);
    // A view leaving on purpose shows no "closed" overlay.
    expect(await frame.getByRole('alertdialog').count()).toBe(0);
    await page.close();
  }, 180_000);

  it('Get_Export_Formats answers the Download as formats (HideExportOption too); Action_ChangeUIMode is known', async () => {
    const lines: string[] = [];
    const { host, page } = await open('formats', DOCX, { fileInfo: { HideExportOption: true } }, lines);
    const since = host.messages().length;
    await host.post({ MessageId: 'Get_Export_Formats', Values: {} });
    const resp = await host.waitFor('Get_Export_Formats_Resp', undefined, 30_000, since);
    const formats = resp.Values as unknown as Array<{ Label: string; Format: string }>;
    expect(formats.map((f) => f.Format)).toEqual(['pdf', 'odt', 'docx', 'doc', 'rtf', 'txt', 'html']);
    expect(formats[0]).toEqual({ Label: 'PDF document (.pdf)', Format: 'pdf' });
    await host.post({ MessageId: 'Action_ChangeUIMode', Values: { Mode: 'notebookbar' } });
    await expect.poll(() => lines.some((l) => l.includes('Action_ChangeUIMode "notebookbar"')), { timeout: 30_000 }).toBe(true);
    expect(lines.filter((l) => l.includes('is not handled'))).toEqual([]);
    await page.close();
  }, 120_000);

  it("Insert_Button icons load from Collabora's image path and from the http: WOPI host (img-src); a missing one shows the text", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="18" height="18"><rect width="18" height="18" fill="#c33"/></svg>');
    const { host, page, frame } = await open('icons', DOCX, { assets: { 'share.svg': { type: 'image/svg+xml', body: svg } } });
    // The host page is the WOPI host, on http://localhost (another origin than the daemon's 127.0.0.1).
    expect(host.origin.startsWith('http://localhost:')).toBe(true);
    await host.post({ MessageId: 'Insert_Button', Values: { id: 'egwSaveAs', imgurl: 'images/lc_saveas.svg', hint: 'Save As (host)' } });
    await host.post({ MessageId: 'Insert_Button', Values: { id: 'share', imgurl: `${host.origin}/share.svg`, hint: 'Share (host)' } });
    await host.post({ MessageId: 'Insert_Button', Values: { id: 'missing', imgurl: 'images/no-such-icon.svg', hint: 'Missing icon', label: 'Missing' } });
    /** The button's icon: its natural width once loaded, 0 while loading, -1 when it was replaced by the text. */
    const icon = (name: string) =>
      frame.getByRole('button', { name }).evaluate((b) => {
        const img = (b as unknown as { querySelector(s: 'img'): { complete: boolean; naturalWidth: number } | null }).querySelector('img');
        return img ? (img.complete ? img.naturalWidth : 0) : -1;
      });
    await expect.poll(() => icon('Save As (host)'), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(() => icon('Share (host)'), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(() => icon('Missing icon'), { timeout: 30_000 }).toBe(-1);
    expect(await frame.getByRole('button', { name: 'Missing icon' }).textContent()).toBe('Missing');
    await page.close();
  }, 120_000);

  it("Action_FollowUser: the view follows the other user's cursor down the document; Follow false stops", async () => {
    const long = minimalDocx(Array.from({ length: 160 }, (_, i) => `Paragraph ${i + 1} of a long document that goes on over several pages.`));
    const first = await open('follow', long);
    const bobHost = first.host.forUser('bob', { UserId: 'user-bob', UserFriendlyName: 'Bob' });
    const bob = await env.browser.newPage({ viewport: { width: 1100, height: 760 } });
    await bob.goto(bobHost.url);
    await bobHost.waitFor('App_LoadingStatus', (m) => m.Values.Status === 'Document_Loaded', 90_000);
    // Bob's view id: the first page heard of his view (View_Added).
    const bobView = Number((await first.host.waitFor('View_Added', (m) => m.Values.UserId === 'user-bob', 60_000)).Values.ViewId);
    const scrollTop = () => first.frame.locator('.ode-doc').evaluate((e) => (e as unknown as { scrollTop: number }).scrollTop);
    expect(await scrollTop()).toBe(0);

    let since = first.host.messages().length;
    await first.host.post({ MessageId: 'Action_FollowUser', Values: { Follow: true, ViewId: bobView } });
    expect((await first.host.waitFor('FollowUser_Changed', undefined, 30_000, since)).Values).toEqual({
      FollowedViewId: bobView,
      IsFollowUser: true,
      IsFollowEditor: false,
    });
    // Bob goes to the end of the document (several pages down): the first page's view follows him there.
    const bobFrame = bob.frameLocator('#ode');
    await bobFrame.locator('.ode-doc').click({ position: { x: 300, y: 200 } });
    await bob.keyboard.press('Control+End');
    await expect.poll(scrollTop, { timeout: 60_000 }).toBeGreaterThan(1500);

    since = first.host.messages().length;
    await first.host.post({ MessageId: 'Action_FollowUser', Values: { Follow: false } });
    expect((await first.host.waitFor('FollowUser_Changed', undefined, 30_000, since)).Values).toEqual({
      FollowedViewId: -1,
      IsFollowUser: false,
      IsFollowEditor: false,
    });
    await bob.close();
    await first.page.close();
  }, 240_000);
});
