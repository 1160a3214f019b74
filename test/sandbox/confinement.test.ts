/**
 * What a kit's sandbox holds (issue 18), seen from inside: a probe script runs in exactly the launch a kit gets
 * (KitSandbox.launch: the same bwrap arguments, seccomp filter and environment filter, with the probe in place of
 * the kit's entry) and reports what it could reach. The state directory (with a proof key and an admin token),
 * another kit's folder and a listener of the host on 127.0.0.1 are real; the oracle for "reachable" is the same
 * probe run without the sandbox, which must reach them all.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../daemon/server/config/schema.ts';
import { resolveSandbox, type KitSandbox } from '../../daemon/server/sandbox/sandbox.ts';
import { bwrapArgs } from '../../daemon/server/sandbox/command.ts';

/** What the probe tries; it prints one JSON object: each attempt's outcome (`ok` or the error code). */
const PROBE = `
const fs = require('node:fs');
const net = require('node:net');
const [stateDir, otherKit, ownDir, port] = process.argv.slice(1);
const out = {};
const tryRead = (name, f) => { try { f(); out[name] = 'ok'; } catch (e) { out[name] = e.code || e.message; } };
tryRead('proofKey', () => fs.readFileSync(stateDir + '/proof_key'));
tryRead('adminToken', () => fs.readFileSync(stateDir + '/admin_token'));
tryRead('stateDir', () => { if (!fs.readdirSync(stateDir).includes('proof_key')) throw Object.assign(new Error(), { code: 'EMPTY' }); });
tryRead('otherKit', () => fs.readFileSync(otherKit + '/document.odt'));
tryRead('ownDirWrite', () => fs.writeFileSync(ownDir + '/written', 'x'));
tryRead('usrWrite', () => fs.writeFileSync('/usr/ode-probe', 'x'));
tryRead('shadow', () => { if (!fs.readFileSync('/etc/shadow', 'utf8').includes('root:')) throw Object.assign(new Error(), { code: 'EMPTY' }); });
tryRead('ptraceLike', () => { const r = require('node:child_process').spawnSync('unshare', ['-U', 'true']); if (r.status !== 0) throw Object.assign(new Error(), { code: 'EXIT' + r.status }); });
const s = net.connect(Number(port), '127.0.0.1');
const t = setTimeout(() => { out.connect = 'TIMEOUT'; done(); }, 3000);
s.on('connect', () => { out.connect = 'ok'; s.destroy(); clearTimeout(t); done(); });
s.on('error', (e) => { out.connect = e.code; clearTimeout(t); done(); });
function done() { process.stdout.write(JSON.stringify(out)); process.exit(0); }
`;

let dir: string;
let stateDir: string;
let otherKit: string;
let ownDir: string;
let listener: Server;
let port: number;
let connections = 0;
let sandbox: KitSandbox | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ode-sandbox-confine-'));
  stateDir = join(dir, 'state');
  otherKit = join(dir, 'kits', 'kit-1');
  ownDir = join(dir, 'kits', 'kit-2');
  for (const d of [stateDir, otherKit, ownDir]) mkdirSync(d, { recursive: true });
  writeFileSync(join(stateDir, 'proof_key'), '-----BEGIN PRIVATE KEY-----\nsecret\n-----END PRIVATE KEY-----\n');
  writeFileSync(join(stateDir, 'admin_token'), 'token-secret');
  writeFileSync(join(otherKit, 'document.odt'), 'another user document');
  listener = createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
  port = (listener.address() as { port: number }).port;
  const cfg = configSchema.parse({ state_dir: stateDir, security: { sandbox: 'required' } });
  sandbox = resolveSandbox(() => cfg, dir).sandbox;
});

afterAll(async () => {
  await new Promise<void>((r) => listener.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the probe with `cmd` (bwrap around node, or node alone) and returns its report. */
async function runProbe(sandboxed: boolean): Promise<Record<string, string>> {
  const inner = { command: process.execPath, args: ['-e', PROBE, stateDir, otherKit, ownDir, String(port)] };
  const launch = sandboxed ? sandbox!.launch({ kitDir: ownDir, inner }) : undefined;
  const cmd = launch?.command ?? inner;
  const child = spawn(cmd.command, cmd.args, { stdio: ['ignore', 'pipe', 'pipe', 'ignore', ...(launch?.extraFds ?? [])] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  await new Promise((r) => child.on('exit', r));
  if (!out) throw new Error(`the probe printed nothing: ${err}`);
  return JSON.parse(out) as Record<string, string>;
}

describe('a sandboxed kit (bubblewrap, seccomp)', () => {
  it('bubblewrap runs here (this suite needs it: apt-get install bubblewrap libseccomp-dev)', () => {
    expect(sandbox).toBeDefined();
  });

  it('without the sandbox the same probe reaches the state dir, the other kit, the listener (the oracle)', async () => {
    const before = connections;
    const r = await runProbe(false);
    expect(r).toMatchObject({ proofKey: 'ok', adminToken: 'ok', stateDir: 'ok', otherKit: 'ok', ownDirWrite: 'ok', shadow: 'ok', connect: 'ok' });
    await new Promise((res) => setTimeout(res, 100));
    expect(connections).toBe(before + 1);
  });

  it('inside: no proof key, no admin token, no state dir, no other kit, no network; its own folder writable, /usr read-only', async () => {
    const before = connections;
    const r = await runProbe(true);
    expect(r.proofKey).toBe('ENOENT');
    expect(r.adminToken).toBe('ENOENT');
    expect(['ENOENT', 'EMPTY']).toContain(r.stateDir);
    expect(r.otherKit).toBe('ENOENT');
    expect(r.ownDirWrite).toBe('ok');
    expect(r.usrWrite).toBe('EROFS');
    expect(['ENOENT', 'EMPTY', 'EACCES']).toContain(r.shadow);
    // The net namespace has only its own loopback: nothing listens there, and the host's listener saw nobody.
    expect(r.connect).toBe('ECONNREFUSED');
    await new Promise((res) => setTimeout(res, 100));
    expect(connections).toBe(before);
    // The seccomp filter: no new namespaces (unshare(2) fails, so unshare(1) exits non-zero).
    expect(r.ptraceLike).toMatch(/^EXIT/);
  });

  it('the seccomp filter is the one bwrap gets: without it, the same unshare succeeds inside bwrap', () => {
    // An independent check that the EXIT above comes from the filter, not from bwrap's own namespaces.
    const { command, args } = bwrapArgs({
      kitDir: ownDir,
      readOnly: [],
      hidden: [],
      rootLinks: [
        { path: '/lib', target: 'usr/lib' },
        { path: '/lib64', target: 'usr/lib64' },
        { path: '/bin', target: 'usr/bin' },
      ],
      inner: { command: '/usr/bin/unshare', args: ['-U', '/usr/bin/true'] },
    });
    const r = spawnSync(
      command,
      args.map((a) => (a === '--unshare-all' ? '--unshare-pid' : a)),
    );
    expect(r.status).toBe(0);
  });
});
