/**
 * The electronic-signature provider's web API as Ode calls it (docs/esignature.md, "Provider contract"): the
 * shape of eID Easy's signing API that Collabora Online's ESignature* settings point at, with one addition (the
 * provider says where the user signs: `signing_url`). Credentials go in the JSON body, never in a URL; this module
 * runs in the daemon only (CheckFileInfo ServerPrivateInfo never reaches the browser).
 */

/** ServerPrivateInfo's three values. */
export interface ProviderCredentials {
  baseUrl: string;
  clientId: string;
  secret: string;
}

/** What `prepare` returns: the provider's id of the signing session and the page where the user signs. */
export interface PreparedSigning {
  docId: string;
  signingUrl: string;
}

/** The result of one `download` poll: signed (the bytes), still waiting for the user, or refused by the provider. */
export type SigningOutcome = { state: 'signed'; bytes: Uint8Array; fileName?: string } | { state: 'pending' } | { state: 'refused'; message: string };

/** The provider could not be reached or answered something outside the contract. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
}

/** How long one request to the provider may take (ms). */
const REQUEST_MS = 30_000;

async function call(creds: ProviderCredentials, path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const url = `${creds.baseUrl.replace(/\/+$/, '')}${path}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ client_id: creds.clientId, secret: creds.secret, ...body }),
      signal: AbortSignal.timeout(REQUEST_MS),
    });
  } catch (e) {
    throw new ProviderError(`the signing service at ${new URL(url).origin} could not be reached (${(e as Error).message})`);
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ProviderError(`the signing service answered ${res.status} with something that is not JSON`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new ProviderError(`the signing service answered ${res.status} with JSON that is not an object`);
  const obj = json as Record<string, unknown>;
  if (res.status >= 500) throw new ProviderError(`the signing service failed (${res.status}${typeof obj.message === 'string' ? `: ${obj.message}` : ''})`);
  return { ...obj, httpStatus: res.status };
}

/**
 * Sends the PDF to sign (POST {base}/api/signatures/prepare-files-for-signing).
 * @throws ProviderError when the provider is down, refuses (status other than OK: its message), or answers without
 *   doc_id / signing_url.
 */
export async function prepareSigning(
  creds: ProviderCredentials,
  file: { name: string; bytes: Uint8Array },
  lang: string | undefined,
): Promise<PreparedSigning> {
  const r = await call(creds, '/api/signatures/prepare-files-for-signing', {
    container_type: 'pdf',
    files: [{ fileName: file.name, mimeType: 'application/pdf', fileContent: Buffer.from(file.bytes).toString('base64') }],
    noemails: true,
    lang: lang ?? 'en',
  });
  if (r.status !== 'OK')
    throw new ProviderError(
      `the signing service refused the document: ${typeof r.message === 'string' ? r.message : `status ${String(r.status ?? r.httpStatus)}`}`,
    );
  if (typeof r.doc_id !== 'string' || !r.doc_id || typeof r.signing_url !== 'string' || !/^https?:\/\//.test(r.signing_url))
    throw new ProviderError('the signing service answered OK without doc_id and an http(s) signing_url');
  return { docId: r.doc_id, signingUrl: r.signing_url };
}

/**
 * Asks for the signed file (POST {base}/api/signatures/download-signed-file): `pending` while the user has not
 * finished, `refused` when the provider ended the session (cancelled, failed, expired).
 * @throws ProviderError when the provider is down or breaks the contract.
 */
export async function downloadSigned(creds: ProviderCredentials, docId: string): Promise<SigningOutcome> {
  const r = await call(creds, '/api/signatures/download-signed-file', { doc_id: docId });
  if (r.status === 'PENDING') return { state: 'pending' };
  if (r.status !== 'OK') return { state: 'refused', message: typeof r.message === 'string' ? r.message : `status ${String(r.status ?? r.httpStatus)}` };
  if (typeof r.signed_file_contents !== 'string') throw new ProviderError('the signing service answered OK without signed_file_contents');
  const bytes = new Uint8Array(Buffer.from(r.signed_file_contents, 'base64'));
  if (Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') throw new ProviderError('the signing service sent a signed file that is not a PDF');
  return { state: 'signed', bytes, fileName: typeof r.filename === 'string' ? r.filename : undefined };
}
