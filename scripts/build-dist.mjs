#!/usr/bin/env node
// Builds the compiled JavaScript that a production install runs (issue 19): esbuild bundles the CLI (which
// serves the daemon), the kit and the structure worker into dist/, with npm packages left external and no
// TypeScript loader needed at run time. Only when the sources changed (a hash of them is kept in dist/.stamp);
// `--force` rebuilds. Run by scripts/setup.mjs; tests keep running the TypeScript sources.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFiles } from './dist-sources.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const stamp = join(dist, '.stamp');

/** The entries: output name -> source, relative to the root. A missing optional entry is left out. */
const ENTRIES = {
  cli: 'cli/main.ts',
  kit: 'daemon/kit/main.ts',
  // Piscina runs the worker module's default export (engine-tasks.ts's runTask).
  'structure-worker': 'daemon/server/structure/engine-tasks.ts',
};

function sourcesHash(files) {
  const h = createHash('sha256');
  for (const f of files) h.update(f).update(readFileSync(join(root, f)));
  h.update(readFileSync(join(root, 'package-lock.json')));
  h.update(readFileSync(fileURLToPath(import.meta.url)));
  h.update(readFileSync(join(root, 'scripts/dist-sources.mjs')));
  return h.digest('hex');
}

const files = sourceFiles(root);
const hash = sourcesHash(files);
if (!process.argv.includes('--force') && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) process.exit(0);
const started = Date.now();
const { build } = await import('esbuild');
// Built beside dist/ and swapped in whole, so a failed build leaves the last good bundle in place.
const next = `${dist}.next`;
rmSync(next, { recursive: true, force: true });
mkdirSync(next, { recursive: true });
const entryPoints = Object.fromEntries(Object.entries(ENTRIES).filter(([, src]) => existsSync(join(root, src))));
await build({
  entryPoints: Object.fromEntries(Object.entries(entryPoints).map(([name, src]) => [name, join(root, src)])),
  outdir: next,
  // Shared code goes into chunks beside the entries (not a sub-folder): install-paths.ts finds the root as `../`.
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: ['node20'],
  packages: 'external',
  jsx: 'automatic',
  sourcemap: true,
  define: { ODE_COMPILED: 'true' },
  logLevel: 'warning',
});
writeFileSync(join(next, '.stamp'), hash);
rmSync(dist, { recursive: true, force: true });
renameSync(next, dist);
console.log(
  `[dist] built ${Object.keys(entryPoints)
    .map((n) => `dist/${n}.js`)
    .join(', ')} in ${Date.now() - started} ms`,
);
