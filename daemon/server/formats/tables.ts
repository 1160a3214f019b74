/**
 * Input kinds and conversion targets, from the conversion spec's "Supported input formats" and "Supported
 * output formats" tables. LibreOfficeKit's saveAs takes the target's extension as its format and picks the
 * export filter from the document type, so a target is its extension plus the Content-Type Ode answers with.
 */

/** A document kind of the spec's tables. */
export type DocumentKind = 'text' | 'spreadsheet' | 'presentation' | 'drawing';

/** Spec: Supported input formats. */
export const INPUT_EXTENSIONS: Readonly<Record<DocumentKind, readonly string[]>> = {
  text: [
    'sxw',
    'odt',
    'fodt',
    'stw',
    'ott',
    'doc',
    'dot',
    'docx',
    'docm',
    'dotx',
    'dotm',
    'wpd',
    'pdb',
    'hwp',
    'wps',
    'wri',
    'lrf',
    'mw',
    'rtf',
    'txt',
    'fb2',
    'cwk',
    'pages',
    'abw',
    '602',
    'sxg',
    'odm',
    'otm',
    'oth',
  ],
  spreadsheet: [
    'sxc',
    'ods',
    'fods',
    'stc',
    'ots',
    'xls',
    'xla',
    'xltx',
    'xltm',
    'xlsx',
    'xlsb',
    'xlsm',
    'dif',
    'slk',
    'csv',
    'tsv',
    'dbf',
    'wk1',
    'wks',
    'xlr',
    '123',
    'qpw',
    'wb1',
    'wq1',
    'wq2',
    'gnumeric',
    'numbers',
  ],
  presentation: ['sxi', 'odp', 'fodp', 'sti', 'otp', 'ppt', 'pot', 'pptx', 'pptm', 'potx', 'potm', 'ppsx', 'cgm', 'key'],
  drawing: [
    'sxd',
    'odg',
    'fodg',
    'std',
    'otg',
    'svg',
    'dxf',
    'emf',
    'wmf',
    'cdr',
    'vsd',
    'vsdx',
    'vss',
    'pub',
    'p65',
    'wpg',
    'fh',
    'bmp',
    'png',
    'gif',
    'tiff',
    'jpg',
    'jpeg',
    'pdf',
  ],
};

/** Spec: Supported output formats. */
export const OUTPUT_FORMATS: Readonly<Record<DocumentKind, readonly string[]>> = {
  text: ['doc', 'docm', 'docx', 'fodt', 'html', 'odt', 'ott', 'pdf', 'rtf', 'txt', 'xhtml', 'png'],
  spreadsheet: ['csv', 'fods', 'html', 'ods', 'ots', 'pdf', 'xhtml', 'xls', 'xlsm', 'xlsx', 'png'],
  presentation: ['fodp', 'html', 'odg', 'odp', 'otp', 'pdf', 'potm', 'pot', 'pptm', 'pptx', 'pps', 'ppt', 'svg', 'swf', 'xhtml', 'png'],
  drawing: ['fodg', 'html', 'odg', 'pdf', 'svg', 'swf', 'xhtml', 'png'],
};

/** Content-Type of each output extension (IANA / the ODF and OOXML registrations). */
export const OUTPUT_MIME_TYPES: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  svg: 'image/svg+xml',
  swf: 'application/x-shockwave-flash',
  html: 'text/html; charset=utf-8',
  xhtml: 'application/xhtml+xml',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  rtf: 'application/rtf',
  odt: 'application/vnd.oasis.opendocument.text',
  ott: 'application/vnd.oasis.opendocument.text-template',
  fodt: 'application/vnd.oasis.opendocument.text-flat-xml',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  ots: 'application/vnd.oasis.opendocument.spreadsheet-template',
  fods: 'application/vnd.oasis.opendocument.spreadsheet-flat-xml',
  odp: 'application/vnd.oasis.opendocument.presentation',
  otp: 'application/vnd.oasis.opendocument.presentation-template',
  fodp: 'application/vnd.oasis.opendocument.presentation-flat-xml',
  odg: 'application/vnd.oasis.opendocument.graphics',
  fodg: 'application/vnd.oasis.opendocument.graphics-flat-xml',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  docm: 'application/vnd.ms-word.document.macroEnabled.12',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xlsm: 'application/vnd.ms-excel.sheet.macroEnabled.12',
  ppt: 'application/vnd.ms-powerpoint',
  pps: 'application/vnd.ms-powerpoint',
  pot: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  pptm: 'application/vnd.ms-powerpoint.presentation.macroEnabled.12',
  potm: 'application/vnd.ms-powerpoint.template.macroEnabled.12',
};

/**
 * Outputs the spec lists that LibreOffice cannot write (its Flash export was removed in 7.0; 25.2 has none): asking for
 * them is answered with unsupported_format and this reason instead of a failed conversion.
 */
export const UNAVAILABLE_OUTPUTS: Readonly<Record<string, string>> = { swf: 'LibreOffice has no Flash (swf) export (removed in 7.0)' };

/** A conversion target: the extension written, the saveAs format given to LibreOfficeKit, the Content-Type. */
export interface ConversionTarget {
  kind: DocumentKind;
  extension: string;
  lokFormat: string;
  mimeType: string;
}

const KIND_OF = new Map<string, DocumentKind>(Object.entries(INPUT_EXTENSIONS).flatMap(([kind, exts]) => exts.map((e) => [e, kind as DocumentKind])));

/** The kind of an input extension (lower case, no dot), or undefined when the spec does not list it. */
export function kindOfExtension(ext: string): DocumentKind | undefined {
  return KIND_OF.get(ext.toLowerCase());
}

/** The output formats of a kind that this LibreOffice can write (the spec's list less UNAVAILABLE_OUTPUTS). */
export function outputFormatsFor(kind: DocumentKind): string[] {
  return OUTPUT_FORMATS[kind].filter((f) => !(f in UNAVAILABLE_OUTPUTS));
}

/** The target for converting a `kind` document to `format`, or undefined when the pair is not offered. */
export function exportTargetFor(kind: DocumentKind, format: string): ConversionTarget | undefined {
  const f = format.toLowerCase();
  if (!OUTPUT_FORMATS[kind].includes(f) || f in UNAVAILABLE_OUTPUTS) return undefined;
  return { kind, extension: f, lokFormat: f, mimeType: OUTPUT_MIME_TYPES[f] ?? 'application/octet-stream' };
}
