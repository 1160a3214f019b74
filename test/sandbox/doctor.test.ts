/**
 * Where bubblewrap cannot run (issue 18): `ode doctor`'s sandbox line and the daemon's start. "Cannot run" is made
 * real by a PATH without bwrap (as on a machine without the package), restored after each test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { checkSandbox } from '../../cli/doctor/sandbox.ts';
import type { DoctorContext } from '../../cli/doctor/check.ts';
import { ConfigError } from '../../daemon/server/config/load.ts';
import { configSchema } from '../../daemon/server/config/schema.ts';
import { KitPool } from '../../daemon/server/pool/pool.ts';

const PATH = process.env.PATH;
const dirs: string[] = [];
afterEach(() => {
  process.env.PATH = PATH;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function ctx(sandbox: 'required' | 'auto' | 'off', lokAllow: string[] = []): DoctorContext {
  const config = configSchema.parse({ security: { sandbox }, net: { lok_allow: { host: lokAllow } } });
  return { config, url: new URL('http://127.0.0.1:1'), ca: [], discovery: undefined, discoveryError: undefined };
}

/** A PATH with no bubblewrap in it (an empty folder). */
function pathWithoutBwrap(): string {
  const d = mkdtempSync(join(tmpdir(), 'ode-no-bwrap-'));
  dirs.push(d);
  return d;
}

describe('ode doctor: sandbox', () => {
  it('ok where bubblewrap runs, naming its version and the allowed hosts', () => {
    const r = checkSandbox(ctx('auto', ['images\\.example\\.com']));
    expect(r.status).toBe('ok');
    expect(r.detail).toMatch(/bubblewrap \d+\.\d+/);
    expect(r.detail).toContain('images\\.example\\.com');
  });

  it('FAIL with the fix where bubblewrap is missing', () => {
    process.env.PATH = pathWithoutBwrap();
    const r = checkSandbox(ctx('auto'));
    expect(r.status).toBe('FAIL');
    expect(r.detail).toContain('not installed');
    expect(r.detail).toContain('WITHOUT a sandbox');
    expect(r.fix).toContain('apt-get install bubblewrap');
  });

  it('warn when security.sandbox is off', () => {
    expect(checkSandbox(ctx('off')).status).toBe('warn');
  });
});

describe('the daemon where bubblewrap cannot run', () => {
  function pool(sandbox: 'required' | 'auto') {
    const dir = mkdtempSync(join(tmpdir(), 'ode-no-bwrap-pool-'));
    dirs.push(dir);
    const cfg = configSchema.parse({ state_dir: join(dir, 'state'), security: { sandbox }, kits: { prespawn: 0 } });
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(l) });
    return { p: new KitPool({ config: () => cfg, log, tmpRoot: join(dir, 'kits') }), lines };
  }

  it('security.sandbox: required refuses to start, naming the fix', () => {
    process.env.PATH = pathWithoutBwrap();
    const { p } = pool('required');
    expect(() => p.start()).toThrow(ConfigError);
    expect(() => pool('required').p.start()).toThrow(/security\.sandbox.*apt-get install bubblewrap/s);
  });

  it('security.sandbox: auto starts and says loudly that kits run without a sandbox', async () => {
    process.env.PATH = pathWithoutBwrap();
    const { p, lines } = pool('auto');
    p.start();
    expect(p.sandboxStatus).toMatchObject({ mode: 'auto', active: false });
    expect(lines.some((l) => l.includes('"level":50') && l.includes('kits run WITHOUT a sandbox'))).toBe(true);
    process.env.PATH = PATH;
    await p.stop();
  });
});
