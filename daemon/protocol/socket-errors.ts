/**
 * The catalogue of error codes the daemon sends on the editing socket (editor.md, "Error codes"): in `error` frames
 * and as `error.code` of `saved`, `savedAs`, `renamed`, `signed`, `citationResult`, `recoveryResult`, and of `eSignature` `failed`.
 * Each code has a default message; the daemon's messages may be more specific. Editors and hosts match on the code.
 * editor.md's table is kept equal to this catalogue by a test, and another test checks that every code the daemon's
 * socket code writes as a literal is here. Failed requests whose error comes from the daemon's HTTP catalogue
 * (docs/errors.md: `load_failed`, `password_required`, `timeout`, `kit_crashed`, `no_kit`, `queue_full`, `draining`,
 * ...) keep that code; the ones the socket sends itself are listed here too.
 */
export const SOCKET_ERRORS = {
  /** The view may not change the document (UserCanWrite false, read-only by choice, a pdf, or read-only for all). */
  readonly: 'This document is open read-only for you.',
  /** CheckFileInfo forbids it: DisableCopy, DisableExport, DisablePrint, UserCanNotWriteRelative, no rename, not the owner. */
  forbidden: 'The host does not allow this for this document.',
  /** The request belongs to a feature CheckFileInfo IsUserLocked locks (with `feature`); the host may unlock it. */
  feature_locked: 'This feature is locked for you (IsUserLocked).',
  /** The request belongs to a feature CheckFileInfo IsUserRestricted takes away (with `feature`). */
  feature_restricted: 'This feature is not available to you (IsUserRestricted).',
  /** The request is malformed (a Save As name without an extension, nothing to cite). */
  bad_request: 'The request is malformed.',
  /** Downloads and exports are not served by this daemon (an embedded daemon without a download store). */
  not_implemented: 'This daemon does not serve that request.',
  /** LibreOffice refused the pasted data (a flavour it cannot read). */
  paste_failed: 'LibreOffice could not paste this data.',
  /** LibreOffice reported an error (LOK_CALLBACK_ERROR), passed on as it said it. */
  lok_error: 'LibreOffice reported an error.',
  /** No signing certificate for this user (CheckFileInfo SignatureCertificate and key missing or unreadable). */
  sign_unavailable: 'You cannot sign this document: the host gave no signing certificate for you.',
  /** LibreOffice could not sign the document. */
  sign_failed: 'LibreOffice could not sign the document.',
  /** The document could not be saved first (Rename saves before renaming). */
  save_failed: 'The document could not be saved.',
  /** CheckFileInfo failed for a reason other than the token (the host is unreachable or answered nonsense). */
  checkfileinfo_failed: 'The storage could not be asked about the document (CheckFileInfo failed).',
  /** The document could not be loaded (download or LibreOffice); the view is closed with 4500 after it. */
  load_failed: 'The document could not be loaded.',
  /** No kit holds the document (it closed, is reloading, or its kit died). */
  no_kit: 'The document is not open in LibreOffice at the moment.',
  /** The request took too long (signing, an electronic signature not completed in time). */
  timeout: 'The request took too long.',
  /** The LibreOffice process stopped while it handled the request. */
  kit_crashed: 'LibreOffice stopped unexpectedly.',
  /** Anything unexpected; the daemon's log has the cause. */
  internal: 'An internal error occurred.',
  /** WOPI: the stored file changed elsewhere (409 with status code 1010); the users choose overwrite or reload. */
  document_changed: 'The stored document changed elsewhere.',
  /** WOPI: another 409 (a lock held by another application), or signing while a conflict waits for the users' choice. */
  conflict: 'The document is locked or in conflict.',
  /** WOPI: the host refused the access token (401, 403, 404); open the document again from the host. */
  unauthorized: 'The storage no longer accepts your access.',
  /** WOPI: the host refused the file's size (413); the document turns read-only. */
  too_large: 'The storage refuses a file this large.',
  /** WOPI: the host stayed unavailable (5xx, 429, 423, time-outs) through every retry. */
  unavailable: 'The storage is unavailable.',
  /** WOPI: the host answered something unreadable (no JSON, no BaseFileName, too many redirects). */
  bad_answer: 'The storage answered something unreadable.',
  /** WOPI: any other failure status, or an export that failed. */
  failed: 'The request failed.',
  /** Electronic signature: one is already in progress for this document. */
  busy: 'An electronic signature is already in progress for this document.',
  /** Electronic signature or citations: the service is not configured for this document or user. */
  not_available: 'This service is not available for this document.',
  /** Electronic signature: the signing service did not sign the document. */
  refused: 'The signing service did not sign the document.',
  /** Electronic signature: the signed PDF could not be stored. */
  storage: 'The signed document could not be stored.',
  /** Citations: the document cites nothing yet (a bibliography was asked for). */
  no_citations: 'The document cites nothing yet.',
  /** Citations: the citation service refused the user's API key (401, 403). */
  key_refused: 'The citation service refused your API key.',
  /** Citations: the citation service failed otherwise. */
  service: 'The citation service failed.',
  /** Recovery copies: restoring one would replace unsaved changes of this document (save them first, or Save As). */
  recovery_unsaved: 'This document has unsaved changes: save them before restoring the recovered copy, or save the copy as a new file.',
  /** Recovery copies: the copy is no longer pending (stored already, or by another user). */
  recovery_gone: 'This recovered copy is no longer waiting: it was stored already.',
} as const satisfies Record<string, string>;

/** A stable error code of the editing socket (SOCKET_ERRORS). */
export type SocketErrorCode = keyof typeof SOCKET_ERRORS;

/** True when `code` is in the socket's catalogue. */
export function isSocketErrorCode(code: string): code is SocketErrorCode {
  return Object.hasOwn(SOCKET_ERRORS, code);
}
