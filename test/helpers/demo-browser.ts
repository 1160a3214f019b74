import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { fileId, launchChromium, painted } from './browser.ts';
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

/** How many copies copyForTry made in this test file's process (their names' numbers). */
let copies = 0;

/**
 * Copies `source` (a corpus file's path) into the demo host's folder as `<stem>-<n><ext>` of `name` (`book.xlsx` ->
 * `book-3.xlsx`), a new name at each call: a test, and each CI retry of it, opens a document of its own, never the
 * one a failed try left open or changed. Resolves once the demo host lists the copy (its folder watcher sees a new
 * file a moment later: `/?open=<id>` of a file not yet listed opens nothing), with the copy's name (for fileId and
 * openDemoDocument) and its path.
 * @throws Error when the start page does not list the copy within 30 s.
 */
export async function copyForTry(env: DemoBrowser, source: string, name: string): Promise<{ name: string; path: string }> {
  const ext = extname(name);
  const copy = `${name.slice(0, name.length - ext.length)}-${++copies}${ext}`;
  const path = join(env.folder, copy);
  copyFileSync(source, path);
  const form = `id="f-${fileId(copy)}"`;
  for (const until = Date.now() + 30_000; !(await (await fetch(`${env.daemon.url}/`)).text()).includes(form); ) {
    if (Date.now() > until) throw new Error(`the demo host did not list ${copy} within 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { name: copy, path };
}

/** Opens `name` (a file of the demo host's folder) in `page` and waits for the menu bar and the first painted tiles. */
export async function openDemoDocument(page: Page, env: DemoBrowser, name: string): Promise<void> {
  await page.goto(`${env.daemon.url}/?open=${fileId(name)}`);
  await page.getByRole('menubar').waitFor({ timeout: 60_000 });
  await page.waitForFunction(painted, null, { timeout: 60_000 });
}

/**
 * Chooses a menu entry by mouse: the menu bar title, then on the way the item of the menu opened last (the deepest)
 * whose label is exactly `name` (Table > Delete > Table is not Table > Table…).
 */
export async function chooseMenu(page: Page, title: string, ...path: string[]): Promise<void> {
  await page.getByRole('menubar').getByRole('menuitem', { name: title, exact: true }).click();
  for (const name of path) {
    const menu = page.getByRole('menubar').locator('[role=menu]').last();
    const label = page.locator('.ode-menu-label', { hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });
    await menu.locator(':scope > li > [role^=menuitem]').filter({ has: label }).click({ timeout: 30_000 });
  }
}
