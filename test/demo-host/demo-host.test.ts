import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import * as utf7 from 'utf7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { EditorClient } from '../helpers/editor-client.ts';

const id = (name: string) => Buffer.from(name, 'utf8').toString('base64url');
/** The text of a docx's main part (w:t runs joined). */
const docxText = (bytes: Buffer) =>
  [...new TextDecoder().decode(unzipSync(new Uint8Array(bytes))['word/document.xml']).matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');
const decodeHtml = (s: string) => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));

describe('the built-in demo WOPI host (real daemon, real kits, a temp folder)', () => {
  let daemon: TestDaemon;
  let folder: string;
  const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));

  /** GET / for `user`: the HTML, and the token of its forms. */
  const startPage = async (user = 'Ada Lovelace') => {
    const res = await fetch(`${daemon.url}/?user=${encodeURIComponent(user)}`);
    const html = await res.text();
    const token = /name="access_token" value="([^"]+)"/.exec(html)?.[1];
    const ttl = Number(/name="access_token_ttl" value="(\d+)"/.exec(html)?.[1]);
    return { res, html, token: token!, ttl };
  };
  const fileUrl = (name: string) => `${daemon.url}/demo/wopi/files/${id(name)}`;
  const wopi = (name: string, token: string, path = '', init: RequestInit = {}) => fetch(`${fileUrl(name)}${path}?access_token=${token}`, init);
  const checkFileInfo = async (name: string, token: string) => (await (await wopi(name, token)).json()) as Record<string, unknown>;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'ode-demo-docs-'));
    copyFileSync(join(CORPUS, 'properties/documentProperties.docx'), join(folder, 'letter.docx'));
    writeFileSync(join(folder, 'data.xyz'), 'not a document');
    writeFileSync(join(folder, '.hidden.docx'), 'not listed');
    daemon = await startDaemon(
      { demo_host: { folder }, kits: { prespawn: 1, max: 4 }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } },
      1,
    );
  }, 120_000);
  afterAll(async () => {
    await daemon?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('the start page lists the documents, each a form posting a token and TTL to the editor page with a demo-host WOPISrc', async () => {
    const { res, html, token, ttl } = await startPage();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'nonce-/);
    expect(token).toMatch(/^[A-Za-z0-9_]+$/);
    expect(ttl).toBeGreaterThan(Date.now() + 3600_000);
    const discovery = await (await fetch(`${daemon.url}/hosting/discovery`)).text();
    const urlsrc = decodeHtml(/ext="docx"[^>]*urlsrc="([^"]+)"/.exec(discovery)?.[1] ?? /urlsrc="([^"]+)"[^>]*ext="docx"/.exec(discovery)![1]);
    const action = decodeHtml(/<form id="f-[^"]+" method="post" action="([^"]+)"/.exec(html)![1]);
    expect(action).toBe(`${urlsrc}WOPISrc=${encodeURIComponent(fileUrl('letter.docx'))}`);
    expect(html).toContain('target="_self"');
    expect(html).toContain('data.xyz'); // shown, not openable
    expect(html.match(/<form id="f-/g), html).toHaveLength(1);
    expect(html).not.toContain('.hidden.docx');
    // The editor page accepts the form: the WOPISrc is valid and its host allowed.
    const page = await fetch(action, { method: 'POST', body: new URLSearchParams({ access_token: token, access_token_ttl: String(ttl) }) });
    expect(page.status).toBe(200);
  });

  it('names are escaped on the start page', async () => {
    const name = 'a<b>&"q\'.odt';
    writeFileSync(join(folder, name), 'x');
    try {
      let html = '';
      for (let i = 0; i < 100 && !html.includes('a&#60;b&#62;'); i++) {
        html = (await startPage()).html;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(html).toContain('a&#60;b&#62;&#38;&#34;q&#39;.odt');
      expect(html).not.toContain('a<b>');
    } finally {
      unlinkSync(join(folder, name));
    }
  });

  it('CheckFileInfo: the user of the token, the size, LastModifiedTime in round-trip form, Save As and Rename allowed', async () => {
    const { token } = await startPage('Grace Hopper');
    const info = await checkFileInfo('letter.docx', token);
    expect(info).toMatchObject({
      BaseFileName: 'letter.docx',
      Size: DOCX.length,
      UserId: 'user-grace-hopper',
      UserFriendlyName: 'Grace Hopper',
      UserCanWrite: true,
      UserCanNotWriteRelative: false,
      SupportsRename: true,
      UserCanRename: true,
    });
    expect(info.LastModifiedTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
    expect(typeof info.OwnerId).toBe('string');
  });

  it('GetFile answers the bytes; a bad or missing token is 401; an unknown file 404', async () => {
    const { token } = await startPage();
    const got = await wopi('letter.docx', token, '/contents');
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(readFileSync(join(folder, 'letter.docx')))).toBe(true);
    // The Bearer header alone is enough (the token travels in both).
    expect((await fetch(`${fileUrl('letter.docx')}/contents`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await wopi('letter.docx', 'nope')).status).toBe(401);
    expect((await fetch(fileUrl('letter.docx'))).status).toBe(401);
    expect((await wopi('missing.docx', token)).status).toBe(404);
  });

  it('PutFile stores atomically with the current timestamp, and a stale X-ODE-WOPI-Timestamp gets 409 {"ODEStatusCode":1010} and writes nothing', async () => {
    const name = 'put.docx';
    writeFileSync(join(folder, name), 'version 1');
    const { token } = await startPage();
    const before = (await checkFileInfo(name, token)).LastModifiedTime as string;
    const ok = await wopi(name, token, '/contents', {
      method: 'POST',
      body: 'version 2',
      headers: { 'X-WOPI-Override': 'PUT', 'X-ODE-WOPI-Timestamp': before },
    });
    expect(ok.status).toBe(200);
    const after = ((await ok.json()) as { LastModifiedTime: string }).LastModifiedTime;
    expect(after).not.toBe(before);
    expect((await checkFileInfo(name, token)).LastModifiedTime).toBe(after);
    expect(readFileSync(join(folder, name), 'utf8')).toBe('version 2');
    const stale = await wopi(name, token, '/contents', {
      method: 'POST',
      body: 'version 3',
      headers: { 'X-WOPI-Override': 'PUT', 'X-ODE-WOPI-Timestamp': before },
    });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toEqual({ ODEStatusCode: 1010 });
    expect(readFileSync(join(folder, name), 'utf8')).toBe('version 2');
    // Without the timestamp (the "overwrite" choice) the save goes through.
    const forced = await wopi(name, token, '/contents', { method: 'POST', body: 'version 4', headers: { 'X-WOPI-Override': 'PUT' } });
    expect(forced.status).toBe(200);
    expect(readFileSync(join(folder, name), 'utf8')).toBe('version 4');
  });

  it('PutRelativeFile with a non-ASCII UTF-7 X-WOPI-SuggestedTarget creates the file; a taken name gets a free one', async () => {
    const { token } = await startPage();
    const target = 'Brief für Zoë.docx';
    const headers = { 'X-WOPI-Override': 'PUT_RELATIVE', 'X-WOPI-SuggestedTarget': utf7.encode(target), 'X-WOPI-Size': String(DOCX.length) };
    expect(headers['X-WOPI-SuggestedTarget']).toMatch(/^[\x20-\x7e]+$/);
    const r = await wopi('letter.docx', token, '', { method: 'POST', body: DOCX, headers });
    expect(r.status).toBe(200);
    const j = (await r.json()) as { Name: string; Url: string };
    expect(j.Name).toBe(target);
    expect(readFileSync(join(folder, target)).equals(DOCX)).toBe(true);
    // The answer's Url is the new file's WOPI URL with a token.
    const viaUrl = (await (await fetch(j.Url)).json()) as { BaseFileName: string };
    expect(viaUrl.BaseFileName).toBe(target);
    const again = await wopi('letter.docx', token, '', { method: 'POST', body: DOCX, headers });
    expect(((await again.json()) as { Name: string }).Name).toBe('Brief für Zoë (2).docx');
    // Only an extension: the current name's stem.
    const ext = await wopi('letter.docx', token, '', {
      method: 'POST',
      body: 'x',
      headers: { 'X-WOPI-Override': 'PUT_RELATIVE', 'X-WOPI-SuggestedTarget': '.odt' },
    });
    expect(((await ext.json()) as { Name: string }).Name).toBe('letter.odt');
    // A relative target that exists is refused without the overwrite header.
    const taken = await wopi('letter.docx', token, '', {
      method: 'POST',
      body: 'x',
      headers: { 'X-WOPI-Override': 'PUT_RELATIVE', 'X-WOPI-RelativeTarget': utf7.encode(target) },
    });
    expect(taken.status).toBe(409);
    const bad = await wopi('letter.docx', token, '', {
      method: 'POST',
      body: 'x',
      headers: { 'X-WOPI-Override': 'PUT_RELATIVE', 'X-WOPI-SuggestedTarget': '../escape.docx' },
    });
    expect(bad.status).toBe(400);
    expect(existsSync(join(folder, '..', 'escape.docx'))).toBe(false);
  });

  it('RenameFile with a UTF-7 X-WOPI-RequestedName renames on disk; the old id keeps working; a taken name is 400', async () => {
    writeFileSync(join(folder, 'draft.odt'), 'draft');
    writeFileSync(join(folder, 'taken.odt'), 'taken');
    const { token } = await startPage();
    const r = await wopi('draft.odt', token, '', {
      method: 'POST',
      headers: { 'X-WOPI-Override': 'RENAME_FILE', 'X-WOPI-RequestedName': utf7.encode('Entwurf – März') },
    });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ Name: 'Entwurf – März' });
    expect(existsSync(join(folder, 'draft.odt'))).toBe(false);
    expect(readFileSync(join(folder, 'Entwurf – März.odt'), 'utf8')).toBe('draft');
    expect((await checkFileInfo('draft.odt', token)).BaseFileName).toBe('Entwurf – März.odt');
    const clash = await wopi('Entwurf – März.odt', token, '', {
      method: 'POST',
      headers: { 'X-WOPI-Override': 'RENAME_FILE', 'X-WOPI-RequestedName': 'taken' },
    });
    expect(clash.status).toBe(400);
    expect(clash.headers.get('x-wopi-invalidfilenameerror')).toBeTruthy();
    expect(readFileSync(join(folder, 'taken.odt'), 'utf8')).toBe('taken');
  });

  it('the folder is watched: a file copied in appears on the start page, a deleted one disappears', async () => {
    const name = 'copied in.docx';
    const waitFor = async (pred: (html: string) => boolean) => {
      for (let i = 0; i < 200; i++) {
        if (pred((await startPage()).html)) return true;
        await new Promise((r) => setTimeout(r, 50));
      }
      return false;
    };
    expect((await startPage()).html).not.toContain(name);
    copyFileSync(join(folder, 'letter.docx'), join(folder, name));
    expect(await waitFor((h) => h.includes(`f-${id(name)}`))).toBe(true);
    unlinkSync(join(folder, name));
    expect(await waitFor((h) => !h.includes(`f-${id(name)}`))).toBe(true);
  });

  it('the sample sources (flat ODF in the repo) convert to the documents set-up makes: a letter, a budget with formulas, three slides', async () => {
    const samples = new URL('../../daemon/server/demo-host/samples/', import.meta.url).pathname;
    const part = async (source: string, format: string, name: string) => {
      const r = await postConvert(daemon.url, `/ode/convert-to/${format}`, join(samples, source));
      expect(r.status, JSON.stringify(r.error)).toBe(200);
      const parts = unzipSync(new Uint8Array(r.body));
      return { text: parts[name] ? new TextDecoder().decode(parts[name]) : undefined, parts };
    };
    expect((await part('letter.fodt', 'docx', 'word/document.xml')).text).toContain('Dear Ms Jensen');
    const sheet = (await part('budget.fods', 'xlsx', 'xl/worksheets/sheet1.xml')).text!;
    expect(sheet).toMatch(/<f[^>]*>SUM\(B4:E4\)<\/f>/);
    const deck = await part('slides.fodp', 'pptx', 'ppt/slides/slide3.xml');
    expect(deck.text).toContain('What we offer booksellers');
    expect(deck.parts['ppt/slides/slide4.xml']).toBeUndefined();
  });

  it('an editing session end to end through the demo host: open, type, save, and the file on disk changes', async () => {
    const name = 'session.docx';
    copyFileSync(join(CORPUS, 'properties/documentProperties.docx'), join(folder, name));
    let { html, token } = await startPage('Katherine Johnson');
    for (let i = 0; i < 100 && !html.includes(`f-${id(name)}`); i++) {
      await new Promise((r) => setTimeout(r, 50));
      ({ html, token } = await startPage('Katherine Johnson'));
    }
    const wopiSrc = decodeURIComponent(/WOPISrc=([^"&]+)/.exec(decodeHtml(html.slice(html.indexOf(`f-${id(name)}`))))![1]);
    expect(wopiSrc).toBe(fileUrl(name));
    const { client, status } = await EditorClient.open(daemon.url, wopiSrc, { token });
    try {
      expect(status).toMatchObject({ docType: 'text', readonly: false });
      expect(status.fileInfo.BaseFileName).toBe(name);
      const before = readFileSync(join(folder, name));
      let from = client.messages.length;
      client.type('Typed through the demo host');
      await client.next('modified', (m) => m.modified, 30_000, from);
      await new Promise((r) => setTimeout(r, 300));
      from = client.messages.length;
      client.send({ type: 'save' });
      expect(await client.next('saved', () => true, 60_000, from)).toMatchObject({ ok: true });
      const after = readFileSync(join(folder, name));
      expect(after.equals(before)).toBe(false);
      expect(docxText(after)).toContain('Typed through the demo host');
      // Save As (PutRelativeFile) with a non-ASCII name, in another format.
      from = client.messages.length;
      client.send({ type: 'saveAs', name: 'Kopie für Zoë.odt' });
      expect(await client.next('savedAs', () => true, 60_000, from)).toMatchObject({ ok: true, name: 'Kopie für Zoë.odt' });
      expect(readFileSync(join(folder, 'Kopie für Zoë.odt')).subarray(0, 2).toString()).toBe('PK');
      // Rename (RenameFile); the open document keeps saving to the renamed file.
      from = client.messages.length;
      client.send({ type: 'rename', name: 'Renamed session' });
      expect(await client.next('renamed', () => true, 60_000, from)).toMatchObject({ ok: true });
      expect(existsSync(join(folder, name))).toBe(false);
      from = client.messages.length;
      client.type(' and more');
      // (An explicit save always uploads; the modified flag may already be set since the Save As export.)
      await client.next('invalidate', () => true, 30_000, from);
      await new Promise((r) => setTimeout(r, 500));
      from = client.messages.length;
      client.send({ type: 'save' });
      expect(await client.next('saved', () => true, 60_000, from)).toMatchObject({ ok: true });
      expect(docxText(readFileSync(join(folder, 'Renamed session.docx')))).toContain('and more');
    } finally {
      client.close();
    }
  });
});

describe('short-lived tokens', () => {
  it('an expired token is 401', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'ode-demo-docs-'));
    writeFileSync(join(folder, 'a.odt'), 'x');
    const daemon = await startDaemon({ demo_host: { folder, token_ttl_secs: 1 }, kits: { prespawn: 0 } }, 0);
    try {
      const html = await (await fetch(`${daemon.url}/`)).text();
      const token = /name="access_token" value="([^"]+)"/.exec(html)![1];
      const ttl = Number(/name="access_token_ttl" value="(\d+)"/.exec(html)![1]);
      expect(ttl).toBeLessThanOrEqual(Date.now() + 1000);
      const url = `${daemon.url}/demo/wopi/files/${id('a.odt')}?access_token=${token}`;
      expect((await fetch(url)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1100));
      expect((await fetch(url)).status).toBe(401);
    } finally {
      await daemon.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('with the demo host off', () => {
  it('GET / answers plain text and the WOPI endpoints are not there', async () => {
    const daemon = await startDaemon({ demo_host: { enabled: false }, kits: { prespawn: 0 } }, 0);
    try {
      const res = await fetch(`${daemon.url}/`);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toContain('is running');
      expect((await fetch(`${daemon.url}/demo/wopi/files/${id('letter.docx')}`)).status).toBe(404);
      expect(daemon.server.demoHost).toBeUndefined();
    } finally {
      await daemon.stop();
    }
  });
});
