/**
 * The generated description of a redline, as LibreOffice 7.4 writes it (sw SwRangeRedline::GetDescr with the
 * en-US strings): `Insert “text”`, `Delete “text”`, `Attributes changed`, `Paragraph formatting changed`.
 * The text part is LibreOffice's DenoteSpecialCharacters of the redline's text with paragraph breaks as spaces:
 * runs of ordinary characters in curly quotes, runs of tabs as `One tab` / `<n> tabs`; the whole is then
 * shortened by ShortenString to 20 characters (first 9, `...`, last 8), quotes included.
 */
import type { RedlineType } from './redline-flow.ts';

/** nUndoStringLength of sw/inc/undobj.hxx: the longest text shown in an undo or redline description. */
export const DESCRIPTION_TEXT_LENGTH = 20;

/**
 * ShortenString (sw/source/core/undo/undobj.cxx): a string longer than `length` becomes its first
 * `ceil((length - 3) / 2)` characters, `...`, and its last `floor((length - 3) / 2)` characters.
 */
export function shortenString(text: string, length = DESCRIPTION_TEXT_LENGTH, fill = '...'): string {
  if (text.length <= length) return text;
  const keep = Math.max(2, length - fill.length);
  const front = keep - Math.floor(keep / 2);
  const back = keep - front;
  return text.slice(0, front) + fill + (back > 0 ? text.slice(text.length - back) : '');
}

/** DenoteSpecialCharacters (quoted form): ordinary runs in “ ”, tab runs as `One tab` / `<n> tabs`. */
export function denoteSpecialCharacters(text: string): string {
  if (text.length === 0) return '';
  let out = '';
  for (const m of text.matchAll(/\t+|[^\t]+/g)) {
    const part = m[0];
    if (part[0] === '\t') out += part.length === 1 ? 'One tab' : `${part.length} tabs`;
    else out += `“${part}”`;
  }
  return out;
}

/**
 * The description of a redline of that type whose text (paragraph breaks as "\n") is `text`.
 * `fieldName`, when the character before the redline's end is a field (a comment anchor), replaces the text,
 * as GetDescr does.
 */
export function redlineDescription(type: RedlineType, text: string, fieldName?: string): string {
  switch (type) {
    case 'Format':
      return 'Attributes changed';
    case 'ParagraphFormat':
      return 'Paragraph formatting changed';
    case 'Insert':
    case 'Delete': {
      const denoted = fieldName !== undefined ? `“${fieldName}”` : denoteSpecialCharacters(text.replace(/\n/g, ' '));
      return `${type} ${shortenString(denoted)}`;
    }
  }
}
