import { extname } from 'node:path';
import type { StructureError } from '../../structure/index.ts';
import { OdeError, isErrorCode } from '../errors.ts';
import { kindOfExtension } from '../formats/tables.ts';
import { isEncryptedPackage } from '../convert/container-check.ts';

const LANG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/**
 * Checks what the structure endpoints accept (spec: Extraction, Transformation): a text document or a
 * presentation by its extension, and a BCP 47 `lang`.
 * @returns the extension (lower case), the kind, and the trimmed lang (undefined when not given).
 * @throws OdeError unknown_input_format, unsupported_format (spreadsheets, drawings), bad_request (lang).
 */
export function checkStructureInput(filename: string, lang: string | undefined): { ext: string; kind: 'text' | 'presentation'; lang: string | undefined } {
  const ext = extname(filename).slice(1).toLowerCase();
  const kind = kindOfExtension(ext);
  if (!kind) throw new OdeError('unknown_input_format', `Ode does not read ".${ext || '(no extension)'}" files.`);
  if (kind !== 'text' && kind !== 'presentation')
    throw new OdeError('unsupported_format', `The structure API reads text documents and presentations, not a ${kind}.`);
  const l = lang?.trim() || undefined;
  if (l && !LANG.test(l)) throw new OdeError('bad_request', `lang: "${l}" is not a BCP 47 language tag such as en-US`);
  return { ext, kind, lang: l };
}

/**
 * True when the engine cannot read the upload because it is encrypted: an OOXML package stored as an OLE2
 * container (MS-OFFCRYPTO), or the engine's `encrypted` for ODF.
 */
export function isEncryptedInput(e: unknown, path: string, ext: string): boolean {
  return (
    e instanceof Error &&
    'code' in e &&
    ((e as StructureError).code === 'encrypted' || ((e as StructureError).code === 'bad_package' && isEncryptedPackage(path, ext)))
  );
}

/**
 * The HTTP error for an engine error: an unreadable package is `load_failed`; recipe errors keep their code and
 * carry `path`, the place in the recipe (docs/errors.md).
 */
export function structureError(e: StructureError): OdeError {
  if (e.code === 'bad_package') return new OdeError('load_failed', `The document cannot be read: ${e.message}`);
  if (e.code === 'encrypted') return new OdeError('password_required', 'The document is encrypted: send its password in the "password" field.');
  if (isErrorCode(e.code)) return new OdeError(e.code, e.message, { path: e.path });
  return new OdeError('internal', e.message);
}
