import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { documentsClosed } from '../helpers/daemon.ts';
import { useDocumentTests } from '../helpers/editing-setup.ts';
import type { EditorClient } from '../helpers/editor-client.ts';
import { fakeKitText } from '../helpers/fake-kit.ts';

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
  const env = useDocumentTests({ readyKits: 2, maxKits: 4, fakeKits: true, documents: { upload_retry_max_secs: 1 }, file: DOCX });
  const { open } = env;
  // The fake kit applies input at once and answers a save after the input sent before it: no wait is needed.
  const typeAndWait = async (c: EditorClient, text: string) => {
    const from = c.messages.length;
    c.type(text);
    await c.next('modified', (m) => m.modified, 30_000, from);
  };
  const saved = (c: EditorClient, from: number) => c.next('saved', () => true, 60_000, from);

  it('a stored document changed elsewhere: 409/1010 -> the users choose; overwrite stores our version without the timestamp', async () => {
    const { client } = await open(`c${env.n}`);
    await typeAndWait(client, 'Mine');
    env.host.touch(`c${env.n}`, Buffer.from('someone else'));
    let from = client.messages.length;
    client.send({ type: 'save' });
    expect(await client.next('conflict', () => true, 60_000, from)).toEqual({ type: 'conflict', unsavedChanges: true });
    expect(env.host.files.get(`c${env.n}`)!.bytes.toString()).toBe('someone else');
    from = client.messages.length;
    client.send({ type: 'resolveConflict', choice: 'overwrite' });
    expect(await saved(client, from)).toMatchObject({ ok: true });
    const last = env.host.of('PutFile').at(-1)!;
    expect(last.headers['x-ode-wopi-timestamp']).toBeUndefined();
    expect(storedText(env.host.files.get(`c${env.n}`)!.bytes)).toContain('Mine');
  });

  it('a conflict resolved by reload discards our changes and loads the stored version', async () => {
    const { client } = await open(`d${env.n}`);
    await typeAndWait(client, 'Discard me');
    env.host.touch(`d${env.n}`);
    let from = client.messages.length;
    client.send({ type: 'save' });
    await client.next('conflict', () => true, 60_000, from);
    const gets = env.host.of('GetFile').length;
    from = client.messages.length;
    client.send({ type: 'resolveConflict', choice: 'reload' });
    await client.next('reloaded', () => true, 60_000, from);
    await client.next('status', () => true, 60_000, from);
    expect(env.host.of('GetFile').length).toBe(gets + 1);
    expect(storedText(env.host.files.get(`d${env.n}`)!.bytes)).not.toContain('Discard me');
    // The kit holds the stored version now: what is typed next is saved on it, without the discarded text.
    await typeAndWait(client, 'After reload');
    from = client.messages.length;
    client.send({ type: 'save' });
    expect(await saved(client, from)).toMatchObject({ ok: true });
    expect(storedText(env.host.files.get(`d${env.n}`)!.bytes)).toBe('After reload');
  });

  it('PutFile answered 500 twice then 200: one stored copy, nothing lost, users told it retries', async () => {
    const { client } = await open(`e${env.n}`);
    await typeAndWait(client, 'Persist');
    env.host.answer('PutFile', { status: 500, body: 'down' }, { status: 503, body: 'still down' });
    const before = env.host.of('PutFile').length;
    const from = client.messages.length;
    client.send({ type: 'save' });
    expect(await saved(client, from)).toMatchObject({ ok: true });
    expect(env.host.of('PutFile').length - before).toBe(3);
    expect(client.messages.slice(from).filter((m) => m.type === 'storage' && m.state === 'retrying')).toHaveLength(2);
    expect(storedText(env.host.files.get(`e${env.n}`)!.bytes)).toContain('Persist');
  });

  it('host 401 on PutFile: a clear error, and no retry storm', async () => {
    const { client } = await open(`f${env.n}`);
    await typeAndWait(client, 'Nope');
    env.host.answer('PutFile', { status: 401 });
    const before = env.host.of('PutFile').length;
    const from = client.messages.length;
    client.send({ type: 'save' });
    expect(await saved(client, from)).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect(await client.next('storage', (m) => m.state === 'unauthorized', 5000, from)).toBeDefined();
    await new Promise((r) => setTimeout(r, 1500));
    expect(env.host.of('PutFile').length - before).toBe(1);
  });

  it('UserCanWrite false: typing refused, no PutFile in any path (save, close)', async () => {
    const { client, status } = await open(`g${env.n}`, { UserCanWrite: false });
    expect(status.readonly).toBe(true);
    let from = client.messages.length;
    client.type('x');
    expect(await client.next('error', (m) => m.code === 'readonly', 10_000, from)).toBeDefined();
    from = client.messages.length;
    client.send({ type: 'save' });
    await client.next('error', (m) => m.code === 'readonly', 10_000, from);
    client.close();
    await new Promise((r) => setTimeout(r, 1500));
    expect(env.host.of('PutFile').filter((r) => r.path.includes(`g${env.n}`))).toEqual([]);
  });

  it('a kit killed while a document is open: the document is loaded again in a fresh kit, the view goes on, daemon fine', async () => {
    const { client } = await open(`k${env.n}`);
    const doc = env.daemon.server.documents.list().find((d) => d.key.endsWith(`/k${env.n}`));
    const pid = doc?.kitPid;
    expect(pid).toBeDefined();
    const from = client.messages.length;
    process.kill(pid!, 'SIGKILL');
    // Nothing was typed: no journal, so the stored file is loaded again (test/faults/kit-crash*.test.ts: with input).
    expect(await client.next('reloaded', () => true, 30_000, from)).toBeDefined();
    expect(doc!.kitPid).not.toBe(pid);
    expect(client.closeCode).toBeUndefined();
    expect((await fetch(`${env.daemon.url}/health`)).status).toBe(200);
  });

  it('SupportsLocks: Lock on open, the lock on PutFile, Unlock on close; a lock held elsewhere opens read-only', async () => {
    const { client } = await open(`l${env.n}`, { SupportsLocks: true });
    const lock = env.host.of('LOCK').at(-1)!.headers['x-wopi-lock'];
    expect(lock).toMatch(/^ode-/);
    await typeAndWait(client, 'Locked edit');
    const from = client.messages.length;
    client.send({ type: 'save' });
    await saved(client, from);
    expect(env.host.of('PutFile').at(-1)!.headers['x-wopi-lock']).toBe(lock);
    client.close();
    const deadline = Date.now() + 20_000;
    while (env.host.of('UNLOCK').length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(env.host.of('UNLOCK').at(-1)!.headers['x-wopi-lock']).toBe(lock);
    env.host.answer('LOCK', { status: 409, headers: { 'X-WOPI-Lock': 'desktop-app' } });
    const other = await open(`m${env.n}`, { SupportsLocks: true });
    expect(other.status.readonly).toBe(true);
    expect(other.client.messages.find((m) => m.type === 'storage')?.message).toContain('desktop-app');
  });

  it('leaving while a conflict is unresolved uploads nothing more, and the refused copy stays in the recovery folder', async () => {
    const { client } = await open(`r${env.n}`);
    await typeAndWait(client, 'Unresolved');
    env.host.touch(`r${env.n}`, Buffer.from('theirs'));
    const from = client.messages.length;
    client.send({ type: 'save' });
    await client.next('conflict', () => true, 60_000, from);
    const puts = env.host.of('PutFile').length;
    client.close();
    await documentsClosed(env.daemon.server, 20_000, 50);
    expect(env.host.of('PutFile').length).toBe(puts);
    expect(env.host.files.get(`r${env.n}`)!.bytes.toString()).toBe('theirs');
    const recovery = join(env.daemon.store.get().state_dir, 'recovery');
    const kept = readdirSync(recovery).filter((f) => f.endsWith('letter.docx'));
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept.some((f) => storedText(readFileSync(join(recovery, f))).includes('Unresolved'))).toBe(true);
  });

  it('a change made elsewhere is noticed by the periodic CheckFileInfo: reloaded when nothing is unsaved, asked when something is', async () => {
    env.daemon.reconfigure({ documents: { check_secs: 1 } });
    try {
      const quiet = await open(`u${env.n}`);
      env.host.touch(`u${env.n}`);
      await quiet.client.next('reloaded', () => true, 15_000);
      const busy = await open(`v${env.n}`);
      await typeAndWait(busy.client, 'Unsaved work');
      env.host.touch(`v${env.n}`);
      expect(await busy.client.next('conflict', () => true, 15_000)).toEqual({ type: 'conflict', unsavedChanges: true });
      expect(busy.client.messages.some((m) => m.type === 'reloaded')).toBe(false);
    } finally {
      env.daemon.reconfigure({ documents: { check_secs: 0 } });
    }
  });

  it('a new view whose CheckFileInfo shows another LastModifiedTime makes the open document reload', async () => {
    const first = await open(`w${env.n}`);
    env.host.touch(`w${env.n}`);
    await env.openSrc(first.src);
    await first.client.next('reloaded', () => true, 20_000);
    expect(env.host.of('GetFile').filter((r) => r.path.includes(`w${env.n}`))).toHaveLength(2);
  });

  it('a view whose join notices the change made elsewhere is made again in the reloaded document: its typing is stored', async () => {
    const first = await open(`wj${env.n}`);
    env.host.touch(`wj${env.n}`);
    const second = await env.openSrc(first.src);
    await first.client.next('reloaded', () => true, 20_000);
    await second.client.next('reloaded', () => true, 20_000);
    await typeAndWait(second.client, 'Joined late');
    const from = second.client.messages.length;
    second.client.send({ type: 'save' });
    expect(await saved(second.client, from)).toMatchObject({ ok: true });
    expect(storedText(env.host.files.get(`wj${env.n}`)!.bytes)).toBe('Joined late');
  });

  it('a reload keeps the WOPI lock it holds (a host enforcing locks): no second Lock, the document stays writable', async () => {
    env.host.enforceLocks = true;
    env.daemon.reconfigure({ documents: { check_secs: 1 } });
    try {
      const { client } = await open(`rl${env.n}`, { SupportsLocks: true });
      const lock = env.host.locks.get(`rl${env.n}`);
      expect(lock).toMatch(/^ode-/);
      const locks = env.host.of('LOCK').length;
      let from = client.messages.length;
      env.host.touch(`rl${env.n}`);
      await client.next('reloaded', () => true, 15_000, from);
      expect((await client.next('status', () => true, 15_000, from)).readonly).toBe(false);
      expect(env.host.of('LOCK')).toHaveLength(locks);
      await typeAndWait(client, 'After reload');
      from = client.messages.length;
      client.send({ type: 'save' });
      expect(await saved(client, from)).toMatchObject({ ok: true });
      expect(env.host.of('PutFile').at(-1)!.headers['x-wopi-lock']).toBe(lock);
      expect(storedText(env.host.files.get(`rl${env.n}`)!.bytes)).toBe('After reload');
    } finally {
      env.host.enforceLocks = false;
      env.daemon.reconfigure({ documents: { check_secs: 0 } });
    }
  });

  it('access_token_ttl: warned 15 minutes before; Reset_Access_Token hands in a new token that the next save uses', async () => {
    const src = env.host.addFile(`x${env.n}`, 'letter.docx', DOCX);
    const { client } = await env.openSrc(src, Date.now() + 15 * 60 * 1000 + 500);
    expect((await client.next('tokenExpiring', () => true, 10_000)).expiresAt).toBeGreaterThan(Date.now());
    const old = env.host.token;
    env.host.token = 'tok_renewed';
    try {
      client.send({ type: 'resetAccessToken', token: 'tok_renewed', tokenTtl: Date.now() + 3_600_000 });
      await typeAndWait(client, 'After renewal');
      const from = client.messages.length;
      client.send({ type: 'save' });
      expect(await saved(client, from)).toMatchObject({ ok: true });
      expect(env.host.of('PutFile').at(-1)!.query.get('access_token')).toBe('tok_renewed');
    } finally {
      env.host.token = old;
    }
  });

  it('EnableOwnerTermination: the owner closes the document for everyone (4409); anyone else is refused', async () => {
    const owner = await open(`y${env.n}`, { EnableOwnerTermination: true, UserId: 'owner' });
    const guest = await env.openSrc(owner.src);
    await owner.client.next('views', (m) => m.views.length === 2);
    owner.client.messages.length = 0;
    env.host.files.get(`y${env.n}`)!.info.UserId = 'someone';
    const third = await env.openSrc(owner.src);
    third.client.send({ type: 'closeDocument' });
    expect(await third.client.next('error', (m) => m.code === 'forbidden', 10_000)).toBeDefined();
    owner.client.send({ type: 'closeDocument' });
    expect(await owner.client.closed()).toBe(4409);
    expect(await guest.client.closed()).toBe(4409);
  });

  it('PutFile answered 413: users told, and the document turns read-only', async () => {
    const { client } = await open(`z${env.n}`);
    await typeAndWait(client, 'Too big');
    env.host.answer('PutFile', { status: 413 });
    let from = client.messages.length;
    client.send({ type: 'save' });
    expect(await client.next('storage', (m) => m.state === 'too_large', 60_000, from)).toBeDefined();
    expect(await client.next('status', (m) => m.readonly, 10_000, from)).toBeDefined();
    from = client.messages.length;
    client.type('x');
    expect(await client.next('error', (m) => m.code === 'readonly', 10_000, from)).toBeDefined();
  });

  it('close then discard: the exit save meets 409/1010, the stored version stays, our copy is kept in the recovery folder', async () => {
    const { client } = await open(`cd${env.n}`);
    await typeAndWait(client, 'Closing edit');
    env.host.touch(`cd${env.n}`, Buffer.from('stored elsewhere'));
    client.close();
    await documentsClosed(env.daemon.server, 30_000, 50);
    const exitPut = env.host.of('PutFile').filter((r) => r.path.includes(`cd${env.n}`));
    expect(exitPut).toHaveLength(1);
    expect(exitPut[0].headers['x-ode-wopi-isexitsave']).toBe('true');
    expect(env.host.files.get(`cd${env.n}`)!.bytes.toString()).toBe('stored elsewhere');
    const recovery = join(env.daemon.store.get().state_dir, 'recovery');
    // Beside each copy, its sidecar (.json: what a later start needs to upload it).
    expect(readdirSync(recovery).some((f) => f.endsWith('.docx') && storedText(readFileSync(join(recovery, f))).includes('Closing edit'))).toBe(true);
  });

  it('every request the WOPI host received in this suite carried a valid proof (key from discovery)', () => {
    expect(env.host.requests.length).toBeGreaterThan(40);
    expect(env.host.requests.filter((r) => r.proofValid !== true).map((r) => `${r.operation} ${r.path}`)).toEqual([]);
  });

  it('idle unload: after documents.idle_unload_secs without input the document is saved (IsExitSave) and its views closed with 4408', async () => {
    env.daemon.reconfigure({ documents: { idle_unload_secs: 2 } });
    try {
      const { client } = await open(`id${env.n}`);
      await typeAndWait(client, 'Left open');
      expect(await client.next('idle', () => true, 15_000)).toBeDefined();
      expect(await client.closed()).toBe(4408);
      const put = env.host.of('PutFile').filter((r) => r.path.includes(`id${env.n}`));
      expect(put).toHaveLength(1);
      expect(put[0].headers['x-ode-wopi-isexitsave']).toBe('true');
      expect(storedText(env.host.files.get(`id${env.n}`)!.bytes)).toContain('Left open');
    } finally {
      env.daemon.reconfigure({ documents: { idle_unload_secs: 3600 } });
    }
  });
});
