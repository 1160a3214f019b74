// The TypeScript sources that go into the compiled bundle (dist/), in one place: scripts/build-dist.mjs hashes
// them to know when to rebuild, bin/ode.js compares their times with the bundle's to know whether to run it.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The folders whose TypeScript goes into the bundle (the editor has its own build; tests stay out). */
export const SOURCE_DIRS = ['daemon', 'cli', 'certs', 'admin-api', 'tui'];
/** Folders never bundled: the browser editor, the native build output, test fixtures, the bundle itself. */
const SKIP = new Set(['node_modules', 'editor', 'build', 'test-fixtures', 'dist']);

/** Every bundled source file (.ts/.tsx, not tests) under `root`, sorted, as paths relative to `root`. */
export function sourceFiles(root) {
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (SKIP.has(e.name)) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(relative(root, p));
    }
  };
  for (const d of SOURCE_DIRS) walk(join(root, d));
  return out;
}
