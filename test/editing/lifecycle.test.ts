import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { fakeKitText } from '../helpers/fake-kit.ts';
import { FakeWopiHost, publicKeyFromDiscovery } from '../helpers/fake-wopi-host.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
/** What was typed into a stored document (the fake kit's text part, read back from the host's file), '' when none. */
const storedText = (bytes: Uint8Array) => fakeKitText(bytes) ?? '';

/**
 * The document lifecycle over WOPI with fake kits (daemon/protocol/kit.md, "The fake kit"): conflicts, upload
 * failures and retries, read-only rights, crashes and reloads, locks, token renewal, owner termination, idle
 * unload. What needs LibreOffice itself (typing into a real document, two views' cursors, tiles, templates, Save As,
 * the clipboard) stays in editing-sessions.test.ts, which also saves a real document and so stands for what the fake
 * does here.
 */
describe('document lifecycle over WOPI (fake kits, real WebSocket clients, a fake WOPI host)', () => {
  let daemon: TestDaemon;
  let host: FakeWopiHost;
  const clients: EditorClient[] = [];
  let n = 0;
  const open = async (id: string, info: Record<string, unknown> = {}, bytes = DOCX, name = 'letter.docx') => {
    const src = host.addFile(id, name, bytes, info);
    const r = await EditorClient.open(daemon.url, src, { token: host.token });
    clients.push(r.client);
    return { ...r, src };
  };
  // The fake kit applies input at once and answers a save after the input sent before it: no wait is needed.
  const typeAndWait = async (c: EditorClient, text: string) => {
    const from = c.messages.length;
    c.type(text);
    await c.next('modified', (m) => m.modified, 30_000, from);
  };
  const saved = (c: EditorClient, from: number) => c.next('saved', () => true, 60_000, from);

  beforeAll(async () => {
    host = await FakeWopiHost.start();
    daemon = await startDaemon({ kits: { prespawn: 2, max: 4 }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600, upload_retry_max_secs: 1 } }, 2, 0, { fakeKits: true });
    const discovery = await (await fetch(`${daemon.url}/hosting/discovery`)).text();
    host.proofKey = publicKeyFromDiscovery(discovery);
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) c.close();
    await daemon?.stop();
    await host?.stop();
  });
  beforeEach(() => {
    n++;
  });
  afterEach(async () => {
    // Each test's documents close (exit save, kit retired) so the next test gets kits.
    for (const c of clients.splice(0)) c.close();
    const deadline = Date.now() + 30_000;
    while (daemon.server.documents.list().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  });

  it('a stored document changed elsewhere: 409/1010 -> the users choose; overwrite stores our version without the timestamp', async () => {
    const { client } = await open(`c${n}`);
    await typeAndWait(client, 'Mine');
    host.touch(`c${n}`, Buffer.from('someone else'));
    let from = client.messages.length;
    client.send({ type: 'save' });
    expect(await client.next('conflict', () => true, 60_000, from)).toEqual({ type: 'conflict', unsavedChanges: true });
    expect(host.files.get(`c${n}`)!.bytes.toString()).toBe('someone else');
    from = client.messages.length;
    client.send({ type: 'resolveConflict', choice: 'overwrite' });
    expect(await saved(client, from)).toMatchObject({ ok: true });
    const last = host.of('PutFile').at(-1)!;
    expect(last.headers['x-ode-wopi-timestamp']).toBeUndefined();
    expect(storedText(host.files.get(`c${n}`)!.bytes)).toContain('Mine');
  });

  it('a conflict resolved by reload discards our changes and loads the stored version', async () => {
    const { client } = await open(`d${n}`);
    await typeAndWait(client, 'Discard me');
    host.touch(`d${n}`);
    let from = client.messages.length;
    client.send({ type: 'save' });
    await client.next('conflict', () => true, 60_000, from);
    const gets = host.of('GetFile').length;
    from = client.messages.length;
    client.send({ type: 'resolveConflict', choice: 'reload' });
    await client.next('reloaded', () => true, 60_000, from);
    await client.next('status', () => true, 60_000, from);
    expect(host.of('GetFile').length).toBe(gets + 1);
    expect(storedText(host.files.get(`d${n}`)!.bytes)).not.toContain('Discard me');
    // The kit holds the stored version now: what is typed next is saved on it, without the discarded text.
    await typeAndWait(client, 'After reload');
    from = client.messages.length;
    client.send({ type: 'save' });
    expect(await saved(client, from)).toMatchObject({ ok: true });
    expect(storedText(host.files.get(`d${n}`)!.bytes)).toBe('After reload');
  });

  it('PutFile answered 500 twice then 200: one stored copy, nothing lost, users told it retries', async () => {
    const { client } = await open(`e${n}`);
    await typeAndWait(client, 'Persist');
    host.answer('PutFile', { status: 500, body: 'down' }, { status: 503, body: 'still down' });
    const before = host.of('PutFile').length;
    const from = client.messages.length;
    client.send({ type: 'save' });
    expect(await saved(client, from)).toMatchObject({ ok: true });
    expect(host.of('PutFile').length - before).toBe(3);
    expect(client.messages.slice(from).filter((m) => m.type === 'storage' && m.state === 'retrying')).toHaveLength(2);
    expect(storedText(host.files.get(`e${n}`)!.bytes)).toContain('Persist');
  });

  it('host 401 on PutFile: a clear error, and no retry storm', async () => {
    const { client } = await open(`f${n}`);
    await typeAndWait(client, 'Nope');
    host.answer('PutFile', { status: 401 });
    const before = host.of('PutFile').length;
    const from = client.messages.length;
    client.send({ type: 'save' });
    expect(await saved(client, from)).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect(await client.next('storage', (m) => m.state === 'unauthorized', 5000, from)).toBeDefined();
    await new Promise((r) => setTimeout(r, 1500));
    expect(host.of('PutFile').length - before).toBe(1);
  });

  it('UserCanWrite false: typing refused, no PutFile in any path (save, close)', async () => {
    const { client, status } = await open(`g${n}`, { UserCanWrite: false });
    expect(status.readonly).toBe(true);
    let from = client.messages.length;
    client.type('x');
    expect(await client.next('error', (m) => m.code === 'readonly', 10_000, from)).toBeDefined();
    from = client.messages.length;
    client.send({ type: 'save' });
    await client.next('error', (m) => m.code === 'readonly', 10_000, from);
    client.close();
    await new Promise((r) => setTimeout(r, 1500));
    expect(host.of('PutFile').filter((r) => r.path.includes(`g${n}`))).toEqual([]);
  });

  it('a kit killed while a document is open: the document is loaded again in a fresh kit, the view goes on, daemon fine', async () => {
    const { client } = await open(`k${n}`);
    const doc = daemon.server.documents.list().find((d) => d.key.endsWith(`/k${n}`));
    const pid = doc?.kitPid;
    expect(pid).toBeDefined();
    const from = client.messages.length;
    process.kill(pid!, 'SIGKILL');
    // Nothing was typed: no journal, so the stored file is loaded again (test/faults/kit-crash*.test.ts: with input).
    expect(await client.next('reloaded', () => true, 30_000, from)).toBeDefined();
    expect(doc!.kitPid).not.toBe(pid);
    expect(client.closeCode).toBeUndefined();
    expect((await fetch(`${daemon.url}/health`)).status).toBe(200);
  });

  it('SupportsLocks: Lock on open, the lock on PutFile, Unlock on close; a lock held elsewhere opens read-only', async () => {
    const { client } = await open(`l${n}`, { SupportsLocks: true });
    const lock = host.of('LOCK').at(-1)!.headers['x-wopi-lock'];
    expect(lock).toMatch(/^ode-/);
    await typeAndWait(client, 'Locked edit');
    const from = client.messages.length;
    client.send({ type: 'save' });
    await saved(client, from);
    expect(host.of('PutFile').at(-1)!.headers['x-wopi-lock']).toBe(lock);
    client.close();
    const deadline = Date.now() + 20_000;
    while (host.of('UNLOCK').length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(host.of('UNLOCK').at(-1)!.headers['x-wopi-lock']).toBe(lock);
    host.answer('LOCK', { status: 409, headers: { 'X-WOPI-Lock': 'desktop-app' } });
    const other = await open(`m${n}`, { SupportsLocks: true });
    expect(other.status.readonly).toBe(true);
    expect(other.client.messages.find((m) => m.type === 'storage')?.message).toContain('desktop-app');
  });

  it('leaving while a conflict is unresolved uploads nothing more, and the refused copy stays in the recovery folder', async () => {
    const { client } = await open(`r${n}`);
    await typeAndWait(client, 'Unresolved');
    host.touch(`r${n}`, Buffer.from('theirs'));
    const from = client.messages.length;
    client.send({ type: 'save' });
    await client.next('conflict', () => true, 60_000, from);
    const puts = host.of('PutFile').length;
    client.close();
    const deadline = Date.now() + 20_000;
    while (daemon.server.documents.list().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(host.of('PutFile').length).toBe(puts);
    expect(host.files.get(`r${n}`)!.bytes.toString()).toBe('theirs');
    const recovery = join(daemon.store.get().state_dir, 'recovery');
    const kept = readdirSync(recovery).filter((f) => f.endsWith('letter.docx'));
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept.some((f) => storedText(readFileSync(join(recovery, f))).includes('Unresolved'))).toBe(true);
  });

  it('a change made elsewhere is noticed by the periodic CheckFileInfo: reloaded when nothing is unsaved, asked when something is', async () => {
    daemon.reconfigure({ documents: { check_secs: 1 } });
    try {
      const quiet = await open(`u${n}`);
      host.touch(`u${n}`);
      await quiet.client.next('reloaded', () => true, 15_000);
      const busy = await open(`v${n}`);
      await typeAndWait(busy.client, 'Unsaved work');
      host.touch(`v${n}`);
      expect(await busy.client.next('conflict', () => true, 15_000)).toEqual({ type: 'conflict', unsavedChanges: true });
      expect(busy.client.messages.some((m) => m.type === 'reloaded')).toBe(false);
    } finally {
      daemon.reconfigure({ documents: { check_secs: 0 } });
    }
  });

  it('a new view whose CheckFileInfo shows another LastModifiedTime makes the open document reload', async () => {
    const first = await open(`w${n}`);
    host.touch(`w${n}`);
    const second = await EditorClient.open(daemon.url, first.src, { token: host.token });
    clients.push(second.client);
    await first.client.next('reloaded', () => true, 20_000);
    expect(host.of('GetFile').filter((r) => r.path.includes(`w${n}`))).toHaveLength(2);
  });

  it('access_token_ttl: warned 15 minutes before; Reset_Access_Token hands in a new token that the next save uses', async () => {
    const src = host.addFile(`x${n}`, 'letter.docx', DOCX);
    const { client } = await EditorClient.open(daemon.url, src, { token: host.token, tokenTtl: Date.now() + 15 * 60 * 1000 + 500 });
    clients.push(client);
    expect((await client.next('tokenExpiring', () => true, 10_000)).expiresAt).toBeGreaterThan(Date.now());
    const old = host.token;
    host.token = 'tok_renewed';
    try {
      client.send({ type: 'resetAccessToken', token: 'tok_renewed', tokenTtl: Date.now() + 3_600_000 });
      await typeAndWait(client, 'After renewal');
      const from = client.messages.length;
      client.send({ type: 'save' });
      expect(await saved(client, from)).toMatchObject({ ok: true });
      expect(host.of('PutFile').at(-1)!.query.get('access_token')).toBe('tok_renewed');
    } finally {
      host.token = old;
    }
  });

  it('EnableOwnerTermination: the owner closes the document for everyone (4409); anyone else is refused', async () => {
    const owner = await open(`y${n}`, { EnableOwnerTermination: true, UserId: 'owner' });
    const guest = await EditorClient.open(daemon.url, owner.src, { token: host.token });
    clients.push(guest.client);
    await owner.client.next('views', (m) => m.views.length === 2);
    owner.client.messages.length = 0;
    host.files.get(`y${n}`)!.info.UserId = 'someone';
    const third = await EditorClient.open(daemon.url, owner.src, { token: host.token });
    clients.push(third.client);
    third.client.send({ type: 'closeDocument' });
    expect(await third.client.next('error', (m) => m.code === 'forbidden', 10_000)).toBeDefined();
    owner.client.send({ type: 'closeDocument' });
    expect(await owner.client.closed()).toBe(4409);
    expect(await guest.client.closed()).toBe(4409);
  });

  it('PutFile answered 413: users told, and the document turns read-only', async () => {
    const { client } = await open(`z${n}`);
    await typeAndWait(client, 'Too big');
    host.answer('PutFile', { status: 413 });
    let from = client.messages.length;
    client.send({ type: 'save' });
    expect(await client.next('storage', (m) => m.state === 'too_large', 60_000, from)).toBeDefined();
    expect(await client.next('status', (m) => m.readonly, 10_000, from)).toBeDefined();
    from = client.messages.length;
    client.type('x');
    expect(await client.next('error', (m) => m.code === 'readonly', 10_000, from)).toBeDefined();
  });

  it('close then discard: the exit save meets 409/1010, the stored version stays, our copy is kept in the recovery folder', async () => {
    const { client } = await open(`cd${n}`);
    await typeAndWait(client, 'Closing edit');
    host.touch(`cd${n}`, Buffer.from('stored elsewhere'));
    client.close();
    const deadline = Date.now() + 30_000;
    while (daemon.server.documents.list().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const exitPut = host.of('PutFile').filter((r) => r.path.includes(`cd${n}`));
    expect(exitPut).toHaveLength(1);
    expect(exitPut[0].headers['x-ode-wopi-isexitsave']).toBe('true');
    expect(host.files.get(`cd${n}`)!.bytes.toString()).toBe('stored elsewhere');
    const recovery = join(daemon.store.get().state_dir, 'recovery');
    // Beside each copy, its sidecar (.json: what a later start needs to upload it).
    expect(readdirSync(recovery).some((f) => f.endsWith('.docx') && storedText(readFileSync(join(recovery, f))).includes('Closing edit'))).toBe(true);
  });

  it('every request the WOPI host received in this suite carried a valid proof (key from discovery)', () => {
    expect(host.requests.length).toBeGreaterThan(40);
    expect(host.requests.filter((r) => r.proofValid !== true).map((r) => `${r.operation} ${r.path}`)).toEqual([]);
  });

  it('idle unload: after documents.idle_unload_secs without input the document is saved (IsExitSave) and its views closed with 4408', async () => {
    daemon.reconfigure({ documents: { idle_unload_secs: 2 } });
    try {
      const { client } = await open(`id${n}`);
      await typeAndWait(client, 'Left open');
      expect(await client.next('idle', () => true, 15_000)).toBeDefined();
      expect(await client.closed()).toBe(4408);
      const put = host.of('PutFile').filter((r) => r.path.includes(`id${n}`));
      expect(put).toHaveLength(1);
      expect(put[0].headers['x-ode-wopi-isexitsave']).toBe('true');
      expect(storedText(host.files.get(`id${n}`)!.bytes)).toContain('Left open');
    } finally {
      daemon.reconfigure({ documents: { idle_unload_secs: 3600 } });
    }
  });
});
