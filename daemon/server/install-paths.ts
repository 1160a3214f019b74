/**
 * Where the running install's files are, whether the daemon runs from sources (tests, `tsx`) or from the compiled
 * bundle that set-up makes (`dist/`, scripts/build-dist.mjs), and how to start the daemon's child processes and
 * workers in the same way. Paths to files of the checkout (the editor bundle, the addon, package.json) are taken
 * from ROOT, never from a module's own `import.meta.url`, whose folder differs between the two.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Defined as `true` by esbuild in the production bundle (scripts/build-dist.mjs); undeclared when run from sources. */
declare const ODE_COMPILED: boolean | undefined;

/** True inside the compiled bundle (`dist/*.js`), false when running TypeScript sources through tsx. */
export const COMPILED: boolean = typeof ODE_COMPILED !== 'undefined' && ODE_COMPILED === true;

/** The checkout's root folder (absolute, with a trailing slash): `dist/` is one level down, this file two. */
export const ROOT: string = fileURLToPath(new URL(COMPILED ? '../' : '../../', import.meta.url));

/** The processes and workers the daemon starts (`fake-kit`: tests only, kit.md "The fake kit"). */
export type EntryName = 'kit' | 'structure-worker' | 'fake-kit';

/**
 * The entry of each when run from sources (relative to ROOT), and whether it needs tsx's loader on its command
 * line: the kit is a TypeScript file; the structure worker is a small .mjs that registers tsx itself (worker threads
 * do not inherit a loader). scripts/build-dist.mjs bundles each into `dist/<name>.js`.
 */
const SOURCE_ENTRIES: Record<EntryName, { file: string; tsxLoader: boolean }> = {
  kit: { file: 'daemon/kit/main.ts', tsxLoader: true },
  'structure-worker': { file: 'daemon/server/structure/engine-worker.mjs', tsxLoader: false },
  'fake-kit': { file: 'daemon/kit/fake/main.ts', tsxLoader: true },
};

/**
 * How to start one of the daemon's child processes or workers: the file to run (absolute path) and the Node
 * options it needs. Compiled: `dist/<name>.js` with no options. From sources: the entry above, with tsx's loader
 * (`--import <url>`, absolute, because `--import tsx` would resolve from the working directory) when it needs it.
 * @throws Error for `fake-kit` in the compiled bundle: the fake kit is for tests, which run from sources.
 */
export function entryPoint(name: EntryName): { file: string; execArgv: string[] } {
  if (COMPILED && name === 'fake-kit') throw new Error('the fake kit (tests only) is not part of the compiled bundle');
  if (COMPILED) return { file: join(ROOT, 'dist', `${name}.js`), execArgv: [] };
  const e = SOURCE_ENTRIES[name];
  return { file: join(ROOT, e.file), execArgv: e.tsxLoader ? ['--import', import.meta.resolve('tsx')] : [] };
}
