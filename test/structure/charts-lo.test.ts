import { DOMParser, type Element } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transformStructure, type StructureFormat } from '../../daemon/structure/index.ts';
import { corpusFile, fixtureFile, partBytes } from '../../daemon/structure/charts/test-support.ts';
import { NS } from '../../daemon/structure/xml/dom.ts';
import { postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';

// LibreOffice (a kit behind a real daemon) opens what the chart transforms wrote (docx, odt, pptx) without
// error, and its own chart model holds the new table: the document is converted to flat ODF by the kit, and the
// chart's local table (the data LibreOffice loaded) is read from that XML, independently of the engine.

interface LoChart {
  title: string;
  columns: string[];
  rows: string[];
  values: string[][];
}

/** Text of an element's paragraphs (the flat XML LibreOffice writes is indented, so each paragraph is trimmed). */
const paragraphs = (el: Element): string => [...el.getElementsByTagNameNS(NS.text, 'p')].map((p) => (p.textContent ?? '').trim()).join('\n');

/** The charts of a flat ODF document, by frame name: title, header row, first column and cell texts. */
function chartsOfFlatOdf(xml: string): Map<string, LoChart> {
  const dom = new DOMParser().parseFromString(xml, 'text/xml');
  const out = new Map<string, LoChart>();
  for (const frame of [...dom.getElementsByTagNameNS(NS.draw, 'frame')]) {
    const chart = frame.getElementsByTagNameNS(NS.chart, 'chart')[0];
    if (!chart) continue;
    const title = chart.getElementsByTagNameNS(NS.chart, 'title')[0];
    const rowsOf = (section: Element | undefined): string[][] =>
      section
        ? [...section.getElementsByTagNameNS(NS.table, 'table-row')].map((r) => [...r.getElementsByTagNameNS(NS.table, 'table-cell')].map(paragraphs))
        : [];
    const table = chart.getElementsByTagNameNS(NS.table, 'table')[0];
    const head = rowsOf(table.getElementsByTagNameNS(NS.table, 'table-header-rows')[0])[0] ?? [];
    const body = rowsOf(table.getElementsByTagNameNS(NS.table, 'table-rows')[0]);
    out.set(frame.getAttributeNS(NS.draw, 'name') ?? '', {
      title: title ? paragraphs(title) : '',
      columns: head.slice(1),
      rows: body.map((r) => r[0]),
      values: body.map((r) => r.slice(1)),
    });
  }
  return out;
}

describe('chart transforms, as LibreOffice reads them', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon();
  });
  afterAll(async () => daemon?.stop());

  const loCharts = async (bytes: Uint8Array, format: StructureFormat): Promise<Map<string, LoChart>> => {
    const flat = format === 'pptx' || format === 'odp' ? 'fodp' : 'fodt';
    const r = await postConvert(daemon.url, `/ode/convert-to/${flat}`, { bytes: Buffer.from(bytes), filename: `chart.${format}` });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    return chartsOfFlatOdf(r.body.toString('utf8'));
  };
  const recipe = (transforms: unknown): string => JSON.stringify({ Transforms: transforms });
  const manualExample = [
    { 'modifyrow.1': [19, 15] },
    { 'datayx.3.1': 37 },
    { 'deleterow.0': '' },
    { 'insertrow.0': [15, 17] },
    { 'setrowdesc.0': 'Paul' },
    { 'insertcolumn.1': [1, 2, 3, 4, 5, 6] },
    { 'setcolumndesc.0': 'c0' },
    { 'setcolumndesc.1': 'new' },
    { 'deletecolumn.3': '' },
  ];

  it('docx (61745.docx): the manual example on chart 0; chart 1 untouched', async () => {
    const out = await transformStructure(corpusFile('61745.docx'), 'docx', recipe([{ 'Charts.ByEmbedIndex.0': manualExample }]));
    const charts = await loCharts(out, 'docx');
    // LibreOffice 25.2 names the charts after their drawings (wp:docPr/@name): chart 0 is "Chart 3"
    expect(charts.get('Chart 3')).toEqual({
      title: 'Chart Title',
      columns: ['c0', 'new', 'Series 2'],
      rows: ['Paul', 'Category 2', 'Category 3', 'Category 4'],
      values: [
        ['15', '1', '17'],
        ['19', '2', '15'],
        ['3.5', '3', '1.8'],
        ['4.5', '4', '37'],
      ],
    });
    expect(charts.get('Chart 1')?.values[0]).toEqual(['4.3', '2.4', '2']);
    // the embedded workbook, opened by LibreOffice Calc, holds the same table in Word's layout
    const xlsx = partBytes(out, 'word/embeddings/Microsoft_Excel_Worksheet1.xlsx');
    const csv = await postConvert(daemon.url, '/ode/convert-to/csv', { bytes: Buffer.from(xlsx), filename: 'data.xlsx' });
    expect(csv.status, JSON.stringify(csv.error)).toBe(200);
    expect(csv.body.toString('utf8').trimEnd().split(/\r?\n/)).toEqual([
      ' ,c0,new,Series 2',
      'Paul,15,1,17',
      'Category 2,19,2,15',
      'Category 3,3.5,3,1.8',
      'Category 4,4.5,4,37',
    ]);
  });

  it('odt (Text7.odt): the manual example', async () => {
    const out = await transformStructure(corpusFile('Text7.odt'), 'odt', recipe([{ 'Charts.ByTitle.Main title': manualExample }]));
    expect((await loCharts(out, 'odt')).get('Object1')).toEqual({
      title: 'Main title',
      columns: ['c0', 'new', 'Column 2'],
      rows: ['Paul', 'Row 2', 'Row 3', 'Row 4'],
      values: [
        ['15', '1', '17'],
        ['19', '2', '15'],
        ['3.1', '3', '1.5'],
        ['4.3', '4', '37'],
      ],
    });
  });

  it('docx (chart1.docx): a pie grown by data and resize, and a scatter edited', async () => {
    const out = await transformStructure(
      corpusFile('chart1.docx'),
      'docx',
      recipe([
        { 'Charts.ByEmbedIndex.2': [{ resize: [3, 2] }, { data: [[1, 2], [3, 4], [5, 6], [8]] }, { setcolumndesc: ['a', 'b'] }, { 'setrowdesc.3': 'z' }] },
        { 'Charts.ByEmbedIndex.4': [{ 'datayx.0.0': 9.5 }] },
      ]),
    );
    const charts = await loCharts(out, 'docx');
    expect(charts.get('Chart 3')).toMatchObject({
      columns: ['a', 'b'],
      rows: ['90-100', '80-90', '70-80', 'z'],
      values: [
        ['1', '2'],
        ['3', '4'],
        ['5', '6'],
        ['8', 'NaN'],
      ],
    });
    expect(charts.get('Chart 5')?.values[0][0]).toBe('9.5');
  });

  // LibreOffice's ODF export fills a column that no series shows with NaN (it does so for the untouched
  // chart.odt as well), so the value written into column 0 is not visible here; its chart model holds it.
  it('odt (chart.odt): resize and data grow the table; the unused first column stays', async () => {
    const out = await transformStructure(
      corpusFile('chart.odt'),
      'odt',
      recipe([{ 'Charts.ByEmbedName.Object1': [{ resize: [2, 4] }, { 'setcolumndesc.3': 'New' }, { data: [[1, 2, 3, 4, 5]] }] }]),
    );
    expect((await loCharts(out, 'odt')).get('Object1')).toEqual({
      title: '',
      columns: ['', 'Column 2', 'Column 3', 'New', ''],
      rows: ['Row 1', 'Row 2'],
      values: [
        ['NaN', '2', '3', '4', '5'],
        ['NaN', '30', '40', 'NaN', 'NaN'],
      ],
    });
  });

  it('docx made by LibreOffice (no workbook, named ranges): a column inserted and a row deleted', async () => {
    const out = await transformStructure(
      fixtureFile('chart-lo-export.docx'),
      'docx',
      recipe([{ 'Charts.ByEmbedIndex.0': [{ 'insertcolumn.0': [1, 2, 3, 4] }, { 'setcolumndesc.0': 'Zero' }, { 'deleterow.3': '' }] }]),
    );
    expect((await loCharts(out, 'docx')).get('Object1')).toEqual({
      title: 'Main title\nQuarterly figures',
      columns: ['Zero', 'Column 1', 'Column 2', 'Column 3'],
      rows: ['Row 1', 'Row 2', 'Row 3'],
      values: [
        ['1', '9.1', '3.2', '4.54'],
        ['2', '2.4', '8.8', '9.65'],
        ['3', '3.1', '1.5', '3.7'],
      ],
    });
  });

  it('through the endpoints: extract with filter=charts, transform, extract again', async () => {
    const before = await postConvert(
      daemon.url,
      '/ode/extract-document-structure',
      { bytes: Buffer.from(corpusFile('testWORD_charts.docx')), filename: 'pie.docx' },
      { filter: 'charts' },
    );
    expect(before.status, JSON.stringify(before.error)).toBe(200);
    expect(JSON.parse(before.body.toString('utf8')).DocStructure['Charts.ByEmbedIndex.0']).toMatchObject({
      name: 'Chart 1',
      title: 'wants a peach',
      ColumnDescriptions: ['NUMBER'],
    });
    const changed = await postConvert(
      daemon.url,
      '/ode/transform-document-structure',
      { bytes: Buffer.from(corpusFile('testWORD_charts.docx')), filename: 'pie.docx' },
      { transform: recipe([{ 'Charts.ByTitle.wants a peach': [{ 'modifycolumn.0': [50, 80] }, { 'setcolumndesc.0': 'COUNT' }] }]) },
    );
    expect(changed.status, JSON.stringify(changed.error)).toBe(200);
    const after = await postConvert(daemon.url, '/ode/extract-document-structure', { bytes: changed.body, filename: 'pie.docx' }, { filter: 'charts' });
    expect(JSON.parse(after.body.toString('utf8')).DocStructure['Charts.ByEmbedIndex.0']).toMatchObject({
      ColumnDescriptions: ['COUNT'],
      DataValues: [['50'], ['80'], ['4'], ['7'], ['4'], ['2'], ['5'], ['6']],
    });
    const bad = await postConvert(
      daemon.url,
      '/ode/transform-document-structure',
      { bytes: Buffer.from(corpusFile('testWORD_charts.docx')), filename: 'pie.docx' },
      { transform: recipe([{ 'Charts.ByEmbedIndex.0': [{ resize: [1, 1] }] }]) },
    );
    expect(bad.status).toBe(400);
    expect(bad.error).toMatchObject({ code: 'out_of_range', path: 'Transforms[0]["Charts.ByEmbedIndex.0"][0].resize' });
  });

  it('odp (Presentation1.odp): the chart, embedded object 10, gets a new column', async () => {
    const out = await transformStructure(
      corpusFile('../presentations/Presentation1.odp'),
      'odp',
      recipe([{ 'Charts.ByEmbedIndex.10': [{ 'insertcolumn.0': [1, 2, 3, 4] }, { 'setcolumndesc.0': 'Zero' }] }]),
    );
    expect((await loCharts(out, 'odp')).get('embedded object (OLE)9')).toEqual({
      title: 'Main title',
      columns: ['Zero', 'Column 1', 'Column 2', 'Column 3'],
      rows: ['Row 1', 'Row 2', 'Row 3', 'Row 4'],
      values: [
        ['1', '9.1', '3.2', '4.54'],
        ['2', '2.4', '8.8', '9.65'],
        ['3', '3.1', '1.5', '3.7'],
        ['4', '4.3', '9.02', '6.2'],
      ],
    });
  });

  it('pptx (aascu...pptx): a row inserted and a column deleted in "Chart 8"', async () => {
    const out = await transformStructure(
      corpusFile('../presentations/aascu.org_hbcu_leadershipsummit_cooper_.pptx'),
      'pptx',
      recipe([{ 'Charts.ByEmbedName.Chart 8': [{ 'insertrow.2': [1, 2, 3, 4] }, { 'setrowdesc.2': '2024' }, { 'deletecolumn.0': '' }] }]),
    );
    expect((await loCharts(out, 'pptx')).get('Chart 8')).toEqual({
      title: '',
      columns: ['HS Diploma / GED', 'College Enrollment', 'Degree Attainment'],
      rows: ['2000', '2008', '2024'],
      values: [
        ['29', '32', '5'],
        ['30', '37', '6'],
        ['2', '3', '4'],
      ],
    });
  });
});
