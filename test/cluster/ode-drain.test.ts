import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { docxText } from '../helpers/docx.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';
import { freePort } from '../helpers/net.ts';
import { startServe, useServeScratch, writeServeConfig } from '../helpers/serve-process.ts';

const ODE = new URL('../../bin/ode.js', import.meta.url).pathname;
const run = promisify(execFile);

describe('`ode drain` against a running `ode serve` (docs/deploy/cluster.md)', () => {
  const scratch = useServeScratch('ode-drain-');

  it('saves the open document, moves its view (draining, then close 4503), prints what moved, and the daemon exits 0', async () => {
    const host = (scratch.host = await FakeWopiHost.start());
    const { config, url } = await writeServeConfig(scratch.dir, {
      admin: { port: await freePort() },
      state_dir: join(scratch.dir, 'state'),
      kits: { prespawn: 1, max: 2 },
      documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 },
    });
    // Both commands find the admin token by the configuration's state_dir (keyring, else <state_dir>/admin_token).
    const env = { ...process.env };
    const child = (scratch.child = (await startServe(config, { env })).child);
    const src = host.addFile('d1', 'd1.docx', readFileSync(join(CORPUS, 'properties/documentProperties.docx')));
    const { client } = await EditorClient.open(url, src, { token: host.token });
    const from = client.messages.length;
    client.type('Moved by ode drain ');
    await client.next('modified', (m) => m.modified, 30_000, from);
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const drain = await run(process.execPath, [ODE, '--config', config, 'drain'], { env, timeout: 60_000 });
    expect(drain.stdout).toMatch(/^drained: 1 document\(s\), 1 view\(s\) moved in \d+\.\d s; the daemon is stopping\n$/);
    expect(client.messages.some((m) => m.type === 'draining')).toBe(true);
    expect(await client.closed()).toBe(4503);
    expect(docxText(host.files.get('d1')!.bytes)).toContain('Moved by ode drain');
    expect(await exited).toBe(0);
  }, 120_000);
});
