#!/usr/bin/env node
// Builds the browser editor (daemon/editor/src -> daemon/editor/dist/editor.js, editor.css) and the settings iframe
// page (src/settings -> dist/settings.js, settings.css) with esbuild, only when
// its sources changed (a hash of them is kept in dist/.stamp). Run by scripts/setup.mjs; `--force` rebuilds.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const src = join(here, 'src');
const dist = join(here, 'dist');
const stamp = join(dist, '.stamp');

function sourcesHash() {
  const h = createHash('sha256');
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else h.update(name).update(readFileSync(p));
    }
  };
  walk(src);
  h.update(readFileSync(join(here, '../protocol/editor.ts')));
  h.update(readFileSync(join(here, '../protocol/postmessage.ts')));
  h.update(readFileSync(fileURLToPath(import.meta.url)));
  return h.digest('hex');
}

const hash = sourcesHash();
if (!process.argv.includes('--force') && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) process.exit(0);
const started = Date.now();
mkdirSync(dist, { recursive: true });
/** Bundles one page's entry into dist/<name>.js (ES2022 module, minified, with its source map). */
const bundle = (entry, name) =>
  build({
    entryPoints: [entry],
    outfile: join(dist, `${name}.js`),
    bundle: true,
    format: 'esm',
    target: ['es2022'],
    minify: true,
    sourcemap: true,
    logLevel: 'warning',
  });
await bundle(join(src, 'main.ts'), 'editor');
// The settings iframe page (src/settings: its own entry and stylesheet; it shares core/ and protocol/ only).
const settingsSrc = join(src, 'settings');
await bundle(join(settingsSrc, 'main.ts'), 'settings');
writeFileSync(join(dist, 'settings.css'), readFileSync(join(settingsSrc, 'settings.css'), 'utf8'));
// One stylesheet: editor.css (the layout and theme variables) first, then each module's own *.css, in path order.
const cssFiles = [];
const walkCss = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (p !== settingsSrc) walkCss(p); // the settings page has its own stylesheet, below
    } else if (name.endsWith('.css') && p !== join(src, 'editor.css')) cssFiles.push(p);
  }
};
walkCss(src);
writeFileSync(
  join(dist, 'editor.css'),
  [join(src, 'editor.css'), ...cssFiles].map((p) => `/* ${p.slice(src.length + 1)} */\n${readFileSync(p, 'utf8')}`).join('\n'),
);
writeFileSync(stamp, hash);
console.log(`[editor] built daemon/editor/dist/editor.js and settings.js in ${Date.now() - started} ms`);
