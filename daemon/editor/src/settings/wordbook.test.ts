import { describe, expect, it } from 'vitest';
import { addWord, parseWordbook, serializeWordbook } from './wordbook.ts';

describe('LibreOffice user dictionary (.dic)', () => {
  it('reads the header and the words (CRLF, BOM, blank lines), and writes the same format back', () => {
    const book = parseWordbook('\uFEFFOOoUserDict1\r\nlang: en-US\r\ntype: positive\r\n---\r\nOde\r\n\r\nLOKit\r\n');
    expect(book).toEqual({ lang: 'en-US', type: 'positive', words: ['Ode', 'LOKit'] });
    expect(serializeWordbook(book)).toBe('OOoUserDict1\nlang: en-US\ntype: positive\n---\nOde\nLOKit\n');
    expect(parseWordbook(serializeWordbook(book))).toEqual(book);
  });

  it('takes lang <none> and type positive when the header leaves them empty', () => {
    expect(parseWordbook('OOoUserDict1\n---\nword\n')).toEqual({ lang: '<none>', type: 'positive', words: ['word'] });
  });

  it('refuses a file without the OOoUserDict1 line or without the --- line', () => {
    expect(() => parseWordbook('word\nother\n')).toThrow(/OOoUserDict1/);
    expect(() => parseWordbook('OOoUserDict1\nlang: <none>\nword\n')).toThrow(/---/);
  });

  it('adds a trimmed word once, never an empty one or one with a line break', () => {
    const book = parseWordbook('OOoUserDict1\n---\nOde\n');
    expect(addWord(book, '  Kit ')).toBe(true);
    expect(addWord(book, 'Ode')).toBe(false);
    expect(addWord(book, '   ')).toBe(false);
    expect(addWord(book, 'a\nb')).toBe(false);
    expect(book.words).toEqual(['Ode', 'Kit']);
  });
});
