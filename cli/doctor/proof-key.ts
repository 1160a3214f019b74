import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { proofKeyPath } from '../../certs/proof-key.ts';
import { proofKeyValues } from '../../certs/proof-signing.ts';
import type { CheckResult, DoctorContext } from './check.ts';

/**
 * The proof key file (proof_key, else <state_dir>/proof_key) is readable, an unencrypted RSA PEM key, and the
 * one discovery publishes (spec: Authentication; hosts verify X-WOPI-Proof with discovery's key). Readability is
 * what this process can read: run `ode doctor` as the user Ode runs as (sudo -u ode) for the exact answer.
 */
export function checkProofKey(ctx: DoctorContext): CheckResult {
  const path = proofKeyPath(ctx.config.state_dir, ctx.config.proof_key || undefined);
  const regenerate = ctx.config.proof_key
    ? `restore the key or create one: openssl genrsa -out ${path} 2048 (then restart Ode; hosts fetch discovery again)`
    : `restore ${path} from a backup, or remove it and restart Ode to generate a new one (hosts fetch discovery again); it must be readable by the user running Ode (chown ode: ${path}; chmod 600 ${path})`;
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (e) {
    return { name: 'proof-key', status: 'FAIL', detail: `cannot read the proof key ${path}: ${(e as Error).message}`, fix: regenerate };
  }
  let modulus: string;
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'rsa') throw new Error(`an ${key.asymmetricKeyType} key, not RSA`);
    modulus = proofKeyValues(createPublicKey(key)).modulus;
  } catch (e) {
    return {
      name: 'proof-key',
      status: 'FAIL',
      detail: `the proof key ${path} is not an unencrypted RSA PEM private key: ${(e as Error).message}`,
      fix: regenerate,
    };
  }
  const published = ctx.discovery?.status === 200 ? /<proof-key\b[^>]*\smodulus="([^"]+)"/.exec(ctx.discovery.body)?.[1] : undefined;
  if (published && published !== modulus) {
    return {
      name: 'proof-key',
      status: 'FAIL',
      detail: `${path} is not the key discovery publishes at ${ctx.url.origin}: hosts would refuse Ode's proofs after a restart`,
      fix: `check proof_key and state_dir in the config this command read, or restart Ode (systemctl restart ode) if the file was replaced on purpose`,
    };
  }
  return { name: 'proof-key', status: 'ok', detail: `${path} is an RSA key${published ? ', the one discovery publishes' : ''}` };
}
