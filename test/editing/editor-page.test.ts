import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';

/** The editor page and its socket's checks: the daemon's, so the kit opening the document is a fake kit (daemon/protocol/kit.md). */
describe('the editor page at discovery urlsrc', () => {
  let daemon: TestDaemon;
  let host: FakeWopiHost;
  let urlsrc: string;
  beforeAll(async () => {
    host = await FakeWopiHost.start();
    daemon = await startDaemon(
      { net: { content_security_policy: 'frame-ancestors https://intranet.example.org; img-src https://avatars.example.org' }, documents: { check_secs: 0 } },
      1,
      0,
      { fakeKits: true },
    );
    const xml = await (await fetch(`${daemon.url}/hosting/discovery`)).text();
    urlsrc = /<action [^>]*ext="docx"[^>]*urlsrc="([^"]+)"/.exec(xml)?.[1] ?? /urlsrc="([^"]+ode\.html\?)"/.exec(xml)![1];
  });
  afterAll(async () => {
    await daemon?.stop();
    await host?.stop();
  });
  const post = (wopiSrc: string, fields: Record<string, string>, query = '') =>
    fetch(`${urlsrc}WOPISrc=${encodeURIComponent(wopiSrc)}${query}`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });

  it('serves the page for a form post: token and settings carried, CSP frame-ancestors with the host, never cached; CheckFileInfo already started', async () => {
    const src = host.addFile('p1', 'a.docx', readFileSync(join(CORPUS, 'properties/documentProperties.docx')));
    const ttl = Date.now() + 3_600_000;
    const r = await post(src, { access_token: host.token, access_token_ttl: String(ttl) }, '&lang=de-DE&permission=readonly&closebutton=true');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    const csp = r.headers.get('content-security-policy')!;
    expect(csp).toMatch(new RegExp(`frame-ancestors [^;]*https://intranet\\.example\\.org[^;]*${host.url.replace(/[.:/]/g, '\\$&')}`));
    // img-src: the configured source, and every frame ancestor as with Collabora (an http: WOPI host's avatars and icons).
    const imgSrc =
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .find(([name]) => name === 'img-src') ?? [];
    expect(imgSrc).toEqual(expect.arrayContaining(['https://avatars.example.org', 'https://intranet.example.org', new URL(host.url).origin, 'data:', 'blob:']));
    const html = await r.text();
    expect(html).toContain('<html lang="de-DE">');
    const config = JSON.parse(/<script type="application\/json" id="ode-config">(.*?)<\/script>/s.exec(html)![1]) as Record<string, unknown>;
    expect(config).toMatchObject({
      wopiSrc: src,
      accessToken: host.token,
      accessTokenTtl: ttl,
      socketPath: '/ode/ws',
      settings: { lang: 'de-DE', permission: 'readonly', closebutton: 'true' },
    });
    await new Promise((r2) => setTimeout(r2, 300));
    expect(host.of('CheckFileInfo')).toHaveLength(1);
    const { client } = await EditorClient.open(daemon.url, src, { token: host.token });
    expect(host.of('CheckFileInfo')).toHaveLength(1);
    client.close();
  });

  it('a token cannot break out of the page script', async () => {
    const src = host.addFile('p2', 'a.docx', Buffer.from('x'));
    const html = await (await post(src, { access_token: '</script><script>alert(1)</script>' })).text();
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('\\u003c/script\\u003e');
  });

  it('refuses a bad WOPISrc (400), a host not in storage.wopi.hosts (403, naming the key) and a missing token (400)', async () => {
    const bad = await post('https://cloud.example.org/files/1', { access_token: 't' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/wopi/);
    const foreign = await post('https://cloud.example.org/wopi/files/1', { access_token: 't' });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { message: string }).message).toContain('storage.wopi.hosts');
    const noToken = await post(host.fileUrl('p1'), {});
    expect(noToken.status).toBe(400);
    await expect(EditorClient.connect(daemon.url, 'https://cloud.example.org/wopi/files/1')).rejects.toThrow('upgrade refused: 403');
    await expect(EditorClient.connect(daemon.url, 'not a url')).rejects.toThrow('upgrade refused: 400');
  });

  it('serves the editor bundle the page loads (built at set-up) under the versioned path and its content hash, one URL for every document, cached for good', async () => {
    const page = async (id: string) => {
      const src = host.addFile(id, 'a.docx', Buffer.from('x'));
      const r = await post(src, { access_token: host.token });
      return { src, html: await r.text(), csp: r.headers.get('content-security-policy')! };
    };
    const a = await page('p3');
    const b = await page('p4');
    const links = (html: string) => {
      const [, js, jsBack] = /<script type="module" src="([^"]+)" data-fallback="([^"]+)"><\/script>/.exec(html)!;
      const [, css, cssBack] = /<link rel="stylesheet" href="([^"]+)" data-fallback="([^"]+)">/.exec(html)!;
      return { js, css, jsBack: jsBack.replace(/&amp;/g, '&'), cssBack: cssBack.replace(/&amp;/g, '&') };
    };
    const la = links(a.html);
    const lb = links(b.html);
    // The same bundle URLs for two documents (one browser cache entry), without the WOPISrc.
    expect([lb.js, lb.css]).toEqual([la.js, la.css]);
    expect(la.js).not.toContain('WOPISrc');
    // Their content hash is the file's own (an independent sha256 of the built file).
    const dist = new URL('../../daemon/editor/dist/', import.meta.url).pathname;
    const sha = (name: string) =>
      createHash('sha256')
        .update(readFileSync(join(dist, name)))
        .digest('hex')
        .slice(0, 16);
    expect(la.js).toMatch(new RegExp(`^/browser/[^/]+/editor\\.js\\?v=${sha('editor.js')}$`));
    expect(la.css).toMatch(new RegExp(`^/browser/[^/]+/editor\\.css\\?v=${sha('editor.css')}$`));
    // The fallback (a node of another version answered 404) adds the document's WOPISrc, for a balancer hashing it.
    expect(new URL(la.jsBack, 'http://x').searchParams.get('WOPISrc')).toBe(a.src);
    expect(new URL(lb.cssBack, 'http://x').searchParams.get('WOPISrc')).toBe(b.src);
    expect(la.jsBack.startsWith(`${la.js}&`)).toBe(true);
    // The inline fallback script runs under the page's CSP by its hash (and only it: no 'unsafe-inline').
    const inline = /<script>(.*?)<\/script>/s.exec(a.html)![1];
    const scriptSrc = /script-src ([^;]+)/.exec(a.csp)![1].split(' ');
    expect(scriptSrc).toContain(`'sha256-${createHash('sha256').update(inline).digest('base64')}'`);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    const r = await fetch(`${daemon.url}${la.js}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(r.headers.get('cache-control')).toContain('immutable');
    expect(await r.text()).toContain('ode-config');
    const c = await fetch(`${daemon.url}${la.cssBack}`);
    expect(c.status).toBe(200);
    expect(await c.text()).toContain('.ode-toolbar');
    expect((await fetch(`${daemon.url}${la.js.replace('editor.js', 'other.js')}`)).status).toBe(404);
    // Another build's URL (version hash or content hash): 404, never cached, so that the fallback is asked.
    for (const other of [la.js.replace(/browser\/[^/]+/, 'browser/0000000'), la.js.replace(/v=\w+/, 'v=0123456789abcdef')]) {
      const o = await fetch(`${daemon.url}${other}`);
      expect(o.status).toBe(404);
      expect(o.headers.get('cache-control')).toBe('no-store');
    }
  });
});
