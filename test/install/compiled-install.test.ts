/**
 * A running install loads no TypeScript loader (issue 19): `ode serve` started as `npm start` starts it (bin/ode.js,
 * after set-up built dist/), then every process of the install is inspected from outside: the daemon and each kit
 * (inside its sandbox too), their command lines and NODE_OPTIONS, and the daemon's own word on how it runs
 * (admin `status.get` runtime). A conversion runs first, so a kit has done real work.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const DOCX = readFileSync(join(ROOT, '../shared/corpus/tracked-changes/delins.docx'));

/** Every process under `pid` (children of all its threads, recursively). */
function descendants(pid: number): number[] {
  let kids: number[] = [];
  try {
    kids = readdirSync(`/proc/${pid}/task`).flatMap((t) => readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch {
    return [];
  }
  return kids.flatMap((k) => [k, ...descendants(k)]);
}

const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');

describe('a running install (npm start) runs compiled JavaScript only', () => {
  let child: ChildProcess;
  let dir: string;
  let url = '';
  let adminUrl = '';
  let stderr = '';

  beforeAll(async () => {
    // What set-up does (a no-op when dist/ is current).
    const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build-dist.mjs')], { encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    dir = mkdtempSync(join(tmpdir(), 'ode-compiled-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ODE_STATE_DIR: join(dir, 'state'),
      ODE_NET__PORT: '0',
      ODE_ADMIN__PORT: '0',
      ODE_KITS__PRESPAWN: '1',
      ODE_DEMO_HOST__ENABLED: 'false',
    };
    delete env.ODE_FROM_SOURCES;
    delete env.NODE_OPTIONS; // vitest's own, if any: a user's shell has none
    child = spawn(process.execPath, [join(ROOT, 'bin/ode.js'), 'serve', '--config', '/dev/null'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const deadline = Date.now() + 90_000;
    while (!/Admin API at (http\S+)/.test(stderr)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`ode serve did not start:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    url = /Ode is running at (http\S+)/.exec(stderr)![1];
    adminUrl = /Admin API at (http\S+)/.exec(stderr)![1];
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('converts, and neither the daemon nor any kit carries a TypeScript loader', async () => {
    const form = new FormData();
    form.append('data', new Blob([DOCX]), 'delins.docx');
    const res = await fetch(`${url}/ode/convert-to/pdf`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    const token = readFileSync(join(dir, 'state', 'admin_token'), 'utf8').trim();
    const status = (await (await fetch(`${adminUrl}/trpc/status.get`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
      result: { data: { runtime: string } };
    };
    expect(status.result.data.runtime).toBe('compiled');

    const pids = [child.pid!, ...descendants(child.pid!)];
    const nodes = pids.filter((p) => {
      try {
        return /(^|\/)node$/.test(cmdline(p)[0] ?? '');
      } catch {
        return false;
      }
    });
    // The daemon and at least one kit (the kit's Node process may sit under bwrap in the sandbox).
    expect(nodes.length).toBeGreaterThanOrEqual(2);
    for (const p of nodes) {
      const args = cmdline(p).join(' ');
      expect(args).not.toMatch(/tsx|\.ts(\s|$)|--import|--loader|--experimental-loader/);
      const nodeOptions = environ(p).find((e) => e.startsWith('NODE_OPTIONS=')) ?? '';
      expect(nodeOptions).not.toMatch(/tsx|--import|--loader/);
    }
    const kitArgs = nodes.filter((p) => p !== child.pid).map((p) => cmdline(p).join(' '));
    expect(kitArgs.some((a) => a.includes('dist/kit.js'))).toBe(true);
  });
});
