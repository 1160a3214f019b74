import { describe, expect, it } from 'vitest';
import { cacheWorkbookDisagreements, corpusFile, extract, golden, partText, transform } from './test-support.ts';

// Charts in presentations: pptx graphic frames (p:graphicFrame, named by p:cNvPr) and odp draw:frame objects,
// counted with every other embedded object (Presentation1.odp has 12 text objects besides its chart).
const AASCU = '../presentations/aascu.org_hbcu_leadershipsummit_cooper_.pptx';
const ODP = '../presentations/Presentation1.odp';

describe('charts in presentations', () => {
  it('pptx golden (aascu...pptx: two bar charts on slides 6 and 7)', () => {
    expect(extract(corpusFile(AASCU), 'pptx')).toEqual(golden('aascu.org_hbcu_leadershipsummit_cooper_'));
  });

  it('odp golden (Presentation1.odp: the chart is embedded object 10)', () => {
    expect(extract(corpusFile(ODP), 'odp')).toEqual(golden('Presentation1'));
  });

  it('pptx transform: caches, quoted-sheet formulas and the embedded workbook agree', async () => {
    const out = await transform(corpusFile(AASCU), 'pptx', [
      { 'Charts.ByEmbedName.Chart 8': [{ 'insertrow.2': [1, 2, 3, 4] }, { 'setrowdesc.2': '2024' }, { 'deletecolumn.0': '' }] },
    ]);
    const items = extract(out, 'pptx');
    expect(items['Charts.ByEmbedIndex.1']).toEqual({
      name: 'Chart 8',
      RowDescriptions: ['2000', '2008', '2024'],
      ColumnDescriptions: ['HS Diploma / GED', 'College Enrollment', 'Degree Attainment'],
      DataValues: [
        ['29', '32', '5'],
        ['30', '37', '6'],
        ['2', '3', '4'],
      ],
    });
    expect(items['Charts.ByEmbedIndex.0']).toEqual(golden('aascu.org_hbcu_leadershipsummit_cooper_')['Charts.ByEmbedIndex.0']);
    const rels = partText(out, 'ppt/charts/_rels/chart2.xml.rels');
    const xlsx = `ppt/embeddings/${/embeddings\/([^"]+\.xlsx)/.exec(rels)![1]}`;
    expect(cacheWorkbookDisagreements(out, 'ppt/charts/chart2.xml', xlsx)).toEqual([]);
  });

  it('odp transform by index among all objects', async () => {
    const out = await transform(corpusFile(ODP), 'odp', [{ 'Charts.ByEmbedIndex.10': [{ 'modifycolumn.0': [1, 2] }] }]);
    expect(extract(out, 'odp')['Charts.ByEmbedIndex.10'].DataValues.map((r) => r[0])).toEqual(['1', '2', '3.1', '4.3']);
  });
});
