import type { LokDocument } from '../native/index.ts';
import { LOK_CALLBACK_TEXT_SELECTION, LOK_SETTEXTSELECTION_RESET } from '../protocol/lok-enums.ts';
import type { RedlinePage } from '../protocol/kit.ts';

/** A rectangle in twips. */
interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Parses LOK's rectangle lists, "x, y, w, h; x, y, w, h" (twips). */
export function parseRects(text: string | undefined): Rect[] {
  if (!text) return [];
  return text
    .split(';')
    .map((r) => r.split(',').map((n) => Number(n.trim())))
    .filter((n) => n.length === 4 && n.every(Number.isFinite))
    .map(([x, y, w, h]) => ({ x, y, w, h }));
}

/** The 1-based page holding the point (x, y): the last page whose top is at or above y (pages stack downwards). */
export function pageAt(pages: readonly Rect[], y: number): number {
  let page = 1;
  for (let i = 0; i < pages.length; i++) if (pages[i].y <= y) page = i + 1;
  return page;
}

/** The rectangle where a range starts: the top-most, then left-most (LOK lists a range's rectangles in no fixed order). */
function startRect(rects: readonly Rect[]): Rect | undefined {
  return [...rects].sort((a, b) => a.y - b.y || a.x - b.x)[0];
}

function endRect(rects: readonly Rect[]): Rect | undefined {
  return [...rects].sort((a, b) => b.y - a.y || b.x - a.x)[0];
}

interface LokRedline {
  type?: string;
  description?: string;
  author?: string;
  dateTime?: string;
  textRange?: string;
}

/**
 * The page on which each tracked change starts, in the order of LibreOffice's redline table (document order),
 * from LibreOffice's own layout: `.uno:AcceptTrackedChanges` gives each redline's text rectangles (`textRange`,
 * twips) and getPartPageRectangles the pages. LibreOffice leaves `textRange` empty for a redline that spans
 * paragraphs and ends at a smaller offset than it starts: 7.4 did, and 25.2.3 still does (2 of delins.docx's 6
 * redlines, 24 of RA001's 97: test/kit-editing/redline-ranges.test.ts). For those the page is certain when the
 * redlines before and after are on the same page, and otherwise LibreOffice itself selects it (cursor placed at the
 * end of the preceding redline, then `.uno:NextTrackedChange`) and the selection's rectangles tell.
 * The document must have been initialised for rendering. Units: twips; pages 1-based.
 */
export async function readRedlinePages(doc: LokDocument): Promise<RedlinePage[]> {
  const json = JSON.parse(doc.getCommandValues('.uno:AcceptTrackedChanges') ?? '{}') as { redlines?: LokRedline[] };
  const redlines = json.redlines ?? [];
  const pages = parseRects(doc.getPartPageRectangles());
  const ranges = redlines.map((r) => parseRects(r.textRange));
  const out: RedlinePage[] = redlines.map((r, i) => {
    const start = startRect(ranges[i]);
    return {
      type: r.type ?? '',
      author: r.author ?? '',
      dateTime: r.dateTime ?? '',
      description: r.description ?? '',
      page: start ? pageAt(pages, start.y) : 0,
    };
  });
  for (let i = 0; i < out.length; i++) {
    if (out[i].page !== 0) continue;
    const before = out.slice(0, i).findLast((p) => p.page !== 0)?.page ?? 1;
    const after = out.slice(i + 1).find((p) => p.page !== 0)?.page ?? pages.length;
    if (before === after) {
      out[i].page = before;
      continue;
    }
    const prev = ranges.slice(0, i).findLast((r) => r.length > 0);
    const selected = await selectNextRedline(doc, prev ? endRect(prev) : undefined);
    const start = startRect(selected);
    out[i].page = start ? pageAt(pages, start.y) : before;
  }
  return out;
}

/**
 * Puts the cursor at the end of `after` (or the document start) and lets LibreOffice select the next tracked
 * change; resolves with the selection's rectangles (empty after 1 s without an answer).
 */
function selectNextRedline(doc: LokDocument, after: Rect | undefined): Promise<Rect[]> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (rects: Rect[]) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(rects);
    };
    const timer = setTimeout(() => finish([]), 1000);
    doc.registerCallback((type, payload) => {
      if (type === LOK_CALLBACK_TEXT_SELECTION && payload) finish(parseRects(payload));
    });
    if (after) doc.setTextSelection(LOK_SETTEXTSELECTION_RESET, after.x + after.w, after.y + Math.floor(after.h / 2));
    else doc.postUnoCommand('.uno:GoToStartOfDoc');
    doc.postUnoCommand('.uno:NextTrackedChange');
  });
}
