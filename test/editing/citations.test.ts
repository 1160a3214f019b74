import { createServer, type Server } from 'node:http';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost, publicKeyFromDiscovery } from '../helpers/fake-wopi-host.ts';
import { closeServer, listenLocal } from '../helpers/net.ts';

const API_KEY = 'P9xQ2mZk7LwV4cB8nR1tY6uH';
const USER_ID = 4242;

/** Library items in the Zotero Web API v3 JSON shape (format=json&include=data,citation,bib). */
const ITEMS = [
  {
    key: 'ABCD2345',
    version: 7,
    library: { type: 'user', id: USER_ID, name: 'tester' },
    meta: { creatorSummary: 'Doe', parsedDate: '2020', numChildren: 0 },
    data: {
      key: 'ABCD2345',
      version: 7,
      itemType: 'book',
      title: 'A history of office formats',
      creators: [{ creatorType: 'author', firstName: 'Jane', lastName: 'Doe' }],
      date: '2020',
      publisher: 'Example Press',
    },
    citation: '<span>(Doe, 2020)</span>',
    bib: '<div class="csl-bib-body" style="line-height: 2; padding-left: 1em; text-indent:-1em;">\n  <div class="csl-entry">Doe, J. (2020). <i>A history of office formats</i>. Example Press.</div>\n</div>',
  },
  {
    key: 'WXYZ6789',
    version: 9,
    library: { type: 'user', id: USER_ID, name: 'tester' },
    meta: { creatorSummary: 'Roe and Poe', parsedDate: '2018-05', numChildren: 1 },
    data: {
      key: 'WXYZ6789',
      version: 9,
      itemType: 'journalArticle',
      title: 'Tiles and twips',
      creators: [
        { creatorType: 'author', firstName: 'Rick', lastName: 'Roe' },
        { creatorType: 'author', firstName: 'Pam', lastName: 'Poe' },
      ],
      date: 'May 2018',
    },
    citation: '<span>(Roe &amp; Poe, 2018)</span>',
    bib: '<div class="csl-bib-body" style="line-height: 2; padding-left: 1em; text-indent:-1em;">\n  <div class="csl-entry">Roe, R., &amp; Poe, P. (2018). Tiles and twips. <i>Journal of Rendering</i>, <i>3</i>(2), 1–9.</div>\n</div>',
  },
];

/** A small real fake of the Zotero Web API v3: /keys/<key>, /users/<id>/items[/top] (json with include, or format=bib). */
class FakeZotero {
  url = '';
  readonly requests: Array<{ path: string; query: URLSearchParams; apiKey: string | undefined }> = [];
  private server: Server | undefined;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const apiKey = req.headers['zotero-api-key'] as string | undefined;
      this.requests.push({ path: url.pathname, query: url.searchParams, apiKey });
      const send = (status: number, body: string, type = 'application/json', extra: Record<string, string> = {}) => {
        res.writeHead(status, { 'Content-Type': type, 'Zotero-API-Version': '3', ...extra });
        res.end(body);
      };
      const key = /^\/keys\/(.+)$/.exec(url.pathname);
      if (key)
        return decodeURIComponent(key[1]) === API_KEY
          ? send(200, JSON.stringify({ key: API_KEY, userID: USER_ID, username: 'tester', access: { user: { library: true } } }))
          : send(403, 'Invalid key', 'text/plain');
      if (apiKey !== API_KEY) return send(403, 'Forbidden', 'text/plain');
      const items = /^\/users\/(\d+)\/items(\/top)?$/.exec(url.pathname);
      if (!items || Number(items[1]) !== USER_ID) return send(404, 'Not found', 'text/plain');
      const wanted = url.searchParams.get('itemKey')?.split(',');
      const chosen = ITEMS.filter((it) => !wanted || wanted.includes(it.key));
      if (url.searchParams.get('format') === 'bib') {
        const entries = chosen.map((it) => /<div class="csl-entry">.*<\/div>/.exec(it.bib)![0]).sort();
        return send(
          200,
          `<?xml version="1.0"?>\n<div class="csl-bib-body" style="line-height: 2; padding-left: 1em; text-indent:-1em;">\n  ${entries.join('\n  ')}\n</div>`,
          'text/html',
        );
      }
      const include = (url.searchParams.get('include') ?? 'data').split(',');
      const out = chosen.map((it) => ({
        key: it.key,
        version: it.version,
        library: it.library,
        meta: it.meta,
        ...(include.includes('data') ? { data: it.data } : {}),
        ...(include.includes('citation') ? { citation: it.citation } : {}),
        ...(include.includes('bib') ? { bib: it.bib } : {}),
      }));
      return send(200, JSON.stringify(out), 'application/json', { 'Total-Results': String(out.length) });
    });
    this.url = await listenLocal(this.server);
  }

  async stop(): Promise<void> {
    await closeServer(this.server);
  }
}

/** A one-paragraph docx, built here (WordprocessingML's minimal package). */
function minimalDocx(text: string): Buffer {
  const files = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`,
    ),
  };
  return Buffer.from(zipSync(files));
}

describe('citations from the user library (UserPrivateInfo.CitationAPIKey, Zotero Web API)', () => {
  let daemon: TestDaemon;
  let host: FakeWopiHost;
  const zotero = new FakeZotero();
  const clients: EditorClient[] = [];

  beforeAll(async () => {
    await zotero.start();
    host = await FakeWopiHost.start();
    daemon = await startDaemon(
      { kits: { prespawn: 1, max: 3 }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 }, citations: { base_url: zotero.url } },
      1,
    );
    host.proofKey = publicKeyFromDiscovery(await (await fetch(`${daemon.url}/hosting/discovery`)).text());
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await daemon?.stop();
    await host?.stop();
    await zotero.stop();
  });

  async function open(id: string, info: Record<string, unknown>) {
    const src = host.addFile(id, `${id}.docx`, minimalDocx('Office formats have a history.'), { UserCanWrite: true, ...info });
    const v = await EditorClient.open(daemon.url, src, { token: host.token });
    clients.push(v.client);
    return { ...v, services: await v.client.next('services') };
  }

  it('lists the library, inserts a citation and the bibliography; the saved docx holds both and the item bookmarks', async () => {
    const { client, services } = await open('cite1', { UserPrivateInfo: { CitationAPIKey: API_KEY } });
    expect(services).toMatchObject({ citations: true, eSignature: false });

    let from = client.messages.length;
    client.send({ type: 'citationList', style: 'apa' });
    const list = await client.next('citationList', () => true, 20_000, from);
    expect(list.style).toBe('apa');
    expect(list.items.map((i) => [i.key, i.title, i.creators, i.citation])).toEqual([
      ['ABCD2345', 'A history of office formats', 'Doe', '(Doe, 2020)'],
      ['WXYZ6789', 'Tiles and twips', 'Roe and Poe', '(Roe & Poe, 2018)'],
    ]);
    expect(zotero.requests.every((r) => r.path.startsWith('/keys/') || r.apiKey === API_KEY)).toBe(true);
    expect(zotero.requests.find((r) => r.path === `/users/${USER_ID}/items/top`)!.query.get('include')).toBe('data,citation,bib');

    // The cursor is at the start of the paragraph: go to its end (LOK key code End = 1029), then cite.
    client.send({ type: 'key', event: 'input', charCode: 0, keyCode: 1029 });
    client.send({ type: 'key', event: 'up', charCode: 0, keyCode: 1029 });
    client.type(' ');
    from = client.messages.length;
    client.send({ type: 'citationInsert', itemKeys: ['ABCD2345'], style: 'apa' });
    expect(await client.next('citationResult', () => true, 20_000, from)).toMatchObject({ action: 'citation', ok: true, text: '(Doe, 2020)' });
    // As a user would: go on once the citation is painted.
    await client.next('invalidate', () => true, 20_000, from);
    // A second paragraph and the bibliography.
    client.send({ type: 'key', event: 'input', charCode: 13, keyCode: 1280 });
    client.send({ type: 'key', event: 'up', charCode: 13, keyCode: 1280 });
    await client.next('cursor', (m) => m.rect[1] > 1900, 20_000, from);
    from = client.messages.length;
    client.send({ type: 'bibliographyInsert', style: 'apa' });
    const bib = await client.next('citationResult', () => true, 30_000, from);
    expect(bib, JSON.stringify(bib)).toMatchObject({ action: 'bibliography', ok: true, count: 1 });
    // Only the cited item was asked for.
    expect(zotero.requests.find((r) => r.query.get('format') === 'bib')!.query.get('itemKey')).toBe('ABCD2345');

    from = client.messages.length;
    client.send({ type: 'save' });
    expect(await client.next('saved', () => true, 30_000, from)).toMatchObject({ ok: true });
    const saved = unzipSync(new Uint8Array(host.files.get('cite1')!.bytes));
    const xml = strFromU8(saved['word/document.xml']);
    const text = xml.replace(/<[^>]+>/g, '');
    expect(text).toContain('Office formats have a history. (Doe, 2020)');
    expect(text).toContain('Doe, J. (2020). A history of office formats. Example Press.');
    expect(text).not.toContain('Tiles and twips');
    expect(xml).toMatch(/w:name="ZOTERO_ITEM_ABCD2345_[0-9a-f]{4}"/);
    expect(xml).toMatch(/w:name="ZOTERO_BIBL_[0-9a-f]{4}"/);
    expect(JSON.stringify(client.messages)).not.toContain(API_KEY);
  }, 120_000);

  it('without the key there are no citations; a refused key is reported; the key never reaches the editor', async () => {
    const none = await open('cite2', {});
    expect(none.services).toMatchObject({ citations: false });
    let from = none.client.messages.length;
    none.client.send({ type: 'citationList' });
    expect(await none.client.next('citationResult', () => true, 10_000, from)).toMatchObject({ action: 'list', ok: false, error: { code: 'not_available' } });

    const wrong = await open('cite3', { UserPrivateInfo: { CitationAPIKey: 'wrong-key-0000' } });
    expect(wrong.services).toMatchObject({ citations: true });
    from = wrong.client.messages.length;
    wrong.client.send({ type: 'citationList' });
    expect(await wrong.client.next('citationResult', () => true, 10_000, from)).toMatchObject({ action: 'list', ok: false, error: { code: 'key_refused' } });
    from = wrong.client.messages.length;
    wrong.client.send({ type: 'bibliographyInsert' });
    expect(await wrong.client.next('citationResult', () => true, 30_000, from)).toMatchObject({
      action: 'bibliography',
      ok: false,
      error: { code: 'no_citations' },
    });
    expect(JSON.stringify(wrong.client.messages)).not.toContain('wrong-key-0000');
  }, 90_000);
});
