#!/usr/bin/env -S node --max-semi-space-size=2
// The `ode` command. A set-up install runs the compiled bundle (dist/cli.js, made by scripts/build-dist.mjs), with
// no TypeScript loader in any process. When the bundle is missing, or a source file is newer than it (a checkout
// being edited), the TypeScript sources run through tsx's loader instead. ODE_FROM_SOURCES=1 forces the sources,
// ODE_FROM_SOURCES=0 the bundle (whatever the files' times say). The `#!` line caps V8's young generation at 2 MB a
// semi-space (default 16): the idle daemon's RSS 104-112 MB -> 95 MB (issue 19); `npm start` and docs/deploy/ode.service
// pass the same flag.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFiles } from '../scripts/dist-sources.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = join(root, 'dist', 'cli.js');

/** True when some TypeScript source of the bundle changed after it was built (mtime, cheap: no file is read). */
const sourcesNewerThan = (ms) => sourceFiles(root).some((f) => statSync(join(root, f)).mtimeMs > ms);

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
