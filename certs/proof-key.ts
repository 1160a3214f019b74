/**
 * The WOPI proof key pair (spec: host integration, Authentication 5; MS-WOPI "Proof keys"): an RSA 2048 key
 * pair, PEM without passphrase, mode 0600. The current key signs every request to hosts; after a rotation the
 * previous key is kept as the old one, so hosts that cached discovery still verify `X-WOPI-ProofOld`.
 *
 * Files in the state directory: `proof_key` (current, PKCS#8 PEM) and `proof_key.old` (previous). A configured
 * `proof_key` path is used as is, with `<path>.old` beside it. Created dates are the files' modification times.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** One key of the pair: the private key, its public half, and when it was created. */
export interface ProofKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  created: Date;
  path: string;
}

/** The current key and the old one (the current one again before any rotation, as discovery expects). */
export interface ProofKeys {
  current: ProofKey;
  old: ProofKey;
}

/** Where the proof key lives: the configured file, or `<stateDir>/proof_key`. */
export function proofKeyPath(stateDir: string, configuredPath?: string): string {
  return configuredPath || join(stateDir, 'proof_key');
}

function readKey(path: string): ProofKey {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read the proof key ${path}: ${(e as Error).message} (it must be readable by the user running Ode)`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (e) {
    throw new Error(`the proof key ${path} is not an unencrypted PEM private key: ${(e as Error).message}`);
  }
  if (privateKey.asymmetricKeyType !== 'rsa') throw new Error(`the proof key ${path} must be an RSA key, not ${privateKey.asymmetricKeyType}`);
  return { privateKey, publicKey: createPublicKey(privateKey), created: statSync(path).mtime, path };
}

/** Writes a new RSA 2048 key to `path` atomically (temp file + rename) with mode 0600. */
function writeNewKey(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/**
 * Creates a new proof key file at `path` (RSA 2048, PKCS#8 PEM, mode 0600) for nodes that share one key
 * (config `proof_key`, docs/deploy/cluster.md).
 * @throws Error when `path` exists already (a key in use is never overwritten; rotate it instead).
 */
export function createProofKeyFile(path: string): void {
  if (existsSync(path)) throw new Error(`${path} exists already: a proof key in use is not overwritten (use \`ode proof-key rotate\`)`);
  writeNewKey(path);
}

/**
 * Loads the proof keys, generating the current key on first start (only in the state directory: a configured
 * file that is missing is an error, not something to create behind the operator's back).
 * @throws Error naming the file and the fix when a key is unreadable or not RSA.
 */
export function loadOrCreateProofKeys(stateDir: string, configuredPath?: string): ProofKeys {
  const path = proofKeyPath(stateDir, configuredPath);
  if (!existsSync(path)) {
    if (configuredPath)
      throw new Error(`the configured proof_key ${configuredPath} does not exist; create it with: openssl genrsa -out ${configuredPath} 2048`);
    writeNewKey(path);
  }
  const current = readKey(path);
  const old = existsSync(`${path}.old`) ? readKey(`${path}.old`) : current;
  return { current, old };
}

/**
 * Rotates the proof key: the current key becomes `proof_key.old` and a new current key is generated. Hosts
 * keep verifying with the old key until they fetch discovery again.
 */
export function rotateProofKeys(stateDir: string, configuredPath?: string): ProofKeys {
  const path = proofKeyPath(stateDir, configuredPath);
  if (existsSync(path)) renameSync(path, `${path}.old`);
  writeNewKey(path);
  return loadOrCreateProofKeys(stateDir, configuredPath);
}
