import { OdeError } from '../errors.ts';
import { PDF_OPTIONS, PDF_VERSIONS, PDFVER_TO_SELECT, type PdfOptionType } from './pdf-options.ts';

/** One normalised FilterData entry as LibreOffice's JSON filter-options parser takes it (values as strings). */
export interface FilterDataEntry {
  type: PdfOptionType;
  value: string;
}

/** The fields of a convert-to request that shape the export (spec: Conversion, form fields). */
export interface ConvertFields {
  format: string;
  options?: string;
  infilterOptions?: string;
  /** Deprecated: PDF version, replaced by SelectPdfVersion. */
  PDFVer?: string;
  /** Deprecated: `true` = SinglePageSheets for spreadsheet -> PDF. */
  FullSheetPreview?: string;
}

/** What the kit needs: the saveAs filter options string and the load (import filter) options. */
export interface ExportOptions {
  filterOptions?: string;
  loadOptions?: string;
  /** The parsed PDF FilterData (for signing, which Ode does after the export). */
  pdf?: Record<string, FilterDataEntry>;
}

const CSV_OPTIONS = /^[A-Za-z0-9_\-+./ ]*(,[A-Za-z0-9_\-+./ ]*)*$/;

function bad(message: string): OdeError {
  return new OdeError('bad_options', message);
}

function normaliseValue(name: string, type: PdfOptionType, raw: unknown): string {
  switch (type) {
    case 'string':
      if (typeof raw !== 'string') throw bad(`options.${name}: expected a string value`);
      return raw;
    case 'boolean':
      if (raw === true || raw === 'true') return 'true';
      if (raw === false || raw === 'false') return 'false';
      throw bad(`options.${name}: expected a boolean (true/false, quoted or not)`);
    case 'long': {
      const n = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
      if (typeof n !== 'number' || !Number.isInteger(n)) throw bad(`options.${name}: expected an integer (quoted or not)`);
      return String(n);
    }
  }
}

/**
 * Parses the spec's PDF `options` JSON object: `{Name: {type, value}}` with names from the spec's tables;
 * long and boolean values may be quoted strings.
 * @throws OdeError bad_options naming the option and what is allowed.
 */
export function parsePdfOptions(text: string): Record<string, FilterDataEntry> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw bad(`options: not valid JSON (${(e as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw bad('options: expected a JSON object {"Name": {"type": ..., "value": ...}}');
  const out: Record<string, FilterDataEntry> = {};
  for (const [name, entry] of Object.entries(parsed)) {
    const type = PDF_OPTIONS[name];
    if (!type) throw bad(`options.${name}: unknown PDF export option; known options: ${Object.keys(PDF_OPTIONS).join(', ')}`);
    if (typeof entry !== 'object' || entry === null || !('value' in entry)) throw bad(`options.${name}: expected {"type": "${type}", "value": ...}`);
    const declared = (entry as { type?: unknown }).type;
    if (declared !== undefined && declared !== type) throw bad(`options.${name}: type must be "${type}"`);
    out[name] = { type, value: normaliseValue(name, type, (entry as { value: unknown }).value) };
  }
  return out;
}

function checkPdfVersion(pdf: Record<string, FilterDataEntry>): void {
  const v = pdf.SelectPdfVersion;
  if (!v) return;
  const n = Number(v.value);
  if (!(n in PDF_VERSIONS)) throw bad(`options.SelectPdfVersion: ${n} is not one of ${Object.keys(PDF_VERSIONS).join(', ')}`);
}

function checkSigning(pdf: Record<string, FilterDataEntry>): void {
  if (pdf.SignPDF?.value !== 'true') return;
  for (const name of ['SignCertificateCertPem', 'SignCertificateKeyPem', 'SignCertificateCaPem']) {
    if (!pdf[name]?.value) throw bad(`options.${name}: required when SignPDF is true`);
  }
}

/** Serialises FilterData as the JSON string LibreOffice's filter-options parser reads. */
export function filterDataJson(pdf: Record<string, FilterDataEntry>): string {
  return JSON.stringify(pdf);
}

/** The FilterData entries that Ode handles itself and must not pass to LibreOffice (signing is done after export). */
const HANDLED_BY_ODE = new Set([
  'SignPDF',
  'SignCertificateCertPem',
  'SignCertificateKeyPem',
  'SignCertificateCaPem',
  'SignatureLocation',
  'SignatureReason',
  'SignatureContactInfo',
  'SignaturePassword',
  'SignatureTSA',
]);

/**
 * Turns the request's export fields into kit options: PDF `options` (+ deprecated PDFVer, FullSheetPreview) ->
 * a FilterData JSON string; CSV `options` (comma-separated codes such as `59,34,76`) -> the CSV filter options;
 * `infilterOptions` -> load options for the CSV import filter. `kind` is the input's kind.
 * @throws OdeError bad_options for any invalid value.
 */
export function buildExportOptions(fields: ConvertFields, kind: string): ExportOptions {
  const result: ExportOptions = {};
  if (fields.infilterOptions !== undefined && fields.infilterOptions !== '') {
    if (!CSV_OPTIONS.test(fields.infilterOptions)) throw bad('infilterOptions: expected comma-separated import filter tokens such as 59,34,76,1');
    result.loadOptions = fields.infilterOptions;
  }
  if (fields.format === 'pdf') {
    const pdf = fields.options ? parsePdfOptions(fields.options) : {};
    if (fields.PDFVer) {
      const v = PDFVER_TO_SELECT[fields.PDFVer];
      if (v === undefined) throw bad(`PDFVer: ${fields.PDFVer} is not one of ${Object.keys(PDFVER_TO_SELECT).join(', ')}`);
      pdf.SelectPdfVersion ??= { type: 'long', value: String(v) };
    }
    if (fields.FullSheetPreview === 'true' && kind === 'spreadsheet') pdf.SinglePageSheets ??= { type: 'boolean', value: 'true' };
    // LibreOffice applies Printing/Changes/copy permissions only with RestrictPermissions set.
    if (pdf.PermissionPassword?.value) pdf.RestrictPermissions ??= { type: 'boolean', value: 'true' };
    checkPdfVersion(pdf);
    checkSigning(pdf);
    const forLibreOffice = Object.fromEntries(Object.entries(pdf).filter(([k]) => !HANDLED_BY_ODE.has(k)));
    if (Object.keys(forLibreOffice).length > 0) result.filterOptions = filterDataJson(forLibreOffice);
    if (Object.keys(pdf).length > 0) result.pdf = pdf;
    return result;
  }
  if (fields.options !== undefined && fields.options !== '') {
    if (fields.format === 'csv') {
      if (!CSV_OPTIONS.test(fields.options)) throw bad('options: for CSV, expected comma-separated numbers such as 44,34,76');
      result.filterOptions = fields.options;
    } else {
      // Other filters take LibreOffice FilterData JSON too (e.g. PixelWidth for png); pass a JSON object through.
      let parsed: unknown;
      try {
        parsed = JSON.parse(fields.options);
      } catch {
        throw bad(`options: for ${fields.format}, expected a JSON object of filter options`);
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad('options: expected a JSON object');
      result.filterOptions = fields.options;
    }
  }
  return result;
}
