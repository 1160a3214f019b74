import { execFile } from 'node:child_process';
import type { CheckResult } from './check.ts';

/** Font families documents expect (metric-compatible with Times/Arial/Courier, Calibri, Cambria) and their Debian packages. */
const FAMILIES: Array<{ family: string; pkg: string }> = [
  { family: 'DejaVu Sans', pkg: 'fonts-dejavu' },
  { family: 'Liberation Serif', pkg: 'fonts-liberation2' },
  { family: 'Liberation Sans', pkg: 'fonts-liberation2' },
  { family: 'Liberation Mono', pkg: 'fonts-liberation2' },
  { family: 'Carlito', pkg: 'fonts-crosextra-carlito' },
  { family: 'Caladea', pkg: 'fonts-crosextra-caladea' },
];

/**
 * The families documents expect are installed (`fc-list : family`, as LibreOffice finds fonts through
 * fontconfig). Without them LibreOffice substitutes others and lines and pages break differently.
 */
export async function checkFonts(): Promise<CheckResult> {
  let listed: string;
  try {
    listed = await new Promise<string>((resolve, reject) =>
      execFile('fc-list', [':', 'family'], { maxBuffer: 16 * 1024 * 1024 }, (err, out) => (err ? reject(err) : resolve(out))),
    );
  } catch (e) {
    return { name: 'fonts', status: 'FAIL', detail: `fc-list did not run: ${(e as Error).message}`, fix: 'apt-get install fontconfig' };
  }
  const have = new Set(
    listed
      .split('\n')
      .flatMap((l) => l.split(','))
      .map((f) => f.trim().toLowerCase()),
  );
  const missing = FAMILIES.filter((f) => !have.has(f.family.toLowerCase()));
  if (missing.length === 0) return { name: 'fonts', status: 'ok', detail: FAMILIES.map((f) => f.family).join(', ') };
  const pkgs = [...new Set(missing.map((m) => m.pkg))];
  return {
    name: 'fonts',
    status: 'FAIL',
    detail: `missing font families: ${missing.map((m) => m.family).join(', ')} (documents lay out with substitutes)`,
    fix: `apt-get install ${pkgs.join(' ')}, then restart Ode`,
  };
}
