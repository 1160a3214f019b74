/**
 * How LOK's saveAs takes PDF export options (measured on 7.4, the same on 25.2) (README.md, "PDF export options"): a JSON FilterData
 * string in LOK's typed form works as filterOptions; LOK's own `,Watermark=<text>WATERMARKEND` works only
 * with its leading comma, and when present it replaces the JSON.
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';

import { fixtureDirs, pdfPages, runFixture } from './test-fixtures/run-fixture.ts';

const dirs = fixtureDirs('ode-native-pdf');
afterAll(() => dirs.cleanup());

const PAGE_RANGE_1 = '{"PageRange":{"type":"string","value":"1"}}';
const VARIANTS = [
  null,
  PAGE_RANGE_1,
  '{"PageRange":{"type":"string","value":"2-4"}}',
  '{"PageRange":{"type":"string","value":"1,3"}}',
  ',Watermark=ODEDRAFTWATERMARKEND',
  '{"TiledWatermark":{"type":"string","value":"ODEDRAFT"}}',
  'Watermark=ODEDRAFTWATERMARKEND',
  '{"Watermark":{"type":"string","value":"ODETEXTMARK"}}',
  `${PAGE_RANGE_1},Watermark=ODEDRAFTWATERMARKEND`,
  '{"SelectPdfVersion":{"type":"long","value":"1"}}',
  '{not json',
];

describe('saveAs pdf filterOptions (10-slide pptx)', () => {
  it('takes JSON FilterData and LOK watermark options as measured', async () => {
    const run = await runFixture<Array<{ filterOptions: string | null; path?: string; code?: string }>>('pdf-options', {
      workDir: dirs.workDir(),
      profileDir: dirs.profileDir,
      args: ['presentations/layouts.pptx', JSON.stringify(VARIANTS)],
    });
    expect(run.code, run.stderr).toBe(0);
    const byOptions = new Map(run.result!.map((r) => [r.filterOptions, r.path!]));
    const pages = (o: string | null) => pdfPages(byOptions.get(o)!);
    const size = (o: string | null) => statSync(byOptions.get(o)!).size;
    const text = (o: string | null) => execFileSync('pdftotext', [byOptions.get(o)!, '-'], { encoding: 'utf8' });
    const pdfVersion = (o: string | null) => /PDF version:\s+(\S+)/.exec(execFileSync('pdfinfo', [byOptions.get(o)!], { encoding: 'utf8' }))?.[1];

    expect(pages(null)).toBe(10);
    expect(pages(PAGE_RANGE_1)).toBe(1);
    expect(pages('{"PageRange":{"type":"string","value":"2-4"}}')).toBe(3);
    expect(pages('{"PageRange":{"type":"string","value":"1,3"}}')).toBe(2);
    // The tiled watermark is drawn as outlines (no text to extract): it shows in the size. Both spellings
    // end up as the same FilterData, so the same bytes count.
    expect(size(',Watermark=ODEDRAFTWATERMARKEND')).toBeGreaterThan(size(null) * 1.2);
    expect(size('{"TiledWatermark":{"type":"string","value":"ODEDRAFT"}}')).toBe(size(',Watermark=ODEDRAFTWATERMARKEND'));
    // Without the leading comma LOK does not see the watermark option.
    expect(size('Watermark=ODEDRAFTWATERMARKEND')).toBe(size(null));
    expect(text('{"Watermark":{"type":"string","value":"ODETEXTMARK"}}')).toContain('ODETEXTMARK');
    // Mixing: LOK turns ,Watermark= into FilterData of its own, and the JSON (PageRange) is then ignored.
    expect(pages(`${PAGE_RANGE_1},Watermark=ODEDRAFTWATERMARKEND`)).toBe(10);
    expect(pdfVersion('{"SelectPdfVersion":{"type":"long","value":"1"}}')).toBe('1.4'); // PDF/A-1b
    // Bad JSON is not an error: LibreOffice ignores it and exports everything.
    expect(pages('{not json')).toBe(10);
  });
});
