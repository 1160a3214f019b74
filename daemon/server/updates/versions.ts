/**
 * Version numbers as the update check compares them (spec: Update check): dotted numbers such as `0.1.0` or
 * LibreOffice-style `24.04.5.2`, optionally followed by a suffix (`-1`, `+build`, ` beta`) that is ignored.
 *
 * Why not a library: the maintained comparer (`semver`) is not installed, and it would refuse `24.04.5.2` (four
 * parts, a leading zero) anyway. A numeric part-by-part comparison is all the check needs.
 */

/** The leading dotted numbers of a version: `24.04.5.2-1` -> [24, 4, 5, 2]; undefined when it starts with no digit. */
export function parseVersion(version: string): number[] | undefined {
  const m = /^\s*v?(\d+(?:\.\d+)*)/.exec(version);
  return m ? m[1].split('.').map(Number) : undefined;
}

/**
 * Compares two versions part by part as numbers, missing parts counting as 0 (`1.2` equals `1.2.0`).
 * @returns a negative number when a < b, 0 when equal, positive when a > b.
 * @throws Error naming the version that is not dotted numbers.
 */
export function compareVersions(a: string, b: string): number {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  if (!pa) throw new Error(`"${a}" is not a version (dotted numbers such as 24.04.5.2)`);
  if (!pb) throw new Error(`"${b}" is not a version (dotted numbers such as 24.04.5.2)`);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** True when `available` is a newer version than `current` (compareVersions; throws as it does). */
export function isNewer(available: string, current: string): boolean {
  return compareVersions(available, current) > 0;
}
