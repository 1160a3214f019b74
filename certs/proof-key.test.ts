import { createPublicKey, createVerify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCreateProofKeys, rotateProofKeys } from './proof-key.ts';
import { dotNetTicks, proofKeyValues, signProof } from './proof-signing.ts';

const dirs: string[] = [];
function stateDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ode-proof-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Rebuilds a public key from discovery's modulus/exponent only (JWK), independently of the signing code. */
function keyFromModulus(modulus: string, exponent: string) {
  return createPublicKey({
    key: { kty: 'RSA', n: Buffer.from(modulus, 'base64').toString('base64url'), e: Buffer.from(exponent, 'base64').toString('base64url') },
    format: 'jwk',
  });
}

/** Parses a CryptoAPI PUBLICKEYBLOB by hand (MS docs layout) into a public key. */
function keyFromCapiBlob(value: string) {
  const b = Buffer.from(value, 'base64');
  expect(b[0]).toBe(0x06);
  expect(b[1]).toBe(0x02);
  expect(b.readUInt32LE(4)).toBe(0xa400);
  expect(b.subarray(8, 12).toString('ascii')).toBe('RSA1');
  const bits = b.readUInt32LE(12);
  const exp = b.readUInt32LE(16);
  const n = Buffer.from(b.subarray(20, 20 + bits / 8)).reverse();
  const e = Buffer.alloc(4);
  e.writeUInt32BE(exp);
  return createPublicKey({ key: { kty: 'RSA', n: n.toString('base64url'), e: e.subarray(e.findIndex((x) => x !== 0)).toString('base64url') }, format: 'jwk' });
}

/** The MS-WOPI proof data, built here again from the spec text for an independent check. */
function expectedProofData(token: string, url: string, ticks: string): Buffer {
  const t = Buffer.from(token);
  const u = Buffer.from(url.toUpperCase());
  const len = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeInt32BE(n);
    return b;
  };
  const ts = Buffer.alloc(8);
  ts.writeBigInt64BE(BigInt(ticks));
  return Buffer.concat([len(t.length), t, len(u.length), u, len(8), ts]);
}

describe('proof key', () => {
  it('is created on first start as a 0600 RSA 2048 PEM, and loaded unchanged afterwards', () => {
    const dir = stateDir();
    const a = loadOrCreateProofKeys(dir);
    expect(statSync(join(dir, 'proof_key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'proof_key'), 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(a.current.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const b = loadOrCreateProofKeys(dir);
    expect(proofKeyValues(b.current.publicKey)).toEqual(proofKeyValues(a.current.publicKey));
    // Before any rotation the old key is the current one.
    expect(proofKeyValues(b.old.publicKey)).toEqual(proofKeyValues(b.current.publicKey));
  });

  it('signatures verify with a key rebuilt from discovery modulus/exponent and from the CAPI blob', () => {
    const keys = loadOrCreateProofKeys(stateDir());
    const url = 'https://wopi.example.com/wopi/files/abc?access_token=tok123';
    const h = signProof(keys, 'tok123', url, Date.UTC(2026, 0, 2, 3, 4, 5));
    const values = proofKeyValues(keys.current.publicKey);
    const data = expectedProofData('tok123', url, h['X-WOPI-TimeStamp']);
    for (const key of [keyFromModulus(values.modulus, values.exponent), keyFromCapiBlob(values.value)]) {
      expect(createVerify('RSA-SHA256').update(data).verify(key, h['X-WOPI-Proof'], 'base64')).toBe(true);
      expect(
        createVerify('RSA-SHA256')
          .update(Buffer.concat([data, Buffer.from('x')]))
          .verify(key, h['X-WOPI-Proof'], 'base64'),
      ).toBe(false);
    }
  });

  it('timestamps are .NET ticks', () => {
    // 1970-01-01 is 621355968000000000 ticks (DateTime(1970,1,1).Ticks in .NET).
    expect(dotNetTicks(0)).toBe(621355968000000000n);
    expect(dotNetTicks(1000)).toBe(621355968010000000n);
  });

  it('rotation keeps the previous key as old; ProofOld verifies with it', () => {
    const dir = stateDir();
    const before = loadOrCreateProofKeys(dir);
    const after = rotateProofKeys(dir);
    const oldValues = proofKeyValues(after.old.publicKey);
    expect(oldValues).toEqual(proofKeyValues(before.current.publicKey));
    expect(proofKeyValues(after.current.publicKey)).not.toEqual(oldValues);
    const h = signProof(after, 't', 'https://h/wopi/files/x?access_token=t');
    const data = expectedProofData('t', 'https://h/wopi/files/x?access_token=t', h['X-WOPI-TimeStamp']);
    expect(createVerify('RSA-SHA256').update(data).verify(keyFromModulus(oldValues.modulus, oldValues.exponent), h['X-WOPI-ProofOld'], 'base64')).toBe(true);
    expect(statSync(join(dir, 'proof_key.old')).mode & 0o777).toBe(0o600);
  });

  it('a configured key file is used as is; a missing or bad one names the file and the fix', () => {
    const dir = stateDir();
    const file = join(dir, 'my_key.pem');
    execFileSync('openssl', ['genrsa', '-out', file, '2048'], { stdio: 'ignore' });
    const keys = loadOrCreateProofKeys(join(dir, 'state'), file);
    expect(keys.current.path).toBe(file);
    expect(() => loadOrCreateProofKeys(dir, join(dir, 'missing.pem'))).toThrow(/missing\.pem.*openssl genrsa/);
    writeFileSync(join(dir, 'bad.pem'), 'not a key');
    expect(() => loadOrCreateProofKeys(dir, join(dir, 'bad.pem'))).toThrow(/bad\.pem/);
  });
});
