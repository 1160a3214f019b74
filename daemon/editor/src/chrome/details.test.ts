import { describe, expect, it } from 'vitest';
import { matchIndex, searchMatches } from './find-replace-search.ts';
import { selectionCount, selectionSummary } from './status-bar.ts';
import { styleGroups } from './toolbar.ts';

describe('the spreadsheet status bar texts (issue 23)', () => {
  it('shows the selection count without the JSON quotes LibreOffice 25.2 sends', () => {
    expect(selectionCount('"Selected: 4 rows, 1 column"')).toBe('Selected: 4 rows, 1 column');
    expect(selectionCount('""')).toBe('');
    expect(selectionCount(undefined)).toBe('');
    expect(selectionCount('Selected: 2 rows, 3 columns')).toBe('Selected: 2 rows, 3 columns');
  });

  it('leaves out the functions without a value', () => {
    expect(selectionSummary('"Average: ; Sum: 0"')).toBe('Sum: 0');
    expect(selectionSummary('Average: 4; Sum: 12')).toBe('Average: 4; Sum: 12');
    expect(selectionSummary('"Average: 1,5; CountA: 2; Sum: 3"')).toBe('Average: 1,5; CountA: 2; Sum: 3');
    expect(selectionSummary('Sum: Err:502')).toBe('Sum: Err:502');
    expect(selectionSummary('""')).toBe('');
    expect(selectionSummary('something else')).toBe('something else');
  });
});

describe('the style list order (issue 23)', () => {
  it('puts the common text styles first (as LibreOffice lists them) and sorts the others', () => {
    const names = [
      'Text body',
      'Quotations',
      'Title',
      'Subtitle',
      'Heading 1',
      'Heading 2',
      'Heading 3',
      'Standard',
      'Heading 10',
      'Heading 4',
      'addressee',
      'Caption',
      'Text body',
    ];
    const { common, others } = styleGroups(names, 'text', 'en');
    expect(common).toEqual(['Standard', 'Text body', 'Quotations', 'Title', 'Subtitle', 'Heading 1', 'Heading 2', 'Heading 3']);
    expect(others).toEqual(['addressee', 'Caption', 'Heading 4', 'Heading 10']);
  });

  it('keeps Default first among sorted cell styles', () => {
    const { common, others } = styleGroups(['Default', 'Heading', 'Accent 3', 'Accent', 'Bad', 'Accent 1'], 'spreadsheet', 'en');
    expect(common).toEqual(['Default']);
    expect(others).toEqual(['Accent', 'Accent 1', 'Accent 3', 'Bad', 'Heading']);
  });
});

describe('search results (LOK_CALLBACK_SEARCH_RESULT_SELECTION)', () => {
  const result = {
    searchString: 'apple',
    highlightAll: 'true',
    searchResultSelection: [
      { part: '0', rectangles: '1418, 1418, 600, 276' },
      { part: '0', rectangles: '2000, 1800, 600, 276; 1418, 2076, 100, 276' },
      { part: '1', rectangles: '' },
    ],
  };

  it('reads one match per entry with its rectangles', () => {
    expect(searchMatches(result)).toEqual([
      { part: 0, rects: [[1418, 1418, 600, 276]] },
      {
        part: 0,
        rects: [
          [2000, 1800, 600, 276],
          [1418, 2076, 100, 276],
        ],
      },
    ]);
    expect(searchMatches(null)).toEqual([]);
    expect(searchMatches({ searchResultSelection: 'x' })).toEqual([]);
  });

  it('finds the position of a found match among all', () => {
    const all = searchMatches(result);
    expect(matchIndex(all, { part: 0, rects: [[2001, 1799, 600, 276]] })).toBe(1);
    expect(matchIndex(all, { part: 0, rects: [[1418, 1418, 600, 276]] })).toBe(0);
    expect(matchIndex(all, { part: 0, rects: [[9000, 9000, 10, 10]] })).toBe(-1);
    expect(matchIndex(all, { part: 2, rects: [[1418, 1418, 600, 276]] })).toBe(-1);
  });
});
