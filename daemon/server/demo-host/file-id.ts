/**
 * File ids of the demo host: the file name in base64url (spec: Resources, "File URL": the id is URL-safe base64,
 * A-Z, a-z, 0-9, `-`, `_`), so an id needs no table and survives restarts.
 */

/** The id of a file name: its UTF-8 bytes in base64url without padding. */
export function fileIdOf(name: string): string {
  return Buffer.from(name, 'utf8').toString('base64url');
}

/** The file name of an id, or undefined when the id is not base64url of a valid document name. */
export function fileNameOf(id: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) return undefined;
  const name = Buffer.from(id, 'base64url').toString('utf8');
  return isDocumentName(name) && fileIdOf(name) === id ? name : undefined;
}

/**
 * True for a name the demo host serves and accepts for new files: one path segment (no `/`, `\`, NUL), not
 * hidden (a leading `.` is used by the host's own temp files), not `.`/`..`, with an extension, at most 255 bytes.
 */
export function isDocumentName(name: string): boolean {
  if (!name || name.startsWith('.') || /[/\\\0]/.test(name) || Buffer.byteLength(name) > 255) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return false;
  return /\.[A-Za-z0-9]+$/.test(name);
}
