import { describe, expect, it } from 'vitest';
import { completion, partialName } from './function-list.ts';

describe('formula autocomplete: the name being typed and what choosing a function sends', () => {
  it('takes the name at the end of the formula', () => {
    expect(partialName('=SU')).toBe('SU');
    expect(partialName('=A1+su')).toBe('su');
    expect(partialName('=SUM(A1;VLO')).toBe('VLO');
    expect(partialName('=SUM(')).toBe('');
    expect(partialName('=1+2')).toBe('');
  });
  it('deletes the partial name (any case) and types the whole name with its parenthesis', () => {
    expect(completion('=su', 'SUM')).toEqual({ back: 2, text: 'SUM(' });
    expect(completion('=A1*SUMI', 'SUMIF')).toEqual({ back: 4, text: 'SUMIF(' });
    // Nothing to replace when the formula does not end in the start of the name.
    expect(completion('=(', 'SUM')).toEqual({ back: 0, text: 'SUM(' });
  });
});
