import { describe, expect, it } from 'vitest';
import { OdeError } from '../errors.ts';
import { buildExportOptions, parsePdfOptions } from './options.ts';

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof OdeError ? e.code : 'not-an-OdeError';
  }
  return undefined;
}

describe('conversion options', () => {
  it('normalises PDF options; long and boolean values may be quoted', () => {
    const pdf = parsePdfOptions(
      '{"PageRange":{"type":"string","value":"2-"},"Quality":{"type":"long","value":"80"},"ExportNotes":{"type":"boolean","value":true}}',
    );
    expect(pdf).toEqual({
      PageRange: { type: 'string', value: '2-' },
      Quality: { type: 'long', value: '80' },
      ExportNotes: { type: 'boolean', value: 'true' },
    });
  });

  it('refuses unknown options, wrong types and bad JSON with bad_options', () => {
    expect(code(() => parsePdfOptions('{"NoSuch":{"type":"string","value":"x"}}'))).toBe('bad_options');
    expect(code(() => parsePdfOptions('{"Quality":{"type":"long","value":"high"}}'))).toBe('bad_options');
    expect(code(() => parsePdfOptions('{"Quality":{"type":"string","value":"80"}}'))).toBe('bad_options');
    expect(code(() => parsePdfOptions('{not json'))).toBe('bad_options');
    expect(code(() => parsePdfOptions('[1]'))).toBe('bad_options');
  });

  it('maps the deprecated PDFVer and FullSheetPreview', () => {
    const r = buildExportOptions({ format: 'pdf', PDFVer: 'PDF/A-2b', FullSheetPreview: 'true' }, 'spreadsheet');
    expect(JSON.parse(r.filterOptions!)).toEqual({ SelectPdfVersion: { type: 'long', value: '2' }, SinglePageSheets: { type: 'boolean', value: 'true' } });
    expect(code(() => buildExportOptions({ format: 'pdf', PDFVer: 'PDF-9' }, 'text'))).toBe('bad_options');
  });

  it('passes PDF/A-4 and PDF 2.0 on (LibreOffice 25.2 writes them) and refuses versions that do not exist', () => {
    for (const v of ['4', '20']) {
      expect(
        JSON.parse(buildExportOptions({ format: 'pdf', options: `{"SelectPdfVersion":{"type":"long","value":"${v}"}}` }, 'text').filterOptions!)
          .SelectPdfVersion,
      ).toEqual({ type: 'long', value: v });
    }
    expect(JSON.parse(buildExportOptions({ format: 'pdf', PDFVer: 'PDF-2.0' }, 'text').filterOptions!).SelectPdfVersion).toEqual({ type: 'long', value: '20' });
    expect(code(() => buildExportOptions({ format: 'pdf', options: '{"SelectPdfVersion":{"type":"long","value":"7"}}' }, 'text'))).toBe('bad_options');
  });

  it('sets RestrictPermissions with PermissionPassword so permission options apply', () => {
    const r = buildExportOptions(
      { format: 'pdf', options: '{"PermissionPassword":{"type":"string","value":"p"},"Printing":{"type":"long","value":0}}' },
      'text',
    );
    expect(JSON.parse(r.filterOptions!).RestrictPermissions).toEqual({ type: 'boolean', value: 'true' });
  });

  it('signing needs the three PEM options', () => {
    expect(code(() => buildExportOptions({ format: 'pdf', options: '{"SignPDF":{"type":"boolean","value":"true"}}' }, 'text'))).toBe('bad_options');
  });

  it('passes CSV export and import codes through, and refuses junk', () => {
    expect(buildExportOptions({ format: 'csv', options: '59,34,76' }, 'spreadsheet').filterOptions).toBe('59,34,76');
    expect(buildExportOptions({ format: 'pdf', infilterOptions: '59,34,76,1' }, 'spreadsheet').loadOptions).toBe('59,34,76,1');
    expect(code(() => buildExportOptions({ format: 'csv', options: '59;rm -rf' }, 'spreadsheet'))).toBe('bad_options');
  });
});
