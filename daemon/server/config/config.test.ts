import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { ConfigError, loadConfig } from './load.ts';
import { ConfigStore } from './watch.ts';

const dirs: string[] = [];
function tempFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ode-config-'));
  dirs.push(dir);
  const file = join(dir, 'ode.yaml');
  writeFileSync(file, text);
  return file;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('configuration', () => {
  it('has the documented defaults without a file', () => {
    const { config } = loadConfig(undefined, {});
    expect(config.net.port).toBe(9980);
    expect(config.net.listen).toBe('127.0.0.1');
    expect(config.admin.port).toBe(9981);
    expect(config.kits.prespawn).toBe(2);
    expect(config.limits.load_secs).toBe(100);
    expect(config.limits.convert_secs).toBe(100);
  });

  it('the shipped ode.yaml is valid and equal to the built-in defaults', () => {
    const shipped = loadConfig(new URL('../../../ode.yaml', import.meta.url).pathname, {}).config;
    const defaults = loadConfig(undefined, {}).config;
    expect({ ...shipped, state_dir: '' }).toEqual({ ...defaults, state_dir: '' });
  });

  it('applies environment overrides with double-underscore paths', () => {
    const { config } = loadConfig(undefined, { ODE_NET__PORT: '8088', ODE_LIMITS__QUEUE: '3', ODE_NET__POST_ALLOW__HOST: '["1\\\\.2\\\\.3\\\\.4"]' });
    expect(config.net.port).toBe(8088);
    expect(config.limits.queue).toBe(3);
    expect(config.net.post_allow.host).toEqual(['1\\.2\\.3\\.4']);
  });

  it("leaves the ODE_ variables that are not configuration alone (test switches, a kit's own environment)", () => {
    const env = { ODE_TEST_LOG: 'debug', ODE_CORPUS: '/x', ODE_KIT_TRIM_IDLE_MS: '0', ODE_KIT_DIR: '/k', ODE_FROM_SOURCES: '1', ODE_KITS__PRESPAWN: '2' };
    const { config } = loadConfig(undefined, env);
    expect(config.kits.prespawn).toBe(2);
    expect(() => loadConfig(undefined, { ODE_TEST_LOGX: 'debug' })).toThrow(/test_logx/);
  });

  it('a bad value names the key, the value and what is allowed', () => {
    const file = tempFile('net:\n  port: 70000\nkits:\n  prespawn: -1\n');
    let err: unknown;
    try {
      loadConfig(file, {});
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    expect(msg).toContain('net.port: 70000');
    expect(msg).toContain('kits.prespawn: -1');
  });

  it('an unknown key and an invalid regular expression are refused', () => {
    expect(() => loadConfig(tempFile('nett: {}\n'), {})).toThrow(/nett/);
    expect(() => loadConfig(tempFile('net:\n  post_allow:\n    host: ["(unclosed"]\n'), {})).toThrow(/net\.post_allow\.host\.0.*regular expression/);
  });

  it('reloads live keys on change and keeps the last good config on a bad edit', async () => {
    const file = tempFile('limits:\n  queue: 5\n');
    const log = pino({ level: 'silent' });
    const store = new ConfigStore(loadConfig(file, {}).config, file, log);
    await store.watch();
    try {
      const changed = new Promise<number>((resolve) => store.onChange((next) => resolve(next.limits.queue)));
      writeFileSync(file, 'limits:\n  queue: 9\n');
      expect(await changed).toBe(9);
      writeFileSync(file, 'limits:\n  queue: -4\n');
      expect(store.reload()).toBe(false);
      expect(store.get().limits.queue).toBe(9);
      expect(readFileSync(file, 'utf8')).toContain('-4');
    } finally {
      await store.close();
    }
  });
});
