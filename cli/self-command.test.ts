import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { selfCommand } from './self-command.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'ode.js');

describe('selfCommand: the ode command as the user types it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ode-self-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** A PATH folder holding `ode`: a link to this installation's bin, or another program. */
  const folder = (name: string, ours: boolean) => {
    const d = join(dir, name);
    mkdirSync(d, { recursive: true });
    if (ours) symlinkSync(BIN, join(d, 'ode'));
    else writeFileSync(join(d, 'ode'), '#!/bin/sh\n', { mode: 0o755 });
    return d;
  };
  const global = folder('global/bin', true);
  const npx = folder('project/node_modules/.bin', true);
  const other = folder('other/bin', false);

  it('says `ode` when the first ode on PATH is this installation (a global install)', () => {
    expect(selfCommand('admin token', { PATH: `${npx}:${global}` }, tmpdir())).toBe('ode admin token');
  });

  it("ignores node_modules/.bin (npx's PATH): `npx ode` inside the checkout, the bin's path elsewhere", () => {
    expect(selfCommand('admin token', { PATH: npx }, ROOT)).toBe('npx ode admin token');
    expect(selfCommand('admin token', { PATH: npx }, join(ROOT, 'daemon'))).toBe('npx ode admin token');
    expect(selfCommand('admin token', { PATH: npx }, tmpdir())).toBe(`node ${BIN} admin token`);
  });

  it('does not name another program called ode found first on PATH', () => {
    expect(selfCommand('serve', { PATH: `${other}:${global}` }, ROOT)).toBe('npx ode serve');
    expect(selfCommand('serve', {}, ROOT)).toBe('npx ode serve');
  });
});
