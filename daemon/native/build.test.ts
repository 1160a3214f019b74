/** build.mjs: builds the addon only when a source is newer than the built file. */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { ADDON_PATH } from './addon.ts';

const BUILD = fileURLToPath(new URL('./build.mjs', import.meta.url));

describe('daemon/native/build.mjs', () => {
  it('leaves an up-to-date addon alone', () => {
    // The first run builds if something changed; the second must find nothing to do.
    const first = spawnSync(process.execPath, [BUILD], { encoding: 'utf8', timeout: 120_000 });
    expect(first.status, first.stderr).toBe(0);
    expect(existsSync(ADDON_PATH)).toBe(true);
    const mtime = statSync(ADDON_PATH).mtimeMs;
    const second = spawnSync(process.execPath, [BUILD], { encoding: 'utf8', timeout: 30_000 });
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).toContain('is up to date');
    expect(statSync(ADDON_PATH).mtimeMs).toBe(mtime);
  });
});
