import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './browser.ts';
import { startDaemon, type TestDaemon } from './daemon.ts';

/** A temp folder served by a daemon's demo host, and Chromium: what the browser editor tests run against. */
export interface DemoBrowser {
  /** The folder the demo host serves: made when `useDemoBrowser` is called, removed after the block's tests. */
  readonly folder: string;
  /** Set by the block's first beforeAll: read it in tests and later hooks. */
  daemon: TestDaemon;
  /** Set by the block's first beforeAll: read it in tests and later hooks. */
  browser: Browser;
}

/**
 * For the describe block it is called in: makes a temp folder named `prefix...` (e.g. `ode-calc-`) and registers a
 * beforeAll that runs `prepare(folder)` (copy the documents in: the demo host lists the folder when it starts),
 * starts a daemon whose demo host serves the folder and which saves documents only when asked (no storage check,
 * idle save or autosave), and launches Chromium; and an afterAll that closes Chromium, stops the daemon and removes
 * the folder. Returns the object those hooks fill in.
 */
export function useDemoBrowser(prefix: string, prepare: (folder: string) => void = () => {}): DemoBrowser {
  const env = { folder: mkdtempSync(join(tmpdir(), prefix)) } as DemoBrowser;
  beforeAll(async () => {
    prepare(env.folder);
    env.daemon = await startDaemon({ demo_host: { folder: env.folder }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } });
    env.browser = await launchChromium();
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.daemon?.stop();
    rmSync(env.folder, { recursive: true, force: true });
  });
  return env;
}
