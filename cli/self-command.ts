import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The installation's root: this file is cli/self-command.ts, or bundled into dist/cli.js; both one level down. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** realpath, or undefined when the file is missing or unreadable. */
function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * How the user types an `ode` command in their own shell, for the hints Ode prints (e.g. the startup line's admin
 * token command): `ode <args>` when the first `ode` on PATH is this installation's (`npm install -g`, a linked
 * checkout), not counting the `node_modules/.bin` folders `npx` and `npm run` put on PATH for the daemon's own
 * process only; `npx ode <args>` from inside a checkout or a local install (the README's form); otherwise
 * `node <root>/bin/ode.js <args>`, which works from anywhere.
 * @param args the command's words, e.g. `admin token`
 * @param env the environment to read PATH from (the process's by default)
 * @param cwd the folder the user is in (the process's by default)
 */
export function selfCommand(args: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  const bin = real(join(ROOT, 'bin', 'ode.js'));
  const dirs = (env.PATH ?? '').split(delimiter).filter((d) => d && !d.split(/[\\/]/).includes('node_modules'));
  for (const dir of dirs) {
    const candidate = join(dir, 'ode');
    if (!existsSync(candidate)) continue;
    if (bin !== undefined && real(candidate) === bin) return `ode ${args}`;
    break;
  }
  const rel = relative(resolve(ROOT), resolve(cwd));
  const inside = rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
  return inside ? `npx ode ${args}` : `node ${join(ROOT, 'bin', 'ode.js')} ${args}`;
}
