import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { publicKeyFromDiscovery } from '../helpers/fake-wopi-host.ts';
import { SettingsHost } from '../helpers/settings-host.ts';

/**
 * The settings iframe (docs/settings.md) in Debian's Chromium against a real daemon and a real settings host with
 * files on disk (test/helpers/settings-host.ts). The host's parent page lives on the host's origin
 * (127.0.0.1:<host port>), the iframe on the daemon's (127.0.0.1:<daemon port>): two origins, as in production.
 */
let daemon: TestDaemon;
let host: SettingsHost;
let browser: Browser;
let settingsUrlsrc: string;

const dic = (...words: string[]) => ['OOoUserDict1', 'lang: <none>', 'type: positive', '---', ...words, ''].join('\n');

/** Page-side objects the page functions touch (the tests are type-checked for Node, not the DOM). */
interface ParentGlobal {
  received: { MessageId: string; Values: Record<string, unknown> }[];
}
interface DomGlobal {
  getComputedStyle(e: unknown): { backgroundColor: string };
  document: { body: unknown; documentElement: { dataset: Record<string, string> } };
}

/** Page function (parent page): the Iframe_Height messages received so far. */
const heights = (): string[] =>
  (globalThis as unknown as ParentGlobal).received.filter((m) => m.MessageId === 'Iframe_Height').map((m) => String(m.Values.ContentHeight));
/** Page function (settings frame): the body's computed background colour. */
const bodyBackground = (): string => {
  const g = globalThis as unknown as DomGlobal;
  return g.getComputedStyle(g.document.body).backgroundColor;
};

/** Relative luminance (0 black .. 1 white) of a CSS `rgb(r, g, b)` colour. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? [])
    .slice(0, 3)
    .map((v) => Number(v) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** A parent page on the host's origin that posts the settings form into an iframe and records its PostMessages. */
function parentPage(fields: Record<string, string>, query = ''): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const inputs = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Settings host</title></head><body>
<form id="f" action="${esc(settingsUrlsrc + query)}" method="post" target="settings">${inputs}</form>
<iframe name="settings" title="Settings" style="width:700px;height:500px;border:0"></iframe>
<script>
window.received = [];
window.addEventListener('message', (e) => {
  if (e.origin !== ${JSON.stringify(new URL(daemon.url).origin)}) return;
  try { window.received.push(typeof e.data === 'string' ? JSON.parse(e.data) : e.data); } catch {}
});
document.getElementById('f').submit();
</script></body></html>`;
}

async function openSettings(path: string, fields: Record<string, string>, query = ''): Promise<{ page: Page; frame: FrameLocator }> {
  host.pages.set(path, parentPage(fields, query));
  const page = await browser.newPage();
  await page.goto(`${host.url}${path}`);
  const frame = page.frameLocator('iframe[name=settings]');
  await frame.locator('h1').waitFor();
  return { page, frame };
}

beforeAll(async () => {
  daemon = await startDaemon();
  host = await SettingsHost.start();
  const xml = await (await fetch(`${daemon.url}/hosting/discovery`)).text();
  host.proofKey = publicKeyFromDiscovery(xml);
  const m = /<app name="Settings">\s*<action[^>]*urlsrc="([^"]+)"/.exec(xml);
  if (!m) throw new Error('no Settings app in discovery');
  settingsUrlsrc = `${daemon.url}${new URL(m[1].replace(/&amp;/g, '&')).pathname}`;
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  await host?.stop();
});

describe('settings iframe: entry', () => {
  it('capabilities say hasSettingIframeSupport and discovery points the Settings app at settings.html', async () => {
    const caps = (await (await fetch(`${daemon.url}/hosting/capabilities`)).json()) as Record<string, unknown>;
    expect(caps.hasSettingIframeSupport).toBe(true);
    expect(settingsUrlsrc).toMatch(/\/browser\/[^/]+\/settings\.html$/);
  });

  it('refuses a form without wopi_setting_base_url (400 naming it), a bad one, and a host not allowed; the daemon keeps serving', async () => {
    const post = (fields: Record<string, string>) =>
      fetch(settingsUrlsrc, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    const missing = await post({ access_token: host.userToken, iframe_type: 'user' });
    expect(missing.status).toBe(400);
    const body = (await missing.json()) as { code: string; message: string };
    expect(body.code).toBe('bad_request');
    expect(body.message).toContain('wopi_setting_base_url');
    const notSettings = await post({ access_token: host.userToken, wopi_setting_base_url: `${host.url}/wopi/files/1` });
    expect(notSettings.status).toBe(400);
    expect(((await notSettings.json()) as { message: string }).message).toContain('/wopi/settings');
    const elsewhere = await post({ access_token: host.userToken, wopi_setting_base_url: 'https://storage.invalid/wopi/settings' });
    expect(elsewhere.status).toBe(403);
    expect(((await elsewhere.json()) as { code: string }).code).toBe('forbidden_host');
    const noBearer = await fetch(`${daemon.url}/ode/settings?${new URLSearchParams({ base: host.baseUrl, type: 'userconfig' })}`);
    expect(noBearer.status).toBe(400);
    expect(((await noBearer.json()) as { message: string }).message).toContain('Bearer');
    const logged = daemon.logBuffer.recent(200, 'warn').filter((l) => l.msg === 'request failed' && String(l.fields.path).endsWith('/settings.html'));
    expect(logged.map((l) => l.fields.code)).toEqual(expect.arrayContaining(['bad_request', 'forbidden_host']));
    expect((await fetch(`${daemon.url}/hosting/capabilities`)).status).toBe(200);
  });
});

describe('settings iframe: a user iframe in Chromium', () => {
  let page: Page;
  let frame: FrameLocator;
  const wordbookSection = () => frame.locator('section[data-setting="wordbook"]');
  const item = (setting: string, file: string) => frame.locator(`section[data-setting="${setting}"] li[data-file="${file}"]`);

  beforeAll(async () => {
    host.put('userconfig', 'autotext', 'standard.bau', Buffer.from('PK fake autotext'));
    host.put('userconfig', 'wordbook', 'team.dic', dic('Odeword', 'Kitword'));
    host.put('userconfig', 'browsersetting', 'prefs.json', '{"darkTheme":false}');
    host.put('systemconfig', 'wordbook', 'shared.dic', dic('Sharedword'));
    ({ page, frame } = await openSettings('/parent-user.html', {
      access_token: host.userToken,
      access_token_ttl: String(Date.now() + 3_600_000),
      wopi_setting_base_url: host.baseUrl,
      iframe_type: 'user',
      ui_theme: 'light',
    }));
    await item('wordbook', 'team.dic').waitFor();
  }, 60_000);
  afterAll(async () => {
    await page?.close();
  });

  it('lists the user settings: one section per setting name, each file with its name and stamp', async () => {
    const sections = await frame
      .locator('section[data-setting]')
      .evaluateAll((els) => els.map((e) => (e as unknown as { getAttribute(n: string): string | null }).getAttribute('data-setting')));
    expect(sections).toEqual(['autotext', 'wordbook', 'xcu', 'browsersetting']);
    expect(await item('wordbook', 'team.dic').locator('.ode-settings-stamp').textContent()).toContain(SettingsHost.stampOf(dic('Odeword', 'Kitword')));
    expect(await item('autotext', 'standard.bau').count()).toBe(1);
    expect(await frame.locator('li[data-file="shared.dic"]').count()).toBe(0); // systemconfig is not a user's
    expect(await frame.locator('html').evaluate((e) => (e as unknown as { dataset: Record<string, string> }).dataset.theme)).toBe('light');
    const list = host.of('List').at(-1)!;
    expect(list.query.get('type')).toBe('userconfig');
    expect(list.query.get('fileId')).toBe('-1');
    expect(list.headers.authorization).toBe(`Bearer ${host.userToken}`);
    expect(list.proofValid).toBe(true);
  });

  it('uploads a file: stored at <TYPE>/<SETTING_NAME>/<FILE> on the host, answer shown, list grown, Iframe_Height grows', async () => {
    await expect.poll(() => page.evaluate(heights), { timeout: 10_000 }).not.toHaveLength(0);
    const before = parseFloat((await page.evaluate(heights)).at(-1)!);
    expect(before).toBeGreaterThan(0);
    const bytes = Buffer.from(dic('Freshword'));
    await frame.locator('#ode-settings-up-wordbook').setInputFiles({ name: 'fresh.dic', mimeType: 'text/plain', buffer: bytes });
    await wordbookSection().getByRole('button', { name: 'Upload', exact: true }).click();
    await item('wordbook', 'fresh.dic').waitFor();
    expect(host.read('userconfig', 'wordbook', 'fresh.dic')?.equals(bytes)).toBe(true);
    expect(host.storedPaths()).toContain('userconfig/wordbook/fresh.dic');
    const answer = wordbookSection().locator('.ode-settings-answer');
    await expect.poll(() => answer.textContent()).toContain('success');
    expect(await answer.getAttribute('data-ok')).toBe('true');
    const upload = host.of('Upload').at(-1)!;
    expect(upload.query.get('fileId')).toBe('/settings/userconfig/wordbook/fresh.dic');
    expect(upload.headers.authorization).toBe(`Bearer ${host.userToken}`);
    expect(upload.headers['x-wopi-proof']).toBeTruthy();
    expect(upload.proofValid).toBe(true);
    await expect.poll(async () => parseFloat((await page.evaluate(heights)).at(-1)!), { timeout: 10_000 }).toBeGreaterThan(before);
  });

  it('replaces a file by uploading again under the same name: new bytes on disk, new stamp listed', async () => {
    const bytes = Buffer.from(dic('Freshword', 'Newerword'));
    await item('wordbook', 'fresh.dic')
      .locator('input.ode-settings-replace-input')
      .setInputFiles({ name: 'whatever-local-name.dic', mimeType: 'text/plain', buffer: bytes });
    await expect.poll(() => item('wordbook', 'fresh.dic').locator('.ode-settings-stamp').textContent()).toContain(SettingsHost.stampOf(bytes));
    expect(host.read('userconfig', 'wordbook', 'fresh.dic')?.equals(bytes)).toBe(true);
    expect(host.storedPaths().filter((p) => p.startsWith('userconfig/wordbook/'))).toEqual(['userconfig/wordbook/fresh.dic', 'userconfig/wordbook/team.dic']);
  });

  it('edits a wordbook in place with the keyboard and saves it back: the file on disk has the new word, not the removed one', async () => {
    await item('wordbook', 'team.dic').getByRole('button', { name: 'Edit the words of team.dic' }).click();
    const editor = wordbookSection().getByRole('group', { name: 'Words of team.dic' });
    await editor.getByRole('button', { name: 'Remove Kitword' }).press('Enter');
    await expect
      .poll(() =>
        editor.getByLabel('New word').evaluate((e) => e === (e as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement),
      )
      .toBe(true);
    const field = editor.getByLabel('New word');
    await field.fill('Zyxwordly');
    await field.press('Enter');
    await editor.locator('li[data-word="Zyxwordly"]').waitFor();
    await editor.getByRole('button', { name: 'Save' }).press('Enter');
    await expect.poll(() => host.read('userconfig', 'wordbook', 'team.dic')?.toString('utf8')).toContain('Zyxwordly');
    const text = host.read('userconfig', 'wordbook', 'team.dic')!.toString('utf8');
    expect(text.split('\n').slice(0, 4)).toEqual(['OOoUserDict1', 'lang: <none>', 'type: positive', '---']);
    expect(text.split('\n').slice(4).filter(Boolean).sort()).toEqual(['Odeword', 'Zyxwordly']);
    await expect.poll(() => item('wordbook', 'team.dic').locator('.ode-settings-stamp').textContent()).toContain(SettingsHost.stampOf(text));
  });

  it("deletes a file: gone from disk and from the list, the host's message shown", async () => {
    await item('autotext', 'standard.bau').getByRole('button', { name: 'Delete standard.bau' }).click();
    await expect.poll(() => item('autotext', 'standard.bau').count()).toBe(0);
    expect(host.read('userconfig', 'autotext', 'standard.bau')).toBeUndefined();
    const del = host.of('Delete').at(-1)!;
    expect(del.query.get('fileId')).toBe('/settings/userconfig/autotext/standard.bau');
    expect(del.proofValid).toBe(true);
    expect(await frame.locator('section[data-setting="autotext"] .ode-settings-answer').textContent()).toContain('standard.bau deleted');
  });

  it('shows a refusal from the host inline and keeps the file', async () => {
    host.answer('Delete', { status: 500, body: { status: 'error', message: 'storage is read-only today' } });
    await item('wordbook', 'fresh.dic').getByRole('button', { name: 'Delete fresh.dic' }).click();
    const answer = wordbookSection().locator('.ode-settings-answer');
    await expect.poll(() => answer.textContent()).toContain('storage is read-only today');
    expect(await answer.getAttribute('data-ok')).toBe('false');
    expect(await answer.textContent()).toContain('500');
    expect(host.read('userconfig', 'wordbook', 'fresh.dic')).toBeDefined();
    expect(await item('wordbook', 'fresh.dic').count()).toBe(1);
  });

  it('every request the host received carried the Bearer token and a valid X-WOPI-Proof', () => {
    const fromDaemon = host.requests.filter((r) => r.operation !== 'other');
    expect(fromDaemon.length).toBeGreaterThanOrEqual(8);
    for (const r of fromDaemon) {
      expect(r.headers.authorization, `${r.method} ${r.path}`).toBe(`Bearer ${host.userToken}`);
      expect(r.proofValid, `${r.method} ${r.path}`).toBe(true);
    }
  });
});

describe('settings iframe: an admin iframe, dark, in French', () => {
  it("follows ui_theme=dark, lists systemconfig with the admin token, speaks French, and warns of the token's end", async () => {
    // The token ends in 10 minutes: within the 15 minutes of the spec, so the notice shows at once.
    const { page, frame } = await openSettings(
      '/parent-admin.html',
      {
        access_token: host.adminToken,
        access_token_ttl: String(Date.now() + 10 * 60_000),
        wopi_setting_base_url: host.baseUrl,
        iframe_type: 'admin',
        ui_theme: 'dark',
      },
      '?lang=fr-FR',
    );
    try {
      await frame.locator('li[data-file="shared.dic"]').waitFor();
      expect(await frame.locator('li[data-file="team.dic"]').count()).toBe(0);
      expect(luminance(await frame.locator('body').evaluate(bodyBackground))).toBeLessThan(0.1);
      expect(await frame.locator('h1').textContent()).toBe('Paramètres partagés');
      expect(await frame.getByRole('button', { name: 'Supprimer shared.dic' }).count()).toBe(1);
      const list = host.of('List').at(-1)!;
      expect(list.query.get('type')).toBe('systemconfig');
      expect(list.headers.authorization).toBe(`Bearer ${host.adminToken}`);
      await expect.poll(() => page.evaluate(heights), { timeout: 10_000 }).not.toHaveLength(0);
      await expect.poll(() => frame.getByRole('alert').textContent()).toContain('Votre accès à ces paramètres se termine');
    } finally {
      await page.close();
    }
    // The light user page, for contrast: the same check sees a light background.
    const light = await openSettings('/parent-light.html', {
      access_token: host.userToken,
      wopi_setting_base_url: host.baseUrl,
      iframe_type: 'user',
      ui_theme: 'light',
    });
    try {
      expect(luminance(await light.frame.locator('body').evaluate(bodyBackground))).toBeGreaterThan(0.8);
      expect(await light.frame.locator('.ode-settings-expiry').count()).toBe(0); // no access_token_ttl, no notice
    } finally {
      await light.page.close();
    }
  });
});
