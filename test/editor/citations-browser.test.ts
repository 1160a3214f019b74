import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { openHostPage, useHostPageEditing } from '../helpers/host-page-setup.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
const KEY = 'BrowserKey0123456789abcd';

/** The Zotero Web API v3 calls the daemon makes, answered for one user with one book. */
function fakeZotero(): Promise<{ url: string; server: Server }> {
  const item = {
    key: 'BOOK1234',
    version: 1,
    meta: { creatorSummary: 'Lovelace' },
    data: { key: 'BOOK1234', itemType: 'book', title: 'Notes on the analytical engine', date: '1843' },
    citation: '<span>(Lovelace, 1843)</span>',
    bib: '<div class="csl-bib-body"><div class="csl-entry">Lovelace, A. (1843). <i>Notes on the analytical engine</i>.</div></div>',
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('Content-Type', 'application/json');
    if (url.pathname === `/keys/${KEY}`) return res.end(JSON.stringify({ key: KEY, userID: 7, username: 'ada' }));
    if (req.headers['zotero-api-key'] !== KEY) return res.writeHead(403).end('"Forbidden"');
    if (url.searchParams.get('format') === 'bib') return res.end(item.bib);
    res.setHeader('Total-Results', '1');
    return res.end(JSON.stringify([item]));
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

/** Insert > Citation in Chromium: shown only with the key; the dialog lists the library and inserts by keyboard. */
describe('citations in the browser', () => {
  let zotero: { url: string; server: Server };
  beforeAll(async () => {
    zotero = await fakeZotero();
  });
  afterAll(() => {
    zotero?.server.closeAllConnections();
    zotero?.server.close();
  });
  const env = useHostPageEditing(
    () => ({ kits: { prespawn: 1, max: 3 }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 }, citations: { base_url: zotero.url } }),
    1,
  );

  async function open(id: string, fileInfo: Record<string, unknown>): Promise<{ page: Page; frame: FrameLocator }> {
    const { page, frame } = await openHostPage(env.browser, {
      daemonUrl: env.daemon.url,
      wopiSrc: env.wopi.addFile(id, `${id}.docx`, DOCX),
      token: env.wopi.token,
      fileInfo: { UserCanWrite: true, ...fileInfo },
      params: {},
    });
    return { page, frame };
  }

  it('with the key: Insert > Citation lists the library and inserts the chosen item', async () => {
    const { page, frame } = await open('withkey', { UserPrivateInfo: { CitationAPIKey: KEY } });
    await frame.getByRole('menuitem', { name: 'Insert', exact: true }).click();
    const insert = frame.getByRole('menu', { name: 'Insert' });
    expect(await insert.getByRole('menuitem', { name: 'Bibliography' }).count()).toBe(1);
    expect(await insert.getByRole('menuitem', { name: 'Electronic signature…' }).count()).toBe(0);
    await insert.getByRole('menuitem', { name: 'Citation…' }).click();
    const dialog = frame.getByRole('dialog', { name: 'Insert a citation' });
    const option = dialog.getByRole('option', { name: /Notes on the analytical engine/ });
    await option.waitFor({ timeout: 20_000 });
    await option.focus();
    await page.keyboard.press('Enter');
    await frame.getByText('Citation inserted: (Lovelace, 1843)').waitFor({ timeout: 20_000 });
    expect(await dialog.isVisible()).toBe(false);
    await page.close();
  }, 150_000);

  it('without the key: no Citation or Bibliography item', async () => {
    const { page, frame } = await open('nokey', {});
    await frame.getByRole('menuitem', { name: 'Insert', exact: true }).click();
    const insert = frame.getByRole('menu', { name: 'Insert' });
    await insert.getByRole('menuitem').first().waitFor();
    expect(await insert.getByRole('menuitem', { name: 'Citation…' }).count()).toBe(0);
    expect(await insert.getByRole('menuitem', { name: 'Bibliography' }).count()).toBe(0);
    await page.close();
  }, 150_000);
});
