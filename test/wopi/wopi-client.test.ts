import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateProofKeys } from '../../certs/proof-key.ts';
import { signProof } from '../../certs/proof-signing.ts';
import { parseCheckFileInfo } from '../../daemon/server/wopi/check-file-info.ts';
import { WopiClient } from '../../daemon/server/wopi/wopi-client.ts';
import { WopiError } from '../../daemon/server/wopi/wopi-error.ts';
import { checkWopiHost, parseWopiSrc } from '../../daemon/server/wopi/wopi-src.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';

const fail = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as WopiError,
  );

describe('WOPISrc and allowed hosts', () => {
  it('accepts file URLs with a wopi* segment and a base64url id, keyed without the query', () => {
    const s = parseWopiSrc('https://cloud.example.org/index.php/apps/richdocuments/wopi/files/12345_ocabc-DEF?x=1');
    expect(s.fileId).toBe('12345_ocabc-DEF');
    expect(s.key).toBe('https://cloud.example.org/index.php/apps/richdocuments/wopi/files/12345_ocabc-DEF');
    expect(parseWopiSrc('http://h/wopiX/files/a').fileId).toBe('a');
  });
  it('refuses what is not a WOPI file URL, saying why', () => {
    for (const bad of [
      undefined,
      'files/1',
      'ftp://h/wopi/files/1',
      'https://h/files/1',
      'https://h/wopi',
      'https://h/wopi/files/a%2Fb',
      'https://h/wopi/files/a.b',
    ]) {
      expect(() => parseWopiSrc(bad), String(bad)).toThrow(/WOPISrc/);
    }
  });
  it('storage.wopi.hosts: patterns on the whole host name; loopback always allowed; the error names the key', () => {
    expect(() => checkWopiHost(parseWopiSrc('http://127.0.0.1:8080/wopi/files/1'), [])).not.toThrow();
    expect(() => checkWopiHost(parseWopiSrc('http://localhost/wopi/files/1'), [])).not.toThrow();
    expect(() => checkWopiHost(parseWopiSrc('https://docs.example.org/wopi/files/1'), ['docs\\.example\\.org'])).not.toThrow();
    expect(() => checkWopiHost(parseWopiSrc('https://evil-docs.example.org/wopi/files/1'), ['docs\\.example\\.org'])).toThrow(/storage\.wopi\.hosts/);
  });
});

describe('CheckFileInfo parsing', () => {
  it('applies the spec defaults to a minimal answer', () => {
    const i = parseCheckFileInfo({ BaseFileName: 'a.docx', OwnerId: 'o', UserId: 'u7', Size: 10 });
    expect(i).toMatchObject({
      BaseFileName: 'a.docx',
      Size: 10,
      UserFriendlyName: 'UnknownUser_u7',
      UserCanWrite: false,
      UserCanNotWriteRelative: true,
      SupportsRename: false,
      UserCanRename: false,
      IsAdminUser: false,
      WatermarkText: '',
    });
    expect(i.ignored).toEqual([]);
  });
  it('reads every kind of property; implications, deprecated names and the override apply', () => {
    const i = parseCheckFileInfo(
      {
        BaseFileName: 'dir/b.odt',
        OwnerId: 'o',
        UserId: 'u',
        Size: '42',
        UserCanWrite: 'true',
        DisablePrint: true,
        DisableExport: true,
        is_admin: true,
        is_guest: true,
        LastModifiedTime: '2026-01-01T00:00:00.0000000Z',
        UserExtraInfo: { avatar: 'https://a/b.png', mail: 'x@y' },
        UserPrivateInfo: { SignatureCert: 'PEM', Other: 1 },
        ServerPrivateInfo: { ESignatureBaseUrl: 'https://sign' },
        UserSettings: { url: 'https://h/wopi/settings', stamp: 's1' },
        IsUserRestricted: ['Print'],
        DownloadAsPostMessage: true,
        Unknown: 5,
      },
      'DownloadAsPostMessage=false',
    );
    expect(i).toMatchObject({
      BaseFileName: 'b.odt',
      Size: 42,
      UserCanWrite: true,
      HidePrintOption: true,
      HideExportOption: true,
      IsAdminUser: true,
      IsAnonymousUser: true,
      LastModifiedTime: '2026-01-01T00:00:00.0000000Z',
      UserExtraInfo: { avatar: 'https://a/b.png', mail: 'x@y' },
      UserPrivateInfo: { SignatureCert: 'PEM' },
      ServerPrivateInfo: { ESignatureBaseUrl: 'https://sign' },
      UserSettings: { url: 'https://h/wopi/settings', stamp: 's1' },
      IsUserRestricted: ['Print'],
      DownloadAsPostMessage: false,
    });
    expect(i.UserPrivateInfo).not.toHaveProperty('Other');
  });
  it('a wrong type is treated as absent and named; no BaseFileName is an error', () => {
    const i = parseCheckFileInfo({ BaseFileName: 'a.docx', UserId: 'u', Size: 1, UserCanWrite: 'yes', UserExtraInfo: 'x' });
    expect(i.UserCanWrite).toBe(false);
    expect(i.ignored).toEqual(['UserCanWrite', 'UserExtraInfo']);
    expect(() => parseCheckFileInfo({ Size: 1 })).toThrow(/BaseFileName/);
    expect(() => parseCheckFileInfo([])).toThrow(WopiError);
  });
});

describe('WopiClient against a real HTTP host', () => {
  let host: FakeWopiHost;
  let other: FakeWopiHost;
  let dir: string;
  let client: WopiClient;
  const doc = Buffer.from('PK fake document bytes');
  beforeAll(async () => {
    host = await FakeWopiHost.start();
    other = await FakeWopiHost.start();
    dir = mkdtempSync(join(tmpdir(), 'ode-wopi-'));
    const keys = loadOrCreateProofKeys(dir);
    host.proofKey = keys.current.publicKey;
    client = new WopiClient({ sign: (token, url) => ({ ...signProof(keys, token, url) }), timeoutMs: 1500, compatHeaders: true });
  });
  afterAll(async () => {
    await host?.stop();
    await other?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    host.requests.length = 0;
    host.script.clear();
    host.files.clear();
  });

  it('CheckFileInfo and GetFile carry the token in the query and as Bearer, with a valid proof', async () => {
    const src = parseWopiSrc(host.addFile('f1', 'a.docx', doc));
    const info = await client.checkFileInfo(src, host.token);
    expect(info).toMatchObject({ BaseFileName: 'a.docx', Size: doc.length, UserCanWrite: true });
    expect((await client.getFile(src, host.token)).equals(doc)).toBe(true);
    expect(host.requests.map((r) => r.operation)).toEqual(['CheckFileInfo', 'GetFile']);
    for (const r of host.requests) {
      expect(r.query.get('access_token')).toBe(host.token);
      expect(r.headers.authorization).toBe(`Bearer ${host.token}`);
      expect(r.proofValid).toBe(true);
    }
  });

  it('GetFile tries FileUrl first (with credentials only on the host origin) and falls back to /contents', async () => {
    const src = parseWopiSrc(host.addFile('f2', 'a.docx', doc));
    host.addFile('x', 'x.docx', Buffer.from('from FileUrl'));
    const viaFileUrl = await client.getFile(src, host.token, { FileUrl: `${host.fileUrl('x')}/contents` });
    expect(viaFileUrl.toString()).toBe('from FileUrl');
    expect(host.of('GetFile')[0].proofValid).toBe(true);
    other.requests.length = 0;
    const fallback = await client.getFile(src, host.token, { FileUrl: `${other.fileUrl('x')}/contents` });
    expect(fallback.equals(doc)).toBe(true);
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0].headers.authorization).toBeUndefined();
  });

  it('PutFile sends the save headers under X-ODE-, X-COOL- and X-LOOL-, and returns the new LastModifiedTime', async () => {
    const src = parseWopiSrc(host.addFile('f3', 'a.docx', doc));
    const stamp = host.files.get('f3')!.lastModifiedTime;
    const r = await client.putFile(src, host.token, Buffer.from('new'), { timestamp: stamp, isModifiedByUser: true, isAutosave: false, isExitSave: true });
    expect(r.lastModifiedTime).toBe(host.files.get('f3')!.lastModifiedTime);
    expect(host.files.get('f3')!.bytes.toString()).toBe('new');
    const h = host.of('PutFile')[0].headers;
    expect(h['x-wopi-override']).toBe('PUT');
    for (const p of ['x-ode', 'x-cool', 'x-lool']) {
      expect(h[`${p}-wopi-timestamp`]).toBe(stamp);
      expect(h[`${p}-wopi-ismodifiedbyuser`]).toBe('true');
      expect(h[`${p}-wopi-isautosave`]).toBe('false');
      expect(h[`${p}-wopi-isexitsave`]).toBe('true');
    }
    const plain = new WopiClient({ timeoutMs: 1500, compatHeaders: false });
    await plain.putFile(src, host.token, Buffer.from('again'), { isModifiedByUser: false, isAutosave: true, isExitSave: false });
    const h2 = host.of('PutFile')[1].headers;
    expect(h2['x-ode-wopi-isautosave']).toBe('true');
    expect(h2['x-ode-wopi-timestamp']).toBeUndefined();
    expect(h2['x-ode-wopi-isexitsave']).toBeUndefined();
    expect(Object.keys(h2).filter((k) => k.startsWith('x-cool') || k.startsWith('x-lool'))).toEqual([]);
  });

  it('409 with 1010 under any of the three status-code names is document_changed; other failures have their kinds', async () => {
    const src = parseWopiSrc(host.addFile('f4', 'a.docx', doc));
    const opts = { isModifiedByUser: true, isAutosave: false, isExitSave: false };
    for (const field of ['ODEStatusCode', 'COOLStatusCode', 'LOOLStatusCode']) {
      host.answer('PutFile', { status: 409, body: JSON.stringify({ [field]: 1010 }) });
      expect(await fail(client.putFile(src, host.token, doc, opts))).toMatchObject({ kind: 'document_changed', status: 409 });
    }
    host.answer('PutFile', { status: 409, body: '', headers: { 'X-WOPI-Lock': 'someone-else' } });
    expect(await fail(client.putFile(src, host.token, doc, opts))).toMatchObject({ kind: 'conflict', lock: 'someone-else' });
    host.answer('PutFile', { status: 401 }, { status: 413 }, { status: 503 }, { status: 200, delayMs: 2500 });
    expect(await fail(client.putFile(src, host.token, doc, opts))).toMatchObject({ kind: 'unauthorized', retryable: false });
    expect(await fail(client.putFile(src, host.token, doc, opts))).toMatchObject({ kind: 'too_large' });
    expect(await fail(client.putFile(src, host.token, doc, opts))).toMatchObject({ kind: 'unavailable', retryable: true });
    const slow = await fail(client.putFile(src, host.token, doc, opts));
    expect(slow).toMatchObject({ kind: 'unavailable' });
    expect(slow?.message).toMatch(/no answer within 1500 ms/);
    const refused = new WopiClient({ timeoutMs: 1500, compatHeaders: false });
    expect(await fail(refused.checkFileInfo(parseWopiSrc('http://127.0.0.1:1/wopi/files/x'), 't'))).toMatchObject({ kind: 'unavailable' });
  });

  it('follows up to 21 redirects, keeps the token and proof on the host, and sends neither elsewhere', async () => {
    const src = parseWopiSrc(host.addFile('f5', 'a.docx', doc));
    const hop = { status: 307, headers: { Location: `${host.url}/wopi/files/f5/contents` } };
    host.answer('GetFile', ...Array.from({ length: 21 }, () => hop));
    expect((await client.getFile(src, host.token)).equals(doc)).toBe(true);
    expect(host.of('GetFile').every((r) => r.proofValid && r.query.get('access_token') === host.token)).toBe(true);
    host.answer('GetFile', ...Array.from({ length: 22 }, () => hop));
    expect(await fail(client.getFile(src, host.token))).toMatchObject({ kind: 'bad_answer' });
    other.addFile('y', 'y.docx', Buffer.from('elsewhere'));
    other.token = 'tok_123';
    host.answer('GetFile', { status: 302, headers: { Location: `${other.fileUrl('y')}/contents?access_token=${other.token}` } });
    other.requests.length = 0;
    await fail(client.getFile(src, host.token));
    expect(other.requests[0].headers.authorization).toBeUndefined();
    expect(other.requests[0].headers['x-wopi-proof']).toBeUndefined();
  });

  it('PutRelativeFile and RenameFile send UTF-7 names, byte for byte, that iconv decodes back', async () => {
    const src = parseWopiSrc(host.addFile('f6', 'a.docx', doc));
    await client.putRelativeFile(src, host.token, doc, 'Größe Über.odt');
    const put = host.of('PUT_RELATIVE')[0];
    const raw = put.rawHeaders[put.rawHeaders.findIndex((h) => h.toLowerCase() === 'x-wopi-suggestedtarget') + 1];
    // RFC 2152 by hand: "ö" U+00F6 and "ß" U+00DF -> base64 of 00 F6 00 DF = "APYA3w"; " Ü" U+0020 U+00DC -> "ACAA3A".
    expect(raw).toBe('Gr+APYA3w-e+ACAA3A-ber.odt');
    expect(execFileSync('iconv', ['-f', 'UTF-7', '-t', 'UTF-8'], { input: raw }).toString()).toBe('Größe Über.odt');
    expect(put.headers['x-wopi-size']).toBe(String(doc.length));
    expect(put.body.equals(doc)).toBe(true);
    await client.renameFile(src, host.token, '日本語', doc);
    const ren = host.of('RENAME_FILE')[0];
    // The document goes in the body, as Collabora sends it (richdocuments writes it into the renamed file).
    expect(ren.body.equals(doc)).toBe(true);
    expect(ren.headers['content-type']).toBe('application/octet-stream');
    const name = ren.rawHeaders[ren.rawHeaders.findIndex((h) => h.toLowerCase() === 'x-wopi-requestedname') + 1];
    expect(name).toMatch(/^[\x20-\x7e]+$/);
    expect(execFileSync('iconv', ['-f', 'UTF-7', '-t', 'UTF-8'], { input: name }).toString()).toBe('日本語');
  });

  it('Lock, RefreshLock and Unlock carry X-WOPI-Lock', async () => {
    const src = parseWopiSrc(host.addFile('f7', 'a.docx', doc));
    await client.lock(src, host.token, 'LOCK', 'L1');
    await client.lock(src, host.token, 'REFRESH_LOCK', 'L1');
    await client.lock(src, host.token, 'UNLOCK', 'L1');
    expect(host.requests.map((r) => [r.operation, r.headers['x-wopi-lock']])).toEqual([
      ['LOCK', 'L1'],
      ['REFRESH_LOCK', 'L1'],
      ['UNLOCK', 'L1'],
    ]);
  });
});
