/**
 * Document signing with the user's own certificate (CheckFileInfo UserPrivateInfo.SignatureCert, SignatureKey,
 * SignatureCa; docs/editing.md, "Signing"). The PEM texts become DER here, once per view, and go only to the
 * document's kit with that view's `signDoc`: never to another view, the browser or the logs.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { UserPrivateInfo } from '../wopi/check-file-info.ts';

/** One view's signing credentials, as the kit takes them (kit.md, `signDoc`). */
export interface SigningCredentials {
  /** DER X.509 certificate of the signer. */
  certificate: Uint8Array;
  /** DER PKCS#8 private key of that certificate. */
  privateKey: Uint8Array;
  /** DER CA and intermediate certificates (SignatureCa, and any chain after the first SignatureCert block). */
  ca: Uint8Array[];
}

/** The editor's names of LibreOffice's SignatureState numbers (editor.md, `signatureState`). */
export const SIGNATURE_STATES = ['unsigned', 'valid', 'broken', 'invalid', 'notValidated', 'partial', 'notValidatedPartial'] as const;
/** LibreOffice's SignatureState as the editor protocol names it (editor.md `signatureState`). */
export type SignatureStateName = (typeof SIGNATURE_STATES)[number] | 'unknown';

/** LibreOffice's SignatureState number (sfx2/signaturestate.hxx) -> the editor's name. */
export function signatureStateName(state: number): SignatureStateName {
  return SIGNATURE_STATES[state] ?? 'unknown';
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/g;

/** The PEM blocks of `text` whose label is `label`, in order. */
function pemBlocks(text: string, label: string): string[] {
  return [...text.matchAll(PEM_BLOCK)].filter((m) => m[1] === label).map((m) => m[0]);
}

/** Why a view's credentials cannot be used (said to that view only, without the secrets). */
export class SigningCredentialsError extends Error {}

/**
 * The view's credentials as DER, or undefined when CheckFileInfo gave no SignatureCert or no SignatureKey.
 * @throws SigningCredentialsError when they are given but unusable (not PEM, or the key does not belong to the
 * certificate).
 */
export function signingCredentials(info: UserPrivateInfo | undefined): SigningCredentials | undefined {
  if (!info?.SignatureCert || !info.SignatureKey) return undefined;
  const certs = pemBlocks(info.SignatureCert, 'CERTIFICATE');
  if (certs.length === 0) throw new SigningCredentialsError('SignatureCert holds no PEM certificate');
  let cert: X509Certificate;
  let key: ReturnType<typeof createPrivateKey>;
  try {
    cert = new X509Certificate(certs[0]);
  } catch {
    throw new SigningCredentialsError('SignatureCert is not a readable X.509 certificate');
  }
  try {
    key = createPrivateKey(info.SignatureKey);
  } catch {
    throw new SigningCredentialsError('SignatureKey is not a readable PEM private key');
  }
  if (!cert.checkPrivateKey(key)) throw new SigningCredentialsError('SignatureKey does not belong to SignatureCert');
  const ca: Uint8Array[] = [];
  for (const pem of [...certs.slice(1), ...pemBlocks(info.SignatureCa ?? '', 'CERTIFICATE')]) {
    try {
      ca.push(new Uint8Array(new X509Certificate(pem).raw));
    } catch {
      throw new SigningCredentialsError('SignatureCa holds a certificate that cannot be read');
    }
  }
  return { certificate: new Uint8Array(cert.raw), privateKey: new Uint8Array(key.export({ type: 'pkcs8', format: 'der' })), ca };
}
