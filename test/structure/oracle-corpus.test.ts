import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractStructure, type StructureFormat } from '../../daemon/structure/index.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { runFixture } from '../../daemon/native/test-fixtures/run-fixture.ts';
import { listedDifferences } from './oracle/differences.ts';
import { startUnoOracle, type UnoInspection, type UnoOracle } from './oracle/uno-oracle.ts';

// Every docx/odt/pptx/odp of the shared corpus, extracted by the engine and read by LibreOffice 25.2 itself, item
// by item: LibreOfficeKit's extractDocumentStructureRequest (the reference Collabora answers from) for the
// content controls and charts of text documents (oracle/lok-structure.ts, one kit-like child process), and
// LibreOffice's document model over UNO (oracle/uno_oracle.py, one soffice) for everything: the same content
// controls and charts (checked equal to the reference), document properties and statistics, the redline table,
// the draw pages. A difference fails the test unless docs/structure/oracle-differences.md lists it with its reason.

const CORPUS = join(import.meta.dirname, '../../../shared/corpus');

function corpusDocuments(): string[] {
  const out: string[] = [];
  for (const dir of readdirSync(CORPUS, { withFileTypes: true })) {
    if (!dir.isDirectory() || dir.name === 'broken') continue;
    for (const f of readdirSync(join(CORPUS, dir.name))) if (/\.(docx|odt|pptx|odp)$/.test(f)) out.push(`${dir.name}/${f}`);
  }
  return out.sort();
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const num = (s: string): number => (/^nan$/i.test(s) ? Number.NaN : Number(s));
const sameNumber = (a: string, b: string): boolean =>
  (Number.isNaN(num(a)) && Number.isNaN(num(b))) || Math.abs(num(a) - num(b)) <= 1e-9 * Math.max(1, Math.abs(num(a)));

/** Differences between the engine's items and LibreOffice's model, as `<file> <filter> <path>: engine | LibreOffice`. */
function compare(file: string, format: StructureFormat, bytes: Uint8Array, lo: UnoInspection): string[] {
  const diffs: string[] = [];
  const diff = (filter: string, path: string, ours: unknown, theirs: unknown) => {
    if (!same(ours, theirs)) diffs.push(`${file} ${filter} ${path}: ${JSON.stringify(ours)?.slice(0, 120)} | ${JSON.stringify(theirs)?.slice(0, 120)}`);
  };
  const text = format === 'docx' || format === 'odt';
  if (text && lo.contentcontrols) {
    // Matched by id (w:id, loext:id), so that one control LibreOffice does not hold does not shift the others:
    // the controls only one side has, the order of the common ones, then each common control's fields.
    const ours = Object.values(extractStructure(bytes, format, { filter: 'contentcontrol' })) as Array<Record<string, unknown>>;
    const theirs = lo.contentcontrols;
    const ids = (list: Array<Record<string, unknown>>) => list.map((c) => String(c.id));
    const theirIds = new Set(ids(theirs));
    const ourIds = new Set(ids(ours));
    for (const c of ours) if (!theirIds.has(String(c.id))) diff('contentcontrol', `only-engine.${c.id}`, c.type, undefined);
    for (const c of theirs) if (!ourIds.has(String(c.id))) diff('contentcontrol', `only-lo.${c.id}`, undefined, c.type);
    diff(
      'contentcontrol',
      'order',
      ids(ours).filter((id) => theirIds.has(id)),
      ids(theirs).filter((id) => ourIds.has(id)),
    );
    for (const t of theirs) {
      const mine = ours.find((c) => String(c.id) === String(t.id));
      if (!mine) continue;
      for (const k of new Set([...Object.keys(t), ...Object.keys(mine)])) diff('contentcontrol', `${t.id}.${k}`, mine[k], t[k]);
    }
  }
  if (lo.charts) {
    const ours = extractStructure(bytes, format, { filter: 'charts' }) as Record<string, Record<string, unknown>>;
    const keys = new Set([...Object.keys(lo.charts), ...Object.keys(ours).map((k) => k.replace('Charts.ByEmbedIndex.', ''))]);
    for (const i of keys) {
      const mine = ours[`Charts.ByEmbedIndex.${i}`];
      const theirs = lo.charts[i];
      if (!mine || !theirs) {
        diff('charts', `${i}`, mine ? 'chart' : undefined, theirs ? 'chart' : undefined);
        continue;
      }
      for (const k of ['name', 'title', 'subtitle', 'RowDescriptions', 'ColumnDescriptions']) diff('charts', `${i}.${k}`, mine[k], theirs[k]);
      const a = (mine.DataValues as string[][]) ?? [];
      const b = (theirs.DataValues as string[][]) ?? [];
      const numbersAgree = a.length === b.length && a.every((row, r) => row.length === b[r]!.length && row.every((v, c) => sameNumber(v, b[r]![c]!)));
      if (!numbersAgree) diff('charts', `${i}.DataValues`, a, b);
    }
  }
  if (lo.docprops) {
    const ours = (extractStructure(bytes, format, { filter: 'docprops' }) as { DocumentProperties: Record<string, unknown> }).DocumentProperties;
    const theirs = lo.docprops;
    for (const k of [
      'Author',
      'Generator',
      'Title',
      'Subject',
      'Description',
      'Language',
      'ModifiedBy',
      'PrintedBy',
      'TemplateName',
      'CreationDate',
      'ModificationDate',
      'PrintDate',
      'EditingCycles',
      'EditingDuration',
      'Keywords',
    ])
      diff('docprops', k, ours[k], theirs[k]);
    const ourStats = ours.DocumentStatistics as Record<string, unknown>;
    const stats = theirs.DocumentStatistics as Record<string, unknown>;
    // PageCount is measured by a kit's layout, not by the engine (it is passed in): not compared here.
    for (const k of Object.keys(stats)) if (k !== 'PageCount' && k in ourStats) diff('docprops', `DocumentStatistics.${k}`, ourStats[k], stats[k]);
    const ourUser = ours.UserDefinedProperties as Record<string, unknown>;
    const user = theirs.UserDefinedProperties as Record<string, unknown>;
    for (const k of new Set([...Object.keys(user), ...Object.keys(ourUser)])) diff('docprops', `UserDefinedProperties.${k}`, ourUser[k], user[k]);
  }
  if (text && lo.trackchanges) {
    // Aligned greedily on (type, author, text): a change only one side has is reported once, not as a shift of
    // every later index.
    const ours = Object.values(extractStructure(bytes, format, { filter: 'trackchanges' })) as Array<Record<string, unknown>>;
    const theirs = lo.trackchanges as unknown as Array<Record<string, unknown>>;
    const key = (c: Record<string, unknown>) => `${c.type}|${c.author}|${c.textChanged}`;
    let i = 0;
    let j = 0;
    while (i < ours.length || j < theirs.length) {
      const a = ours[i];
      const b = theirs[j];
      if (a && b && key(a) !== key(b)) {
        if (theirs[j + 1] && key(theirs[j + 1]!) === key(a)) {
          diff('trackchanges', `only-lo.${j}`, undefined, b.type);
          j++;
          continue;
        }
        if (ours[i + 1] && key(ours[i + 1]!) === key(b)) {
          diff('trackchanges', `only-engine.${i}`, a.type, undefined);
          i++;
          continue;
        }
      }
      if (!a || !b) {
        diff('trackchanges', a ? `only-engine.${i}` : `only-lo.${j}`, a?.type, b?.type);
      } else {
        for (const k of ['type', 'author', 'dateTime', 'comment', 'textChanged']) diff('trackchanges', `${i}.${k}`, a[k], b[k]);
      }
      i += a ? 1 : 0;
      j += b ? 1 : 0;
    }
  }
  if (!text && lo.slides) {
    const ours = extractStructure(bytes, format, { filter: 'slides' }) as {
      SlideCount: number;
      MasterSlides: Record<string, { Name: string }>;
      Slides: Record<string, Record<string, unknown>>;
    };
    diff('slides', 'SlideCount', ours.SlideCount, lo.slides.SlideCount);
    diff(
      'slides',
      'MasterSlides',
      Object.values(ours.MasterSlides).map((m) => m.Name),
      lo.slides.MasterSlides,
    );
    lo.slides.Slides.forEach((theirs, i) => {
      const mine = ours.Slides[`Slide ${i}`] ?? {};
      for (const k of ['SlideName', 'MasterSlideName', 'LayoutId'] as const) diff('slides', `${i}.${k}`, mine[k], theirs[k]);
      diff('slides', `${i}.ObjectCount`, mine.ObjectCount, theirs.Objects.length);
      const objects = (mine.Objects ?? {}) as Record<string, { Texts?: Record<string, { Paragraphs: string[] }> }>;
      theirs.Objects.forEach((paras, j) => {
        if (paras === null) return;
        diff('slides', `${i}.${j}.Paragraphs`, objects[`Objects ${j}`]?.Texts?.['Text 0']?.Paragraphs ?? [], paras);
      });
    });
  }
  return diffs;
}

/**
 * LibreOfficeKit's own extraction (extractDocumentStructureRequest, what Collabora answers) of `contentcontrol`
 * and `charts` for text documents, in one child process (oracle/lok-structure.ts), shaped like the UNO oracle's
 * answer. LibreOffice 25.2 writes `DataValues` as `[ "Row.0": [...], ... ]`, which is not JSON: the row labels go.
 */
async function lokStructure(files: string[]): Promise<Map<string, UnoInspection>> {
  const work = mkdtempSync(join(tmpdir(), 'ode-lok-structure-'));
  try {
    const run = await runFixture<Record<string, { contentcontrol?: string; charts?: string; error?: string }>>('../../../test/structure/oracle/lok-structure', {
      workDir: work,
      profileDir: join(work, 'profile'),
      args: files,
      timeoutMs: 300_000,
    });
    if (!run.result) throw new Error(`the LibreOfficeKit oracle gave no result (exit ${run.code}): ${run.stderr.slice(-2000)}`);
    const out = new Map<string, UnoInspection>();
    for (const [file, answer] of Object.entries(run.result)) {
      if (answer.error) {
        out.set(file, { ok: false, error: answer.error });
        continue;
      }
      const items = (text: string) =>
        (JSON.parse(text.replace(/"Row\.\d+":\s*/g, '')) as { DocStructure: Record<string, Record<string, unknown>> }).DocStructure;
      const charts: Record<string, Record<string, unknown>> = {};
      for (const [k, v] of Object.entries(items(answer.charts!))) charts[k.replace('Charts.ByEmbedIndex.', '')] = v;
      out.set(file, { ok: true, contentcontrols: Object.values(items(answer.contentcontrol!)), charts });
    }
    return out;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

describe('the engine against LibreOffice 25.2 on the corpus', () => {
  let oracle: UnoOracle;
  beforeAll(() => {
    oracle = startUnoOracle();
  });
  afterAll(async () => oracle?.stop());

  it('every docx, odt, pptx and odp: each difference is listed with its reason in docs/structure/oracle-differences.md', async () => {
    const listed = listedDifferences();
    const used = new Set<number>();
    const unlisted: string[] = [];
    const files = corpusDocuments();
    expect(files.length).toBeGreaterThanOrEqual(30);
    for (const file of files) {
      const path = join(CORPUS, file);
      const lo = await oracle.inspect(path);
      expect(lo.ok, `${file}: ${lo.error}`).toBe(true);
      const format = file.split('.').pop() as StructureFormat;
      for (const d of compare(file.split('/').pop()!, format, readFileSync(path), lo)) {
        const key = d.slice(0, d.indexOf(': '));
        const i = listed.findIndex((l) => l.pattern.test(key));
        if (i < 0) unlisted.push(d);
        else used.add(i);
      }
    }
    // LibreOfficeKit's extractDocumentStructureRequest, the reference itself, for contentcontrol and charts of the
    // text documents: the engine against it under the same list, and the UNO oracle agreeing with it exactly
    const textFiles = files.filter((f) => /\.(docx|odt)$/.test(f));
    const lok = await lokStructure(textFiles.map((f) => join(CORPUS, f)));
    for (const file of textFiles) {
      const path = join(CORPUS, file);
      const reference = lok.get(path)!;
      expect(reference.ok, `${file}: ${reference.error}`).toBe(true);
      const uno = await oracle.inspect(path);
      const shape = (x: UnoInspection) => ({
        controls: x.contentcontrols,
        charts: Object.fromEntries(
          Object.entries(x.charts ?? {}).map(([k, c]) => [
            k,
            { ...c, DataValues: (c.DataValues as string[][]).map((r) => r.map((v) => String(Number(v.replace(/^nan$/i, 'NaN'))))) },
          ]),
        ),
      });
      expect(shape(uno), `${file}: the UNO oracle reads what LibreOfficeKit's extraction answers`).toEqual(shape(reference));
      for (const d of compare(file.split('/').pop()!, file.split('.').pop() as StructureFormat, readFileSync(path), reference)) {
        const key = d.slice(0, d.indexOf(': '));
        const i = listed.findIndex((l) => l.pattern.test(key));
        if (i < 0) unlisted.push(`(LOK) ${d}`);
        else used.add(i);
      }
    }
    if (process.env.ODE_PRINT_DIFFERENCES) console.log(unlisted.join('\n'));
    expect(unlisted).toEqual([]);
    // a listed difference that no longer happens is stale: the list stays true
    expect(listed.filter((_, i) => !used.has(i)).map((l) => l.pattern.source)).toEqual([]);
  }, 600_000);
});
