/**
 * The arguments of LibreOffice's `.uno:ExecuteSearch` (an SvxSearchItem, svx/sdi/svxitems.sdi `SvxSearch`), as LOK
 * JSON arguments. No DOM: tested beside.
 */

/** `SearchItem.Command` values (SvxSearchCmd). */
export const SEARCH = { find: 0, findAll: 1, replace: 2, replaceAll: 3 } as const;

/** com.sun.star.util.SearchFlags.NORM_WORD_ONLY: whole words only. */
const NORM_WORD_ONLY = 0x10;
/** com.sun.star.i18n.TransliterationModules.IGNORE_CASE: the search ignores case unless "match case". */
const IGNORE_CASE = 0x100;

export interface SearchOptions {
  text: string;
  replace?: string;
  backward: boolean;
  command: number;
  matchCase: boolean;
  wholeWords: boolean;
  /** Where a search starts when the cursor is not in view (twips: the visible area's top-left corner). */
  start?: [number, number];
}

type UnoArgs = Record<string, { type: string; value: unknown }>;

/** The `.uno:ExecuteSearch` arguments for `o`. */
export function searchArgs(o: SearchOptions): UnoArgs {
  const args: UnoArgs = {
    'SearchItem.SearchString': { type: 'string', value: o.text },
    'SearchItem.ReplaceString': { type: 'string', value: o.replace ?? '' },
    'SearchItem.Backward': { type: 'boolean', value: o.backward },
    'SearchItem.Command': { type: 'long', value: o.command },
    'SearchItem.SearchFlags': { type: 'long', value: o.wholeWords ? NORM_WORD_ONLY : 0 },
    'SearchItem.TransliterateFlags': { type: 'long', value: o.matchCase ? 0 : IGNORE_CASE },
  };
  if (o.start) {
    args['SearchItem.SearchStartPointX'] = { type: 'long', value: Math.round(o.start[0]) };
    args['SearchItem.SearchStartPointY'] = { type: 'long', value: Math.round(o.start[1]) };
  }
  return args;
}

/** One match of a search: the part (sheet, slide; 0 in text documents) and its rectangles in twips. */
export interface SearchMatch {
  part: number;
  rects: Array<[number, number, number, number]>;
}

/**
 * The matches of LOK_CALLBACK_SEARCH_RESULT_SELECTION (`{searchString, highlightAll, searchResultSelection:
 * [{part: "0", rectangles: "x, y, w, h; x, y, w, h"}]}`, LibreOfficeKitEnums.h): one entry per match (a match over
 * two lines has two rectangles), in LibreOffice's order. Entries without a usable rectangle are left out.
 */
export function searchMatches(result: unknown): SearchMatch[] {
  const list = (result as { searchResultSelection?: unknown } | null)?.searchResultSelection;
  if (!Array.isArray(list)) return [];
  const out: SearchMatch[] = [];
  for (const entry of list as Array<{ part?: unknown; rectangles?: unknown }>) {
    const rects = String(entry?.rectangles ?? '')
      .split(';')
      .map((r) => r.split(',').map((n) => Number(n.trim())))
      .filter((r): r is [number, number, number, number] => r.length === 4 && r.every(Number.isFinite) && r[2] > 0 && r[3] > 0);
    if (rects.length) out.push({ part: Number(entry.part ?? 0) || 0, rects });
  }
  return out;
}

/**
 * The 0-based position of `found` (the match a find next/previous selected) among `all` (those of a find-all of
 * the same search): the match on the same part whose first rectangle starts nearest to the found one's (within
 * `tolerance` twips); -1 when none does.
 */
export function matchIndex(all: readonly SearchMatch[], found: SearchMatch, tolerance = 30): number {
  const [fx, fy] = found.rects[0];
  let best = -1;
  let bestDistance = Infinity;
  all.forEach((m, i) => {
    if (m.part !== found.part) return;
    const d = Math.abs(m.rects[0][0] - fx) + Math.abs(m.rects[0][1] - fy);
    if (d < bestDistance) (best = i), (bestDistance = d);
  });
  return bestDistance <= tolerance ? best : -1;
}
