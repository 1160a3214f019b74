/**
 * An error of the structure engine: `code` is stable (`bad_package`, `unsupported_format`, `bad_filter`, ...),
 * `path` points at what was wrong (a part name, or a place in the recipe such as
 * `Transforms[2]["Charts.ByTitle.Sales"][0].resize`).
 */
export class StructureError extends Error {
  readonly code: string;
  readonly path: string;
  constructor(code: string, message: string, path = '') {
    super(message);
    this.name = 'StructureError';
    this.code = code;
    this.path = path;
  }
}
