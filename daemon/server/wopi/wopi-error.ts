/**
 * Why a request to a WOPI host failed, as the document logic needs to tell it apart (issue 4, "Storage failures"):
 * - `document_changed`: 409 with ODEStatusCode, COOLStatusCode or LOOLStatusCode 1010 (spec: external change
 *   detection rule 1): the stored file changed since we loaded it;
 * - `conflict`: another 409 (a lock held by someone else: `lock` is the host's X-WOPI-Lock);
 * - `unauthorized`: 401, 403 or 404: the token is no longer valid (or the file is gone); not retried;
 * - `too_large`: 413: the host refuses the file's size; not retried;
 * - `unavailable`: 5xx, 429, 423 (richdocuments: the file is locked by another operation and nothing was written,
 *   "so the client can retry"), a time-out, a refused or reset connection: retried with back-off;
 * - `bad_answer`: the host answered something unreadable (no JSON where JSON belongs, no BaseFileName, too
 *   many redirects); `failed`: any other status.
 */
export type WopiErrorKind = 'document_changed' | 'conflict' | 'unauthorized' | 'too_large' | 'unavailable' | 'bad_answer' | 'failed';

/** A failed WOPI request: its kind, the HTTP status when there was one, and the host's lock for `conflict`. */
export class WopiError extends Error {
  readonly kind: WopiErrorKind;
  readonly status: number | undefined;
  readonly lock: string | undefined;
  constructor(kind: WopiErrorKind, message: string, status?: number, lock?: string) {
    super(message);
    this.name = 'WopiError';
    this.kind = kind;
    this.status = status;
    this.lock = lock;
  }

  /** True when trying again later may succeed (the host is unavailable, not refusing). */
  get retryable(): boolean {
    return this.kind === 'unavailable';
  }
}

/** The status codes that say "the stored document changed" in a 409 body (spec, and the names deployed hosts use). */
export const STATUS_CODE_FIELDS = ['ODEStatusCode', 'COOLStatusCode', 'LOOLStatusCode'] as const;

/** The WopiError for a non-2xx answer. */
export function errorForStatus(operation: string, status: number, body: string, lockHeader: string | null): WopiError {
  const what = `${operation} answered ${status}`;
  if (status === 409) {
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(body) as Record<string, unknown>;
    } catch {
      // a 409 without JSON: a lock conflict or an old host
    }
    if (STATUS_CODE_FIELDS.some((f) => Number(json[f]) === 1010))
      return new WopiError('document_changed', `${what}: the document was changed in storage since it was loaded (status code 1010)`, status);
    return new WopiError('conflict', `${what}: conflict${lockHeader ? ` (locked by "${lockHeader}")` : ''}`, status, lockHeader ?? undefined);
  }
  if (status === 401 || status === 403 || status === 404)
    return new WopiError('unauthorized', `${what}: the access token is no longer valid, or the file is gone`, status);
  if (status === 413) return new WopiError('too_large', `${what}: the host refuses a file this large`, status);
  if (status >= 500 || status === 429) return new WopiError('unavailable', `${what}: the host is unavailable`, status);
  if (status === 423) return new WopiError('unavailable', `${what}: the file is locked by another operation on the host; trying again`, status);
  return new WopiError('failed', `${what}`, status);
}
