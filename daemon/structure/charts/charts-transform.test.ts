import { describe, expect, it } from 'vitest';
import type { ChartItem } from './index.ts';
import { cacheWorkbookDisagreements, corpusFile, extract, fixtureFile, partBytes, partText, transform, workbookCells } from './test-support.ts';

// For every chart command: transform a corpus chart, extract again, and see exactly the expected change from
// the golden (the rest of the item unchanged). docx: 61745.docx chart 0 (bar, embedded workbook
// word/embeddings/Microsoft_Excel_Worksheet1.xlsx); odt: Text7.odt (bar, local table). Both start 4 x 3.

type Table = Pick<ChartItem, 'RowDescriptions' | 'ColumnDescriptions' | 'DataValues'>;
const DOCX_BASE: Table = {
  RowDescriptions: ['Category 1', 'Category 2', 'Category 3', 'Category 4'],
  ColumnDescriptions: ['Series 1', 'Series 2', 'Series 3'],
  DataValues: [
    ['4.3', '2.4', '2'],
    ['2.5', '4.4', '2'],
    ['3.5', '1.8', '3'],
    ['4.5', '2.8', '5'],
  ],
};
const ODT_BASE: Table = {
  RowDescriptions: ['Row 1', 'Row 2', 'Row 3', 'Row 4'],
  ColumnDescriptions: ['Column 1', 'Column 2', 'Column 3'],
  DataValues: [
    ['9.1', '3.2', '4.54'],
    ['2.4', '8.8', '9.65'],
    ['3.1', '1.5', '3.7'],
    ['4.3', '9.02', '6.2'],
  ],
};
const clone = (t: Table): Table => JSON.parse(JSON.stringify(t)) as Table;

/** A command and the change it must make, written as an edit of the base table. */
interface Case {
  name: string;
  commands: unknown[];
  change: (t: Table, fmt: 'docx' | 'odt') => void;
}

const CASES: Case[] = [
  {
    name: 'deletecolumn.1',
    commands: [{ 'deletecolumn.1': '' }],
    change: (t) => {
      t.ColumnDescriptions.splice(1, 1);
      t.DataValues.forEach((r) => r.splice(1, 1));
    },
  },
  {
    name: 'deleterow.0',
    commands: [{ 'deleterow.0': '' }],
    change: (t) => {
      t.RowDescriptions.splice(0, 1);
      t.DataValues.splice(0, 1);
    },
  },
  {
    name: 'modifyrow.2 (fewer values)',
    commands: [{ 'modifyrow.2': [19, 15] }],
    change: (t) => {
      t.DataValues[2][0] = '19';
      t.DataValues[2][1] = '15';
    },
  },
  { name: 'modifycolumn.2', commands: [{ 'modifycolumn.2': [1, 2, 3, 4] }], change: (t) => t.DataValues.forEach((r, i) => (r[2] = String(i + 1))) },
  {
    name: 'insertcolumn.1 (NONE)',
    commands: [{ 'insertcolumn.1': '' }],
    change: (t, f) => {
      t.ColumnDescriptions.splice(1, 0, f === 'docx' ? 'Series2' : '');
      t.DataValues.forEach((r) => r.splice(1, 0, 'NaN'));
    },
  },
  {
    name: 'insertcolumn.3 (values, extra ignored)',
    commands: [{ 'insertcolumn.3': [1, 2, 3, 4, 5, 6] }, { 'setcolumndesc.3': 'New' }],
    change: (t) => {
      t.ColumnDescriptions.push('New');
      t.DataValues.forEach((r, i) => r.push(String(i + 1)));
    },
  },
  {
    name: 'insertrow.0 (values)',
    commands: [{ 'insertrow.0': [15, 17] }],
    change: (t) => {
      t.RowDescriptions.unshift('');
      t.DataValues.unshift(['15', '17', 'NaN']);
    },
  },
  {
    name: 'insertrow.4 (NONE, appends)',
    commands: [{ 'insertrow.4': '' }, { 'setrowdesc.4': 'Q5' }],
    change: (t) => {
      t.RowDescriptions.push('Q5');
      t.DataValues.push(['NaN', 'NaN', 'NaN']);
    },
  },
  { name: 'setcolumndesc.0', commands: [{ 'setcolumndesc.0': 'c0' }], change: (t) => (t.ColumnDescriptions[0] = 'c0') },
  {
    name: 'setcolumndesc (array, fewer)',
    commands: [{ setcolumndesc: ['Jennifer', 'Charles'] }],
    change: (t) => {
      t.ColumnDescriptions[0] = 'Jennifer';
      t.ColumnDescriptions[1] = 'Charles';
    },
  },
  { name: 'setrowdesc.3', commands: [{ 'setrowdesc.3': 'Paul' }], change: (t) => (t.RowDescriptions[3] = 'Paul') },
  {
    name: 'setrowdesc (array)',
    commands: [{ setrowdesc: ['2023.01', '.02', '.03', '.04'] }],
    change: (t) => (t.RowDescriptions = ['2023.01', '.02', '.03', '.04']),
  },
  {
    name: 'resize [2, 2] (shrink)',
    commands: [{ resize: [2, 2] }],
    change: (t) => {
      t.RowDescriptions.splice(2);
      t.ColumnDescriptions.splice(2);
      t.DataValues.splice(2);
      t.DataValues.forEach((r) => r.splice(2));
    },
  },
  {
    name: 'resize [5, 4] (grow)',
    commands: [{ resize: [5, 4] }],
    change: (t, f) => {
      t.RowDescriptions.push('');
      t.ColumnDescriptions.push(f === 'docx' ? 'Series4' : '');
      t.DataValues.forEach((r) => r.push('NaN'));
      t.DataValues.push(['NaN', 'NaN', 'NaN', 'NaN']);
    },
  },
  { name: 'datayx.3.1', commands: [{ 'datayx.3.1': 37 }], change: (t) => (t.DataValues[3][1] = '37') },
  { name: 'datayx with a numeric string and a fraction', commands: [{ 'datayx.0.0': '0.125' }], change: (t) => (t.DataValues[0][0] = '0.125') },
  {
    name: 'data (grows the table)',
    commands: [{ data: [[3, 1], [2, 0, 1, 8], [3], [], [7]] }],
    change: (t, f) => {
      t.RowDescriptions.push('');
      t.ColumnDescriptions.push(f === 'docx' ? 'Series4' : '');
      t.DataValues.forEach((r) => r.push('NaN'));
      t.DataValues.push(['NaN', 'NaN', 'NaN', 'NaN']);
      t.DataValues[0].splice(0, 2, '3', '1');
      t.DataValues[1] = ['2', '0', '1', '8'];
      t.DataValues[2][0] = '3';
      t.DataValues[4][0] = '7';
    },
  },
  {
    name: 'Collabora manual example, in order',
    commands: [
      { 'modifyrow.1': [19, 15] },
      { 'datayx.3.1': 37 },
      { 'deleterow.0': '' },
      { 'insertrow.0': [15, 17] },
      { 'setrowdesc.0': 'Paul' },
      { 'insertcolumn.1': [1, 2, 3, 4, 5, 6] },
      { 'setcolumndesc.0': 'c0' },
      { 'deletecolumn.3': '' },
    ],
    change: (t, f) => {
      const base = f === 'docx' ? DOCX_BASE : ODT_BASE;
      t.RowDescriptions = ['Paul', ...base.RowDescriptions.slice(1)];
      t.ColumnDescriptions = ['c0', f === 'docx' ? 'Series2' : '', base.ColumnDescriptions[1]];
      const [r2, r3] = [base.DataValues[2], base.DataValues[3]];
      t.DataValues = [
        ['15', '1', '17'],
        ['19', '2', '15'],
        [r2[0], '3', r2[1]],
        [r3[0], '4', '37'],
      ];
    },
  },
];

const DOCX = { file: '61745.docx', chart: 'word/charts/chart1.xml', xlsx: 'word/embeddings/Microsoft_Excel_Worksheet1.xlsx' };

describe('chart commands on docx (61745.docx): re-extract, caches and workbook agree', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const before = extract(corpusFile(DOCX.file), 'docx');
      const out = await transform(corpusFile(DOCX.file), 'docx', [{ 'Charts.ByEmbedIndex.0': c.commands }]);
      const after = extract(out, 'docx');
      const expected = clone(DOCX_BASE);
      c.change(expected, 'docx');
      expect(after['Charts.ByEmbedIndex.0']).toEqual({ ...before['Charts.ByEmbedIndex.0'], ...expected });
      expect(after['Charts.ByEmbedIndex.1']).toEqual(before['Charts.ByEmbedIndex.1']);
      expect(cacheWorkbookDisagreements(out, DOCX.chart, DOCX.xlsx)).toEqual([]);
      // only the chart part and its workbook are rewritten; the body and the other chart are copied as they were
      for (const part of ['word/document.xml', 'word/charts/chart2.xml', 'word/embeddings/Microsoft_Excel_Worksheet2.xlsx']) {
        expect(Buffer.from(partBytes(out, part)).equals(Buffer.from(partBytes(corpusFile(DOCX.file), part))), part).toBe(true);
      }
    });
  }

  it("writes the table into the workbook in Word's layout and clears what the chart no longer uses", async () => {
    const out = await transform(corpusFile(DOCX.file), 'docx', [
      { 'Charts.ByEmbedIndex.0': [{ resize: [2, 2] }, { 'setcolumndesc.1': 'Two' }, { 'datayx.1.1': 9.5 }] },
    ]);
    const cells = workbookCells(partBytes(out, DOCX.xlsx));
    expect(Object.fromEntries([...cells].sort())).toEqual({
      A1: ' ',
      A2: 'Category 1',
      A3: 'Category 2',
      B1: 'Series 1',
      B2: '4.3',
      B3: '2.5',
      C1: 'Two',
      C2: '2.4',
      C3: '9.5',
    });
    const table = partText(partBytes(out, DOCX.xlsx), 'xl/tables/table1.xml');
    expect(table).toContain('ref="A1:C3"');
    expect(table).toContain(
      '<tableColumns count="3"><tableColumn id="1" name=" "/><tableColumn id="2" name="Series 1"/><tableColumn id="3" name="Two"/></tableColumns>',
    );
    const chart = partText(out, DOCX.chart);
    expect(chart.match(/<c:ser>/g)).toHaveLength(2);
    expect(chart).toContain('<c:f>Sheet1!$C$2:$C$3</c:f>');
    expect(chart).toContain('<c:f>Sheet1!$A$2:$A$3</c:f>');
  });

  it('an inserted column gets its own series (new c:idx, order by position) in the chart part', async () => {
    const out = await transform(corpusFile(DOCX.file), 'docx', [
      { 'Charts.ByEmbedIndex.0': [{ 'insertcolumn.0': [1, 2, 3, 4] }, { 'setcolumndesc.0': 'First' }] },
    ]);
    const chart = partText(out, DOCX.chart);
    const orders = [...chart.matchAll(/<c:ser><c:idx val="(\d+)"\/><c:order val="(\d+)"\/>/g)].map((m) => [m[1], m[2]]);
    expect(orders).toEqual([
      ['3', '0'],
      ['0', '1'],
      ['1', '2'],
      ['2', '3'],
    ]);
    // the copy leaves its colours to Word and LibreOffice (automatic by c:idx): no c:spPr of its own
    expect(/<c:ser><c:idx val="3"\/>(.*?)<\/c:ser>/.exec(chart)![1]).not.toContain('<c:spPr>');
    expect(workbookCells(partBytes(out, DOCX.xlsx)).get('B1')).toBe('First');
    expect(workbookCells(partBytes(out, DOCX.xlsx)).get('E1')).toBe('Series 3');
  });

  it('testWORD_charts.docx (external workbook link): caches change, formulas stay, no workbook is invented', async () => {
    const out = await transform(corpusFile('testWORD_charts.docx'), 'docx', [
      { 'Charts.ByTitle.wants a peach': [{ 'datayx.0.0': 50 }, { 'deleterow.7': '' }] },
    ]);
    const item = extract(out, 'docx')['Charts.ByEmbedIndex.0'];
    expect(item.DataValues).toEqual([['50'], ['8'], ['4'], ['7'], ['4'], ['2'], ['5']]);
    expect(item.RowDescriptions).toHaveLength(7);
    expect(partText(out, 'word/charts/chart1.xml')).toContain('<c:f>Sheet1!$B$2:$B$8</c:f>');
  });

  it('scatter charts (chart1.docx object 4) take value edits and row changes on their x and y columns', async () => {
    const out = await transform(corpusFile('chart1.docx'), 'docx', [{ 'Charts.ByEmbedIndex.4': [{ 'datayx.0.0': 9.5 }, { 'insertrow.1': [1.5, 2.5] }] }]);
    const item = extract(out, 'docx')['Charts.ByEmbedIndex.4'];
    expect(item.DataValues).toEqual([
      ['9.5', '0.7'],
      ['1.5', '2.5'],
      ['3.2', '1.8'],
      ['0.8', '2.6'],
    ]);
    const chart = partText(out, 'word/charts/chart5.xml');
    expect(chart).toContain('<c:f>Sheet1!$A$2:$A$5</c:f>');
    expect(chart).toContain('<c:f>Sheet1!$B$2:$B$5</c:f>');
    expect(cacheWorkbookDisagreements(out, 'word/charts/chart5.xml', 'word/embeddings/Microsoft_Office_Excel_Worksheet5.xlsx')).toEqual([]);
  });
});

describe('chart commands on odt (Text7.odt): re-extract and the series ranges follow', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const before = extract(corpusFile('Text7.odt'), 'odt');
      const out = await transform(corpusFile('Text7.odt'), 'odt', [{ 'Charts.ByEmbedIndex.0': c.commands }]);
      const after = extract(out, 'odt')['Charts.ByEmbedIndex.0'];
      const expected = clone(ODT_BASE);
      c.change(expected, 'odt');
      expect(after).toEqual({ ...before['Charts.ByEmbedIndex.0'], ...expected });
      // one series per column, each pointing at its column of the local table, rows 2..n+1
      const content = partText(out, 'Obj0013F7E1/content.xml');
      const ranges = [...content.matchAll(/chart:values-cell-range-address="([^"]+)" chart:label-cell-address="([^"]+)"/g)].map((m) => [m[1], m[2]]);
      const last = expected.RowDescriptions.length + 1;
      expect(ranges).toEqual(
        expected.ColumnDescriptions.map((_, i) => {
          const L = String.fromCharCode(66 + i);
          return [`local-table.$${L}$2:.$${L}$${last}`, `local-table.$${L}$1`];
        }),
      );
      expect(content).toContain(`<chart:categories table:cell-range-address="local-table.$A$2:.$A$${last}"/>`);
    });
  }

  it('an inserted series gets its own style, filled with the palette colour of its position', async () => {
    const out = await transform(corpusFile('Text7.odt'), 'odt', [{ 'Charts.ByEmbedIndex.0': [{ 'insertcolumn.3': [5, 6, 7, 8] }] }]);
    const content = partText(out, 'Obj0013F7E1/content.xml');
    const styles = [...content.matchAll(/<chart:series chart:style-name="([^"]+)"/g)].map((m) => m[1]);
    expect(styles).toEqual(['ch7', 'ch8', 'ch9', 'ch9s3']);
    expect(content).toMatch(/<style:style style:name="ch9s3" style:family="chart"><style:graphic-properties draw:fill-color="#579d1c" draw:fill="solid"\/>/);
  });

  it('a description with a line break survives the local table', async () => {
    const out = await transform(corpusFile('Text7.odt'), 'odt', [{ 'Charts.ByEmbedIndex.0': [{ 'setcolumndesc.1': 'Two\nlines' }] }]);
    expect(extract(out, 'odt')['Charts.ByEmbedIndex.0'].ColumnDescriptions).toEqual(['Column 1', 'Two\nlines', 'Column 3']);
  });

  it('chart.odt keeps its unused first column (NaN) and the series of the other columns', async () => {
    const out = await transform(corpusFile('chart.odt'), 'odt', [{ 'Charts.ByEmbedName.Object1': [{ 'datayx.0.2': 11 }, { 'deleterow.3': '' }] }]);
    expect(extract(out, 'odt')['Charts.ByEmbedIndex.0']).toMatchObject({
      ColumnDescriptions: ['', 'Column 2', 'Column 3'],
      DataValues: [
        ['NaN', '10', '11'],
        ['NaN', '30', '40'],
        ['NaN', '50', '360'],
      ],
    });
    const content = partText(out, 'Object 1/content.xml');
    expect([...content.matchAll(/chart:values-cell-range-address="([^"]+)"/g)].map((m) => m[1])).toEqual(['local-table.$C$2:.$C$4', 'local-table.$D$2:.$D$4']);
  });
});

describe("LibreOffice's own docx chart export (no workbook, named ranges)", () => {
  it('keeps its "label i" / "categories" / "i" formulas and caches the new table', async () => {
    const out = await transform(fixtureFile('chart-lo-export.docx'), 'docx', [
      { 'Charts.ByEmbedIndex.0': [{ 'insertcolumn.0': [1, 2, 3, 4] }, { 'setcolumndesc.0': 'Zero' }, { 'deleterow.3': '' }] },
    ]);
    expect(extract(out, 'docx')['Charts.ByEmbedIndex.0']).toMatchObject({
      ColumnDescriptions: ['Zero', 'Column 1', 'Column 2', 'Column 3'],
      RowDescriptions: ['Row 1', 'Row 2', 'Row 3'],
      DataValues: [
        ['1', '9.1', '3.2', '4.54'],
        ['2', '2.4', '8.8', '9.65'],
        ['3', '3.1', '1.5', '3.7'],
      ],
    });
    const formulas = [...partText(out, 'word/charts/chart1.xml').matchAll(/<c:f>([^<]*)<\/c:f>/g)].map((m) => m[1]);
    expect(formulas).toEqual(['label 0', 'categories', '0', 'label 1', 'categories', '1', 'label 2', 'categories', '2', 'label 3', 'categories', '3']);
  });
});

describe('chart selectors', () => {
  it('ByEmbedName accepts the docx drawing name, ByTitle transforms every match in order', async () => {
    const out = await transform(corpusFile('chart1.docx'), 'docx', [
      { 'Charts.ByEmbedName.Chart 1': [{ 'setrowdesc.0': 'kiwi' }] },
      { 'Charts.ByTitle.Chart Title': [{ 'setcolumndesc.0': 'Both' }] },
    ]);
    const items = extract(out, 'docx');
    expect(items['Charts.ByEmbedIndex.0'].RowDescriptions[0]).toBe('kiwi');
    expect(items['Charts.ByEmbedIndex.1'].ColumnDescriptions[0]).toBe('Both');
    expect(items['Charts.ByEmbedIndex.5'].ColumnDescriptions[0]).toBe('Both');
    expect(items['Charts.ByEmbedIndex.2'].ColumnDescriptions[0]).toBe('p_n');
  });

  it('BySubTitle (chart-subtitle.odt, made by LibreOffice)', async () => {
    const out = await transform(fixtureFile('chart-subtitle.odt'), 'odt', [{ 'Charts.BySubTitle.Quarterly figures': [{ 'deletecolumn.0': '' }] }]);
    expect(extract(out, 'odt')['Charts.ByEmbedIndex.0']).toMatchObject({
      subtitle: 'Quarterly figures',
      ColumnDescriptions: ['Column 2', 'Column 3'],
      DataValues: ODT_BASE.DataValues.map((r) => r.slice(1)),
    });
  });

  it('ByTitle on odt and the object form of the commands', async () => {
    const out = await transform(corpusFile('Text7.odt'), 'odt', [{ 'Charts.ByTitle.Main title': { 'datayx.0.0': 1, 'setrowdesc.0': 'One' } }]);
    expect(extract(out, 'odt')['Charts.ByEmbedIndex.0']).toMatchObject({
      RowDescriptions: ['One', 'Row 2', 'Row 3', 'Row 4'],
      DataValues: [['1', '3.2', '4.54'], ...ODT_BASE.DataValues.slice(1)],
    });
  });
});
