import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { startDaemon } from '../helpers/daemon.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { fakeKitText } from '../helpers/fake-kit.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';

/**
 * The daemon's stop with fake kits (daemon/protocol/kit.md, "The fake kit"): which documents get an exit save. The
 * same through `ode serve`, SIGTERM and LibreOffice: sigterm.test.ts.
 */
describe('stopping the daemon (what SIGTERM/SIGINT do in `ode serve`)', () => {
  let host: FakeWopiHost | undefined;
  afterAll(async () => host?.stop());

  it('uploads every modified document with IsExitSave, and nothing for an unmodified one', async () => {
    host = await FakeWopiHost.start();
    const daemon = await startDaemon({ kits: { prespawn: 2, max: 4 }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } }, 2, 0, {
      fakeKits: true,
    });
    const docx = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
    const clients: EditorClient[] = [];
    for (const [id, text] of [
      ['x1', 'First doc edit'],
      ['x2', 'Second doc edit'],
      ['x3', ''],
    ] as const) {
      const { client } = await EditorClient.open(daemon.url, host.addFile(id, `${id}.docx`, docx), { token: host.token });
      clients.push(client);
      if (text) {
        const from = client.messages.length;
        client.type(text);
        await client.next('modified', (m) => m.modified, 30_000, from);
      }
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(host.of('PutFile')).toEqual([]);
    await daemon.stop();
    const puts = host.of('PutFile');
    expect(puts.map((p) => p.path).sort()).toEqual(['/wopi/files/x1/contents', '/wopi/files/x2/contents']);
    for (const p of puts) {
      expect(p.headers['x-ode-wopi-isexitsave']).toBe('true');
      expect(p.headers['x-ode-wopi-ismodifiedbyuser']).toBe('true');
    }
    expect(fakeKitText(host.files.get('x1')!.bytes)).toBe('First doc edit');
    expect(fakeKitText(host.files.get('x2')!.bytes)).toBe('Second doc edit');
    for (const c of clients) expect(await c.closed()).toBe(1001);
  });
});
