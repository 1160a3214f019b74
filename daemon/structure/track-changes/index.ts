/**
 * Tracked changes extraction (spec: "Tracked change item", filter `trackchanges[,contextLen:N][,startPageNumber:true]`)
 * for docx and odt. The list is LibreOffice's redline table after import, rebuilt from the XML: same splitting and
 * merging of changes, same order (by position), same descriptions; see docs/structure/tracked-changes.md for
 * the rules, the deviations measured on the corpus, and how contexts are computed (Collabora's
 * GetDocStructureTrackChanges: text as it was when the change was made, contextLen default 200).
 */
import type { StructureDocument } from '../document.ts';
import { StructureError } from '../errors.ts';
import { redlineDescription } from './description.ts';
import { readOdfRedlines } from './odf-redlines.ts';
import { readOoxmlRedlines } from './ooxml-redlines.ts';
import type { Redline, RedlineFlow, RedlineType } from './redline-flow.ts';
import { streamedParts, type PartReader } from '../xml/read-tree.ts';

/**
 * A tracked change item of the extraction result (spec: "Tracked change item"). `type` is LibreOffice's
 * redline type: `Insert`, `Delete`, `Format`, and `ParagraphFormat` for a paragraph-attribute change (what
 * LibreOffice, and so Collabora's API, reports for it).
 */
export interface TrackedChangeItem {
  type: RedlineType;
  dateTime: string;
  author: string;
  description: string;
  comment: string;
  startPageNumber?: number;
  textBefore: string;
  textAfter: string;
  textChanged: string;
}

/** Options of the trackchanges filter; `startPageNumbers[i]` is the page of the i-th change, from a kit's layout. */
export interface TrackChangesOptions {
  contextLen?: number;
  startPageNumbers?: readonly number[];
}

/** Collabora's default contextLen (GetDocStructureTrackChanges: nContextLen = 200). */
export const DEFAULT_CONTEXT_LEN = 200;

/** The name LibreOffice 7.4 gives a comment anchor (a PostIt field) in redline descriptions. */
const COMMENT_FIELD_NAME = 'Note';

/**
 * utl::toISO8601 of a redline time stamp: `YYYY-MM-DD`, plus `Thh:mm:ss` when the time is not midnight; the
 * zone of the document (a `Z`) is dropped, as LibreOffice keeps local times. No date: 1970-01-01.
 */
export function formatRedlineDate(date: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(date);
  if (!m) return '1970-01-01';
  const [hh, mm, ss] = [m[2] ?? '00', m[3] ?? '00', m[4] ?? '00'];
  return hh === '00' && mm === '00' && ss === '00' ? m[1]! : `${m[1]}T${hh}:${mm}:${ss}`;
}

function stampOf(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(date);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0)) : 0;
}

/**
 * Tracked changes of a docx or odt, keyed `TrackChanges.ByIndex.<n>` in the order of LibreOffice's redline
 * table. `textBefore`/`textAfter` hold at most `contextLen` characters (default 200) of the text around the
 * change as it was when the change was made (older insertions shown, older deletions removed, newer insertions
 * removed, newer deletions shown), within the change's story (body or table cell), paragraphs joined by "\n".
 * `startPageNumber` is set from `startPageNumbers[i]` when that array is given. The parts are read as stored
 * in the package, through trees built from the stream (`parts`; `domParts` reads their DOM instead, which the
 * equivalence tests compare against).
 * @throws StructureError wrong_kind for presentations; bad_package for unreadable parts.
 */
export function extractTrackChanges(doc: StructureDocument, opts: TrackChangesOptions, parts: PartReader = streamedParts): Record<string, TrackedChangeItem> {
  let flow: RedlineFlow;
  if (doc.format === 'docx') flow = readOoxmlRedlines(doc, parts);
  else if (doc.format === 'odt') flow = readOdfRedlines(doc, parts);
  else throw new StructureError('wrong_kind', `tracked changes are in text documents, and this is a ${doc.format}`, 'filter');
  const contextLen = Math.max(0, Math.floor(opts.contextLen ?? DEFAULT_CONTEXT_LEN));
  const table = flow.table();
  const text = flow.text();
  const owner = ownerMap(table, text.length);
  const region = regionMap(flow, text.length);
  const stamps = table.map((r) => stampOf(r.data.date));
  const out: Record<string, TrackedChangeItem> = {};
  table.forEach((r, i) => {
    const limit = stamps[i]!;
    // HideNewerShowOlder: is the character at `pos` in the text as it was when this change was made?
    // Text moved out of this change's text (a floating table made a frame, a note) is not part of its context.
    const home = region[r.start] ?? -1;
    const shown = (pos: number): boolean => {
      if (region[pos] !== home) return false;
      const o = owner[pos]!;
      if (o < 0) return true;
      const type = table[o]!.data.type;
      return limit < stamps[o]! ? type !== 'Insert' : type !== 'Delete';
    };
    const [storyStart, storyEnd] = flow.stories[r.story] ?? [0, text.length];
    const changed = text.slice(r.start, r.end);
    const item: TrackedChangeItem = {
      type: r.data.type,
      dateTime: formatRedlineDate(r.data.date),
      author: r.data.author,
      description: redlineDescription(r.data.type, changed, fieldBeforeStart(flow, r) ? COMMENT_FIELD_NAME : undefined),
      comment: r.data.comment,
      textBefore: collect(text, r.start - 1, storyStart - 1, -1, contextLen, shown),
      textAfter: collect(text, r.end, storyEnd, 1, contextLen, shown),
      textChanged: r.data.type === 'Delete' ? changed : visible(text, r.start, r.end, shown),
    };
    const page = opts.startPageNumbers?.[i];
    if (page !== undefined) item.startPageNumber = page;
    out[`TrackChanges.ByIndex.${i}`] = item;
  });
  return out;
}

/** For each character of the flat text, the index (in `table`) of the Insert/Delete redline over it, or -1. */
function ownerMap(table: readonly Redline[], length: number): Int32Array {
  const owner = new Int32Array(length).fill(-1);
  table.forEach((r, i) => {
    if (r.data.type === 'Insert' || r.data.type === 'Delete') owner.fill(i, r.start, Math.min(r.end, length));
  });
  return owner;
}

/** For each character of the flat text, the index of the region (note, frame, header) it is in, or -1. */
function regionMap(flow: RedlineFlow, length: number): Int32Array {
  const region = new Int32Array(length).fill(-1);
  flow.regions.forEach((g, i) => region.fill(i, g.start, Math.min(g.end, length)));
  return region;
}

/** Up to `max` shown characters walking from `from` (inclusive) towards `stop` (exclusive) by `step`. */
function collect(text: string, from: number, stop: number, step: 1 | -1, max: number, shown: (pos: number) => boolean): string {
  const chars: string[] = [];
  for (let pos = from; pos !== stop && chars.length < max && pos >= 0 && pos < text.length; pos += step) {
    if (shown(pos)) chars.push(text[pos]!);
  }
  if (step < 0) chars.reverse();
  return chars.join('');
}

function visible(text: string, start: number, end: number, shown: (pos: number) => boolean): string {
  let out = '';
  for (let pos = start; pos < end; pos++) if (shown(pos)) out += text[pos];
  return out;
}

/**
 * GetDescr names the field when the character before the redline's PaM point is a field; for imported redlines
 * the point is the start, so a redline right after a comment anchor is described as `“Note”` (Comment020).
 */
function fieldBeforeStart(flow: RedlineFlow, r: Redline): boolean {
  return flow.commentAnchors.has(r.start) && (r.data.type === 'Insert' || r.data.type === 'Delete');
}
