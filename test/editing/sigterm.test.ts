import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { docxText } from '../helpers/docx.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';
import { startServe, useServeScratch, writeServeConfig } from '../helpers/serve-process.ts';

describe('`ode serve` receiving SIGTERM with modified documents', () => {
  const scratch = useServeScratch('ode-sigterm-');

  it('uploads every modified document with IsExitSave, then exits 0', async () => {
    const host = (scratch.host = await FakeWopiHost.start());
    const { config, url } = await writeServeConfig(scratch.dir, {
      state_dir: join(scratch.dir, 'state'),
      kits: { prespawn: 2, max: 3 },
      documents: { check_secs: 0 },
    });
    const child = (scratch.child = (await startServe(config)).child);
    const docx = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
    for (const [id, text] of [
      ['s1', 'Saved on SIGTERM one'],
      ['s2', 'Saved on SIGTERM two'],
    ]) {
      const { client } = await EditorClient.open(url, host.addFile(id, `${id}.docx`, docx), { token: host.token });
      const from = client.messages.length;
      client.type(text);
      await client.next('modified', (m) => m.modified, 30_000, from);
    }
    await new Promise((r) => setTimeout(r, 500));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const puts = host.of('PutFile');
    expect(puts.map((p) => p.path).sort()).toEqual(['/wopi/files/s1/contents', '/wopi/files/s2/contents']);
    expect(puts.every((p) => p.headers['x-ode-wopi-isexitsave'] === 'true')).toBe(true);
    expect(docxText(host.files.get('s1')!.bytes)).toContain('Saved on SIGTERM one');
    expect(docxText(host.files.get('s2')!.bytes)).toContain('Saved on SIGTERM two');
  });
});
