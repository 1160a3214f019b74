/**
 * test/bench/structure: the structure API's native engine against the warm-kit route, on the corpus documents the
 * engine reads natively (docx, odt, pptx, odp under 1 MB), side by side in one run:
 *   extract:   extractStructure(bytes) with every filter that applies   vs  a warm kit loading the document
 *              (inspect: load + layout + destroy, over the kit's IPC, as the daemon pays it);
 *   transform: transformStructure(bytes, recipe) including the save     vs  a warm kit loading and saving it in
 *              the same format (convert).
 * The recipe sets the title and, where the document has them, the first text content control's content, one chart
 * cell, and the first slide's name. Prints median (min-max) per document and the ratios; writes the table to
 * test/bench/structure/last-run.md. Run: `npm run bench:structure` (about 1-2 minutes); BENCH_RUNS, BENCH_KIT_RUNS
 * BENCH_FILTER (one filter, e.g. docprops) and BENCH_FOLDERS (corpus folders, e.g. presentations) adjust it.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { pino } from 'pino';
import { KitProcess } from '../../../daemon/server/pool/kit-process.ts';
import { extractStructure, transformStructure, type StructureFormat } from '../../../daemon/structure/index.ts';
import { fmt, median } from '../stats.ts';
import { recipeFor } from './recipe.ts';

const CORPUS = new URL('../../../../shared/corpus/', import.meta.url).pathname;
/** Corpus folders measured; BENCH_FOLDERS=presentations (comma-separated) measures only those. */
const FOLDERS = process.env.BENCH_FOLDERS?.split(',') ?? ['content-controls', 'charts', 'tracked-changes', 'properties', 'presentations'];
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const KIT_RUNS = Number(process.env.BENCH_KIT_RUNS ?? 10);
/** BENCH_FILTER=docprops (etc.) measures one filter's extraction instead of everything that applies. */
const FILTER = process.env.BENCH_FILTER as Parameters<typeof extractStructure>[2] extends infer O ? (O extends { filter?: infer F } ? F : never) : never;
const log = pino({ level: 'silent' });
const out: string[] = [];
const say = (line = '') => {
  out.push(line);
  console.log(line);
};

async function time(fn: () => unknown | Promise<unknown>, runs: number): Promise<number[]> {
  for (let i = 0; i < 2; i++) await fn();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  return xs;
}

async function main(): Promise<void> {
  const files = FOLDERS.flatMap((f) => readdirSync(join(CORPUS, f)).map((n) => `${f}/${n}`)).filter(
    (f) => ['.docx', '.odt', '.pptx', '.odp'].includes(extname(f)) && statSync(join(CORPUS, f)).size < 1024 * 1024,
  );
  const tmp = mkdtempSync(join(tmpdir(), 'ode-bench-structure-'));
  const kit = new KitProcess({ loPath: '/usr/lib/libreoffice/program', tmpRoot: tmp, log });
  await new Promise<void>((resolve, reject) => {
    kit.once('ready', () => resolve());
    kit.once('exit', () => reject(new Error('the benchmark kit died')));
  });
  const limits = { loadMs: 100_000, convertMs: 100_000 };
  say(
    `Run of ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${RUNS} engine runs and ${KIT_RUNS} kit runs per document after 2 warm-ups. Milliseconds, median (min-max).`,
  );
  say();
  say('| document | size | engine extract | warm kit load | load/extract | engine transform (incl. save) | warm kit load+save | kit/transform |');
  say('|---|---|---|---|---|---|---|---|');
  const ratios = { extract: [] as number[], transform: [] as number[] };
  const medians = { extract: [] as number[], transform: [] as number[] };
  try {
    for (const file of files) {
      const format = extname(file).slice(1) as StructureFormat;
      const bytes = new Uint8Array(readFileSync(join(CORPUS, file)));
      let structure: Record<string, unknown>;
      try {
        structure = extractStructure(bytes, format, { filter: FILTER });
      } catch (e) {
        say(`| ${file} | ${(bytes.length / 1024).toFixed(0)} kB | fails: ${(e as Error).message.slice(0, 60)} | | | | | |`);
        continue;
      }
      const recipe = recipeFor(structure);
      const extract = await time(() => extractStructure(bytes, format, { filter: FILTER }), RUNS);
      let transform: number[];
      try {
        transform = await time(() => transformStructure(bytes, format, recipe), RUNS);
      } catch (e) {
        say(`| ${file} | ${(bytes.length / 1024).toFixed(0)} kB | ${fmt(extract)} | | | transform fails: ${(e as Error).message.slice(0, 80)} | | |`);
        continue;
      }
      const load = await time(async () => {
        const dir = kit.jobDir();
        writeFileSync(join(dir, `in.${format}`), bytes);
        await kit.inspect({ input: join(dir, `in.${format}`) }, limits);
        rmSync(dir, { recursive: true, force: true });
      }, KIT_RUNS);
      const save = await time(async () => {
        const dir = kit.jobDir();
        writeFileSync(join(dir, `in.${format}`), bytes);
        await kit.convert({ input: join(dir, `in.${format}`), output: join(dir, `out.${format}`), format }, limits);
        rmSync(dir, { recursive: true, force: true });
      }, KIT_RUNS);
      const rExtract = median(load) / median(extract);
      const rTransform = median(save) / median(transform);
      ratios.extract.push(rExtract);
      ratios.transform.push(rTransform);
      medians.extract.push(median(extract));
      medians.transform.push(median(transform));
      say(
        `| ${file} | ${(bytes.length / 1024).toFixed(0)} kB | ${fmt(extract)} | ${fmt(load)} | ${rExtract.toFixed(1)}x | ${fmt(transform)} | ${fmt(save)} | ${rTransform.toFixed(1)}x |`,
      );
    }
  } finally {
    await kit.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
  say();
  say(
    `Over ${medians.extract.length} documents: engine extract medians ${Math.min(...medians.extract).toFixed(1)}-${Math.max(...medians.extract).toFixed(1)} ms (median ${median(medians.extract).toFixed(1)}), transform ${Math.min(...medians.transform).toFixed(1)}-${Math.max(...medians.transform).toFixed(1)} ms (median ${median(medians.transform).toFixed(1)}); kit/engine ratio, lowest: extract ${Math.min(...ratios.extract).toFixed(1)}x, transform ${Math.min(...ratios.transform).toFixed(1)}x.`,
  );
  writeFileSync(new URL('./last-run.md', import.meta.url), `${out.join('\n')}\n`);
}

await main();
