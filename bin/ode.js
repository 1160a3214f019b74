#!/usr/bin/env node
// The `ode` command. A set-up install runs the compiled bundle (dist/cli.js, made by scripts/build-dist.mjs), with
// no TypeScript loader in any process. When the bundle is missing, or a source file is newer than it (a checkout
// being edited), the TypeScript sources run through tsx's loader instead. ODE_FROM_SOURCES=1 forces the sources,
// ODE_FROM_SOURCES=0 the bundle (whatever the files' times say).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = join(root, 'dist', 'cli.js');

/** True when some TypeScript source of the bundle changed after it was built (mtime, cheap: no file is read). */
function sourcesNewerThan(ms) {
  const skip = new Set(['node_modules', 'editor', 'build', 'test-fixtures', 'dist']);
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (skip.has(e.name)) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (walk(p)) return true;
      } else if (/\.tsx?$/.test(e.name) && statSync(p).mtimeMs > ms) return true;
    }
    return false;
  };
  return ['daemon', 'cli', 'certs', 'admin-api', 'tui'].some((d) => walk(join(root, d)));
}

const choice = process.env.ODE_FROM_SOURCES;
const compiled = choice === '0' || (choice !== '1' && existsSync(bundle) && !sourcesNewerThan(statSync(bundle).mtimeMs));
let main;
if (compiled) {
  ({ main } = await import('../dist/cli.js'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../cli/main.ts'));
}
await main(process.argv);
