/**
 * Golden tests of tracked-changes extraction on the corpus (tracked-changes/) and on odt files LibreOffice
 * wrote from corpus docx files (test/structure/fixtures/track-changes/*-lo.odt). Expected JSON is in
 * test/structure/fixtures/track-changes/<name>.json, read by hand from the documents' XML (each file says how).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { StructureDocument, type StructureFormat } from '../document.ts';
import { StructureError } from '../errors.ts';
import { denoteSpecialCharacters, redlineDescription, shortenString } from './description.ts';
import { extractTrackChanges, formatRedlineDate, type TrackedChangeItem } from './index.ts';

const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../test/structure/fixtures/track-changes/', import.meta.url));

interface Golden {
  /** A corpus path, or `fixture:<name>` for a file of the fixtures folder. */
  file: string;
  also?: string[];
  contextLen: number;
  expected: Record<string, TrackedChangeItem>;
}

function open(path: string): StructureDocument {
  const format = path.split('.').pop() as StructureFormat;
  return StructureDocument.open(new Uint8Array(readFileSync(path)), format);
}

function extract(path: string, contextLen?: number, startPageNumbers?: number[]): Record<string, TrackedChangeItem> {
  return extractTrackChanges(open(path), { contextLen, startPageNumbers });
}

const goldens = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')) as Golden)
  .filter((g) => g.expected !== undefined);

describe('golden extraction', () => {
  for (const g of goldens) {
    const path = g.file.startsWith('fixture:') ? join(FIXTURES, g.file.slice('fixture:'.length)) : join(CORPUS, g.file);
    it(`${g.file} (contextLen ${g.contextLen})`, () => {
      expect(extract(path, g.contextLen)).toEqual(g.expected);
    });
    for (const odt of g.also ?? []) {
      it(`${odt}: LibreOffice's odt of ${g.file} gives the same list`, () => {
        expect(extract(join(FIXTURES, odt), g.contextLen)).toEqual(g.expected);
      });
    }
  }
});

/**
 * LibreOffice's redline tables of the corpus and of the fixtures (lo-redline-tables.json; `fixture:` keys are
 * files of the fixtures folder, described in its `fixtures` note).
 */
interface LoTables {
  files: Record<string, Array<{ type: string; author: string; ownAuthor?: string; dateTime: string; description: string }>>;
}

describe("LibreOffice's redline table, entry for entry (type, author, dateTime, description)", () => {
  const lo = JSON.parse(readFileSync(join(FIXTURES, 'lo-redline-tables.json'), 'utf8')) as LoTables;
  for (const [file, table] of Object.entries(lo.files)) {
    const path = file.startsWith('fixture:') ? join(FIXTURES, file.slice('fixture:'.length)) : join(CORPUS, file);
    it(`${file} (${table.length} redlines)`, () => {
      const mine = Object.values(extract(path, 0)).map((i) => [i.type, i.author, i.dateTime, i.description]);
      expect(mine).toEqual(table.map((r) => [r.type, r.ownAuthor ?? r.author, r.dateTime, r.description]));
    });
  }
  it('Comment020: texts of the deletions around comment anchors (read from word/document.xml)', () => {
    const items = Object.values(extract(join(CORPUS, 'tracked-changes/Comment020.docx'), 0));
    // the empty paragraph after the table has a deleted mark (w:del id 6), then w:del id 8 runs 'On the Insert '
    // + 'tab', the anchors of comments 9 and 10, ', the galleries ... blocks. ' + 'When', the anchor of 11, ...
    expect(items.slice(1, 4).map((i) => i.textChanged)).toEqual([
      '\nOn the Insert tab',
      ', the galleries include items that are designed to coordinate with the overall look of your document. You can use these galleries to insert tables, headers, footers, lists, cover pages, and other document building blocks. When',
      ' you create pictures, charts, or diagrams',
    ]);
    // the first table's deleted row holds only a comment start: LibreOffice anchors it on U+200D, deleted
    expect(items[0]!.textChanged).toBe('\u200d');
  });
  it('RA001: the first floating table becomes a frame, and its cells come first', () => {
    const items = Object.values(extract(join(CORPUS, 'tracked-changes/RA001-Tracked-Revisions-01.docx'), 50));
    expect(items.slice(0, 3).map((i) => [i.type, i.textChanged, i.textBefore, i.textAfter])).toEqual([
      ['Insert', 'Name of the preparations', '', ''],
      ['Insert', 'No. of  injections', '', ''],
      ['Insert', 'Purpose', '', ''],
    ]);
    expect(items[14]!.textChanged).toBe('\nOrder of injection:');
  });
});

describe('corpus files without listed changes', () => {
  it('comments.docx has comments but no tracked changes', () => {
    expect(extract(join(CORPUS, 'tracked-changes/comments.docx'))).toEqual({});
  });
  it('RP031: table, row and cell property changes are not in the redline table (LibreOffice lists none)', () => {
    expect(extract(join(CORPUS, 'tracked-changes/RP031-Table-Prop-Change.docx'))).toEqual({});
  });
});

describe('contextLen bounds', () => {
  const file = join(CORPUS, 'tracked-changes/tracked_changes.odt');
  it('0 gives empty contexts and keeps the changed text', () => {
    const items = Object.values(extract(file, 0));
    expect(items.map((i) => [i.textBefore, i.textAfter])).toEqual([
      ['', ''],
      ['', ''],
      ['', ''],
    ]);
    expect(items.map((i) => i.textChanged)).toEqual(['les', 'los bonitos amigos ', 'amis,']);
  });
  it('5 keeps the 5 characters next to the change', () => {
    const first = extract(file, 5)['TrackChanges.ByIndex.0']!;
    expect([first.textBefore, first.textAfter]).toEqual(['jour ', ' los ']);
  });
  it('a large value stops at the story boundaries', () => {
    const first = extract(file, 100000)['TrackChanges.ByIndex.0']!;
    expect([first.textBefore, first.textAfter]).toEqual(['Bonjour ', ' los bonitos amigos  ça va ?']);
  });
  it('default is 200 characters (Collabora)', () => {
    const item = extract(join(CORPUS, 'tracked-changes/019-RunPropertiesChange.docx'))['TrackChanges.ByIndex.0']!;
    expect(item.textAfter.length).toBe(200);
    expect(item.textAfter.startsWith(' to help you prove your point.\nWhen you click Online Video')).toBe(true);
  });
  it('inside a table cell the context stays in the cell', () => {
    const item = Object.values(extract(join(CORPUS, 'tracked-changes/RA001-Tracked-Revisions-01.docx'), 50)).find(
      (i) => i.textChanged === 'Name of the preparations',
    )!;
    expect([item.textBefore, item.textAfter]).toEqual(['', '']);
  });
});

describe('startPageNumber', () => {
  it('is taken by index from the kit layout when given, absent otherwise', () => {
    const file = join(CORPUS, 'tracked-changes/tracked_changes.odt');
    expect(Object.values(extract(file, 0, [1, 1, 2])).map((i) => i.startPageNumber)).toEqual([1, 1, 2]);
    expect('startPageNumber' in extract(file, 0)['TrackChanges.ByIndex.0']!).toBe(false);
  });
});

describe('LibreOffice conventions', () => {
  it('descriptions: ShortenString to 20 with the quotes, tab runs named', () => {
    expect(shortenString('“Name of the preparations”')).toBe('“Name of ...rations”');
    expect(shortenString('“No. of  injections”')).toBe('“No. of  injections”');
    expect(denoteSpecialCharacters('a\t\tb')).toBe('“a”2 tabs“b”');
    expect(redlineDescription('Delete', 'x\ny')).toBe('Delete “x y”');
    expect(redlineDescription('ParagraphFormat', 'whatever')).toBe('Paragraph formatting changed');
  });
  it('dates: zone dropped, midnight as a bare date, none as 1970-01-01', () => {
    expect(formatRedlineDate('2009-07-24T15:05:00Z')).toBe('2009-07-24T15:05:00');
    expect(formatRedlineDate('2011-04-27T00:00:00Z')).toBe('2011-04-27');
    expect(formatRedlineDate('')).toBe('1970-01-01');
  });
  it('RA001: moved text (w:moveFrom/w:moveTo) does not join plain changes, pPrChange is ParagraphFormat', () => {
    const items = Object.values(extract(join(CORPUS, 'tracked-changes/RA001-Tracked-Revisions-01.docx'), 0));
    expect(items.filter((i) => i.type === 'ParagraphFormat').map((i) => i.description)).toEqual(['Paragraph formatting changed']);
    expect(items.filter((i) => i.description === 'Delete “Order of...ection:”').length).toBe(2);
  });
  it('a presentation is the wrong kind', () => {
    const doc = StructureDocument.open(new Uint8Array(readFileSync(join(CORPUS, 'presentations/layouts.pptx'))), 'pptx');
    expect(() => extractTrackChanges(doc, {})).toThrow(StructureError);
  });
});
