import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';

/**
 * The endpoints hosts written for Collabora call besides editing (issue 14, items 9 and 10), against a real daemon:
 * the capabilities they gate features on, the WOPI access check of Nextcloud's set-up page, and the Linking API
 * (extract-link-targets, get-thumbnail) richdocuments calls with PUT and a file part named after the file.
 */

/** A flat ODF text document written here (the oracle of the targets): a heading, a bookmark and a named table. */
const FODT = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
 <office:body><office:text>
  <text:h text:outline-level="1">Introduction</text:h>
  <text:p>Before the mark <text:bookmark text:name="pricing_mark"/> after it.</text:p>
  <table:table table:name="PriceTable"><table:table-column/><table:table-row><table:table-cell><text:p>1</text:p></table:table-cell></table:table-row></table:table>
 </office:text></office:body>
</office:document>
`;

/** What richdocuments' RemoteService sends: a multipart part named after the file (not `data`) and `target`. */
function richdocumentsForm(name: string, bytes: string | Uint8Array, target?: string): FormData {
  const fd = new FormData();
  fd.append(name, new Blob([bytes]), name);
  if (target !== undefined) fd.append('target', target);
  return fd;
}

/** Width and height from a PNG's IHDR (bytes 16-23), read here rather than by Ode's code. */
function pngSize(b: Buffer): { width: number; height: number } {
  expect(b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

describe('endpoints hosts written for Collabora call (issue 14, items 9 and 10)', () => {
  let daemon: TestDaemon;
  let callback: Server;
  let callbackUrl: string;
  let hung: Server;
  beforeAll(async () => {
    // The host's status page (Nextcloud's /status.php): 200 on /status.php, 404 elsewhere.
    callback = createServer((req, res) => {
      res.writeHead(req.url === '/status.php' ? 200 : 404, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
    await new Promise<void>((r) => callback.listen(0, '127.0.0.1', r));
    callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}`;
    // A host that accepts the connection and never answers.
    hung = createServer(() => undefined);
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    daemon = await startDaemon({ storage: { wopi: { hosts: ['cloud\\.example\\.invalid'] } }, hosting: { collabora_version: '24.04.5.2' } });
  }, 120_000);
  afterAll(async () => {
    await daemon?.stop();
    callback?.closeAllConnections();
    callback?.close();
    hung?.closeAllConnections();
    hung?.close();
  });

  const accessCheck = async (body: string) => {
    const r = await fetch(`${daemon.url}/hosting/wopiAccessCheck`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    return { status: r.status, json: (await r.json()) as Record<string, unknown> };
  };

  it('capabilities: every flag as Ode has it, productVersion the configured Collabora level (live), productName Ode', async () => {
    const caps = (await (await fetch(`${daemon.url}/hosting/capabilities`)).json()) as Record<string, unknown>;
    expect(caps).toMatchObject({
      hasTemplateSource: true,
      hasDocumentSigningSupport: true,
      hasWopiAccessCheck: true,
      hasSettingIframeSupport: true,
      hasZoteroSupport: true,
      hasMobileSupport: true,
      hasProxyPrefix: false,
      hasWASMSupport: false,
      productName: 'Ode',
      productVersion: '24.04.5.2',
    });
    expect(caps.odeVersion).toMatch(/^\d+\.\d+\.\d+/);
    // richdocuments' gate, as PHP's version_compare does it for dotted numbers: form filling from 24.04.5.2.
    const atLeast = (v: string, min: string) => {
      const [a, b] = [v.split('.').map(Number), min.split('.').map(Number)];
      for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
      return true;
    };
    expect(atLeast(String(caps.productVersion), '24.04.5.2')).toBe(true);
    daemon.reconfigure({ hosting: { collabora_version: '23.05.1.1' } });
    const lower = (await (await fetch(`${daemon.url}/hosting/capabilities`)).json()) as Record<string, unknown>;
    expect(lower.productVersion).toBe('23.05.1.1');
    expect(atLeast(String(lower.productVersion), '24.04.5.2')).toBe(false);
    daemon.reconfigure({ hosting: { collabora_version: '24.04.5.2' } });
  });

  it("the WOPI access check answers Collabora's states: Ok, NotHttpSuccess, NoScheme, NotHttps, WopiHostNotAllowed, HostNotFound, Timeout", async () => {
    expect(await accessCheck(JSON.stringify({ callbackUrl: `${callbackUrl}/status.php` }))).toEqual({ status: 200, json: { status: 'Ok' } });
    expect((await accessCheck(JSON.stringify({ callbackUrl: `${callbackUrl}/missing` }))).json).toEqual({ status: 'NotHttpSuccess' });
    expect((await accessCheck(JSON.stringify({ callbackUrl: 'cloud.example.invalid/status.php' }))).json).toEqual({ status: 'NoScheme' });
    // Ode serves plain HTTP here: an https host would be refused by the browser as mixed content.
    expect((await accessCheck(JSON.stringify({ callbackUrl: 'https://cloud.example.invalid/status.php' }))).json).toEqual({ status: 'NotHttps' });
    expect((await accessCheck(JSON.stringify({ callbackUrl: 'http://other.example.org/status.php' }))).json).toEqual({ status: 'WopiHostNotAllowed' });
    expect((await accessCheck(JSON.stringify({ callbackUrl: 'http://cloud.example.invalid/status.php' }))).json).toEqual({ status: 'HostNotFound' });
    const started = Date.now();
    const hungUrl = `http://127.0.0.1:${(hung.address() as AddressInfo).port}/status.php`;
    expect((await accessCheck(JSON.stringify({ callbackUrl: hungUrl }))).json).toEqual({ status: 'Timeout' });
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('the WOPI access check refuses what is not {callbackUrl} JSON with 400, as Collabora', async () => {
    for (const body of ['not json', '[]', '{}', JSON.stringify({ callbackUrl: 42 }), JSON.stringify({ callbackUrl: 'ftp://cloud.example.invalid/' })]) {
      const r = await accessCheck(body);
      expect(r.status, body).toBe(400);
      expect(r.json.code).toBe('bad_request');
    }
    expect((await fetch(`${daemon.url}/hosting/wopiAccessCheck`)).status).toBe(405);
  });

  it("extract-link-targets (PUT, part named after the file, as richdocuments; POST with data as the SDK): the document's targets", async () => {
    const put = await fetch(`${daemon.url}/cool/extract-link-targets`, {
      method: 'PUT',
      body: richdocumentsForm('notes.fodt', FODT, ''),
      headers: { Accept: 'application/json' },
    });
    expect(put.status).toBe(200);
    expect(put.headers.get('content-type')).toMatch(/^application\/json/);
    const { Targets } = (await put.json()) as { Targets: Record<string, Record<string, string>> };
    expect(Object.keys(Targets.Bookmarks ?? {})).toContain('pricing_mark');
    expect(Object.keys(Targets.Tables ?? {})).toContain('PriceTable');
    expect(Targets.Tables.PriceTable).toBe('PriceTable|table');
    expect(Object.keys(Targets.Headings ?? {}).join(' ')).toContain('Introduction');
    const fd = new FormData();
    fd.append('data', new Blob([FODT]), 'notes.fodt');
    const post = await fetch(`${daemon.url}/ode/extract-link-targets`, { method: 'POST', body: fd });
    expect(post.status).toBe(200);
    expect(Object.keys(((await post.json()) as { Targets: Record<string, object> }).Targets)).toContain('Bookmarks');
  }, 120_000);

  it('extract-link-targets: no file is 400 no_file, an unknown type 400, a file LibreOffice cannot read 422 load_failed; the daemon keeps serving', async () => {
    const empty = await fetch(`${daemon.url}/cool/extract-link-targets`, { method: 'PUT', body: new FormData() });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { code: string }).code).toBe('no_file');
    const unknown = await fetch(`${daemon.url}/cool/extract-link-targets`, { method: 'PUT', body: richdocumentsForm('x.zzz', 'hello') });
    expect(((await unknown.json()) as { code: string }).code).toBe('unknown_input_format');
    const broken = await fetch(`${daemon.url}/cool/extract-link-targets`, {
      method: 'PUT',
      body: richdocumentsForm('broken.odt', new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3])),
    });
    expect(broken.status).toBe(422);
    expect(((await broken.json()) as { code: string }).code).toBe('load_failed');
    expect((await fetch(`${daemon.url}/health`)).status).toBe(200);
  }, 120_000);

  it('get-thumbnail (PUT with target, as richdocuments; POST as the SDK): a PNG of the document', async () => {
    for (const method of ['PUT', 'POST']) {
      const r = await fetch(`${daemon.url}/cool/get-thumbnail`, { method, body: richdocumentsForm('notes.fodt', FODT, 'PriceTable|table') });
      expect(r.status, method).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/png');
      const { width, height } = pngSize(Buffer.from(await r.arrayBuffer()));
      expect(width).toBeGreaterThan(50);
      expect(height).toBeGreaterThan(50);
    }
    const none = await fetch(`${daemon.url}/cool/get-thumbnail`, { method: 'PUT', body: new FormData() });
    expect(((await none.json()) as { code: string }).code).toBe('no_file');
  }, 120_000);

  it('the Linking API is refused to addresses outside net.post_allow.host, as convert-to', async () => {
    daemon.reconfigure({ net: { post_allow: { host: ['10\\.9\\.9\\.9'] } } });
    try {
      const r = await fetch(`${daemon.url}/cool/extract-link-targets`, { method: 'PUT', body: richdocumentsForm('notes.fodt', FODT) });
      expect(r.status).toBe(403);
      expect(((await r.json()) as { code: string }).code).toBe('forbidden_host');
    } finally {
      daemon.reconfigure({});
    }
  });
});
