import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ROOT as root } from './install-paths.ts';

/** Ode's version from package.json (e.g. `0.1.0`). */
export const ODE_VERSION: string = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string }).version;

/**
 * A short hash identifying this build: the git commit when run from a checkout, else a hash of the version.
 * Used in capabilities (`productVersionHash`) and in the editor's versioned URL path.
 */
export const ODE_VERSION_HASH: string = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short=10', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return createHash('sha256').update(ODE_VERSION).digest('hex').slice(0, 10);
  }
})();
