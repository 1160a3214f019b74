import { engineRefusal, engineTooOld, parseEngineVersion } from '../protocol/engine-version.ts';
import { DEFAULT_PROGRAM_DIR, Office, type LokDocument } from '../native/index.ts';
import { applyPrintServerGuard } from './print-guard.ts';

/** The kit's LibreOffice instance and its version string. */
export interface OfficeHandle {
  office: Office;
  version: string;
  /** Destroys LibreOffice and ends the process with `code` (process.exit with LibreOffice alive crashes). */
  exit(code: number): never;
}

export type { LokDocument };

/**
 * Initialises LibreOffice (lok_init_2) with `programDir` and the kit's own profile URL, after setting the
 * environment that keeps LibreOffice away from print servers (print-guard.ts). Refuses LibreOffice older than
 * MIN_ENGINE_VERSION (protocol/engine-version.ts): the addon is built for 25.2's LibreOfficeKit.
 * @throws Error when the addon or LibreOffice cannot start, or LibreOffice is too old (the message names the fix).
 */
export async function loadOffice(programDir: string | undefined, profileUrl: string): Promise<OfficeHandle> {
  applyPrintServerGuard(process.env);
  const office = Office.init({ programDir, profileUrl });
  const info = office.getVersionInfo() as { ProductVersion?: string; ProductExtension?: string } | null;
  const version = `${info?.ProductVersion ?? '?'}${info?.ProductExtension ?? ''}`;
  const parsed = parseEngineVersion(info?.ProductVersion ?? '');
  if (parsed && engineTooOld(parsed)) {
    office.destroy();
    throw new Error(engineRefusal(version, programDir ?? DEFAULT_PROGRAM_DIR));
  }
  return { office, version, exit: (code) => office.exitProcess(code) };
}
