/**
 * LibreOffice's user dictionary file (`.dic`, the "wordbook" setting): a header `OOoUserDict1`, `lang: <tag>` (or
 * `lang: <none>` for all languages), `type: positive` (or `negative`), a line `---`, then one word per line.
 * Pure functions over text: the settings page edits words in place and saves the file back (docs/settings.md).
 */

/** A parsed user dictionary: the header's language and type, and the words in file order. */
export interface Wordbook {
  /** `<none>` for all languages, else a language tag such as `en-US`. */
  lang: string;
  /** `positive` (accepted words) or `negative` (words flagged as wrong). */
  type: string;
  words: string[];
}

/** The header line every user dictionary starts with. */
export const WORDBOOK_MAGIC = 'OOoUserDict1';

/** An empty dictionary for all languages, accepting its words. */
export function emptyWordbook(): Wordbook {
  return { lang: '<none>', type: 'positive', words: [] };
}

/**
 * Parses a `.dic` file's text (LF or CRLF). Unknown header lines are skipped; words are trimmed and empty lines
 * dropped.
 * @throws Error naming the problem when the first line is not `OOoUserDict1` or there is no `---` line.
 */
export function parseWordbook(text: string): Wordbook {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== WORDBOOK_MAGIC) throw new Error(`not a LibreOffice user dictionary: the first line is not ${WORDBOOK_MAGIC}`);
  const end = lines.findIndex((l) => l.trim() === '---');
  if (end < 0) throw new Error('not a LibreOffice user dictionary: no "---" line ends the header');
  const book = emptyWordbook();
  for (const line of lines.slice(1, end)) {
    const m = /^(\w+):\s*(.*)$/.exec(line.trim());
    if (m?.[1] === 'lang') book.lang = m[2] || '<none>';
    if (m?.[1] === 'type') book.type = m[2] || 'positive';
  }
  book.words = lines
    .slice(end + 1)
    .map((l) => l.trim())
    .filter(Boolean);
  return book;
}

/** The `.dic` text of a dictionary (LF line ends, a final newline), as LibreOffice writes it. */
export function serializeWordbook(book: Wordbook): string {
  return [WORDBOOK_MAGIC, `lang: ${book.lang}`, `type: ${book.type}`, '---', ...book.words, ''].join('\n');
}

/** Adds a word (trimmed) unless it is empty, has a line break, or is already there; returns whether it was added. */
export function addWord(book: Wordbook, word: string): boolean {
  const w = word.trim();
  if (!w || /[\r\n]/.test(w) || book.words.includes(w)) return false;
  book.words.push(w);
  return true;
}
