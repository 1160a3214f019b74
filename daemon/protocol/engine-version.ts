/**
 * The LibreOffice versions Ode runs on, one rule for both sides of the kit boundary: the daemon reads the installed
 * version before it starts kits (daemon/server/pool/engine-check.ts), and a kit checks the version LibreOfficeKit
 * reports (getVersionInfo's ProductVersion, sent in `ready`). Ode needs LibreOffice 25.2 or later: the addon is built
 * against 25.2's LibreOfficeKit header (paintPartTile's edit-mode argument) and uses its calls (issue 15).
 */

/** The oldest LibreOffice Ode runs on, as LibreOffice writes its version (ProductVersion / ProductKey). */
export const MIN_ENGINE_VERSION = '25.2';

/** A LibreOffice major.minor version (7.4, 24.8, 25.2 ...). */
export interface EngineVersion {
  major: number;
  minor: number;
}

/**
 * The major.minor version in LibreOffice's own text: `25.2`, `25.2.3.2`, `LibreOffice 25.2` (bootstraprc
 * ProductKey), `LibreOffice 7.4.7.2 40(Build:2)` (soffice --version). Undefined when the text holds none.
 */
export function parseEngineVersion(text: string): EngineVersion | undefined {
  const m = /(?:^|\s)(\d{1,3})\.(\d{1,2})(?:[.\s]|$)/.exec(text.trim());
  return m ? { major: Number(m[1]), minor: Number(m[2]) } : undefined;
}

/** True when `v` is older than MIN_ENGINE_VERSION. */
export function engineTooOld(v: EngineVersion): boolean {
  const min = parseEngineVersion(MIN_ENGINE_VERSION)!;
  return v.major < min.major || (v.major === min.major && v.minor < min.minor);
}

/** What an operator runs to get a LibreOffice Ode runs on (scripts/setup.mjs picks the Debian source). */
export const ENGINE_UPGRADE_FIX =
  `run \`sudo node scripts/setup.mjs\` (on Debian 12 it adds bookworm-backports and installs libreoffice-core and its ` +
  `modules with -t bookworm-backports; on Debian 13 from the main archive), or point lo_path at the program folder ` +
  `of LibreOffice ${MIN_ENGINE_VERSION} or later`;

/**
 * The refusal text for LibreOffice `found` (its version text) at `where`: names the version, the minimum and the fix.
 */
export function engineRefusal(found: string, where: string): string {
  return `LibreOffice ${found} found at ${where}; Ode needs LibreOffice ${MIN_ENGINE_VERSION} or later. Fix: ${ENGINE_UPGRADE_FIX}`;
}
