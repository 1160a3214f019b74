import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecoverySidecar } from '../../daemon/server/documents/recovery.ts';
import { CORPUS } from '../helpers/convert-client.ts';

/** The stored documents of the recovery tests (a corpus docx). */
export const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));

/** The edits a previous (killed) daemon kept: another document, so byte equality tells which one the host has. */
export const COPY = readFileSync(join(CORPUS, 'content-controls/ContentControls.docx'));

/**
 * Writes a recovery copy as a previous daemon leaves it in its `recovery` folder (docs/reliability.md): the bytes as
 * `000000000000-<name>` and the sidecar beside them (`.json`). Returns the copy's path.
 */
export function writeRecoveryCopy(recoveryDir: string, name: string, bytes: Uint8Array, sidecar: RecoverySidecar): string {
  const copy = join(recoveryDir, `000000000000-${name}`);
  writeFileSync(copy, bytes);
  writeFileSync(`${copy}.json`, JSON.stringify(sidecar));
  return copy;
}
