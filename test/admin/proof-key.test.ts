/**
 * Admin API `proofKey` against a real daemon: get gives the fingerprints and dates; rotate makes discovery's
 * `proof-key` change at once, with the former key as `oldvalue`/`oldmodulus`/`oldexponent`, the key files are
 * rewritten, and the rotation is logged. Through createCaller and the HTTP client.
 */
import { createHash, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContextInner } from '../../admin-api/context.ts';
import { appRouter } from '../../admin-api/router.ts';
import { createCallerFactory } from '../../admin-api/trpc.ts';
import { createAdminClient, type AdminTestClient } from '../helpers/admin-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';

let daemon: TestDaemon;
let admin: AdminTestClient;
const caller = () => createCallerFactory(appRouter)(createContextInner(daemon.server.admin.backend));

/** Discovery's proof-key attributes. */
async function proofKey(): Promise<Record<string, string>> {
  const xml = await (await fetch(`${daemon.url}/hosting/discovery`)).text();
  const el = /<proof-key\s([^>]*)\/?>/.exec(xml);
  if (!el) throw new Error('discovery has no proof-key element');
  return Object.fromEntries([...el[1].matchAll(/([a-z]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

/** SHA-256 of the SPKI DER of the RSA key with this base64 modulus and exponent, hex pairs with colons. */
function fingerprintOf(modulus: string, exponent: string): string {
  const key = createPublicKey({
    key: { kty: 'RSA', n: Buffer.from(modulus, 'base64').toString('base64url'), e: Buffer.from(exponent, 'base64').toString('base64url') },
    format: 'jwk',
  });
  const der = key.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('hex').toUpperCase().match(/../g)!.join(':');
}

beforeAll(async () => {
  daemon = await startDaemon();
  admin = createAdminClient(daemon.adminUrl!, daemon.adminToken);
}, 120_000);
afterAll(async () => {
  await admin?.close();
  await daemon?.stop();
});

describe('proofKey', () => {
  it("get: the fingerprint is the SHA-256 of discovery's current key", async () => {
    const info = await caller().proofKey.get();
    const pk = await proofKey();
    expect(info.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(info.fingerprint).toBe(fingerprintOf(pk.modulus, pk.exponent));
    expect(info.oldFingerprint).toBe(fingerprintOf(pk.oldmodulus, pk.oldexponent));
    expect(info.created).toBeGreaterThan(Date.parse('2020-01-01'));
    expect(await admin.client.proofKey.get.query()).toEqual(info);
  });

  it('rotate: discovery changes at once and keeps the former key as old*; twice in a row works', async () => {
    const before = await proofKey();
    const keyFile = join(daemon.store.get().state_dir, 'proof_key');
    const pemBefore = readFileSync(keyFile, 'utf8');
    const info = await admin.client.proofKey.rotate.mutate();
    // The rotation is kept on disk: the former key moved to proof_key.old, a new one in proof_key.
    expect(readFileSync(`${keyFile}.old`, 'utf8')).toBe(pemBefore);
    expect(readFileSync(keyFile, 'utf8')).not.toBe(pemBefore);
    const after = await proofKey();
    expect(after.value).not.toBe(before.value);
    expect(after.modulus).not.toBe(before.modulus);
    expect(after).toMatchObject({ oldvalue: before.value, oldmodulus: before.modulus, oldexponent: before.exponent });
    expect(info.fingerprint).toBe(fingerprintOf(after.modulus, after.exponent));
    expect(info.oldFingerprint).toBe(fingerprintOf(before.modulus, before.exponent));
    expect(info.created).toBeGreaterThanOrEqual(info.oldCreated);
    expect(await caller().proofKey.get()).toEqual(info);

    const again = await caller().proofKey.rotate();
    const third = await proofKey();
    expect(third.oldvalue).toBe(after.value);
    expect(again.oldFingerprint).toBe(info.fingerprint);
    expect(daemon.logBuffer.recent(1000, 'warn').filter((l) => l.msg.startsWith('admin: proof key rotated'))).toHaveLength(2);
  });
});
