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
