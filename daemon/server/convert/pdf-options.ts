/**
 * The PDF export options of the conversion spec ("PDF options shape" and its tables: General; Initial view,
 * user interface and link options; Security; Digital signature), with their types. Names are LibreOffice's
 * PDF export FilterData names.
 */
export type PdfOptionType = 'string' | 'boolean' | 'long';

/** Option name -> type, exactly the spec's tables. */
export const PDF_OPTIONS: Readonly<Record<string, PdfOptionType>> = {
  // General options
  PageRange: 'string',
  UseLosslessCompression: 'boolean',
  Quality: 'long',
  ReduceImageResolution: 'boolean',
  MaxImageResolution: 'long',
  Watermark: 'string',
  WatermarkColor: 'long',
  WatermarkFontName: 'string',
  WatermarkFontHeight: 'long',
  WatermarkRotateAngle: 'long',
  TiledWatermark: 'string',
  SelectPdfVersion: 'long',
  PDFUACompliance: 'boolean',
  IsAddStream: 'boolean',
  ExportFormFields: 'boolean',
  FormsType: 'string',
  AllowDuplicateFieldNames: 'boolean',
  UseTaggedPDF: 'boolean',
  ExportBookmarks: 'boolean',
  ExportNotes: 'boolean',
  ExportNotesInMargin: 'boolean',
  ExportNotesPages: 'boolean',
  ExportOnlyNotesPages: 'boolean',
  ExportHiddenSlides: 'boolean',
  IsSkipEmptyPages: 'boolean',
  ExportPlaceholders: 'boolean',
  SinglePageSheets: 'boolean',
  UseReferenceXObject: 'boolean',
  ExportTrackedChanges: 'boolean',
  // Initial view, user interface and link options
  InitialView: 'long',
  InitialPage: 'long',
  Magnification: 'long',
  Zoom: 'long',
  PageLayout: 'long',
  FirstPageOnLeft: 'boolean',
  ResizeWindowToInitialPage: 'boolean',
  CenterWindow: 'boolean',
  OpenInFullScreenMode: 'boolean',
  DisplayPDFDocumentTitle: 'boolean',
  HideViewerMenubar: 'boolean',
  HideViewerToolbar: 'boolean',
  HideViewerWindowControls: 'boolean',
  OpenBookmarkLevels: 'long',
  UseTransitionEffects: 'boolean',
  ExportBookmarksToPDFDestination: 'boolean',
  ConvertDocTargetToPDFTarget: 'boolean',
  ExportLinksRelativeFsys: 'boolean',
  PDFViewSelection: 'long',
  // Security options (RestrictPermissions: LibreOffice applies Printing/Changes/copying only when it is true)
  EncryptFile: 'boolean',
  DocumentOpenPassword: 'string',
  PermissionPassword: 'string',
  RestrictPermissions: 'boolean',
  Printing: 'long',
  Changes: 'long',
  EnableCopyingOfContent: 'boolean',
  EnableTextAccessForAccessibilityTools: 'boolean',
  // Digital signature options
  SignPDF: 'boolean',
  SignCertificateCertPem: 'string',
  SignCertificateKeyPem: 'string',
  SignCertificateCaPem: 'string',
  SignatureLocation: 'string',
  SignatureReason: 'string',
  SignatureContactInfo: 'string',
  SignaturePassword: 'string',
  SignatureTSA: 'string',
};

/**
 * Allowed values of `SelectPdfVersion` (spec: 1-4 PDF/A-1b..4b, 15/16/17/20 PDF 1.5..2.0; 0 = default 1.7). LibreOffice
 * 25.2 writes every one (PDF/A-4 and PDF 2.0 came after 7.4, which Ode refused them on).
 */
export const PDF_VERSIONS: Readonly<Record<number, string>> = {
  0: 'PDF 1.7 (default)',
  1: 'PDF/A-1b',
  2: 'PDF/A-2b',
  3: 'PDF/A-3b',
  4: 'PDF/A-4b',
  15: 'PDF 1.5',
  16: 'PDF 1.6',
  17: 'PDF 1.7',
  20: 'PDF 2.0',
};

/** The deprecated `PDFVer` field's values (spec: Deprecated parameters) -> SelectPdfVersion. */
export const PDFVER_TO_SELECT: Readonly<Record<string, number>> = {
  'PDF-1.5': 15,
  'PDF-1.6': 16,
  'PDF-1.7': 17,
  'PDF-2.0': 20,
  'PDF/A-1b': 1,
  'PDF/A-2b': 2,
  'PDF/A-3b': 3,
  'PDF/A-4': 4,
};
