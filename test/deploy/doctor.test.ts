import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCertificateFiles, type GeneratedCertificates } from '../../certs/server-cert.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { freePort } from '../helpers/net.ts';
import { startNginx, type RunningProxy } from './proxies.ts';

const ODE = new URL('../../bin/ode.js', import.meta.url).pathname;
const CHECKS = ['libreoffice', 'fonts', 'proof-key', 'certificate', 'public-url', 'websocket', 'upload', 'clock'];

/** Runs the real CLI, `ode --config <file> doctor --url <url> --ca <file>`, as a child process. */
function doctor(configFile: string, url: string, ca: string): Promise<{ code: number; lines: Map<string, string>; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [ODE, '--config', configFile, 'doctor', '--url', url, '--ca', ca], { timeout: 180_000 }, (err, stdout, stderr) => {
      const lines = new Map<string, string>();
      for (const l of stdout.split('\n')) {
        const m = /^(ok|warn|FAIL)\s+(\S+)\s/.exec(l);
        if (m) lines.set(m[2], l);
      }
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, lines, out: `${stdout}\n${stderr}` });
    });
  });
}

/** Removes `line` (exactly once) from the documented config: a sysadmin's config without it. */
function without(line: string): (text: string) => string {
  return (text) => {
    const lines = text.split('\n');
    const i = lines.findIndex((l) => l.trim() === line);
    if (i < 0) throw new Error(`"${line}" is not in the documented config`);
    lines.splice(i, 1);
    return lines.join('\n');
  };
}

describe('ode doctor against Ode behind docs/deploy/nginx.conf', () => {
  let dir: string;
  let certs: GeneratedCertificates;
  let daemon: TestDaemon;
  let httpsPort: number;
  let proxy: RunningProxy | undefined;

  const restartProxy = async (edit?: (t: string) => string) => {
    await proxy?.stop();
    proxy = undefined;
    proxy = await startNginx({ odePort: Number(new URL(daemon.url).port), httpsPort, certFile: certs.cert, keyFile: certs.key, edit });
    return proxy;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ode-doctor-test-'));
    certs = generateCertificateFiles(join(dir, 'certs'), { names: ['localhost', '127.0.0.1'], days: 90 });
    httpsPort = await freePort();
    // The sandbox on (the default, set here explicitly: this test is about what ode doctor says of it).
    daemon = await startDaemon({ ssl: { termination: true }, security: { sandbox: 'auto' } });
  });
  afterAll(async () => {
    await proxy?.stop();
    await daemon?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a healthy install: every check passes, exit code 0', { timeout: 240_000 }, async () => {
    const p = await restartProxy();
    const r = await doctor(daemon.configFile, p.url, certs.caCert);
    expect(r.code, r.out).toBe(0);
    for (const name of CHECKS) expect(r.lines.get(name), r.out).toMatch(/^ok /);
    expect(r.out).not.toMatch(/^(FAIL|warn) /m);
  });

  it('a proxy without the WebSocket upgrade lines and a broken proof key: both named with their fix, exit code 1', { timeout: 240_000 }, async () => {
    const p = await restartProxy((t) => without('proxy_set_header Connection $connection_upgrade;')(without('proxy_set_header Upgrade $http_upgrade;')(t)));
    expect(p.siteText).not.toContain('proxy_set_header Upgrade');
    // As root every file is readable whatever its mode, so "unreadable" is made real another way: the key file
    // is cut short (a copy that stopped half-way), which no user can load.
    const keyFile = join(daemon.store.get().state_dir, 'proof_key');
    const good = readFileSync(keyFile, 'utf8');
    writeFileSync(keyFile, good.slice(0, 300));
    try {
      const r = await doctor(daemon.configFile, p.url, certs.caCert);
      expect(r.code, r.out).toBe(1);
      const ws = r.lines.get('websocket') ?? '';
      expect(ws, r.out).toMatch(/^FAIL /);
      expect(ws).toContain('drops the Upgrade header');
      expect(ws).toContain('fix: nginx: proxy_http_version 1.1; proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection $connection_upgrade;');
      const key = r.lines.get('proof-key') ?? '';
      expect(key, r.out).toMatch(/^FAIL /);
      expect(key).toContain(keyFile);
      expect(key).toContain('not an unencrypted RSA PEM private key');
      expect(key).toMatch(/fix: restore .*proof_key/);
      // The rest of the install is fine, and says so.
      for (const name of ['libreoffice', 'fonts', 'certificate', 'public-url', 'upload', 'clock']) expect(r.lines.get(name), r.out).toMatch(/^ok /);
    } finally {
      writeFileSync(keyFile, good, { mode: 0o600 });
    }
  });

  it("a proxy with nginx's default 1 MB body limit: the upload check names the proxy, not Ode", { timeout: 240_000 }, async () => {
    const p = await restartProxy(without('client_max_body_size 200m;'));
    const r = await doctor(daemon.configFile, p.url, certs.caCert);
    expect(r.code, r.out).toBe(1);
    const up = r.lines.get('upload') ?? '';
    expect(up, r.out).toMatch(/^FAIL /);
    expect(up).toContain("the proxy refused a 20 MB upload with 413 (not Ode's JSON)");
    expect(up).toContain('client_max_body_size');
    expect(r.lines.get('websocket'), r.out).toMatch(/^ok /);
  });
});
