import { execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';

const ode = new URL('../../bin/ode.js', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'ode-open-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const env = { ...process.env, ODE_STATE_DIR: join(work, 'state'), ODE_NET__PORT: '0', ODE_KITS__PRESPAWN: '0', ODE_LOG_LEVEL: 'warn' };

describe('ode open', () => {
  it("--no-browser serves the file's folder with the demo host, prints the URL that opens it, and stops on SIGTERM", async () => {
    const docs = join(work, 'my docs');
    rmSync(docs, { recursive: true, force: true });
    mkdirSync(docs, { recursive: true });
    copyFileSync(join(CORPUS, 'properties/documentProperties.docx'), join(docs, 'Report.docx'));
    copyFileSync(join(CORPUS, 'properties/meta.odt'), join(docs, 'other.odt'));
    const child = spawn(process.execPath, [ode, 'open', join(docs, 'Report.docx'), '--no-browser'], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const deadline = Date.now() + 60_000;
      while (!/Opening (\S+)\n/.test(out) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
      const url = /Opening (\S+)\n/.exec(out)?.[1];
      expect(url, err).toBeDefined();
      const id = Buffer.from('Report.docx').toString('base64url');
      expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/\\?open=${id}$`));
      const html = await (await fetch(url!)).text();
      // The page lists the folder of the file and submits the file's form at once.
      expect(html).toContain(`id="f-${id}"`);
      expect(html).toContain('other.odt');
      expect(html).toContain(`getElementById("f-${id}")`);
      const token = /name="access_token" value="([^"]+)"/.exec(html)![1];
      const info = (await (await fetch(`${new URL(url!).origin}/demo/wopi/files/${id}?access_token=${token}`)).json()) as { BaseFileName: string };
      expect(info.BaseFileName).toBe('Report.docx');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('a file that does not exist is refused', async () => {
    const r = await promisify(execFile)(process.execPath, [ode, 'open', join(work, 'nope.docx'), '--no-browser'], { cwd: work, env, timeout: 60_000 }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('does not exist');
  });
});
