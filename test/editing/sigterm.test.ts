import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { docxText } from '../helpers/docx.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';

const ODE = new URL('../../bin/ode.js', import.meta.url).pathname;

/** A free loopback port (the daemon's config takes a number). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe('`ode serve` receiving SIGTERM with modified documents', () => {
  let child: ChildProcess | undefined;
  let host: FakeWopiHost | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'ode-sigterm-'));
  afterAll(async () => {
    child?.kill('SIGKILL');
    await host?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('uploads every modified document with IsExitSave, then exits 0', async () => {
    host = await FakeWopiHost.start();
    const port = await freePort();
    const config = join(dir, 'ode.yaml');
    writeFileSync(config, stringify({ net: { port }, state_dir: join(dir, 'state'), kits: { prespawn: 2, max: 3 }, documents: { check_secs: 0 } }));
    child = spawn(process.execPath, [ODE, 'serve', '--config', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const deadline = Date.now() + 60_000;
    while (!stderr.includes('Ode is running at') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(stderr).toContain('Ode is running at');
    const url = `http://127.0.0.1:${port}`;
    const docx = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
    for (const [id, text] of [['s1', 'Saved on SIGTERM one'], ['s2', 'Saved on SIGTERM two']]) {
      const { client } = await EditorClient.open(url, host.addFile(id, `${id}.docx`, docx), { token: host.token });
      const from = client.messages.length;
      client.type(text);
      await client.next('modified', (m) => m.modified, 30_000, from);
    }
    await new Promise((r) => setTimeout(r, 500));
    const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const puts = host.of('PutFile');
    expect(puts.map((p) => p.path).sort()).toEqual(['/wopi/files/s1/contents', '/wopi/files/s2/contents']);
    expect(puts.every((p) => p.headers['x-ode-wopi-isexitsave'] === 'true')).toBe(true);
    expect(docxText(host.files.get('s1')!.bytes)).toContain('Saved on SIGTERM one');
    expect(docxText(host.files.get('s2')!.bytes)).toContain('Saved on SIGTERM two');
  });
});
