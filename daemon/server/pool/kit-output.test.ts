import { describe, expect, it } from 'vitest';
import { KitOutputTail } from './kit-output.ts';

describe('KitOutputTail: the last lines of a kit (issue 17, item 3)', () => {
  it('keeps the last lines of both streams in order, stdout marked, lines split across chunks joined', () => {
    const t = new KitOutputTail({ lines: 3, bytes: 1000 });
    expect(t.add('err', 'one\ntw')).toEqual(['one']);
    expect(t.add('out', 'hello\n')).toEqual(['hello']);
    expect(t.add('err', 'o\n\nthree\nfour')).toEqual(['two', 'three']);
    // The oldest lines go; an unended line is shown last.
    expect(t.lines()).toEqual(['[out] hello', 'two', 'three', 'four']);
  });

  it('stays within its size in characters, and cuts a very long line', () => {
    const t = new KitOutputTail({ lines: 50, bytes: 100 });
    for (let i = 0; i < 20; i++) t.add('err', `line ${String(i).padStart(2, '0')} ${'x'.repeat(20)}\n`);
    const kept = t.lines();
    expect(kept.join('').length).toBeLessThanOrEqual(100);
    expect(kept.at(-1)).toMatch(/^line 19 /);
    t.add('err', `${'y'.repeat(5000)}\n`);
    expect(t.lines()).toHaveLength(1);
    expect(t.lines()[0]).toMatch(/^y{1000}\.\.\. \(5000 characters\)$/);
  });
});
