/**
 * The kits' seccomp filter as a compiled BPF program (the file `bwrap --seccomp FD` reads). libseccomp makes it:
 * seccomp-filter.c (the list of denied system calls and why) is compiled with the system C compiler against
 * `libseccomp-dev` the first time a daemon needs it, run once, and its output kept under
 * `node_modules/.cache/ode-sandbox/` (or the given fallback folder when the checkout is read-only), named by the
 * hash of the C source, so an edited list is rebuilt.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../install-paths.ts';

const SOURCE = join(ROOT, 'daemon', 'server', 'sandbox', 'seccomp-filter.c');

/** Thrown when the filter cannot be built; the message names the fix (a Debian package). */
export class SeccompBuildError extends Error {}

function writable(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * The path of the compiled BPF filter, building it when missing (about 0.3 s, once per source version).
 * `fallbackDir`: where to build when `node_modules/.cache` cannot be written.
 * @throws SeccompBuildError when the source is missing, `cc` or libseccomp-dev is not installed, or the helper fails.
 */
export function seccompFilterFile(fallbackDir: string): string {
  if (!existsSync(SOURCE)) throw new SeccompBuildError(`${SOURCE} is missing: the install is incomplete.`);
  const hash = createHash('sha256').update(readFileSync(SOURCE)).digest('hex').slice(0, 16);
  const cacheDir = join(ROOT, 'node_modules', '.cache', 'ode-sandbox');
  const dir = writable(cacheDir) ? cacheDir : fallbackDir;
  const out = join(dir, `seccomp-${process.arch}-${hash}.bpf`);
  if (existsSync(out)) return out;
  mkdirSync(dir, { recursive: true });
  const helper = join(dir, `seccomp-filter-${process.pid}`);
  const built = spawnSync('cc', ['-O2', '-o', helper, SOURCE, '-lseccomp'], { encoding: 'utf8' });
  if (built.error || built.status !== 0) {
    const why = built.error ? built.error.message : built.stderr.trim().split('\n').slice(-3).join(' ');
    throw new SeccompBuildError(`the seccomp filter could not be compiled (${why}); install gcc and libseccomp-dev (apt-get install gcc libseccomp-dev).`);
  }
  const tmp = `${out}.${process.pid}.tmp`;
  const ran = spawnSync(helper, [tmp], { encoding: 'utf8' });
  rmSync(helper, { force: true });
  if (ran.error || ran.status !== 0) {
    rmSync(tmp, { force: true });
    throw new SeccompBuildError(`the seccomp filter helper failed: ${ran.error?.message ?? ran.stderr.trim()}`);
  }
  renameSync(tmp, out);
  return out;
}
