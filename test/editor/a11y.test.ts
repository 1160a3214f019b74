import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { chooseMenu, openDemoDocument, useDemoBrowser } from '../helpers/demo-browser.ts';

/** Screenshots land here (ignored by git: products of the run). */
const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;

/** axe-core's browser script (the devDependency's axe.min.js), injected into the editor's page. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One axe violation as the test reports it: rule, impact, help text and the first elements it names. */
interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * The impacts the check fails on (axe's four levels: minor, moderate, serious, critical): moderate too since the
 * editor's landmarks and heading were fixed (docs/editor-chrome.md "Accessibility check").
 */
const FAILING = new Set(['moderate', 'serious', 'critical']);

/**
 * The accessibility check of issue 23 ("an accessibility check (axe-core or similar) on each application's page: no
 * serious violations") in Debian's Chromium against a real daemon and LibreOffice 25.2 through the demo host: a text
 * document, a spreadsheet and a presentation as loaded, with LibreOffice's sidebar shown (its JSDialog panels as
 * HTML) and with a LibreOffice dialog open (Format > Paragraph, Format cells, Character: HTML from JSDialog); a PDF
 * (read-only, opened in Draw: no sidebar, no Format menu) as loaded and with the keyboard shortcuts dialog. axe-core
 * 4.14 runs its default rules (WCAG 2.0-2.2 A/AA and best practices) on the whole editor page; the check fails on a
 * violation of impact moderate, serious or critical and prints the minor ones. The document itself is a canvas:
 * axe sees the element, not the text drawn on it.
 */
describe('accessibility of the editor (axe-core)', () => {
  const env = useDemoBrowser('ode-a11y-', (folder) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    copyFileSync(join(CORPUS, 'properties/documentProperties.docx'), join(folder, 'a11y.docx'));
    copyFileSync(join(CORPUS, 'spreadsheets/SampleSS.xlsx'), join(folder, 'a11y.xlsx'));
    copyFileSync(join(CORPUS, 'presentations/layouts.pptx'), join(folder, 'a11y.pptx'));
  });
  let page: Page;

  beforeAll(async () => {
    const pdf = await postConvert(env.daemon.url, '/ode/convert-to/pdf', join(CORPUS, 'presentations/layouts.pptx'));
    expect(pdf.status).toBe(200);
    writeFileSync(join(env.folder, 'a11y.pdf'), pdf.body);
    // The editor's CSP (script-src 'self') refuses an injected script: axe goes in with the CSP bypassed.
    page = await env.browser.newPage({ viewport: { width: 1280, height: 860 }, colorScheme: 'light', bypassCSP: true });
  }, 120_000);

  /** Runs axe on the editor's page as it is now; prints the minor violations; returns the failing ones. */
  async function audit(what: string): Promise<Violation[]> {
    if (!(await page.evaluate(() => 'axe' in globalThis))) await page.addScriptTag({ content: AXE_SOURCE });
    const found: Violation[] = await page.evaluate(async () => {
      type AxeResult = { violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> };
      const g = globalThis as unknown as { document: unknown; axe: { run(context: unknown, options: object): Promise<AxeResult> } };
      const r = await g.axe.run(g.document, { resultTypes: ['violations'] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 8).map((n) => n.target.map(String).join(' ')) }));
    });
    const minor = found.filter((v) => !FAILING.has(v.impact ?? ''));
    if (minor.length)
      console.log(`axe, ${what}: ${minor.length} minor\n${minor.map((v) => `  ${v.impact} ${v.id} (${v.help}): ${v.targets.join(', ')}`).join('\n')}`);
    return found.filter((v) => FAILING.has(v.impact ?? '')).map((v) => ({ ...v, help: `${what}: ${v.help}` }));
  }

  const open = (name: string) => openDemoDocument(page, env, name);
  const choose = (title: string, ...path: string[]) => chooseMenu(page, title, ...path);

  /** View > Sidebar, until LibreOffice's panels are shown in it. */
  async function showSidebar(): Promise<void> {
    await choose('View', 'Sidebar');
    const sidebar = page.getByRole('region', { name: 'Properties' });
    await sidebar.waitFor({ timeout: 30_000 });
    await expect.poll(() => sidebar.locator('.ode-jsd-sidepanel:visible').count(), { timeout: 60_000 }).toBeGreaterThan(0);
  }

  /** Opens the modal dialog `menu` > `item` (LibreOffice's, as HTML) and waits until its fields are there. */
  async function openDialog(menu: string, item: string): Promise<void> {
    await choose(menu, item);
    const dialog = page.locator('[role=dialog][aria-modal=true]').first();
    await dialog.waitFor({ state: 'visible', timeout: 60_000 });
    await expect.poll(() => dialog.locator('input, select, button').count(), { timeout: 30_000 }).toBeGreaterThan(2);
  }

  async function closeDialog(): Promise<void> {
    await page.keyboard.press('Escape');
    await page.locator('[role=dialog][aria-modal=true]').first().waitFor({ state: 'detached', timeout: 30_000 });
  }

  /** The check for one application: the page, with the sidebar, and with a dialog open over both. */
  async function check(name: string, menu: string, item: string): Promise<void> {
    await open(name);
    const failing = await audit(`${name} loaded`);
    await showSidebar();
    failing.push(...(await audit(`${name} with the sidebar`)));
    await page.screenshot({ path: join(ARTIFACTS, `a11y-${name.replace('.', '-')}.png`) });
    await openDialog(menu, item);
    failing.push(...(await audit(`${name} with ${menu} > ${item}`)));
    await closeDialog();
    expect(failing).toEqual([]);
  }

  it('text document: loaded, with the sidebar, with Format > Paragraph: no moderate, serious or critical violation', async () => {
    await check('a11y.docx', 'Format', 'Paragraph…');
  }, 240_000);

  it('spreadsheet: loaded, with the sidebar, with Format > Format cells: no moderate, serious or critical violation', async () => {
    await check('a11y.xlsx', 'Format', 'Format cells…');
  }, 240_000);

  it("spreadsheet: Insert > Chart opens LibreOffice's chart dialog over the sheet with an accessible name; no moderate, serious or critical violation", async () => {
    // Which of LibreOffice's dialogs opens (the editor logs each JSDialog and popup it shows: window id, type, dialog id, title).
    const opened: string[] = [];
    const onConsole = (m: { text(): string }) => {
      if (m.text().startsWith('[ode] jsdialog open')) opened.push(m.text());
    };
    page.on('console', onConsole);
    try {
      await open('a11y.xlsx');
      await choose('Insert', 'Chart');
      const dialog = page.locator('[role=dialog]:visible').first();
      await dialog.waitFor({ state: 'visible', timeout: 60_000 });
      await expect.poll(() => dialog.locator('input, select, button').count(), { timeout: 30_000 }).toBeGreaterThan(1);
      console.log(`a11y, Insert > Chart in a spreadsheet: ${opened.join('; ') || 'no JSDialog logged'}`);
      // Every dialog shown has an accessible name (axe's aria-dialog-name checks the same; this names which one lacks it).
      const dialogs = page.locator('[role=dialog]:visible');
      const unnamed: string[] = [];
      for (let i = 0; i < (await dialogs.count()); i++) {
        const d = dialogs.nth(i);
        const by = await d.getAttribute('aria-labelledby');
        const text = by ? ((await page.locator(`[id="${by}"]`).first().textContent()) ?? '') : '';
        if (!(await d.getAttribute('aria-label'))?.trim() && !text.trim()) unnamed.push((await d.getAttribute('class')) ?? '?');
      }
      expect(unnamed).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, 'a11y-chart.png') });
      const failing = await audit('a11y.xlsx with Insert > Chart');
      expect(failing).toEqual([]);
    } finally {
      page.off('console', onConsole);
      for (let i = 0; i < 3 && (await page.locator('[role=dialog]:visible').count()) > 0; i++) {
        await page.keyboard.press('Escape');
        await page.waitForTimeout(500);
      }
    }
  }, 240_000);

  it('presentation: loaded, with the sidebar, with Format > Character: no moderate, serious or critical violation', async () => {
    await check('a11y.pptx', 'Format', 'Character…');
  }, 240_000);

  it('PDF (read-only, in Draw): loaded and with Help > Keyboard shortcuts: no moderate, serious or critical violation', async () => {
    await open('a11y.pdf');
    const failing = await audit('a11y.pdf loaded');
    await page.screenshot({ path: join(ARTIFACTS, 'a11y-a11y-pdf.png') });
    await choose('Help', 'Keyboard shortcuts');
    await page.locator('[role=dialog][aria-modal=true]').first().waitFor({ state: 'visible', timeout: 30_000 });
    failing.push(...(await audit('a11y.pdf with Help > Keyboard shortcuts')));
    await closeDialog();
    expect(failing).toEqual([]);
  }, 240_000);
});
