/**
 * Proof-key values for discovery and the proof headers of requests to WOPI hosts, as MS-WOPI specifies them
 * ("Proof keys": the proof-key element and "Verifying that requests originate from Office for the web").
 */
import { createHash, createSign, type KeyObject } from 'node:crypto';
import type { ProofKeys } from './proof-key.ts';

/** The attributes of discovery's `proof-key` element for one key: base64 strings. */
export interface ProofKeyValues {
  /** The key as a Microsoft CryptoAPI PUBLICKEYBLOB (what .NET hosts import). */
  value: string;
  /** The RSA modulus, big-endian bytes. */
  modulus: string;
  /** The RSA public exponent, big-endian bytes. */
  exponent: string;
}

function rsaParts(publicKey: KeyObject): { n: Buffer; e: Buffer } {
  const jwk = publicKey.export({ format: 'jwk' });
  if (!jwk.n || !jwk.e) throw new Error('the proof key is not an RSA key');
  return { n: Buffer.from(jwk.n, 'base64url'), e: Buffer.from(jwk.e, 'base64url') };
}

/**
 * The CryptoAPI PUBLICKEYBLOB of an RSA public key: BLOBHEADER {bType 0x06 PUBLICKEYBLOB, bVersion 0x02,
 * reserved 0, aiKeyAlg 0x0000A400 CALG_RSA_KEYX}, RSAPUBKEY {magic "RSA1", bitlen, pubexp} (little-endian
 * integers), then the modulus little-endian.
 */
export function capiPublicKeyBlob(publicKey: KeyObject): Buffer {
  const { n, e } = rsaParts(publicKey);
  const header = Buffer.alloc(20);
  header.writeUInt8(0x06, 0);
  header.writeUInt8(0x02, 1);
  header.writeUInt16LE(0, 2);
  header.writeUInt32LE(0x0000a400, 4);
  header.write('RSA1', 8, 'ascii');
  header.writeUInt32LE(n.length * 8, 12);
  header.writeUInt32LE(e.readUIntBE(0, e.length), 16);
  return Buffer.concat([header, Buffer.from(n).reverse()]);
}

/** Discovery values of one key (see ProofKeyValues). */
export function proofKeyValues(publicKey: KeyObject): ProofKeyValues {
  const { n, e } = rsaParts(publicKey);
  return { value: capiPublicKeyBlob(publicKey).toString('base64'), modulus: n.toString('base64'), exponent: e.toString('base64') };
}

/** SHA-256 fingerprint of the public key (SPKI DER), as colon-separated upper-case hex. */
export function proofKeyFingerprint(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return (createHash('sha256').update(der).digest('hex').toUpperCase().match(/../g) ?? []).join(':');
}

/** .NET ticks (100-ns intervals since 0001-01-01T00:00:00Z) of a time in ms since the Unix epoch. */
export function dotNetTicks(epochMs: number): bigint {
  return (BigInt(Math.trunc(epochMs)) + 62_135_596_800_000n) * 10_000n;
}

/**
 * The bytes MS-WOPI signs: 4-byte big-endian length + access token (UTF-8), 4-byte BE length + the absolute
 * request URL upper-cased (UTF-8), 4-byte BE length 8 + the timestamp as an 8-byte BE integer (ticks).
 */
export function proofData(accessToken: string, url: string, ticks: bigint): Buffer {
  const token = Buffer.from(accessToken, 'utf8');
  const upper = Buffer.from(url.toUpperCase(), 'utf8');
  const out = Buffer.alloc(4 + token.length + 4 + upper.length + 4 + 8);
  let o = out.writeInt32BE(token.length, 0);
  o += token.copy(out, o);
  o = out.writeInt32BE(upper.length, o);
  o += upper.copy(out, o);
  o = out.writeInt32BE(8, o);
  out.writeBigInt64BE(ticks, o);
  return out;
}

/** The proof headers of one request to a WOPI host. */
export interface ProofHeaders {
  'X-WOPI-Proof': string;
  'X-WOPI-ProofOld': string;
  'X-WOPI-TimeStamp': string;
}

/**
 * Signs a request to a WOPI host (RSA-SHA256, PKCS#1 v1.5, base64) with the current and the old key.
 * @param url the absolute URL requested, query string included (access_token too)
 * @param now the request time in ms since the epoch (default: now)
 */
export function signProof(keys: ProofKeys, accessToken: string, url: string, now = Date.now()): ProofHeaders {
  const ticks = dotNetTicks(now);
  const data = proofData(accessToken, url, ticks);
  const sign = (key: KeyObject) => createSign('RSA-SHA256').update(data).sign(key, 'base64');
  return { 'X-WOPI-Proof': sign(keys.current.privateKey), 'X-WOPI-ProofOld': sign(keys.old.privateKey), 'X-WOPI-TimeStamp': ticks.toString() };
}
