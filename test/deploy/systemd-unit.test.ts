import { execFile, spawn } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';

const UNIT = new URL('../../docs/deploy/ode.service', import.meta.url).pathname;
const REPO = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
/** The unprivileged user standing in for `ode` (this machine has no such user; nobody has no rights either). */
const NOBODY = 65534;

/** The [Service] keys of the documented unit (the last value of a repeated key). */
function serviceKeys(text: string): Map<string, string> {
  const keys = new Map<string, string>();
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const s = /^\[(.+)\]$/.exec(line);
    if (s) section = s[1];
    else if (section === 'Service') {
      const i = line.indexOf('=');
      keys.set(line.slice(0, i), line.slice(i + 1));
    }
  }
  return keys;
}

function run(cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => execFile(cmd, args, (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? -1) : 0, stdout, stderr })));
}

describe('docs/deploy/ode.service', () => {
  const unit = readFileSync(UNIT, 'utf8');
  const keys = serviceKeys(unit);

  it('passes systemd-analyze verify without a warning', async () => {
    // verify wants the unit's file name to end in .service; it reports unknown keys and bad values on stderr.
    const dir = mkdtempSync('/var/tmp/ode-unit-verify-');
    try {
      copyFileSync(UNIT, join(dir, 'ode.service'));
      const r = await run('systemd-analyze', ['verify', join(dir, 'ode.service')]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr.trim()).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('its ExecStart under its sandbox, emulated without systemd (this machine runs none)', () => {
    // What the emulation covers, from the unit's own keys: User (an unprivileged uid), NoNewPrivileges and an
    // empty CapabilityBoundingSet (setpriv), ProtectSystem=strict with ReadWritePaths (/ remounted read-only in
    // a private mount namespace, the paths bound writable), PrivateTmp (fresh /tmp and /var/tmp), ProtectHome
    // (/root and /home empty, read-only), Environment (HOME). Not covered: PrivateDevices, the Protect*Kernel*
    // keys, RestrictAddressFamilies and the journal.
    let root: string;
    let child: ReturnType<typeof spawn> | undefined;
    let stderr = '';
    let url = '';
    let exited: Promise<number | null>;

    beforeAll(async () => {
      expect(keys.get('ProtectSystem')).toBe('strict');
      expect(keys.get('PrivateTmp')).toBe('yes');
      expect(keys.get('ProtectHome')).toBe('yes');
      expect(keys.get('NoNewPrivileges')).toBe('yes');
      expect(keys.get('CapabilityBoundingSet')).toBe('');
      // /var/lib/ode and /etc/ode stand-ins outside /tmp and /var/tmp, which the sandbox replaces.
      root = mkdtempSync('/var/lib/ode-unit-test-');
      chmodSync(root, 0o755);
      // The checkout is bound at a path of its own: it may live under /tmp or /root (a CI clone), which the sandbox hides.
      const paths: Record<string, string> = { '/var/lib/ode': join(root, 'var-lib-ode'), '/etc/ode': join(root, 'etc-ode'), '/opt/ode': join(root, 'opt-ode') };
      mkdirSync(paths['/opt/ode']);
      mkdirSync(paths['/var/lib/ode'], { mode: 0o750 });
      chownSync(paths['/var/lib/ode'], NOBODY, NOBODY);
      mkdirSync(paths['/etc/ode'], { mode: 0o755 });
      // Production-like: demo host off, the state under /var/lib/ode; ports 0 so tests never collide.
      writeFileSync(
        join(paths['/etc/ode'], 'ode.yaml'),
        `state_dir: /var/lib/ode\nnet:\n  port: 0\nadmin:\n  port: 0\ndemo_host:\n  enabled: false\nkits:\n  prespawn: 1\n`.replace(
          '/var/lib/ode',
          paths['/var/lib/ode'],
        ),
        { mode: 0o644 },
      );
      const map = (s: string) => Object.entries(paths).reduce((acc, [from, to]) => acc.replaceAll(from, to), s);
      const execStart = map(keys.get('ExecStart')!).split(/\s+/);
      const rw = map(keys.get('ReadWritePaths')!).split(/\s+/);
      const env = map(keys.get('Environment')!).split(/\s+/);
      const cwd = map(keys.get('WorkingDirectory')!);
      const script = [
        `mount --bind ${REPO} ${paths['/opt/ode']}`,
        ...rw.map((p) => `mount --bind ${p} ${p}`),
        'mount -o remount,bind,ro /',
        'mount -t tmpfs -o mode=1777 tmpfs /tmp',
        'mount -t tmpfs -o mode=1777 tmpfs /var/tmp',
        'mount -t tmpfs -o ro,mode=755 tmpfs /root',
        'mount -t tmpfs -o ro,mode=755 tmpfs /home',
        `cd ${cwd}`,
        `exec setpriv --reuid=${NOBODY} --regid=${NOBODY} --clear-groups --no-new-privs --bounding-set=-all --inh-caps=-all env ${env.join(' ')} ${execStart.join(' ')}`,
      ].join(' && ');
      // unshare -m without --fork execs in place: the child's pid is the daemon's, as systemd's MainPID would be.
      child = spawn('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script], { stdio: ['ignore', 'ignore', 'pipe'] });
      exited = new Promise((resolve) => child!.once('exit', (code) => resolve(code)));
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      for (let i = 0; i < 600 && !url; i++) {
        url = /Ode is running at (http:\/\/\S+)/.exec(stderr)?.[1] ?? '';
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      if (!url) throw new Error(`ode serve did not start under the sandbox:\n${stderr}`);
    });
    afterAll(async () => {
      if (child && child.exitCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(root, { recursive: true, force: true });
    });

    it('serves, converts with LibreOffice, and keeps its files in /var/lib/ode', { timeout: 120_000 }, async () => {
      const r = await postConvert(url, '/ode/convert-to/pdf', join(CORPUS, 'properties/documentProperties.docx'));
      expect(r.status, r.body.toString().slice(0, 300)).toBe(200);
      expect(r.body.subarray(0, 5).toString()).toBe('%PDF-');
      const state = join(root, 'var-lib-ode');
      // The proof key was generated by the unprivileged user in the writable state directory.
      const key = readFileSync(join(state, 'proof_key'), 'utf8');
      expect(key).toContain('PRIVATE KEY');
      expect(statSync(join(state, 'proof_key')).uid).toBe(NOBODY);
      expect(statSync(join(state, 'proof_key')).mode & 0o777).toBe(0o600);
    });

    it('stops on SIGTERM (what systemctl stop sends to the main process with KillMode=mixed) with exit code 0', { timeout: 180_000 }, async () => {
      expect(keys.get('KillMode')).toBe('mixed');
      const stopSecs = Number(/^(\d+)s$/.exec(keys.get('TimeoutStopSec') ?? '')?.[1]);
      child!.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([exited, new Promise<string>((r) => (timer = setTimeout(() => r('still running at TimeoutStopSec'), stopSecs * 1000)))]);
      clearTimeout(timer);
      expect(code, stderr.slice(-2000)).toBe(0);
    });
  });
});
