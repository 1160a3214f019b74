/**
 * test/bench/structure/ab.ts: two versions of the structure engine timed side by side in one process, run by run
 * in turn (A, B, A, B...), so that both see the same machine load: engine extract (every filter that applies) and
 * transform (the recipe of run.ts: title, one chart cell, the first text content control, the first slide's name)
 * per corpus document under 1 MB. Prints medians (min-max) and the ratio A/B per document.
 *
 * Run: `node bin/run-ts.js test/bench/structure/ab.ts <engine A index.ts> [engine B index.ts]` (B defaults to this
 * checkout's daemon/structure/index.ts); BENCH_RUNS (default 20) and BENCH_FOLDERS (default presentations,
 * tracked-changes, content-controls) as in run.ts.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmt, median } from '../stats.ts';
import { recipeFor } from './recipe.ts';

type Engine = typeof import('../../../daemon/structure/index.ts');
type Format = Parameters<Engine['extractStructure']>[1];

const CORPUS = new URL('../../../../shared/corpus/', import.meta.url).pathname;
const FOLDERS = process.env.BENCH_FOLDERS?.split(',') ?? ['presentations', 'tracked-changes', 'content-controls'];
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const [pathA, pathB = new URL('../../../daemon/structure/index.ts', import.meta.url).pathname] = process.argv.slice(2);
if (!pathA) {
  console.error('usage: node bin/run-ts.js test/bench/structure/ab.ts <engine A index.ts> [engine B index.ts]');
  process.exit(2);
}
const load = async (p: string) => (await import(pathToFileURL(resolve(p)).href)) as Engine;
const engines = [await load(pathA), await load(pathB)] as const;

/** Times `fns[0]` and `fns[1]` in turn, 2 warm-ups each, then `RUNS` runs each. */
async function alternate(fns: ReadonlyArray<() => unknown>): Promise<number[][]> {
  const xs: number[][] = [[], []];
  for (let i = 0; i < RUNS + 2; i++) {
    for (let k = 0; k < 2; k++) {
      const t = performance.now();
      await fns[k]!();
      if (i >= 2) xs[k]!.push(performance.now() - t);
    }
  }
  return xs;
}

const files = FOLDERS.flatMap((f) => readdirSync(join(CORPUS, f)).map((n) => `${f}/${n}`)).filter(
  (f) => ['.docx', '.odt', '.pptx', '.odp'].includes(extname(f)) && statSync(join(CORPUS, f)).size < 1024 * 1024,
);
console.log(`A = ${pathA}, B = ${pathB}; ${RUNS} runs each, alternating, after 2 warm-ups. Milliseconds, median (min-max).`);
console.log('');
console.log('| document | extract A | extract B | A/B | transform A | transform B | A/B |');
console.log('|---|---|---|---|---|---|---|');
for (const file of files) {
  const format = extname(file).slice(1) as Format;
  const bytes = new Uint8Array(readFileSync(join(CORPUS, file)));
  const recipe = recipeFor(engines[1].extractStructure(bytes, format));
  const ex = await alternate(engines.map((e) => () => e.extractStructure(bytes, format)));
  const tr = await alternate(engines.map((e) => () => e.transformStructure(bytes, format, recipe)));
  const r = (x: number[][]) => (median(x[0]!) / median(x[1]!)).toFixed(2);
  console.log(`| ${file} | ${fmt(ex[0]!)} | ${fmt(ex[1]!)} | ${r(ex)}x | ${fmt(tr[0]!)} | ${fmt(tr[1]!)} | ${r(tr)}x |`);
}
