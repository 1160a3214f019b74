/**
 * Tracked-changes extraction against LibreOffice itself: a real daemon converts each corpus file of
 * tracked-changes/ to odt (/ode/convert-to/odt), and LibreOffice writes its redline table into content.xml as
 * text:tracked-changes, one text:changed-region per redline, in the table's order (checked against
 * getCommandValues('.uno:AcceptTrackedChanges') for all 9 files, see docs/structure/tracked-changes.md). Our list
 * from the original file must have the same count, types and authors in the same order, but for the differences
 * docs/structure/oracle-differences.md lists with their reasons (the engine keeps LibreOffice 7.4's table where
 * 25.2 changed it), under the keys the oracle-corpus test uses: `<file> trackchanges <index>.type|author`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Element } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StructureDocument, type StructureFormat } from '../../daemon/structure/document.ts';
import { extractTrackChanges } from '../../daemon/structure/track-changes/index.ts';
import { NS, childElements } from '../../daemon/structure/xml/dom.ts';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { listedDifferences } from './oracle/differences.ts';

/** ODF change element -> LibreOffice redline type (a paragraph-attribute change is written as text:UnknownChange). */
const KIND: Record<string, string> = { insertion: 'Insert', deletion: 'Delete', 'format-change': 'Format', UnknownChange: 'ParagraphFormat' };

/** `type author` of each text:changed-region of an odt part (content.xml: body, notes, frames), in order. */
function regionsOf(odt: Buffer, part = 'content.xml'): string[] {
  const doc = StructureDocument.open(new Uint8Array(odt), 'odt');
  const out: string[] = [];
  for (const tc of Array.from(doc.xml(part).getElementsByTagNameNS(NS.text, 'tracked-changes'))) {
    for (const region of childElements(tc as Element, NS.text, 'changed-region')) {
      const change = childElements(region)[0]!;
      const info = childElements(change, NS.office, 'change-info')[0];
      const creator = info ? (childElements(info, 'http://purl.org/dc/elements/1.1/', 'creator')[0]?.textContent ?? '') : '';
      out.push(`${KIND[change.localName ?? ''] ?? change.localName} ${creator}`);
    }
  }
  return out;
}

const FIXTURES = new URL('./fixtures/track-changes/', import.meta.url).pathname;

function ours(file: string, dir = CORPUS): string[] {
  const format = file.split('.').pop() as StructureFormat;
  const doc = StructureDocument.open(new Uint8Array(readFileSync(join(dir, file))), format);
  return Object.values(extractTrackChanges(doc, { contextLen: 0 })).map((i) => `${i.type} ${i.author}`);
}

describe('tracked changes: our list is LibreOffice redline table (count, types, authors, order)', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon();
  }, 120_000);
  afterAll(async () => daemon?.stop());

  async function libreOffice(file: string, dir = CORPUS, part = 'content.xml'): Promise<string[]> {
    const r = await postConvert(daemon.url, '/ode/convert-to/odt', join(dir, file));
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    return regionsOf(r.body, part);
  }

  const files = [
    'tracked-changes/delins.docx',
    'tracked-changes/Comment020.docx',
    'tracked-changes/RA001-Tracked-Revisions-01.docx',
    'tracked-changes/track_changes_scrubbed_metadata.docx',
    'tracked-changes/019-RunPropertiesChange.docx',
    'tracked-changes/RP031-Table-Prop-Change.docx',
    'tracked-changes/comments.docx',
    'tracked-changes/changeTracked.odt',
    'tracked-changes/tracked_changes.odt',
  ];
  it('the 9 corpus files match entry for entry (but for the listed differences)', async () => {
    const listed = listedDifferences();
    const excused: string[] = [];
    for (const file of files) {
      const mine = ours(file);
      const theirs = await libreOffice(file);
      expect(mine.length, file).toBe(theirs.length);
      const name = file.split('/').pop()!;
      const unlisted: string[] = [];
      mine.forEach((entry, i) => {
        const [type, author] = [entry.split(' ')[0], entry.slice(entry.indexOf(' ') + 1)];
        const [theirType, theirAuthor] = [theirs[i]!.split(' ')[0], theirs[i]!.slice(theirs[i]!.indexOf(' ') + 1)];
        for (const [what, a, b] of [
          ['type', type, theirType],
          ['author', author, theirAuthor],
        ] as const) {
          if (a === b) continue;
          const key = `${name} trackchanges ${i}.${what}`;
          (listed.some((l) => l.pattern.test(key)) ? excused : unlisted).push(`${key}: ${a} | ${b}`);
        }
      });
      expect(unlisted, file).toEqual([]);
    }
    // What the list excuses today: RA001's 14 cell texts moved into the second "Order of injection" table and
    // deleted there (w:moveTo around w:del): LibreOffice 7.4, and the engine, put the Insert on top in a cell,
    // LibreOffice 25.2 the Delete, as in the body.
    expect(excused).toEqual(Array.from({ length: 14 }, (_, k) => `RA001-Tracked-Revisions-01.docx trackchanges ${17 + k}.type: Insert | Delete`));
    // not vacuous: comment anchors split Comment020's deletions into 17; RA001 has 96 (a floating table that
    // becomes a frame comes first, moved text, a ParagraphFormat, paragraph marks joined across empty paragraphs)
    expect(ours('tracked-changes/Comment020.docx')).toHaveLength(17);
    expect(ours('tracked-changes/RA001-Tracked-Revisions-01.docx')).toHaveLength(96);
  }, 180_000);

  it('notes and text boxes come before the body, headers and footers too (odt keeps those in styles.xml)', async () => {
    // hand-made docx (fixtures note): insertions by FN1, FN2, EN1 (notes), TBX/WPS (text boxes), TAB1 (a floating
    // table LibreOffice makes a frame), HDR*/FTR (headers and footers), B* (body)
    for (const file of ['stories-handmade.docx', 'sections-handmade.docx']) {
      const mine = ours(file, FIXTURES);
      const isHeader = (s: string): boolean => / (HDR|FTR)\d?$/.test(s);
      expect(
        mine.filter((s) => !isHeader(s)),
        file,
      ).toEqual(await libreOffice(file, FIXTURES));
      expect(mine.filter(isHeader), file).toEqual(await libreOffice(file, FIXTURES, 'styles.xml'));
    }
    expect(ours('stories-handmade.docx', FIXTURES).map((s) => s.split(' ')[1])).toEqual(['FN1', 'FN2', 'EN1', 'TBX', 'HDR', 'FTR', 'B1', 'B2', 'B3']);
  }, 120_000);
});
