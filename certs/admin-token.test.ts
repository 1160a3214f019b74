import { mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AdminTokenStore, tokenMatches } from './admin-token.ts';

describe('the admin token store', () => {
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'ode-token-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('falls back to a 0600 file without a keyring, keeps the token, and rotates it', () => {
    const stateDir = dir();
    const store = new AdminTokenStore({ stateDir, useKeyring: false });
    expect(store.read()).toBeUndefined();
    const first = store.getOrCreate();
    expect(first.where).toBe('file');
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(join(stateDir, 'admin_token')).mode & 0o777).toBe(0o600);
    expect(new AdminTokenStore({ stateDir, useKeyring: false }).getOrCreate().token).toBe(first.token);
    const rotated = store.rotate();
    expect(rotated.token).not.toBe(first.token);
    expect(readFileSync(join(stateDir, 'admin_token'), 'utf8').trim()).toBe(rotated.token);
  });

  it('with the keyring on a machine without a secret service, still ends in the file', () => {
    const stateDir = dir();
    const token = new AdminTokenStore({ stateDir }).getOrCreate();
    // On this machine (no D-Bus secret service) the keyring refuses; with one, the token is in the keyring.
    if (token.where === 'file') expect(readFileSync(join(stateDir, 'admin_token'), 'utf8').trim()).toBe(token.token);
    expect(new AdminTokenStore({ stateDir }).read()?.token).toBe(token.token);
  });

  it('compares tokens in constant time, refusing empty and different lengths', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abd', 'abc')).toBe(false);
    expect(tokenMatches('ab', 'abc')).toBe(false);
    expect(tokenMatches(undefined, 'abc')).toBe(false);
  });
});
