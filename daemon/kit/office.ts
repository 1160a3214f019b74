import { Office, type LokDocument } from '../native/index.ts';

/** The kit's LibreOffice instance and its version string. */
export interface OfficeHandle {
  office: Office;
  version: string;
  /** Destroys LibreOffice and ends the process with `code` (process.exit with LibreOffice alive crashes). */
  exit(code: number): never;
}

export type { LokDocument };

/**
 * Initialises LibreOffice (lok_init_2) with `programDir` and the kit's own profile URL.
 * @throws Error when the addon or LibreOffice cannot start (the message names the fix).
 */
export async function loadOffice(programDir: string | undefined, profileUrl: string): Promise<OfficeHandle> {
  const office = Office.init({ programDir, profileUrl });
  const info = office.getVersionInfo() as { ProductVersion?: string; ProductExtension?: string } | null;
  const version = `${info?.ProductVersion ?? '?'}${info?.ProductExtension ?? ''}`;
  return { office, version, exit: (code) => office.exitProcess(code) };
}
