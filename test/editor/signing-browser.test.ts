import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import type { HostPage } from '../helpers/host-page.ts';
import { openHostPage, useHostPageEditing } from '../helpers/host-page-setup.ts';
import { makeSigningCredentials, pemBody, type SigningCredentialsPem } from '../helpers/signing-credentials.ts';

const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;
const ODT = readFileSync(join(CORPUS, 'charts/chart.odt'));

/**
 * Document signing in Debian's Chromium against a real daemon and LibreOffice (docs/editing.md, "Signing"): a host
 * page (test/helpers/host-page.ts) proxies the fake WOPI host and gives the signer CheckFileInfo
 * `UserPrivateInfo: {SignatureCert, SignatureKey, SignatureCa}` (a CA and a user certificate made with node-forge).
 * The signer sees the state in the status bar, signs with File > Sign document, and the host stores the signed
 * odt; a second host page (another user, no credentials) has no Sign document.
 */
const env = useHostPageEditing(
  { kits: { prespawn: 2, max: 3 }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600, idle_unload_secs: 3600 } },
  2,
);
let creds: SigningCredentialsPem;
beforeAll(() => {
  mkdirSync(ARTIFACTS, { recursive: true });
  creds = makeSigningCredentials();
});

/** Opens the fake host's file `id` in a host page with `fileInfo` over its CheckFileInfo; resolves once it is shown. */
async function open(id: string, fileInfo: Record<string, unknown>): Promise<{ page: Page; host: HostPage; frame: FrameLocator; received: string[] }> {
  // Every WebSocket frame the page receives, and the editor page itself (the browser's whole view of the secrets).
  const received: string[] = [];
  const opened = await openHostPage(
    env.browser,
    { daemonUrl: env.daemon.url, wopiSrc: env.wopi.fileUrl(id), token: env.wopi.token, fileInfo },
    {
      onPage: (page) => {
        page.on('websocket', (ws) => ws.on('framereceived', (f) => received.push(String(f.payload))));
        page.on('response', (r) => {
          if (r.url().includes('/ode.html'))
            void r.text().then(
              (t) => received.push(t),
              () => undefined,
            );
        });
      },
    },
  );
  return { ...opened, received };
}

/** The signature state in the status bar (a role=status element of the status bar saying "Signature: ..."). */
const signatureStatus = (frame: FrameLocator) =>
  frame
    .getByRole('contentinfo', { name: 'Status bar' })
    .getByRole('status')
    .filter({ hasText: /^Signature:/ });

/** Opens File; returns the open File menu. */
async function fileMenu(frame: FrameLocator) {
  await frame.getByRole('menuitem', { name: 'File', exact: true }).click();
  const menu = frame.getByRole('menu', { name: 'File' });
  await menu.waitFor();
  return menu;
}

describe('signing a document in the editor (UserPrivateInfo.SignatureCert/Key/Ca)', () => {
  let signer: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    env.wopi.addFile('signodt', 'chart.odt', ODT);
    signer = await open('signodt', { UserPrivateInfo: { SignatureCert: creds.certPem, SignatureKey: creds.keyPem, SignatureCa: creds.caPem } });
  }, 150_000);
  afterAll(async () => {
    await signer?.page.close();
    await signer?.host.stop();
  });

  it('shows the unsigned state in the status bar and offers File > Sign document', async () => {
    const status = signatureStatus(signer.frame);
    await status.waitFor({ timeout: 30_000 });
    expect(await status.textContent()).toBe('Signature: not signed');
    expect(await status.isVisible()).toBe(true);
    // In the status bar, before the zoom control that ends it.
    const zoom = await signer.frame.getByRole('button', { name: 'Zoom: 100%' }).boundingBox();
    const badge = await status.boundingBox();
    expect(badge!.x + badge!.width).toBeLessThanOrEqual(zoom!.x);
    const file = await fileMenu(signer.frame);
    const sign = file.getByRole('menuitem', { name: 'Sign document', exact: true });
    expect(await sign.count()).toBe(1);
    await expect.poll(() => sign.getAttribute('aria-disabled')).toBeNull();
    await signer.page.screenshot({ path: join(ARTIFACTS, 'signing-file-menu.png') });
    await signer.page.keyboard.press('Escape');
  }, 60_000);

  it('signs with the keyboard: the status bar says valid and the host stores the odt with its signature', async () => {
    const putsBefore = env.wopi.of('PutFile').length;
    const file = await fileMenu(signer.frame);
    const sign = file.getByRole('menuitem', { name: 'Sign document', exact: true });
    await sign.focus();
    await signer.page.keyboard.press('Enter');
    const status = signatureStatus(signer.frame);
    await expect.poll(() => status.textContent(), { timeout: 60_000 }).toBe('Signature: signed, valid');
    expect(await status.getAttribute('data-state')).toBe('valid');
    // The notice of the signature, then the menu is closed.
    expect(await signer.frame.getByRole('status').filter({ hasText: 'The document is signed and saved.' }).count()).toBe(1);
    expect(await signer.frame.getByRole('menu', { name: 'File' }).count()).toBe(0);
    await signer.page.screenshot({ path: join(ARTIFACTS, 'signing-signed.png') });

    const puts = env.wopi.of('PutFile');
    expect(puts.length).toBe(putsBefore + 1);
    const zip = unzipSync(new Uint8Array(puts.at(-1)!.body));
    expect(Object.keys(zip)).toContain('META-INF/documentsignatures.xml');
    expect(new TextDecoder().decode(zip['META-INF/documentsignatures.xml'])).toContain(pemBody(creds.certPem).slice(0, 64));
    expect(env.wopi.files.get('signodt')!.bytes.equals(puts.at(-1)!.body)).toBe(true);

    // The certificate and key never reached the browser: not in the editor page, not in a WebSocket frame.
    const seen = signer.received.join('\n');
    expect(signer.received.some((r) => r.includes('id="ode-app"'))).toBe(true);
    expect(signer.received.some((r) => r.includes('"signed"'))).toBe(true);
    expect(seen).not.toContain(pemBody(creds.keyPem).slice(0, 40));
    expect(seen).not.toContain('PRIVATE KEY');
    expect(seen).not.toContain('SignatureKey');
    expect(seen).not.toContain('SignatureCert');
  }, 90_000);

  it('a user without credentials has no Sign document, and sees the stored signature state', async () => {
    // Another host page: another WOPISrc, so the daemon loads the stored (signed) file afresh for this user.
    const other = await open('signodt', { UserId: 'user-2', UserFriendlyName: 'Other User' });
    try {
      const status = signatureStatus(other.frame);
      await status.waitFor({ timeout: 30_000 });
      // Signed and intact, but this user's document (its own kit) was given no CA to trust.
      expect(await status.textContent()).toBe('Signature: signed, certificate not verified');
      expect(await status.getAttribute('data-state')).toBe('notValidated');
      const file = await fileMenu(other.frame);
      // The menu is open and built (Save is there), but Sign document is not.
      expect(await file.getByRole('menuitem', { name: 'Save', exact: true }).count()).toBe(1);
      expect(await file.getByRole('menuitem', { name: 'Sign document' }).count()).toBe(0);
      expect(await file.locator('[data-command="file.sign"]').count()).toBe(0);
      await other.page.screenshot({ path: join(ARTIFACTS, 'signing-other-user.png') });
      await other.page.keyboard.press('Escape');
    } finally {
      await other.page.close();
      await other.host.stop();
    }
  }, 150_000);
});
