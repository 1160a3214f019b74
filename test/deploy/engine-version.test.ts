/**
 * Issue 15: Ode runs on LibreOffice 25.2 or later. The daemon refuses an older LibreOffice at start with the version
 * found and the fix (a real `ode serve` against a program folder whose bootstraprc says 7.4, as Debian 12's own
 * LibreOffice does), and `ode doctor`'s libreoffice check names the engine's version and its apt source, checked
 * against dpkg's and apt's own answers on this machine.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';

import { checkLibreOffice } from '../../cli/doctor/libreoffice.ts';
import { parseAptPolicy } from '../../cli/doctor/engine.ts';
import type { DoctorContext } from '../../cli/doctor/check.ts';
import { validateConfig } from '../../daemon/server/config/load.ts';
import { engineTooOld, parseEngineVersion } from '../../daemon/protocol/engine-version.ts';
import { readInstalledEngine } from '../../daemon/server/pool/engine-check.ts';

const ODE = new URL('../../bin/ode.js', import.meta.url).pathname;
const LO = '/usr/lib/libreoffice/program';
const root = mkdtempSync(join(tmpdir(), 'ode-engine-version-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A program folder that looks like Debian 12's LibreOffice 7.4 to anything reading its files. */
function oldProgramDir(): string {
  const dir = join(root, `lo74-${Math.random().toString(36).slice(2)}`, 'program');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'bootstraprc'),
    '[Bootstrap]\nInstallMode=<installmode>\nProductKey=LibreOffice 7.4\nUserInstallation=$SYSUSERCONFIG/libreoffice/4\n',
  );
  writeFileSync(join(dir, 'libmergedlo.so'), '');
  return dir;
}

function ctx(loPath: string): DoctorContext {
  return {
    config: validateConfig({ lo_path: loPath, state_dir: join(root, 'state') }, 'test'),
    url: new URL('http://127.0.0.1:1'),
    ca: [],
    discovery: undefined,
    discoveryError: undefined,
  };
}

describe('the engine version', () => {
  it('reads LibreOffice version texts and knows which are too old', () => {
    expect(parseEngineVersion('25.2')).toEqual({ major: 25, minor: 2 });
    expect(parseEngineVersion('LibreOffice 7.4')).toEqual({ major: 7, minor: 4 });
    expect(parseEngineVersion('LibreOffice 25.2.3.2 520(Build:2)')).toEqual({ major: 25, minor: 2 });
    expect(parseEngineVersion('Collabora Office 24.04')).toEqual({ major: 24, minor: 4 });
    expect(parseEngineVersion('LibreOffice')).toBeUndefined();
    expect(engineTooOld({ major: 7, minor: 4 })).toBe(true);
    expect(engineTooOld({ major: 24, minor: 8 })).toBe(true);
    expect(engineTooOld({ major: 25, minor: 2 })).toBe(false);
    expect(engineTooOld({ major: 25, minor: 8 })).toBe(false);
    expect(engineTooOld({ major: 26, minor: 2 })).toBe(false);
  });

  it("reads the installed LibreOffice's version from bootstraprc, as dpkg knows it", () => {
    const found = readInstalledEngine(LO);
    // Debian's package version, e.g. 4:25.2.3-2+deb13u5~bpo12+1: epoch, then LibreOffice's own major.minor.
    const pkg = execFileSync('dpkg-query', ['-W', '-f=${Version}', 'libreoffice-core'], { encoding: 'utf8' });
    const m = /^(?:\d+:)?(\d+)\.(\d+)\./.exec(pkg)!;
    expect(found).toMatchObject({ major: Number(m[1]), minor: Number(m[2]) });
    expect(engineTooOld(found!)).toBe(false);
    expect(readInstalledEngine(join(root, 'nowhere'))).toBeUndefined();
  });

  it('ode serve refuses LibreOffice 7.4 at start: exit code 78, the version, where, and the fix', { timeout: 120_000 }, async () => {
    const lo = oldProgramDir();
    const config = join(root, 'ode-old.yaml');
    writeFileSync(config, `lo_path: ${lo}\nstate_dir: ${join(root, 'state-old')}\nnet:\n  port: 0\nadmin:\n  port: 0\n`);
    const started = Date.now();
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, [ODE, '--config', config, 'serve'], { timeout: 100_000, killSignal: 'SIGKILL' }, (err, _stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr });
      });
    });
    expect(r.code, r.stderr).toBe(78);
    expect(r.stderr).toContain(`LibreOffice 7.4 found at ${lo}`);
    expect(r.stderr).toContain('Ode needs LibreOffice 25.2 or later');
    expect(r.stderr).toContain('sudo node scripts/setup.mjs');
    expect(r.stderr).toContain('bookworm-backports');
    expect(r.stderr).not.toContain('Ode is running');
    console.log(`[engine] ode serve refused LibreOffice 7.4 in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
});

describe("ode doctor's libreoffice check", () => {
  it('FAILs on LibreOffice 7.4 with the fix, before starting anything', async () => {
    const lo = oldProgramDir();
    const r = await checkLibreOffice(ctx(lo), pino({ level: 'silent' }));
    expect(r.status).toBe('FAIL');
    expect(r.detail).toContain(`LibreOffice 7.4 at ${lo} is older than 25.2`);
    expect(r.detail).toContain('not from a Debian package');
    expect(r.fix).toContain('sudo node scripts/setup.mjs');
  });

  it('names the installed engine, its package version and the apt source it came from', { timeout: 180_000 }, async () => {
    const r = await checkLibreOffice(ctx(LO), pino({ level: 'silent' }));
    expect(r.status, r.detail).toBe('ok');
    const version = execFileSync('dpkg-query', ['-W', '-f=${Version}', 'libreoffice-core'], { encoding: 'utf8' });
    const policy = parseAptPolicy(execFileSync('apt-cache', ['policy', 'libreoffice-core'], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } }));
    expect(policy.installed).toBe(version);
    expect(r.detail).toContain(`${readInstalledEngine(LO)!.productKey} (libreoffice-core ${version} from `);
    for (const origin of policy.origins) expect(r.detail).toContain(origin);
    expect(r.detail).toMatch(/loads and converts/);
  });
});

describe('parseAptPolicy', () => {
  it('takes the sources of the installed (***) version only, without dpkg status', () => {
    const bookworm = `libreoffice-core:
  Installed: 4:25.2.3-2+deb13u5~bpo12+1
  Candidate: 4:25.2.3-2+deb13u5~bpo12+1
  Version table:
 *** 4:25.2.3-2+deb13u5~bpo12+1 100
        100 http://deb.debian.org/debian bookworm-backports/main amd64 Packages
        100 /var/lib/dpkg/status
     4:7.4.7-1+deb12u14 500
        500 http://deb.debian.org/debian bookworm/main amd64 Packages
`;
    expect(parseAptPolicy(bookworm)).toEqual({ installed: '4:25.2.3-2+deb13u5~bpo12+1', origins: ['http://deb.debian.org/debian bookworm-backports/main'] });
    const old = `libreoffice-core:
  Installed: 4:7.4.7-1+deb12u14
  Candidate: 4:7.4.7-1+deb12u14
  Version table:
     4:25.2.3-2+deb13u5~bpo12+1 100
        100 http://deb.debian.org/debian bookworm-backports/main amd64 Packages
 *** 4:7.4.7-1+deb12u14 500
        500 http://deb.debian.org/debian bookworm/main amd64 Packages
        500 http://deb.debian.org/debian-security bookworm-security/main amd64 Packages
        100 /var/lib/dpkg/status
`;
    expect(parseAptPolicy(old).origins).toEqual(['http://deb.debian.org/debian bookworm/main', 'http://deb.debian.org/debian-security bookworm-security/main']);
    const local = `libreoffice-core:
  Installed: 4:25.8.0-1
  Candidate: 4:25.8.0-1
  Version table:
 *** 4:25.8.0-1 100
        100 /var/lib/dpkg/status
`;
    expect(parseAptPolicy(local)).toEqual({ installed: '4:25.8.0-1', origins: [] });
    expect(parseAptPolicy('libreoffice-core:\n  Installed: (none)\n  Candidate: 4:25.2.3-2\n')).toEqual({ installed: undefined, origins: [] });
  });
});
