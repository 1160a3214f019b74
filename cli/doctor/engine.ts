/**
 * Which LibreOffice `lo_path` holds and where it came from, for `ode doctor` (issue 15): the version from
 * bootstraprc (daemon/server/pool/engine-check.ts), the Debian package that owns the program files
 * (`dpkg-query -S`), its installed version and the apt origin it was installed from (`apt-cache policy`: the
 * archive and suite of the installed version, e.g. `http://deb.debian.org/debian bookworm-backports/main`).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { readInstalledEngine, type InstalledEngine } from '../../daemon/server/index.ts';

const run = promisify(execFile);

/** The installed version of a package and the apt sources that offer exactly that version. */
export interface AptPolicy {
  /** The `Installed:` version, undefined when the package is not installed. */
  installed: string | undefined;
  /** The sources of the installed version (`<uri> <suite>/<component>`), without dpkg's own status file. */
  origins: string[];
}

/**
 * Reads `apt-cache policy <package>` output: the `Installed:` line, and under `Version table:` the source lines of
 * the version marked `***` (each `<priority> <uri> <suite>/<component> <arch> Packages`).
 */
export function parseAptPolicy(text: string): AptPolicy {
  const installedText = /^\s*Installed:\s*(\S+)/m.exec(text)?.[1];
  const installed = installedText && installedText !== '(none)' ? installedText : undefined;
  const origins: string[] = [];
  let inInstalled = false;
  for (const line of text.split('\n')) {
    const version = /^\s*(\*\*\*)?\s+(\S+)\s+(-?\d+)\s*$/.exec(line);
    if (version && !line.trimStart().startsWith('http') && !/^\s+-?\d+\s+\//.test(line)) {
      inInstalled = version[1] === '***';
      continue;
    }
    const source = /^\s+-?\d+\s+(\S+)\s+(\S+)(?:\s+\S+\s+Packages)?\s*$/.exec(line);
    if (inInstalled && source && source[1] !== '/var/lib/dpkg/status') origins.push(`${source[1]} ${source[2]}`);
  }
  return { installed, origins };
}

/** What `ode doctor` says of the engine. */
export interface EngineReport {
  /** From bootstraprc; undefined when lo_path has none. */
  engine: InstalledEngine | undefined;
  /** The Debian package owning lo_path's libmergedlo.so, when one does. */
  packageName: string | undefined;
  policy: AptPolicy | undefined;
}

/** Reads the version and, on Debian, the package and apt origin of the LibreOffice at `loPath`. Never throws. */
export async function inspectEngine(loPath: string): Promise<EngineReport> {
  const engine = readInstalledEngine(loPath);
  let packageName: string | undefined;
  try {
    const { stdout } = await run('dpkg-query', ['-S', join(loPath, 'libmergedlo.so')], { timeout: 30_000 });
    packageName = /^([^:\s]+)(?::\S+)?:\s/.exec(stdout)?.[1];
  } catch {
    return { engine, packageName: undefined, policy: undefined };
  }
  if (!packageName) return { engine, packageName, policy: undefined };
  try {
    const { stdout } = await run('apt-cache', ['policy', packageName], { timeout: 60_000, env: { ...process.env, LC_ALL: 'C' } });
    return { engine, packageName, policy: parseAptPolicy(stdout) };
  } catch {
    return { engine, packageName, policy: undefined };
  }
}

/** One phrase for the report: `LibreOffice 25.2 (libreoffice-core 4:25.2.3-2+deb13u5~bpo12+1 from <uri> <suite>)`. */
export function describeEngine(r: EngineReport): string {
  const name = r.engine ? `${r.engine.productKey}` : 'LibreOffice (version unknown: no bootstraprc)';
  if (!r.packageName) return `${name} (not from a Debian package)`;
  const version = r.policy?.installed ? ` ${r.policy.installed}` : '';
  const from = r.policy?.origins.length ? `from ${r.policy.origins.join(', ')}` : 'from no configured apt source (installed by hand or the source was removed)';
  return `${name} (${r.packageName}${version} ${from})`;
}
