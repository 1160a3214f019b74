import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Delimited-text inputs, with the CSV filter options LibreOffice uses when none are given (separator, quote, UTF-8, line 1). */
const DELIMITED_TEXT: Readonly<Record<string, string>> = { csv: '44,34,76,1', tsv: '9,34,76,1' };

/** True for inputs that must be imported through {@link importDelimitedText}. */
export function isDelimitedText(path: string): boolean {
  return extname(path).slice(1).toLowerCase() in DELIMITED_TEXT;
}

/**
 * Imports a CSV/TSV file into an ODS spreadsheet next to it with a headless `soffice --convert-to`, and returns
 * the ODS path. Why not LibreOfficeKit: in 7.4, loading CSV through documentLoad always runs the Text Import
 * dialog, even with filter options, so the load either waits for ever or (with Batch=true) fails
 * (daemon/native/README.md). The soffice import honours the same `infilterOptions` tokens (spec: Conversion,
 * "import filter options for CSV"). It uses its own profile in the kit's temp dir; the daemon kills the kit's
 * whole process group on a time-out, this soffice included.
 * @param filterOptions the CSV import tokens (e.g. `59,34,76,1`); undefined: LibreOffice's defaults for the type
 * @throws Error with code `load_failed` when soffice fails or writes nothing.
 */
export async function importDelimitedText(path: string, filterOptions: string | undefined, loPath: string, kitDir: string): Promise<string> {
  const ext = extname(path).slice(1).toLowerCase();
  const options = filterOptions || DELIMITED_TEXT[ext];
  const outDir = dirname(path);
  const profile = pathToFileURL(join(kitDir, 'csv-import-profile')).href;
  const args = [`-env:UserInstallation=${profile}`, '--headless', '--norestore', `--infilter=Text - txt - csv (StarCalc):${options}`, '--convert-to', 'ods', '--outdir', outDir, path];
  await new Promise<void>((resolve, reject) => {
    execFile(join(loPath, 'soffice'), args, { env: { ...process.env, HOME: kitDir } }, (err) => (err ? reject(err) : resolve()));
  }).catch((e: Error) => {
    throw Object.assign(new Error(`importing the delimited text failed: ${e.message}`), { code: 'load_failed' });
  });
  const ods = join(outDir, `${basename(path, extname(path))}.ods`);
  if (!existsSync(ods)) throw Object.assign(new Error('LibreOffice could not import the delimited text'), { code: 'load_failed' });
  return ods;
}
