/**
 * The daemon's start-up check of the LibreOffice at `lo_path` (issue 15): read the installed version without
 * starting LibreOffice, from `bootstraprc` beside the program files (`ProductKey=LibreOffice 25.2`; LibreOffice's
 * own installs, Debian's and TDF's, all have it), and refuse LibreOffice older than MIN_ENGINE_VERSION.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { engineRefusal, engineTooOld, parseEngineVersion, type EngineVersion } from '../../protocol/engine-version.ts';
import { ConfigError } from '../config/load.ts';

/** What bootstraprc says of the LibreOffice in a program folder. */
export interface InstalledEngine extends EngineVersion {
  /** The ProductKey value, e.g. `LibreOffice 25.2`. */
  productKey: string;
  /** The bootstraprc file read. */
  file: string;
}

/**
 * The LibreOffice version in `<loPath>/bootstraprc`, or undefined when the file or its ProductKey is missing or holds
 * no version (then the kit's own check, on what LibreOfficeKit reports, is the one that applies).
 */
export function readInstalledEngine(loPath: string): InstalledEngine | undefined {
  const file = join(loPath, 'bootstraprc');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const productKey = /^ProductKey=(.*)$/m.exec(text)?.[1]?.trim();
  const version = productKey === undefined ? undefined : parseEngineVersion(productKey);
  return productKey !== undefined && version ? { ...version, productKey, file } : undefined;
}

/**
 * Refuses to go on with a LibreOffice older than MIN_ENGINE_VERSION at `loPath`.
 * @throws ConfigError (key lo_path) naming the version found, where, the minimum and the fix.
 */
export function assertEngineSupported(loPath: string): InstalledEngine | undefined {
  const found = readInstalledEngine(loPath);
  if (found && engineTooOld(found)) {
    throw new ConfigError('lo_path', [
      `lo_path: ${engineRefusal(`${found.major}.${found.minor}`, `${loPath} (${found.file}: ProductKey=${found.productKey})`)}`,
    ]);
  }
  return found;
}
