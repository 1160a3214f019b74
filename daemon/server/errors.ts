/**
 * The catalogue of errors Ode answers over HTTP: each has a stable `code` (what clients match on), an HTTP
 * status and a default message. `docs/errors.md` is kept in sync with this table by a test.
 */
export const ERRORS = {
  bad_request: { status: 400, message: 'The request is malformed.' },
  no_file: {
    status: 400,
    message: 'No file was posted: send the document as a multipart file part (the field "data" in the spec; any field name with a file name is taken).',
  },
  no_format: { status: 400, message: 'No output format: put it in the path (/ode/convert-to/<format>) or the "format" field.' },
  unknown_input_format: { status: 400, message: 'The input file type is not one Ode converts.' },
  unsupported_format: { status: 400, message: 'This kind of document cannot be converted to the requested format.' },
  bad_options: { status: 400, message: 'The "options" or "infilterOptions" field is invalid.' },
  bad_recipe: {
    status: 400,
    message: 'The "transform" field is not a valid recipe: JSON with a "Transforms" array of one-property objects (or the older object form).',
  },
  unknown_selector: {
    status: 400,
    message: 'A recipe key is not a selector of the structure API (ContentControls.*, Charts.*, DocumentProperties, SlideCommands).',
  },
  unknown_command: { status: 400, message: 'A recipe command or property name is not one the structure API knows.' },
  bad_value: { status: 400, message: 'A recipe value has the wrong type.' },
  out_of_range: { status: 400, message: 'A recipe index or size is out of range.' },
  no_match: { status: 400, message: 'A recipe selector matches nothing in the document.' },
  unsupported_command: { status: 400, message: 'The recipe asks for something the structure API does not support for this item or format.' },
  wrong_kind: { status: 400, message: 'The recipe command applies to another kind of document.' },
  feature_locked: { status: 403, message: 'This feature is locked for the user (CheckFileInfo IsUserLocked): the host can unlock it.' },
  feature_restricted: { status: 403, message: 'This feature is not available to the user (CheckFileInfo IsUserRestricted).' },
  forbidden_host: { status: 403, message: 'This address may not use the conversion API (net.post_allow.host).' },
  not_found: { status: 404, message: 'No such endpoint.' },
  no_update_line: { status: 404, message: "This server's update feed has no version for that line: set updates.feed.development or updates.feed.release." },
  method_not_allowed: { status: 405, message: 'This endpoint does not answer that method.' },
  body_timeout: {
    status: 408,
    message: 'The request body stopped arriving (limits.body_idle_secs): it is shorter than its Content-Length, or the client stalled.',
  },
  too_large: { status: 413, message: 'The upload exceeds limits.max_upload_mb.' },
  package_too_large: { status: 413, message: 'The zip package inflates past limits.package (uncompressed size, entry count or compression ratio).' },
  recipe_too_large: { status: 413, message: 'The recipe has more commands than limits.recipe_commands.' },
  xml_too_deep: { status: 422, message: 'The document nests XML elements deeper than limits.xml_depth.' },
  too_complex: { status: 422, message: 'The structure engine gave up on the document: past limits.structure_secs or limits.structure_memory_mb.' },
  password_required: { status: 422, message: 'The document is password-protected: send its password in the "password" field.' },
  password_invalid: { status: 422, message: 'The password given for the document is wrong.' },
  load_failed: { status: 422, message: 'LibreOffice could not read the document: it is corrupt or not of the type its name says.' },
  kit_memory_limit: { status: 422, message: 'LibreOffice needed more memory for this document than limits.kit_memory_mb: its process was ended and replaced.' },
  kit_cpu_limit: { status: 422, message: 'LibreOffice used more CPU time on this document than limits.kit_cpu_secs: its process was ended and replaced.' },
  queue_full: { status: 429, message: 'Too many conversions are waiting; try again later.' },
  headers_too_large: { status: 431, message: "The request headers are larger than 16 KB (Node's limit): usually a URL or cookie too long." },
  save_failed: { status: 500, message: 'LibreOffice could not write the requested format.' },
  kit_crashed: { status: 500, message: 'The LibreOffice process handling the request stopped unexpectedly.' },
  internal: { status: 500, message: 'An internal error occurred.' },
  settings_host_error: {
    status: 502,
    message: 'The settings host could not be reached, refused the request, or answered something other than the settings JSON.',
  },
  no_kit: { status: 503, message: 'No LibreOffice process could be started.' },
  draining: { status: 503, message: 'This node is being taken out of service (ode drain): open the document again through the load balancer.' },
  timeout: { status: 504, message: 'LibreOffice took too long (limits.load_secs / limits.convert_secs).' },
} as const satisfies Record<string, { status: number; message: string }>;

/** A stable error code from the catalogue. */
export type ErrorCode = keyof typeof ERRORS;

/**
 * An error that maps to one catalogue entry. `message` may be more specific than the catalogue's default;
 * `details` carries extra JSON fields for the body (e.g. the formats an input can produce).
 */
export class OdeError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message?: string, details?: Record<string, unknown>) {
    super(message ?? ERRORS[code].message);
    this.name = 'OdeError';
    this.code = code;
    this.status = ERRORS[code].status;
    this.details = details;
  }

  /** The JSON body sent to clients: `{code, message, ...details}`. */
  toJSON(): Record<string, unknown> {
    return { code: this.code, message: this.message, ...this.details };
  }
}

/** True when `code` is a catalogued error code. */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERRORS, code);
}
