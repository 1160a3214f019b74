/**
 * A redline flow: the text of a document as LibreOffice's Writer holds it after import (tracked changes shown,
 * deleted text still present), and the redlines over it, built the way LibreOffice's redline table is built
 * (sw DocumentRedlineManager::AppendRedline): a new piece that starts where a redline of combinable data ends
 * extends it (SwRedlineData::CanCombine: same type, author, comment, stacked data and format extra data, time
 * stamps at most one minute apart), and a format change inside an insertion or deletion is absorbed by it.
 *
 * Positions are UTF-16 offsets into one flat string of the whole document: each paragraph's text followed by
 * "\n" for its paragraph mark (the mark is one position, as a paragraph end is one cursor step in Writer).
 * A story is a stretch of that string a text cursor cannot leave (the body, a table cell): context text
 * (textBefore/textAfter) stays inside the story of the change.
 */

/** The redline types LibreOffice's redline table holds for text (SwXRedline's RedlineType property). */
export type RedlineType = 'Insert' | 'Delete' | 'Format' | 'ParagraphFormat';

/** The data of one tracked change (SwRedlineData): who, when, and what kind. */
export interface RedlineData {
  type: RedlineType;
  author: string;
  /** ISO 8601 local date-time as stored (`YYYY-MM-DDThh:mm:ss`), or '' when the document has none. */
  date: string;
  comment: string;
  /** Format changes only: a key of the old attributes; format redlines combine only when equal. */
  formatKey?: string;
  /**
   * Format changes only, when `formatKey` alone may not tell them apart: the full key, compared when the
   * `formatKey`s are equal (docx: the old properties serialised, format-keys.ts).
   */
  formatExact?: () => string;
  /** Moved text (docx w:moveFrom/w:moveTo): combines only with moved text (SwRedlineData::m_bMoved). */
  moved?: boolean;
  /** A change underneath this one (an insertion that was later deleted: Delete over Insert). */
  next?: RedlineData;
}

/** One redline of the table: its data and the range [start, end) of the flat text it covers. */
export interface Redline {
  data: RedlineData;
  start: number;
  end: number;
  story: number;
}

/** Minutes since 1970 of an ISO date-time, ignoring seconds and zone (LibreOffice compares minutes). */
export function minutesOf(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?/.exec(date);
  if (!m) return 0;
  return Math.floor(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0)) / 60000);
}

/** SwRedlineData::CanCombine: same kind, author, comment, extra data and stack, times within a minute. */
export function canCombine(a: RedlineData, b: RedlineData): boolean {
  if (a.type !== b.type || a.author !== b.author || a.comment !== b.comment || !a.moved !== !b.moved) return false;
  if (Math.abs(minutesOf(a.date) - minutesOf(b.date)) > 1) return false;
  // compared last: format keys may be costly to make (format-keys.ts)
  if (a.formatKey !== b.formatKey) return false;
  if ((a.formatExact?.() ?? '') !== (b.formatExact?.() ?? '')) return false;
  if (!a.next || !b.next) return !a.next && !b.next;
  return canCombine(a.next, b.next);
}

/** Builds the flat text and the redline table of one document, in reading order. */
export class RedlineFlow {
  private readonly chunks: string[] = [];
  private length = 0;
  private readonly redlines: Redline[] = [];
  /** Format pieces, applied after all insertions and deletions (they are absorbed by them). */
  private readonly formats: Redline[] = [];
  /** Story boundaries: stories[i] = [start, end) of story i. */
  readonly stories: Array<[number, number]> = [];
  private readonly storyStack: number[] = [];
  /**
   * Stretches [start, end) of the flat text that Writer keeps before the body in its node array, so that their
   * redlines come first in the redline table: group 0 footnotes and endnotes, group 1 frames (text boxes,
   * floating tables made frames) and headers/footers; `seq` is their creation order during import.
   */
  readonly regions: Array<{ start: number; end: number; group: 0 | 1; seq: number }> = [];
  private seq = 0;

  /** A creation number for a region met now (its text may be read later). */
  nextSeq(): number {
    return this.seq++;
  }

  /** Records a region kept before the body (see `regions`). */
  addRegion(start: number, end: number, group: 0 | 1, seq: number): void {
    this.regions.push({ start, end, group, seq });
  }
  /** Positions of zero-width anchors of comments (LibreOffice's annotation fields). */
  readonly commentAnchors = new Set<number>();

  /** Opens a story (body, table cell) at the current position; stories nest. */
  beginStory(): void {
    this.stories.push([this.length, this.length]);
    this.storyStack.push(this.stories.length - 1);
  }

  /** Closes the innermost story; its last paragraph mark is not part of it. */
  endStory(): void {
    const id = this.storyStack.pop();
    if (id === undefined) return;
    const story = this.stories[id]!;
    story[1] = Math.max(story[0], this.length - (this.endsWithMark() ? 1 : 0));
  }

  private endsWithMark(): boolean {
    const last = this.chunks[this.chunks.length - 1];
    return last !== undefined && last.endsWith('\n');
  }

  private get story(): number {
    return this.storyStack[this.storyStack.length - 1] ?? 0;
  }

  /** Current position in the flat text. */
  get position(): number {
    return this.length;
  }

  /**
   * Appends text (a run's characters; paragraph ends go through appendParagraphEnd) with the insertion or
   * deletion it belongs to and the format change on it, if any.
   */
  append(text: string, change?: RedlineData, format?: RedlineData): void {
    if (text.length === 0) return;
    const start = this.length;
    this.chunks.push(text);
    this.length += text.length;
    if (change) this.addPiece(this.redlines, change, start, this.length);
    if (format) this.addPiece(this.formats, format, start, this.length);
  }

  /** Positions of paragraph marks (the "\n" ending a paragraph, not a line break). */
  private readonly marks = new Set<number>();

  /** Appends a paragraph's end ("\n"), tracked by `change` when its mark is inserted or deleted. */
  appendParagraphEnd(change?: RedlineData): void {
    this.marks.add(this.length);
    this.append('\n', change);
  }

  /** Adds a zero-length redline at the current position (a paragraph-format change at its paragraph's end). */
  appendMarker(data: RedlineData): void {
    this.redlines.push({ data, start: this.length, end: this.length, story: this.story });
  }

  /** Adds a redline over [start, current position), as ODF change-start/change-end do. */
  appendRange(data: RedlineData, start: number, story: number): void {
    const list = data.type === 'Format' ? this.formats : this.redlines;
    this.addPiece(list, data, start, this.length, story);
  }

  /** The story id a cursor at the current position is in. */
  currentStory(): number {
    return this.story;
  }

  /**
   * Records a comment anchor (LibreOffice's annotation field character, inserted after the text) at the current
   * position: a redline running over it is split there, and the one starting after it is described by the
   * field's name instead of its text.
   */
  addCommentAnchor(): void {
    this.commentAnchors.add(this.length);
    this.barrier = this.length;
  }

  /** A position no redline may be extended across (a comment anchor). */
  private barrier = -1;

  private addPiece(list: Redline[], data: RedlineData, start: number, end: number, story = this.story): void {
    if (start === this.barrier) {
      list.push({ data, start, end, story });
      return;
    }
    // Only the neighbour before it can take the new piece (AppendRedline looks at that one): when it touches
    // it, or (IsPrevPos, insertions only) it ends a paragraph and the new piece starts the next one.
    const r = list[list.length - 1];
    if (r && r.story === story) {
      const touches = r.end === start || (start === r.end + 1 && this.marks.has(r.end) && data.type === 'Insert');
      if (touches && canCombine(r.data, data)) {
        r.end = end;
        return;
      }
    }
    list.push({ data, start, end, story });
  }

  /** The flat text. */
  text(): string {
    return this.chunks.join('');
  }

  /**
   * The redline table: insertions, deletions and paragraph-format changes, plus the format changes that no
   * insertion or deletion covers; notes first, then frames and headers/footers (each in creation order), then
   * the body, each by position (equal positions keep their creation order).
   */
  table(): Redline[] {
    let pieces = this.redlines.map((r) => ({ ...r }));
    // A paragraph-format change sits at its paragraph's end and splits an insertion or deletion running over it.
    const points = pieces.filter((r) => r.data.type === 'ParagraphFormat').map((r) => r.start);
    if (points.length > 0) {
      pieces = pieces.flatMap((r) => {
        if (r.data.type !== 'Insert' && r.data.type !== 'Delete') return [r];
        const cuts = points.filter((p) => p > r.start && p < r.end);
        if (cuts.length === 0) return [r];
        const bounds = [r.start, ...cuts, r.end];
        return bounds.slice(1).map((end, i) => ({ ...r, start: bounds[i]!, end }));
      });
    }
    pieces = pieces.filter((r) => r.end > r.start || r.data.type === 'ParagraphFormat');
    const spans = pieces.filter((r) => r.data.type === 'Insert' || r.data.type === 'Delete').sort((a, b) => a.start - b.start);
    const covered = (f: Redline): boolean => {
      // binary search the last insert/delete starting at or before f.start
      let lo = 0;
      let hi = spans.length - 1;
      let hit = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (spans[mid]!.start <= f.start) {
          hit = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      return hit >= 0 && spans[hit]!.end >= f.end && spans[hit]!.end > f.start;
    };
    const all = [...pieces, ...this.formats.filter((f) => !covered(f))];
    const place = (r: Redline): [number, number] => {
      const region = this.regions.find((g) => r.start >= g.start && r.start < g.end);
      return region ? [region.group, region.seq] : [2, 0];
    };
    return all
      .map((r, i) => ({ r, i, p: place(r) }))
      .sort((a, b) => a.p[0] - b.p[0] || a.p[1] - b.p[1] || a.r.start - b.r.start || a.r.end - b.r.end || a.i - b.i)
      .map((x) => x.r);
  }
}
