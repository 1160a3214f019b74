import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import type { HostPage } from '../helpers/host-page.ts';
import { openHostPage, useHostPageEditing } from '../helpers/host-page-setup.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
const MAIL = 'ada.lovelace@example.org';

/**
 * Locked and restricted users, and the per-user CheckFileInfo properties, in Debian's Chromium against a real daemon
 * (docs/postmessage.md, "Locked and restricted users"). Two host pages (test/helpers/host-page.ts, which records
 * PostMessages) open the same small docx as two documents:
 * - a guest (the deprecated `is_guest`) with `IsUserLocked: true` (the default set: export, repair, history, ...)
 *   and `IsUserRestricted: ['comments', 'print']`, UserExtraInfo.mail, and EnableOwnerTermination on a file someone
 *   else owns;
 * - the owner (OwnerId = UserId) with EnableOwnerTermination and `IsUserLocked: ['comments']`.
 * Each test, and each CI retry of one, opens its own file (an id with a try number) in a page of its own: a retry
 * never finds the menu or the document a failed try left open.
 */
const env = useHostPageEditing(
  { kits: { prespawn: 2, max: 3 }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600, idle_unload_secs: 3600 } },
  2,
);

/** Counts the tries: each one's file has its own id. */
let tries = 0;

/** Opens `fileInfo` over the fake host's answer in a host page (file `<id>-<try>`); resolves once the document is shown. */
function open(
  name: string,
  fileInfo: Record<string, unknown>,
  params: Record<string, string> = {},
): Promise<{ page: Page; host: HostPage; frame: FrameLocator }> {
  const id = `${name}-${++tries}`;
  return openHostPage(env.browser, { daemonUrl: env.daemon.url, wopiSrc: env.wopi.addFile(id, `${id}.docx`, DOCX), token: env.wopi.token, fileInfo, params });
}

describe('a locked and restricted guest', () => {
  let page: Page;
  let host: HostPage;
  let frame: FrameLocator;
  beforeEach(async () => {
    ({ page, host, frame } = await open(
      'guestdoc',
      {
        is_guest: true,
        is_admin: true,
        IsUserLocked: true,
        IsUserRestricted: ['comments', 'print'],
        UserExtraInfo: { mail: MAIL },
        EnableOwnerTermination: true,
        OwnerId: 'someone-else',
      },
      { revisionhistory: 'true' },
    ));
  }, 150_000);
  afterEach(async () => {
    await page?.close();
    await host?.stop();
  });

  const fileMenu = async () => {
    await frame.getByRole('menuitem', { name: 'File', exact: true }).click();
    return frame.getByRole('menu', { name: 'File' });
  };

  it('leaves restricted features out of menus and toolbar, and owner termination to the owner', async () => {
    const file = await fileMenu();
    await file.waitFor();
    expect(await file.getByRole('menuitem', { name: 'Save', exact: true }).count()).toBe(1);
    expect(await file.locator('[data-command="file.print"]').count()).toBe(0);
    // EnableOwnerTermination, but OwnerId is not this user's id.
    expect(await file.locator('[data-command="file.closeForEveryone"]').count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(await frame.getByRole('toolbar').getByRole('button', { name: 'Comment', exact: true }).count()).toBe(0);
    expect(await frame.getByRole('button', { name: 'Bold', exact: true }).count()).toBe(1);
    await frame.getByRole('menuitem', { name: 'Insert', exact: true }).click();
    const insert = frame.getByRole('menu', { name: 'Insert' });
    await insert.waitFor();
    expect(await insert.locator('[data-command="insert.table"]').count()).toBe(1);
    expect(await insert.locator('[data-command="insert.comment"]').count()).toBe(0);
    await page.keyboard.press('Escape');
  }, 60_000);

  it('shows locked features disabled with a lock; choosing one posts UI_Unlock to the host', async () => {
    const file = await fileMenu();
    const repair = file.locator('[data-command="file.repair"]');
    await expect.poll(() => repair.getAttribute('aria-disabled')).toBe('true');
    expect(await repair.getAttribute('data-locked')).toBe('true');
    expect(await repair.locator('.ode-lock-badge').isVisible()).toBe(true);
    await file.getByRole('menuitem', { name: 'Download as' }).click();
    const pdf = frame.getByRole('menuitem', { name: 'PDF document (.pdf)' });
    await pdf.waitFor();
    expect(await pdf.getAttribute('aria-disabled')).toBe('true');
    expect(await pdf.getAttribute('data-locked')).toBe('true');
    expect(await pdf.getAttribute('aria-description')).toBe('Locked: choose it to ask for access');
    const since = host.messages().length;
    // aria-disabled: playwright would wait for it to be enabled; the mouse click itself is real.
    await pdf.click({ force: true });
    const unlock = await host.waitFor('UI_Unlock', undefined, 10_000, since);
    expect(unlock.Values).toEqual({ Command: 'file.downloadAs.pdf', Feature: 'export' });
    // Nothing was exported: no Download_As, no download link.
    expect(
      host
        .messages()
        .slice(since)
        .map((m) => m.MessageId),
    ).not.toContain('Download_As');
    // The host's history button (revisionhistory=true) is locked too, and asks the same way.
    const history = frame.locator('.ode-host-bar [data-command="file.versions"]');
    expect(await history.getAttribute('data-locked')).toBe('true');
    const before = host.messages().length;
    await history.click({ force: true });
    expect((await host.waitFor('UI_Unlock', undefined, 10_000, before)).Values).toEqual({ Command: 'file.versions', Feature: 'versions' });
    expect(
      host
        .messages()
        .slice(before)
        .map((m) => m.MessageId),
    ).not.toContain('UI_FileVersions');
  }, 60_000);

  it('shows UserExtraInfo.mail and the guest (is_guest) in the users panel', async () => {
    const avatars = frame.locator('.ode-users');
    // The users list arrives from the daemon after the document is shown.
    await expect.poll(() => avatars.getAttribute('title'), { timeout: 30_000 }).toBe(`Users editing: 1: Test User <${MAIL}>`);
    await avatars.click();
    const me = frame.locator('.ode-user-item').first();
    await me.waitFor();
    expect(await me.getAttribute('aria-label')).toBe(`Test User (you), ${MAIL}, guest`);
    expect(await me.locator('.ode-user-mail').textContent()).toBe(MAIL);
    expect(await me.locator('.ode-user-guest').isVisible()).toBe(true);
    // The host bar's badge too.
    expect(await frame.locator('.ode-host-guest').textContent()).toBe('Guest');
  }, 30_000);
});

describe('the owner, locked out of comments', () => {
  let page: Page;
  let host: HostPage;
  let frame: FrameLocator;
  beforeEach(async () => {
    // FakeWopiHost's UserId is user-1.
    ({ page, host, frame } = await open('ownerdoc', { EnableOwnerTermination: true, OwnerId: 'user-1', IsUserLocked: ['insertannotation'] }));
  }, 150_000);
  afterEach(async () => {
    await page?.close();
    await host?.stop();
  });

  it('sees Close for everyone, and the comment button locked; clicking it posts UI_Unlock', async () => {
    await frame.getByRole('menuitem', { name: 'File', exact: true }).click();
    const file = frame.getByRole('menu', { name: 'File' });
    await file.waitFor();
    expect(await file.locator('[data-command="file.closeForEveryone"]').count()).toBe(1);
    expect(await file.locator('[data-command="file.print"]').count()).toBe(1);
    await page.keyboard.press('Escape');
    const comment = frame.getByRole('toolbar').getByRole('button', { name: 'Comment', exact: true });
    await expect.poll(() => comment.getAttribute('data-locked')).toBe('true');
    expect(await comment.getAttribute('aria-disabled')).toBe('true');
    expect(await comment.locator('.ode-lock-badge').isVisible()).toBe(true);
    const since = host.messages().length;
    // By keyboard: the locked button stays focusable and Enter chooses it.
    await comment.focus();
    await page.keyboard.press('Enter');
    expect((await host.waitFor('UI_Unlock', undefined, 10_000, since)).Values).toEqual({ Command: 'insert.comment', Feature: 'comments' });
    // No comment dialog opened.
    expect(await frame.getByRole('dialog').count()).toBe(0);
  }, 60_000);
});
