import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { fakeKitText } from '../helpers/fake-kit.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));

/**
 * The daemon refuses what CheckFileInfo's IsUserRestricted and IsUserLocked take away, whatever the editor shows:
 * a raw WebSocket client (no editor UI) sends the requests directly (docs/postmessage.md, "Locked and restricted
 * users"; error codes in docs/errors.md). Also: is_admin / is_guest still read, UserExtraInfo shared in `views`.
 * Fake kits (daemon/protocol/kit.md, "The fake kit"): the refusals are the daemon's; a real PDF download is tested with
 * LibreOffice behind a load balancer (test/cluster/haproxy.test.ts) and in the browser (test/editor-tasks/).
 */
describe('restricted and locked users over the editor socket', () => {
  let daemon: TestDaemon;
  let host: FakeWopiHost;
  const clients: EditorClient[] = [];
  const open = async (id: string, info: Record<string, unknown>) => {
    const src = host.addFile(id, 'letter.docx', DOCX, info);
    const r = await EditorClient.open(daemon.url, src, { token: host.token }, 90_000);
    clients.push(r.client);
    return r;
  };
  /** Sends `msg` and resolves with the first message of `type` that follows it. */
  const answer = async <T extends Parameters<EditorClient['next']>[0]>(c: EditorClient, msg: Parameters<EditorClient['send']>[0], type: T) => {
    const from = c.messages.length;
    c.send(msg);
    return c.next(type, () => true, 30_000, from);
  };

  beforeAll(async () => {
    host = await FakeWopiHost.start();
    daemon = await startDaemon({ kits: { prespawn: 2, max: 3 }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } }, 2, 0, {
      fakeKits: true,
    });
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) c.close();
    await daemon?.stop();
    await host?.stop();
  });

  let restricted: Awaited<ReturnType<typeof open>>;
  let locked: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    [restricted, locked] = await Promise.all([
      open('r1', {
        IsUserRestricted: ['downloadas', 'print', 'comments'],
        IsUserLocked: ['trackChanges', 'NoSuchFeature'],
        is_admin: true,
        is_guest: true,
        UserExtraInfo: { mail: 'ada@example.org' },
      }),
      open('l1', { IsUserLocked: ['saveAs'], UserCanNotWriteRelative: false }),
    ]);
  }, 180_000);

  it('tells the editor which features and commands are restricted and locked (status.features)', () => {
    expect(restricted.status.features).toEqual({
      locked: [{ feature: 'trackChanges', commands: expect.arrayContaining(['edit.trackChanges*']) as unknown }],
      restricted: [
        { feature: 'export', commands: ['file.downloadAs.*'] },
        { feature: 'print', commands: ['file.print'] },
        { feature: 'comments', commands: ['insert.comment'] },
      ],
    });
    expect(locked.status.features).toEqual({ locked: [{ feature: 'saveAs', commands: ['file.saveAs'] }], restricted: [] });
  });

  it('refuses a restricted UNO command with feature_restricted and logs it', async () => {
    const c = restricted.client;
    const err = await answer(c, { type: 'uno', command: '.uno:ExportToPDF' }, 'error');
    expect(err).toMatchObject({ code: 'feature_restricted', feature: 'export' });
    const comment = await answer(
      c,
      { type: 'uno', command: '.uno:InsertAnnotation', args: JSON.stringify({ Text: { type: 'string', value: 'not allowed' } }) },
      'error',
    );
    expect(comment).toMatchObject({ code: 'feature_restricted', feature: 'comments' });
    const line = daemon.logBuffer.recent(200, 'warn').find((l) => l.msg === 'restricted feature refused' && l.fields.command === '.uno:InsertAnnotation');
    expect(line?.fields).toMatchObject({ feature: 'comments', kind: 'restricted', type: 'uno' });
  }, 60_000);

  it('refuses a restricted download and print export: no downloadReady', async () => {
    const c = restricted.client;
    const from = c.messages.length;
    const down = await answer(c, { type: 'download', id: 'd1', format: 'pdf', purpose: 'download' }, 'error');
    expect(down).toMatchObject({ code: 'feature_restricted', feature: 'export' });
    const print = await answer(c, { type: 'download', id: 'd2', format: 'pdf', purpose: 'print' }, 'error');
    expect(print).toMatchObject({ code: 'feature_restricted', feature: 'print' });
    // A request the restrictions do not cover goes through (the socket is live), and no export was made.
    await answer(c, { type: 'commandValues', command: '.uno:CharFontName' }, 'commandValues');
    expect(c.messages.slice(from).filter((m) => m.type === 'downloadReady')).toEqual([]);
  }, 60_000);

  it('refuses a locked feature with feature_locked (track changes; Save As answered by savedAs)', async () => {
    const track = await answer(restricted.client, { type: 'uno', command: '.uno:TrackChanges' }, 'error');
    expect(track).toMatchObject({ code: 'feature_locked', feature: 'trackChanges' });
    const saveAs = await answer(locked.client, { type: 'saveAs', name: 'copy.odt' }, 'savedAs');
    expect(saveAs).toMatchObject({ ok: false, error: { code: 'feature_locked' } });
    expect(host.of('PUT_RELATIVE')).toHaveLength(0);
  }, 60_000);

  it('serves the same download to a user it does not restrict', async () => {
    const ready = await answer(locked.client, { type: 'download', id: 'd3', format: 'pdf', purpose: 'download' }, 'downloadReady');
    const res = await fetch(`${daemon.url}${ready.url}`);
    expect(res.status).toBe(200);
    // What the fake kit exported (its package, whatever the format), served as it wrote it.
    expect(fakeKitText(new Uint8Array(await res.arrayBuffer()))).toBe('');
  }, 90_000);

  it('reads the deprecated is_admin / is_guest as IsAdminUser / IsAnonymousUser; views carry the guest and UserExtraInfo.mail', async () => {
    expect(restricted.status.fileInfo).toMatchObject({ IsAdminUser: true, IsAnonymousUser: true });
    expect(locked.status.fileInfo).toMatchObject({ IsAdminUser: false, IsAnonymousUser: false });
    const views = await restricted.client.next('views');
    expect(views.views).toEqual([expect.objectContaining({ anonymous: true, extraInfo: { mail: 'ada@example.org' } })]);
    const unknown = daemon.logBuffer.recent(500, 'warn').find((l) => /IsUserLocked \/ IsUserRestricted name features/.test(l.msg));
    expect(unknown?.fields.names).toEqual(['NoSuchFeature']);
  });
});
