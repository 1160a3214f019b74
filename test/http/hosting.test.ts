import { createPublicKey, createVerify } from 'node:crypto';
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';

// The spec's "Supported input formats" table, written out here again by hand.
const SPEC_INPUTS = (
  'sxw odt fodt stw ott doc dot docx docm dotx dotm wpd pdb hwp wps wri lrf mw rtf txt fb2 cwk pages abw 602 sxg odm otm oth ' +
  'sxc ods fods stc ots xls xla xltx xltm xlsx xlsb xlsm dif slk csv tsv dbf wk1 wks xlr 123 qpw wb1 wq1 wq2 gnumeric numbers ' +
  'sxi odp fodp sti otp ppt pot pptx pptm potx potm ppsx cgm key ' +
  'sxd odg fodg std otg svg dxf emf wmf cdr vsd vsdx vss pub p65 wpg fh bmp png gif tiff jpg jpeg pdf'
).split(' ');

describe('discovery and capabilities over HTTP', () => {
  let daemon: TestDaemon;
  let doc: Document;
  beforeAll(async () => {
    daemon = await startDaemon({}, 0);
    const res = await fetch(`${daemon.url}/hosting/discovery`);
    expect(res.headers.get('content-type')).toMatch(/^text\/xml/);
    doc = new DOMParser().parseFromString(await res.text(), 'text/xml');
  });
  afterAll(async () => daemon?.stop());

  const actions = (): Element[] => Array.from(doc.getElementsByTagName('action'));
  const apps = (): Element[] => Array.from(doc.getElementsByTagName('app'));

  it('has an action for every input extension of the spec, pointing at the editor page', () => {
    const byExt = new Map(
      actions()
        .filter((a) => a.getAttribute('ext'))
        .map((a) => [a.getAttribute('ext')!, a]),
    );
    for (const ext of SPEC_INPUTS) {
      const a = byExt.get(ext);
      expect(a, ext).toBeDefined();
      expect(['edit', 'view', 'view_comment']).toContain(a!.getAttribute('name'));
      expect(a!.getAttribute('urlsrc')).toMatch(new RegExp(`^${daemon.url}/browser/[0-9a-f]+/ode\\.html\\?$`));
    }
    expect(byExt.get('pdf')!.getAttribute('name')).toBe('view_comment');
    expect(byExt.get('docx')!.getAttribute('name')).toBe('edit');
    expect(byExt.get('odt')!.getAttribute('name')).toBe('edit');
    expect(byExt.get('xlsx')!.getAttribute('name')).toBe('edit');
    expect(byExt.get('pptx')!.getAttribute('name')).toBe('edit');
  });

  it("serves a favicon and the icons hosts take from Collabora's image paths; other names are a JSON 404", async () => {
    const editorUrl = actions()
      .find((a) => a.getAttribute('ext') === 'docx')!
      .getAttribute('urlsrc')!;
    // EGroupware's Insert_Button imgurl 'images/lc_saveas.svg', resolved against the editor page.
    const relative = new URL('images/lc_saveas.svg', editorUrl).href;
    for (const url of [
      `${daemon.url}/favicon.ico`,
      relative,
      `${daemon.url}/browser/dist/images/closedoc.svg`,
      `${daemon.url}/loleaflet/dist/images/lc_save.svg`,
    ]) {
      const r = await fetch(url);
      expect(r.status, url).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/svg+xml');
      expect(await r.text()).toMatch(/^<svg [^>]*viewBox="0 0 24 24"/);
    }
    for (const url of [`${daemon.url}/browser/dist/images/no-such-icon.svg`, `${daemon.url}/loleaflet/dist/images/__proto__`, `${daemon.url}/loleaflet/x`]) {
      const r = await fetch(url);
      expect(r.status, url).toBe(404);
      expect(((await r.json()) as { code: string }).code).toBe('not_found');
    }
  });

  it('has the Collabora app names with absolute favicons that resolve, MIME-type apps, Capabilities and Settings', async () => {
    const names = apps().map((a) => a.getAttribute('name'));
    for (const n of [
      'writer',
      'calc',
      'impress',
      'draw',
      'writer-global',
      'writer-web',
      'Capabilities',
      'Settings',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.oasis.opendocument.text',
    ]) {
      expect(names).toContain(n);
    }
    for (const app of apps().filter((a) => ['writer', 'calc', 'impress', 'draw'].includes(a.getAttribute('name')!))) {
      const icon = app.getAttribute('favIconUrl')!;
      expect(icon.startsWith(`${daemon.url}/`)).toBe(true);
      const r = await fetch(icon);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/svg+xml');
    }
    const caps = apps()
      .find((a) => a.getAttribute('name') === 'Capabilities')!
      .getElementsByTagName('action')[0];
    expect(caps.getAttribute('name')).toBe('getinfo');
    expect(caps.getAttribute('urlsrc')).toBe(`${daemon.url}/hosting/capabilities`);
    const settings = apps()
      .find((a) => a.getAttribute('name') === 'Settings')!
      .getElementsByTagName('action')[0];
    expect(settings.getAttribute('name')).toBe('iframe');
  });

  it('a proof signature made by the daemon verifies with the public key read back from discovery', () => {
    const pk = doc.getElementsByTagName('proof-key')[0];
    for (const attr of ['value', 'modulus', 'exponent', 'oldvalue', 'oldmodulus', 'oldexponent'])
      expect(pk.getAttribute(attr), attr).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const key = createPublicKey({
      key: {
        kty: 'RSA',
        n: Buffer.from(pk.getAttribute('modulus')!, 'base64').toString('base64url'),
        e: Buffer.from(pk.getAttribute('exponent')!, 'base64').toString('base64url'),
      },
      format: 'jwk',
    });
    const url = 'https://host.example/wopi/files/ZmlsZQ?access_token=abc';
    const h = daemon.server.proofKeys.sign('abc', url);
    // MS-WOPI: len+token, len+URL upper-cased, len(8)+ticks, all big-endian.
    const t = Buffer.from('abc');
    const u = Buffer.from(url.toUpperCase());
    const data = Buffer.alloc(4 + t.length + 4 + u.length + 12);
    let o = data.writeInt32BE(t.length, 0);
    o += t.copy(data, o);
    o = data.writeInt32BE(u.length, o);
    o += u.copy(data, o);
    o = data.writeInt32BE(8, o);
    data.writeBigInt64BE(BigInt(h['X-WOPI-TimeStamp']), o);
    expect(createVerify('RSA-SHA256').update(data).verify(key, h['X-WOPI-Proof'], 'base64')).toBe(true);
  });

  it('capabilities carry every spec field; convert-to.available follows net.post_allow.host', async () => {
    const c = (await (await fetch(`${daemon.url}/hosting/capabilities`)).json()) as Record<string, unknown>;
    for (const f of [
      'convert-to',
      'hasTemplateSource',
      'hasMobileSupport',
      'hasSettingIframeSupport',
      'productName',
      'productVersion',
      'productVersionHash',
      'serverId',
    ])
      expect(c, f).toHaveProperty(f);
    expect(c['convert-to']).toEqual({ available: true, endpoint: '/ode/convert-to' });
    expect(c.productName).toBe('Ode');
    const denied = (await (await fetch(`${daemon.url}/hosting/capabilities`, { headers: { 'X-Forwarded-For': '198.51.100.4' } })).json()) as Record<
      string,
      { available: boolean }
    >;
    expect(denied['convert-to'].available).toBe(false);
  });

  it('rotation changes discovery at once and keeps the previous key as old*', async () => {
    const before = doc.getElementsByTagName('proof-key')[0];
    daemon.server.proofKeys.rotate();
    const text = await (await fetch(`${daemon.url}/hosting/discovery`)).text();
    const after = new DOMParser().parseFromString(text, 'text/xml').getElementsByTagName('proof-key')[0];
    expect(after.getAttribute('modulus')).not.toBe(before.getAttribute('modulus'));
    expect(after.getAttribute('oldmodulus')).toBe(before.getAttribute('modulus'));
    expect(after.getAttribute('oldvalue')).toBe(before.getAttribute('value'));
  });

  it('/health reports kits and queue', async () => {
    const h = (await (await fetch(`${daemon.url}/health`)).json()) as { kits: Record<string, number>; queue: number };
    expect(Object.keys(h.kits).sort()).toEqual(['busy', 'ready', 'starting']);
    expect(h.queue).toBe(0);
  });
});
