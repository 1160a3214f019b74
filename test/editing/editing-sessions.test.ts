import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { docxText } from '../helpers/docx.ts';
import { useDocumentTests } from '../helpers/editing-setup.ts';
import type { EditorClient } from '../helpers/editor-client.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));

/**
 * Editing over WOPI with LibreOffice: typing into a real document and storing it, two views' cursors, tiles,
 * templates, Save As and the clipboard. The rest of the document lifecycle (conflicts, upload failures, rights,
 * crashes and reloads, locks, tokens, idle unload) runs with fake kits in lifecycle.test.ts; the first test here is
 * the real save the fake stands for.
 */
describe('editing sessions over WOPI (real kits, real WebSocket clients, a fake WOPI host)', () => {
  const env = useDocumentTests({ readyKits: 2, maxKits: 4, documents: { upload_retry_max_secs: 1 }, file: DOCX });
  const { open } = env;
  const typeAndWait = async (c: EditorClient, text: string) => {
    const from = c.messages.length;
    c.type(text);
    await c.next('modified', (m) => m.modified, 30_000, from);
    // LibreOffice handles posted keys asynchronously: let it finish before asking for a save.
    await new Promise((r) => setTimeout(r, 300));
  };
  const saved = (c: EditorClient, from: number) => c.next('saved', () => true, 60_000, from);

  it('opens a docx, types through key events, saves, and the PutFile body has the text; every host request carries a valid proof', async () => {
    const { client, status } = await open(`a${env.n}`);
    expect(status).toMatchObject({ docType: 'text', readonly: false, parts: 1 });
    expect(status.fileInfo.BaseFileName).toBe('letter.docx');
    await typeAndWait(client, 'Hello Ode');
    const from = client.messages.length;
    client.send({ type: 'save' });
    expect(await saved(client, from)).toMatchObject({ ok: true, autosave: false, exitSave: false });
    expect(await client.next('modified', (m) => !m.modified, 5000, from)).toBeDefined();
    const put = env.host.of('PutFile').at(-1)!;
    expect(docxText(put.body)).toContain('Hello Ode');
    expect(put.headers['x-ode-wopi-ismodifiedbyuser']).toBe('true');
    expect(put.headers['x-ode-wopi-isautosave']).toBe('false');
    expect(put.headers['x-ode-wopi-timestamp']).toBeDefined();
    expect(env.host.requests.length).toBeGreaterThanOrEqual(3);
    expect(env.host.requests.filter((r) => r.proofValid !== true).map((r) => r.operation)).toEqual([]);
  });

  it('two views edit one document and see each other', async () => {
    const a = await open(`b${env.n}`);
    const b = await env.openSrc(a.src);
    expect(b.status.viewId).not.toBe(a.status.viewId);
    await a.client.next('views', (m) => m.views.length === 2);
    const from = b.client.messages.length;
    a.client.type('x');
    const seen = await b.client.next('viewCursor', (m) => m.viewId === a.status.viewId, 20_000, from);
    expect(seen.rect[2]).toBeGreaterThanOrEqual(0);
    expect(env.host.of('GetFile').filter((r) => r.path.includes(`b${env.n}`))).toHaveLength(1);
  });

  it('tiles: a PNG of the requested size, and a second view of the same area is served from the cache', async () => {
    const a = await open(`t${env.n}`);
    const ask = {
      type: 'tiles' as const,
      part: 0,
      width: 256,
      height: 256,
      tileTwipWidth: 3840,
      tileTwipHeight: 3840,
      positions: [[0, 0]] as Array<[number, number]>,
    };
    a.client.send(ask);
    const deadline = Date.now() + 20_000;
    while (a.client.tiles.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const t = a.client.tiles[0];
    expect(t.header).toMatchObject({ encoding: 'png', width: 256, height: 256 });
    expect(Buffer.from(t.payload.subarray(1, 4)).toString()).toBe('PNG');
    // Asked again with nothing changed in between: `unchanged`, same wid. LibreOffice may still invalidate the area
    // once after load (late layout), which legitimately answers a new PNG with a higher wid: ask again then.
    let last = t;
    for (let i = 0; i < 5; i++) {
      const n = a.client.tiles.length;
      a.client.send(ask);
      while (a.client.tiles.length <= n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const next = a.client.tiles[n];
      if (next.header.encoding === 'unchanged' || next.header.wid === last.header.wid) {
        expect(next.header).toMatchObject({ encoding: 'unchanged', wid: last.header.wid });
        break;
      }
      expect(next.header.wid).toBeGreaterThan(last.header.wid);
      last = next;
    }
    expect(a.client.tiles.at(-1)!.header).toMatchObject({ encoding: 'unchanged' });
    // An editor that dropped its copy asks `fresh`: the PNG again.
    const n = a.client.tiles.length;
    a.client.send({ ...ask, fresh: true });
    while (a.client.tiles.length <= n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(a.client.tiles[n].header).toMatchObject({ encoding: 'png' });
    expect(a.client.tiles[n].header.wid).toBeGreaterThanOrEqual(last.header.wid);
    expect(Buffer.from(a.client.tiles[n].payload.subarray(1, 4)).toString()).toBe('PNG');
  });

  it('TemplateSource: the document is created from the template and stored with PutFile at once', async () => {
    const ott = await postConvert(env.daemon.url, '/ode/convert-to/ott', join(CORPUS, 'properties/meta.odt'));
    expect(ott.status).toBe(200);
    env.host.addFile('tpl', 'template.ott', ott.body);
    const { status } = await open(
      `h${env.n}`,
      { TemplateSource: `${env.host.fileUrl('tpl')}/contents?access_token=${env.host.token}` },
      Buffer.alloc(0),
      'new.odt',
    );
    expect(status.docType).toBe('text');
    const put = env.host.of('PutFile').find((r) => r.path.includes(`h${env.n}`));
    expect(put).toBeDefined();
    expect(put!.body.subarray(30, 38).toString('latin1')).toBe('mimetype');
    expect(put!.body.includes(Buffer.from('application/vnd.oasis.opendocument.text'))).toBe(true);
  });

  it('Save As with a non-ASCII name (UTF-7 header, byte for byte) and Rename', async () => {
    const { client } = await open(`i${env.n}`, { UserCanNotWriteRelative: false, SupportsRename: true, UserCanRename: true });
    let from = client.messages.length;
    client.send({ type: 'saveAs', name: 'Größe.odt' });
    expect(await client.next('savedAs', () => true, 60_000, from)).toMatchObject({ ok: true });
    const put = env.host.of('PUT_RELATIVE').at(-1)!;
    const raw = put.rawHeaders[put.rawHeaders.findIndex((h) => h.toLowerCase() === 'x-wopi-suggestedtarget') + 1];
    expect(raw).toBe('Gr+APYA3w-e.odt');
    expect(execFileSync('iconv', ['-f', 'UTF-7', '-t', 'UTF-8'], { input: raw }).toString()).toBe('Größe.odt');
    expect(put.body.subarray(30, 38).toString('latin1')).toBe('mimetype');
    from = client.messages.length;
    client.send({ type: 'rename', name: 'Neu' });
    expect(await client.next('renamed', () => true, 30_000, from)).toMatchObject({ ok: true, name: 'Neu' });
    expect(env.host.of('RENAME_FILE').at(-1)!.headers['x-wopi-requestedname']).toBe('Neu');
  });

  it('clipboard: the selection as text and HTML, paste reaches the stored file, DisableCopy refuses copying', async () => {
    const { client } = await open(`p${env.n}`);
    await typeAndWait(client, 'Copy this line');
    client.send({ type: 'uno', command: '.uno:SelectAll' });
    await new Promise((r) => setTimeout(r, 300));
    let from = client.messages.length;
    client.send({ type: 'clipboardGet', mimeTypes: ['text/plain;charset=utf-8', 'text/html'] });
    const clip = await client.next('clipboard', () => true, 20_000, from);
    expect(clip.items.find((i) => i.mimeType.startsWith('text/plain'))?.data).toContain('Copy this line');
    expect(clip.items.find((i) => i.mimeType === 'text/html')?.data).toMatch(/<html|<body|<p/i);
    client.send({ type: 'uno', command: '.uno:GoToEndOfDoc' });
    await new Promise((r) => setTimeout(r, 200));
    client.send({ type: 'paste', mimeType: 'text/plain;charset=utf-8', data: ' and pasted text' });
    await new Promise((r) => setTimeout(r, 300));
    from = client.messages.length;
    client.send({ type: 'save' });
    await saved(client, from);
    expect(docxText(env.host.of('PutFile').at(-1)!.body)).toContain('pasted text');
    const locked = await open(`q${env.n}`, { DisableCopy: true });
    from = locked.client.messages.length;
    locked.client.send({ type: 'clipboardGet', mimeTypes: ['text/plain;charset=utf-8'] });
    expect(await locked.client.next('error', (m) => m.code === 'forbidden', 10_000, from)).toBeDefined();
  });

  it('every request the WOPI host received in this suite carried a valid proof (key from discovery)', () => {
    expect(env.host.requests.length).toBeGreaterThan(15);
    expect(env.host.requests.filter((r) => r.proofValid !== true).map((r) => `${r.operation} ${r.path}`)).toEqual([]);
  });
});
