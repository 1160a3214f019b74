import { execFileSync } from 'node:child_process';
import { unzipSync, strFromU8 } from 'fflate';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';

/**
 * The server side of issue 14 ("Drop-in for hosts written for Collabora"), request by request against a real
 * daemon: what a host written for Collabora Online sends, and what it expects back. The browser side and the full
 * host imitations are in the other files of this folder.
 */

/**
 * Collabora Online's discovery.xml MIME-type apps and their actions, typed from CollaboraOnline/online
 * `discovery.xml` (and the MIME types richdocuments' Capabilities::MIMETYPES looks up that newer Collabora lists),
 * not produced by Ode's code. Formats LibreOffice does not open (Base `odb`, extensions `oxt`, standalone charts
 * `odc`/`sxs`, EPUB, OneNote) are left out: discovery lists only what the engine opens.
 */
const COLLABORA_MIME_APPS: ReadonlyArray<[mime: string, action: 'edit' | 'view']> = [
  ['application/vnd.lotus-wordpro', 'view'],
  ['image/svg+xml', 'view'],
  ['application/vnd.ms-powerpoint', 'edit'],
  ['application/vnd.ms-excel', 'edit'],
  ['application/vnd.sun.xml.writer', 'view'],
  ['application/vnd.oasis.opendocument.text', 'edit'],
  ['application/vnd.oasis.opendocument.text-flat-xml', 'edit'],
  ['application/vnd.sun.xml.calc', 'view'],
  ['application/vnd.oasis.opendocument.spreadsheet', 'edit'],
  ['application/vnd.oasis.opendocument.spreadsheet-flat-xml', 'edit'],
  ['application/vnd.sun.xml.impress', 'view'],
  ['application/vnd.oasis.opendocument.presentation', 'edit'],
  ['application/vnd.oasis.opendocument.presentation-flat-xml', 'edit'],
  ['application/vnd.sun.xml.draw', 'view'],
  ['application/vnd.oasis.opendocument.graphics', 'edit'],
  ['application/vnd.oasis.opendocument.graphics-flat-xml', 'edit'],
  ['application/vnd.sun.xml.writer.global', 'view'],
  ['application/vnd.oasis.opendocument.text-master', 'edit'],
  ['application/vnd.sun.xml.writer.template', 'view'],
  ['application/vnd.oasis.opendocument.text-template', 'edit'],
  ['application/vnd.oasis.opendocument.text-master-template', 'edit'],
  ['application/vnd.sun.xml.calc.template', 'view'],
  ['application/vnd.oasis.opendocument.spreadsheet-template', 'edit'],
  ['application/vnd.sun.xml.impress.template', 'view'],
  ['application/vnd.oasis.opendocument.presentation-template', 'edit'],
  ['application/vnd.sun.xml.draw.template', 'view'],
  ['application/vnd.oasis.opendocument.graphics-template', 'edit'],
  ['application/msword', 'edit'],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'edit'],
  ['application/vnd.ms-word.document.macroEnabled.12', 'edit'],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.template', 'view'],
  ['application/vnd.ms-word.template.macroEnabled.12', 'view'],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.template', 'view'],
  ['application/vnd.ms-excel.template.macroEnabled.12', 'view'],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'edit'],
  ['application/vnd.ms-excel.sheet.binary.macroEnabled.12', 'edit'],
  ['application/vnd.ms-excel.sheet.macroEnabled.12', 'edit'],
  ['application/vnd.ms-excel.addin.macroEnabled.12', 'view'],
  ['application/vnd.openxmlformats-officedocument.presentationml.presentation', 'edit'],
  ['application/vnd.ms-powerpoint.presentation.macroEnabled.12', 'edit'],
  ['application/vnd.openxmlformats-officedocument.presentationml.template', 'edit'],
  ['application/vnd.ms-powerpoint.template.macroEnabled.12', 'edit'],
  ['application/vnd.ms-powerpoint.slideshow.macroEnabled.12', 'view'],
  ['application/vnd.ms-powerpoint.addin.macroEnabled.12', 'view'],
  ['application/vnd.wordperfect', 'view'],
  ['application/x-aportisdoc', 'view'],
  ['application/x-hwp', 'view'],
  ['application/vnd.ms-works', 'view'],
  ['application/x-mswrite', 'view'],
  ['application/x-dif-document', 'edit'],
  ['text/spreadsheet', 'edit'],
  ['text/csv', 'edit'],
  ['application/x-dbase', 'edit'],
  ['application/vnd.lotus-1-2-3', 'view'],
  ['image/cgm', 'view'],
  ['image/vnd.dxf', 'view'],
  ['image/x-emf', 'view'],
  ['image/x-wmf', 'view'],
  ['application/coreldraw', 'view'],
  ['application/vnd.visio2013', 'view'],
  ['application/vnd.visio', 'view'],
  ['application/vnd.ms-visio.drawing', 'view'],
  ['application/x-mspublisher', 'view'],
  ['application/x-sony-bbeb', 'view'],
  ['application/x-gnumeric', 'view'],
  ['application/macwriteii', 'view'],
  ['application/x-iwork-numbers-sffnumbers', 'view'],
  ['application/vnd.oasis.opendocument.text-web', 'edit'],
  ['application/x-pagemaker', 'view'],
  ['application/rtf', 'edit'],
  ['text/rtf', 'edit'],
  ['text/plain', 'edit'],
  ['text/markdown', 'view'],
  ['application/x-fictionbook+xml', 'view'],
  ['application/clarisworks', 'view'],
  ['application/vnd.corel-draw', 'view'],
  ['image/x-wpg', 'view'],
  ['application/prs.plucker', 'view'],
  ['application/x-iwork-pages-sffpages', 'view'],
  ['application/vnd.openxmlformats-officedocument.presentationml.slideshow', 'edit'],
  ['application/x-iwork-keynote-sffkey', 'view'],
  ['application/x-abiword', 'view'],
  ['image/x-freehand', 'view'],
  ['application/vnd.palm', 'view'],
  ['application/vnd.sun.xml.writer.web', 'view'],
  ['application/x-t602', 'view'],
  ['image/bmp', 'view'],
  ['image/png', 'view'],
  ['image/gif', 'view'],
  ['image/tiff', 'view'],
  ['image/jpg', 'view'],
  ['image/jpeg', 'view'],
  ['application/pdf', 'view'],
];

/**
 * Where Ode's action differs from Collabora's on purpose (docs/hosts.md): xlsb cannot be written back by
 * LibreOffice (no export filter), so editing it could not be saved; pdf opens for comments (the spec's
 * view_comment).
 */
const DELIBERATE: Readonly<Record<string, string>> = {
  'application/vnd.ms-excel.sheet.binary.macroEnabled.12': 'view',
  'application/pdf': 'view_comment',
};

/**
 * Reads discovery as Collabora's Python SDK example does: lxml's `etree.fromstring` (Debian's python3-lxml, run by
 * /usr/bin/python3) on the response text (a str, which lxml refuses when it carries an encoding declaration), then
 * looks up `app[@name=<mime>]/action[1]` as richdocuments does. Returns `{mime: [action name, urlsrc]}`, or lxml's error text.
 */
function lxmlLookup(xmlText: string, mimes: readonly string[]): Record<string, [string, string] | null> | { error: string } {
  const script = `
import json, sys
from lxml import etree
text = sys.stdin.read()
mimes = json.loads(sys.argv[1])
try:
    root = etree.fromstring(text)
except Exception as e:
    print(json.dumps({"error": str(e)}))
    sys.exit(0)
out = {}
for m in mimes:
    found = root.xpath('/wopi-discovery/net-zone/app[@name=$m]/action[1]', m=m)
    out[m] = [found[0].get('name'), found[0].get('urlsrc')] if found else None
print(json.dumps(out))
`;
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, JSON.stringify(mimes)], { input: xmlText, encoding: 'utf8' })) as
    | Record<string, [string, string] | null>
    | { error: string };
}

/** A multipart/form-data body as a browser builds it for `<form enctype="multipart/form-data">` (FormData). */
function multipart(fields: Record<string, string>): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}

describe('a host written for Collabora, request by request (issue 14, server side)', () => {
  let daemon: TestDaemon;
  let host: FakeWopiHost;
  let discoveryText: string;
  let urlsrc: string;
  beforeAll(async () => {
    host = await FakeWopiHost.start();
    daemon = await startDaemon({ documents: { check_secs: 0 }, limits: { body_idle_secs: 2 } });
    discoveryText = await (await fetch(`${daemon.url}/hosting/discovery`)).text();
    urlsrc = /<action [^>]*ext="docx"[^>]*urlsrc="([^"]+)"/.exec(discoveryText)![1];
  }, 120_000);
  afterAll(async () => {
    await daemon?.stop();
    await host?.stop();
  });

  it('discovery has no XML declaration and a strict parser reads it from a string (lxml fromstring(str), as the Python SDK example)', () => {
    expect(discoveryText.trimStart().startsWith('<wopi-discovery')).toBe(true);
    const withDeclaration = lxmlLookup(`<?xml version="1.0" encoding="utf-8"?>\n${discoveryText}`, []);
    // The oracle refuses what Ode used to serve: the check below is not vacuous.
    expect(withDeclaration).toHaveProperty('error');
    expect(lxmlLookup(discoveryText, [])).not.toHaveProperty('error');
  });

  it("discovery's MIME-type apps are a superset of Collabora's, each with Collabora's action (two deliberate differences)", () => {
    const found = lxmlLookup(
      discoveryText,
      COLLABORA_MIME_APPS.map(([m]) => m),
    ) as Record<string, [string, string] | null>;
    const missing = COLLABORA_MIME_APPS.filter(([m]) => !found[m]).map(([m]) => m);
    expect(missing).toEqual([]);
    const wrong = COLLABORA_MIME_APPS.filter(([m, action]) => found[m]![0] !== (DELIBERATE[m] ?? action)).map(
      ([m, action]) => `${m}: ${found[m]![0]} (expected ${DELIBERATE[m] ?? action})`,
    );
    expect(wrong).toEqual([]);
    for (const [m] of COLLABORA_MIME_APPS) expect(found[m]![1]).toBe(urlsrc);
  });

  it("the editor page takes the SDK examples' multipart form (css_variables, ui_defaults, wopi_setting_base_url, unknown fields) and calls the host", async () => {
    const src = host.addFile('mp1', 'a.docx', readFileSync(join(CORPUS, 'properties/documentProperties.docx')));
    const before = host.of('CheckFileInfo').length;
    const r = await fetch(`${urlsrc}WOPISrc=${encodeURIComponent(src)}`, {
      method: 'POST',
      body: multipart({
        access_token: host.token,
        access_token_ttl: '0',
        css_variables: '--co-primary-element=#0082c9;--co-text-accent=#ffffff;broken;--x=</style>',
        ui_defaults: 'UIMode=compact;TextRuler=false;SpreadsheetSidebar=false;PresentationStatusbar=0;UITheme=dark;Nonsense=1',
        wopi_setting_base_url: `${host.url}/wopi/settings`,
        some_field_of_the_host: 'ignored',
      }),
    });
    expect(r.status).toBe(200);
    const html = await r.text();
    const config = JSON.parse(/<script type="application\/json" id="ode-config">(.*?)<\/script>/s.exec(html)![1]) as Record<string, unknown>;
    expect(config.accessToken).toBe(host.token);
    expect(config.cssVariables).toEqual({ '--co-primary-element': '#0082c9', '--co-text-accent': '#ffffff' });
    expect(config.uiDefaults).toEqual({
      uiMode: 'classic',
      darkTheme: true,
      text: { ShowRuler: false },
      spreadsheet: { ShowSidebar: false },
      presentation: { ShowStatusbar: false },
    });
    expect(JSON.stringify(config)).not.toContain('some_field_of_the_host');
    await new Promise((res) => setTimeout(res, 300));
    expect(host.of('CheckFileInfo').length).toBe(before + 1);
  });

  it('an urlencoded post without the Collabora fields has neither in the config; a form of another type is still 400', async () => {
    const src = host.addFile('mp2', 'a.docx', Buffer.from('x'));
    const html = await (
      await fetch(`${urlsrc}WOPISrc=${encodeURIComponent(src)}`, { method: 'POST', body: new URLSearchParams({ access_token: host.token }) })
    ).text();
    const config = JSON.parse(/id="ode-config">(.*?)<\/script>/s.exec(html)![1]) as Record<string, unknown>;
    expect(config).not.toHaveProperty('cssVariables');
    expect(config).not.toHaveProperty('uiDefaults');
    const json = await fetch(`${urlsrc}WOPISrc=${encodeURIComponent(src)}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { code: string }).code).toBe('bad_request');
  });

  it("the editor page opened by a GET form (Moodle's mod_collabora: the fields in the query) takes the query's token and calls the host; a posted field wins over the query's", async () => {
    const src = host.addFile('get1', 'a.docx', readFileSync(join(CORPUS, 'properties/documentProperties.docx')));
    const before = host.of('CheckFileInfo').length;
    // A GET form replaces the urlsrc's query with its fields, as browsers submit it.
    const query = new URLSearchParams({ WOPISrc: src, access_token: host.token, lang: 'de', closebutton: '1' });
    const page = `${urlsrc.replace(/\?$/, '')}?${query}`;
    const r = await fetch(page);
    expect(r.status).toBe(200);
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    const config = JSON.parse(/id="ode-config">(.*?)<\/script>/s.exec(await r.text())![1]) as Record<string, unknown>;
    expect(config).toMatchObject({ accessToken: host.token, settings: { lang: 'de', closebutton: '1' } });
    await expect.poll(() => host.of('CheckFileInfo').length, { timeout: 10_000 }).toBe(before + 1);
    const posted = await fetch(page, { method: 'POST', body: new URLSearchParams({ access_token: 'posted-token' }) });
    const postedConfig = JSON.parse(/id="ode-config">(.*?)<\/script>/s.exec(await posted.text())![1]) as Record<string, unknown>;
    expect(postedConfig.accessToken).toBe('posted-token');
    const noToken = await fetch(`${urlsrc.replace(/\?$/, '')}?${new URLSearchParams({ WOPISrc: src, lang: 'de' })}`);
    expect(noToken.status).toBe(400);
  });

  it('the settings page takes a multipart form too', async () => {
    const settingsUrl = /<app name="Settings">\s*<action [^>]*urlsrc="([^"]+)"/.exec(discoveryText)![1];
    const r = await fetch(settingsUrl, {
      method: 'POST',
      body: multipart({
        access_token: host.token,
        access_token_ttl: '0',
        wopi_setting_base_url: `${host.url}/wopi/settings`,
        iframe_type: 'user',
        ui_theme: 'dark',
        css_variables: '--co-primary-element=#123456',
      }),
    });
    expect(r.status).toBe(200);
    const config = JSON.parse(/id="ode-settings-config">(.*?)<\/script>/s.exec(await r.text())![1]) as Record<string, unknown>;
    expect(config).toMatchObject({ accessToken: host.token, iframeType: 'user', theme: 'dark', baseUrl: `${host.url}/wopi/settings` });
  });

  it('a multipart page form past the size limit is 413 too_large, and the daemon keeps serving', async () => {
    const src = host.addFile('mp3', 'a.docx', Buffer.from('x'));
    const r = await fetch(`${urlsrc}WOPISrc=${encodeURIComponent(src)}`, {
      method: 'POST',
      body: multipart({ access_token: host.token, filler: 'x'.repeat(200 * 1024) }),
    });
    expect(r.status).toBe(413);
    expect(((await r.json()) as { code: string }).code).toBe('too_large');
    expect((await fetch(`${daemon.url}/hosting/capabilities`)).status).toBe(200);
  });

  it('a malformed multipart page form is 400 bad_request within seconds (no boundary, no closing boundary), and the daemon keeps serving', async () => {
    const src = host.addFile('mp4', 'a.docx', Buffer.from('x'));
    const url = `${urlsrc}WOPISrc=${encodeURIComponent(src)}`;
    const noBoundary = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'multipart/form-data' }, body: 'access_token=x' });
    expect(noBoundary.status).toBe(400);
    expect(((await noBoundary.json()) as { code: string }).code).toBe('bad_request');
    const started = Date.now();
    const cut = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=XyZ' },
      body: '--XyZ\r\nContent-Disposition: form-data; name="access_token"\r\n\r\ntok',
    });
    expect(cut.status).toBe(400);
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await fetch(`${daemon.url}/hosting/capabilities`)).status).toBe(200);
  });

  it('a page form that stops arriving is 408 body_timeout after limits.body_idle_secs, urlencoded and multipart', async () => {
    const src = host.addFile('mp5', 'a.docx', Buffer.from('x'));
    const path = new URL(`${urlsrc}WOPISrc=${encodeURIComponent(src)}`);
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=XyZ']) {
      const started = Date.now();
      const answer = await new Promise<string>((resolve, reject) => {
        const sock = connect(Number(path.port), path.hostname, () => {
          // Content-Length promises 1000 bytes; 20 arrive, then nothing.
          sock.write(
            `POST ${path.pathname}${path.search} HTTP/1.1\r\nHost: ${path.host}\r\nContent-Type: ${type}\r\nContent-Length: 1000\r\n\r\n--XyZ\r\naccess_tok`,
          );
        });
        let text = '';
        sock.on('data', (d) => (text += d.toString()));
        sock.on('close', () => resolve(text));
        sock.on('error', reject);
        setTimeout(() => (sock.destroy(), resolve(text)), 15_000);
      });
      expect(answer, type).toMatch(/^HTTP\/1\.1 408/);
      expect(answer).toContain('body_timeout');
      expect(Date.now() - started).toBeLessThan(8000);
    }
  }, 60_000);

  it('convert-to takes the file from a part named after the file (richdocuments previews), on /cool and /lool too', async () => {
    for (const prefix of ['cool', 'lool', 'ode']) {
      const fd = new FormData();
      fd.append('report.docx', new Blob([readFileSync(join(CORPUS, 'properties/documentProperties.docx'))]), 'report.docx');
      const r = await fetch(`${daemon.url}/${prefix}/convert-to/png`, { method: 'POST', body: fd });
      expect(r.status, prefix).toBe(200);
      const png = Buffer.from(await r.arrayBuffer());
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    }
    const none = new FormData();
    none.append('format', 'pdf');
    const r = await fetch(`${daemon.url}/cool/convert-to/pdf`, { method: 'POST', body: none });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { code: string }).code).toBe('no_file');
  }, 120_000);

  it('UserSettings / SharedSettings given as {uri, stamp} (Collabora, the SDK, richdocuments) are fetched', async () => {
    const settingsUri = (type: string) => `${host.url}/wopi/settings?type=${type}&access_token=${host.token}&fileId=-1`;
    const src = host.addFile('st1', 'a.odt', readFileSync(join(CORPUS, 'properties/meta.odt')), {
      UserSettings: { uri: settingsUri('userconfig'), stamp: 'u1' },
      SharedSettings: { uri: settingsUri('systemconfig'), stamp: 's1' },
    });
    const { client } = await EditorClient.open(daemon.url, src, { token: host.token });
    client.close();
    const fetched = host.requests.filter((q) => q.path === '/wopi/settings').map((q) => q.query.get('type'));
    expect(fetched).toContain('userconfig');
    expect(fetched).toContain('systemconfig');
  }, 120_000);

  it('a second page load asks CheckFileInfo again: a permission revoked in between holds for the second load', async () => {
    const src = host.addFile('cfi1', 'a.docx', readFileSync(join(CORPUS, 'properties/documentProperties.docx')));
    const load = () =>
      fetch(`${urlsrc}WOPISrc=${encodeURIComponent(src)}`, { method: 'POST', body: new URLSearchParams({ access_token: host.token }) }).then((r) => r.text());
    const count = () => host.of('CheckFileInfo').filter((q) => q.path.endsWith('/cfi1')).length;
    await load();
    await new Promise((res) => setTimeout(res, 300));
    expect(count()).toBe(1);
    // The host revokes write permission; the user reloads the page (the first page's editor never connected).
    host.files.get('cfi1')!.info.UserCanWrite = false;
    await load();
    await new Promise((res) => setTimeout(res, 300));
    expect(count()).toBe(2);
    const { client, status } = await EditorClient.open(daemon.url, src, { token: host.token });
    expect(status.readonly).toBe(true);
    client.close();
    // That answer served the load it was fetched for: one more load asks the host again.
    const { client: c2 } = await EditorClient.open(daemon.url, src, { token: host.token });
    expect(count()).toBe(3);
    c2.close();
  }, 120_000);

  it('a rename sends the saved document (the host writes the body into the renamed file): the content stays, and the next save is no conflict', async () => {
    const src = host.addFile('rn1', 'letter.docx', readFileSync(join(CORPUS, 'properties/documentProperties.docx')), {
      SupportsRename: true,
      UserCanRename: true,
    });
    const { client } = await EditorClient.open(daemon.url, src, { token: host.token });
    let from = client.messages.length;
    client.type('Renamed but kept');
    await client.next('modified', (m) => m.modified, 30_000, from);
    await new Promise((res) => setTimeout(res, 300));
    from = client.messages.length;
    client.send({ type: 'rename', name: 'Kept' });
    expect(await client.next('renamed', () => true, 60_000, from)).toMatchObject({ ok: true, name: 'Kept' });
    const rename = host.of('RENAME_FILE').at(-1)!;
    expect(rename.headers['content-type']).toBe('application/octet-stream');
    // The host's stored file, read with a zip reader of its own: the renamed file holds the typed text.
    const stored = host.files.get('rn1')!;
    expect(stored.name).toBe('Kept.docx');
    expect(strFromU8(unzipSync(new Uint8Array(stored.bytes))['word/document.xml'])).toContain('Renamed but kept');
    // The rename changed the stored file's time: Ode took the new one, so the next save is accepted.
    from = client.messages.length;
    client.type(' and saved');
    await client.next('modified', (m) => m.modified, 30_000, from);
    await new Promise((res) => setTimeout(res, 300));
    from = client.messages.length;
    client.send({ type: 'save' });
    expect(await client.next('saved', () => true, 60_000, from)).toMatchObject({ ok: true });
    expect(strFromU8(unzipSync(new Uint8Array(host.files.get('rn1')!.bytes))['word/document.xml'])).toContain('and saved');
    client.close();
  }, 180_000);

  it('EGroupware answers RENAME_FILE with its CheckFileInfo (no handler for it, though SupportsRename): the editor is told the name the file kept, not the one asked for', async () => {
    const src = host.addFile('rn2', 'Report.docx', readFileSync(join(CORPUS, 'properties/documentProperties.docx')), {
      SupportsRename: true,
      UserCanRename: true,
    });
    const { client } = await EditorClient.open(daemon.url, src, { token: host.token });
    // EGroupware's Files::process: an unknown X-WOPI-Override falls through to check_file_info (Size as a string).
    host.answer('RENAME_FILE', {
      status: 200,
      body: JSON.stringify({ BaseFileName: 'Report.docx', OwnerId: '5', Size: '4096', UserId: '5', SupportsRename: true, UserCanRename: true }),
    });
    const from = client.messages.length;
    client.send({ type: 'rename', name: 'Asked for' });
    expect(await client.next('renamed', () => true, 60_000, from)).toMatchObject({ ok: true, name: 'Report' });
    expect(host.of('RENAME_FILE').filter((r) => r.path.endsWith('/rn2'))).toHaveLength(1);
    expect(host.files.get('rn2')!.name).toBe('Report.docx');
    client.close();
  }, 120_000);

  it('a PutFile answered 423 (richdocuments: locked by another operation, nothing written) is tried again: the text reaches the file', async () => {
    const src = host.addFile('lk1', 'letter.docx', readFileSync(join(CORPUS, 'properties/documentProperties.docx')));
    const { client } = await EditorClient.open(daemon.url, src, { token: host.token });
    let from = client.messages.length;
    client.type('Locked once');
    await client.next('modified', (m) => m.modified, 30_000, from);
    await new Promise((res) => setTimeout(res, 300));
    const puts = host.of('PutFile').filter((q) => q.path.includes('/lk1/')).length;
    host.answer('PutFile', { status: 423, body: JSON.stringify({ message: 'File locked' }) });
    from = client.messages.length;
    client.send({ type: 'save' });
    expect(await client.next('saved', () => true, 60_000, from)).toMatchObject({ ok: true });
    expect(host.of('PutFile').filter((q) => q.path.includes('/lk1/')).length).toBe(puts + 2);
    expect(strFromU8(unzipSync(new Uint8Array(host.files.get('lk1')!.bytes))['word/document.xml'])).toContain('Locked once');
    client.close();
  }, 120_000);

  it("with the page load's prefetch id, each editor load takes the answer fetched for its own page load, once", async () => {
    const src = host.addFile('cfi2', 'a.docx', readFileSync(join(CORPUS, 'properties/documentProperties.docx')));
    const pageId = async () => {
      const html = await (
        await fetch(`${urlsrc}WOPISrc=${encodeURIComponent(src)}`, { method: 'POST', body: new URLSearchParams({ access_token: host.token }) })
      ).text();
      return (JSON.parse(/id="ode-config">(.*?)<\/script>/s.exec(html)![1]) as { prefetch: string }).prefetch;
    };
    const count = () => host.of('CheckFileInfo').filter((q) => q.path.endsWith('/cfi2')).length;
    const first = await pageId();
    await new Promise((res) => setTimeout(res, 300));
    host.files.get('cfi2')!.info.UserCanWrite = false;
    const second = await pageId();
    await new Promise((res) => setTimeout(res, 300));
    expect(count()).toBe(2);
    expect(first).not.toBe(second);
    // The second page's editor: the answer fetched for it (read-only), no new request.
    const { client: c2, status: s2 } = await EditorClient.open(daemon.url, src, { token: host.token, prefetch: second });
    expect(s2.readonly).toBe(true);
    expect(count()).toBe(2);
    c2.close();
    // Its id again (a reconnect): the answer was used, the host is asked.
    const { client: c3 } = await EditorClient.open(daemon.url, src, { token: host.token, prefetch: second });
    expect(count()).toBe(3);
    c3.close();
  }, 120_000);
});
