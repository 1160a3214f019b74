import { describe, expect, it } from 'vitest';
import { textEdit } from './text-edit.ts';

describe('textEdit (what an on-screen keyboard did to the input text)', () => {
  it('types what was appended', () => {
    expect(textEdit('Hello', 'Hello w')).toEqual({ left: 0, back: 0, text: ' w' });
    expect(textEdit('', 'a')).toEqual({ left: 0, back: 0, text: 'a' });
  });
  it('deletes backwards what was removed at the end', () => {
    expect(textEdit('Hello', 'Hel')).toEqual({ left: 0, back: 2, text: '' });
    expect(textEdit('two words', 'two ')).toEqual({ left: 0, back: 5, text: '' });
  });
  it('replaces a word before the caret (autocorrect): left over the unchanged end, delete, type', () => {
    expect(textEdit('I teh ', 'I the ')).toEqual({ left: 1, back: 2, text: 'he' });
    expect(textEdit('recieve', 'receive')).toEqual({ left: 2, back: 2, text: 'ei' });
  });
  it('counts code points, not UTF-16 units', () => {
    expect(textEdit('a😀', 'a')).toEqual({ left: 0, back: 1, text: '' });
    expect(textEdit('😀x', '😀😁x')).toEqual({ left: 1, back: 0, text: '😁' });
  });
  it('is null for no change', () => {
    expect(textEdit('same', 'same')).toBeNull();
  });
});
