import { describe, expect, it } from 'vitest';
import { StructureDocument } from '../document.ts';
import { embeddedObjects } from './index.ts';
import { formatChartNumber } from './number-format.ts';
import { corpusFile, extract, fixtureFile, formatOf, golden } from './test-support.ts';

// Goldens: test/structure/fixtures/charts/<name>.json, written by hand from each document's chart XML (c:ser
// caches, ODF local tables) and cross-checked against what LibreOffice 7.4's chart model reports for the same
// file (docs/structure/charts.md).
const CORPUS = ['61745.docx', 'CU009-Chart-Embedded-Xlsx-01.docx', 'chart1.docx', 'testWORD_charts.docx', 'chart.odt', 'Text7.odt', 'unknown-content.odt'];

describe('chart extraction on the corpus (goldens)', () => {
  for (const file of CORPUS) {
    it(file, () => {
      const name = file.slice(0, file.lastIndexOf('.'));
      expect(extract(corpusFile(file), formatOf(file))).toEqual(golden(name));
    });
  }
});

describe('chart extraction on LibreOffice-made fixtures (goldens)', () => {
  for (const file of ['chart-subtitle.odt', 'chart-lo-export.docx']) {
    it(file, () => {
      const name = file.slice(0, file.lastIndexOf('.'));
      expect(extract(fixtureFile(file), formatOf(file))).toEqual(golden(name));
    });
  }
});

describe('chart extraction details', () => {
  it('counts every embedded object: the Math formula of unknown-content.odt is object 1, not a chart', () => {
    const objects = embeddedObjects(StructureDocument.open(corpusFile('unknown-content.odt'), 'odt'));
    expect(objects.map((o) => [o.index, o.name, o.chart !== undefined])).toEqual([
      [0, 'Objekt1', true],
      [1, 'Objekt2', false],
    ]);
  });

  it('docx charts are named after the drawing (wp:docPr/@name) as LibreOffice 25.2 names them, Object<n> kept as an alias', () => {
    const objects = embeddedObjects(StructureDocument.open(corpusFile('chart1.docx'), 'docx'));
    expect(objects.map((o) => [o.name, o.aliases])).toEqual([
      ['Chart 1', ['Object1']],
      ['Chart 2', ['Object2']],
      ['Chart 3', ['Object3']],
      ['Chart 4', ['Object4']],
      ['Chart 5', ['Object5']],
      ['Chart 7', ['Object6']],
      ['Chart 6', ['Object7']],
    ]);
  });

  it('prints doubles as LibreOffice OUString::number does', () => {
    expect(formatChartNumber(4.5999999999999996)).toBe('4.6');
    expect(formatChartNumber(2.2000000000000002)).toBe('2.2');
    expect(formatChartNumber(0.70000000000000007)).toBe('0.7');
    expect(formatChartNumber(2)).toBe('2');
    expect(formatChartNumber(360)).toBe('360');
    expect(formatChartNumber(-1.25)).toBe('-1.25');
    expect(formatChartNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatChartNumber(NaN)).toBe('NaN');
    expect(formatChartNumber(1e20)).toBe('1E+020');
    expect(formatChartNumber(1.5e-5)).toBe('1.5E-005');
    expect(formatChartNumber(0.0001)).toBe('0.0001');
    expect(formatChartNumber(123456789012.5)).toBe('123456789012.5');
    expect(formatChartNumber(Infinity)).toBe('INF');
  });
});
