/**
 * test/bench/structure/dump.ts: writes what the structure engine answers for every docx, odt, pptx and odp of the
 * corpus (any size, the broken ones too), one JSON file per document, so that two versions of the engine can be
 * compared by diffing two dumps (`diff -r`): extraction with no filter and with each filter (or the error code and
 * message), and the outputs of fixed transforms (a title with a fixed save time, the first slide renamed, slide
 * commands that insert, duplicate, move, delete and edit text): each output's parts as SHA-1 of their content and
 * its extraction.
 *
 * Run: `node bin/run-ts.js test/bench/structure/dump.ts <out dir> [engine index.ts]`; the engine defaults to this
 * checkout's daemon/structure/index.ts (give an exported copy of another commit's daemon/structure to compare).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { unzipSync } from 'fflate';

type Engine = typeof import('../../../daemon/structure/index.ts');
type Format = Parameters<Engine['extractStructure']>[1];

const CORPUS = new URL('../../../../shared/corpus/', import.meta.url).pathname;
const outDir = process.argv[2];
if (!outDir) {
  console.error('usage: node bin/run-ts.js test/bench/structure/dump.ts <out dir> [engine index.ts]');
  process.exit(2);
}
const enginePath = resolve(process.argv[3] ?? new URL('../../../daemon/structure/index.ts', import.meta.url).pathname);
const engine = (await import(pathToFileURL(enginePath).href)) as Engine;
const NOW = new Date('2026-01-02T03:04:05Z');

/** Slide command recipes: names and moves, then text edits on the first text objects. */
const SLIDE_RECIPES = [
  [{ RenameSlide: 'Renamed' }],
  [
    { InsertMasterSlide: 0 },
    { RenameSlide: 'Inserted' },
    { JumpToSlide: 0 },
    { DuplicateSlide: '' },
    { JumpToSlideByName: 'Inserted' },
    { MoveSlide: 0 },
    { JumpToSlide: 'last' },
    { DeleteSlide: '' },
  ],
  [
    { JumpToSlide: 0 },
    { 'EditTextObject.0': [{ SelectText: [0, 0, 0, 3] }, { InsertText: 'Ode  two  spaces' }, { UnoCommand: '.uno:Bold' }] },
    { 'EditTextObject.0': [{ SelectText: [0, 2, 0, 6] }, { UnoCommand: '.uno:Italic' }] },
  ],
  [{ JumpToSlide: 'last' }, { 'SetText.0': 'First\nSecond' }, { ChangeLayout: 1 }],
];

function describeError(e: unknown): { error: string; message: string } {
  const err = e as { code?: string; message?: string };
  return { error: err.code ?? 'thrown', message: String(err.message ?? e) };
}

function extractAll(bytes: Uint8Array, format: Format): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const filter of [undefined, ...engine.STRUCTURE_FILTERS]) {
    try {
      out[filter ?? 'all'] = engine.extractStructure(bytes, format, { filter });
    } catch (e) {
      out[filter ?? 'all'] = describeError(e);
    }
  }
  return out;
}

async function transformed(bytes: Uint8Array, format: Format, recipe: unknown[]): Promise<unknown> {
  try {
    const out = await engine.transformStructure(bytes, format, JSON.stringify({ Transforms: recipe }), { now: NOW });
    const parts: Record<string, string> = {};
    for (const [name, data] of Object.entries(unzipSync(out))) parts[name] = createHash('sha1').update(data).digest('hex');
    return { parts, extract: engine.extractStructure(out, format) };
  } catch (e) {
    return describeError(e);
  }
}

mkdirSync(outDir, { recursive: true });
const files = readdirSync(CORPUS, { recursive: true, encoding: 'utf8' })
  .filter((f) => ['.docx', '.odt', '.pptx', '.odp'].includes(extname(f).toLowerCase()))
  .sort();
for (const file of files) {
  const format = extname(file).slice(1).toLowerCase() as Format;
  const bytes = new Uint8Array(readFileSync(join(CORPUS, file)));
  const result: Record<string, unknown> = { extract: extractAll(bytes, format) };
  result.title = await transformed(bytes, format, [{ DocumentProperties: { Title: 'Dumped' } }]);
  if (format === 'pptx' || format === 'odp') {
    for (const [i, steps] of SLIDE_RECIPES.entries()) result[`slides${i}`] = await transformed(bytes, format, [{ SlideCommands: steps }]);
  }
  writeFileSync(join(outDir, `${file.replace(/\//g, '__')}.json`), `${JSON.stringify(result, null, 1)}\n`);
}
console.log(`${files.length} documents dumped to ${outDir}`);
