/**
 * Errors of the LibreOfficeKit addon. Every error the addon throws or rejects with is a LokError (the
 * class is handed to the C++ side at load time, better-sqlite3 style), with a stable `code` from the
 * catalogue below. Messages of native failures include LibreOffice's getError() text.
 */

/** The catalogue: code -> when it happens. README.md lists the same table. */
export const LOK_ERROR_CODES = {
  addon_missing: 'the native addon is not built or cannot be loaded: run `node daemon/native/build.mjs`',
  invalid_argument: 'an argument has the wrong type or range (checked before LibreOffice is called)',
  already_initialized: 'Office.init was called twice in one process (LibreOffice cannot restart in-process)',
  init_failed: 'lok_init_2 returned NULL (wrong program dir, or LibreOffice is not installed)',
  destroyed: 'a call on a destroyed document or office',
  busy: 'destroy while an async call (documentLoad, saveAs, paintTile) is in flight, or a second concurrent load of one URL',
  load_failed: 'documentLoad returned NULL for a reason other than a password (message has getError())',
  password_required: 'the document is password-protected and documentLoad was given no password',
  password_invalid: 'the password given to documentLoad is wrong',
  save_failed: 'saveAs returned false (message has getError())',
  call_failed: 'another LibreOfficeKit call reported failure',
  unsupported: 'this LibreOffice lacks an optional LibreOfficeKit call (older than 25.2): install LibreOffice 25.2 or later',
} as const;

/** A stable error code: a key of LOK_ERROR_CODES. */
export type LokErrorCode = keyof typeof LOK_ERROR_CODES;

/**
 * An error from the addon or its facade: `code` says what went wrong (see LOK_ERROR_CODES), `message`
 * the details. Constructed by C++ as `new LokError(message, code)`.
 */
export class LokError extends Error {
  /** The stable error code. */
  readonly code: LokErrorCode;

  constructor(message: string, code: LokErrorCode) {
    super(message);
    this.name = 'LokError';
    this.code = code;
  }
}

/** True when `err` is a LokError, optionally with the given code. */
export function isLokError(err: unknown, code?: LokErrorCode): err is LokError {
  return err instanceof LokError && (code === undefined || err.code === code);
}
