/**
 * What discovery lists beyond the spec's input table, so that its MIME-type apps are a superset of Collabora
 * Online's `discovery.xml` for every format LibreOffice opens (hosts such as Nextcloud's richdocuments look the
 * editor up with `app[@name=<mimetype>]/action[1]`; docs/hosts.md).
 */
import type { DocumentKind } from '../formats/tables.ts';

/**
 * Formats LibreOffice 25.2 opens that the spec's input table does not list, by kind (checked by opening a file of
 * each with soffice: a Lotus WordPro document, Markdown (read as plain text), Excel add-ins and 97 templates,
 * PowerPoint shows, macro shows and add-ins).
 */
export const EXTRA_INPUT_EXTENSIONS: Readonly<Record<DocumentKind, readonly string[]>> = {
  text: ['lwp', 'md'],
  spreadsheet: ['xlt', 'xlam'],
  presentation: ['pps', 'ppsm', 'ppam'],
  drawing: [],
};

/**
 * Input formats LibreOffice writes back with the filter it read them with, beyond the spec's output table (so
 * `.uno:Save` keeps the file's format): Word 97 templates, Excel 97 add-ins, PowerPoint templates and shows,
 * DIF, SYLK, dBase, and the ODF master, web and drawing templates. Collabora's discovery lists each as `edit`.
 * Not here: xlsb (LibreOffice has no export filter for it: Ode lists it `view`, Collabora `edit`).
 */
export const SAVES_IN_PLACE: ReadonlySet<string> = new Set(['dot', 'xla', 'potx', 'ppsx', 'pps', 'dif', 'slk', 'dbf', 'odm', 'otm', 'oth', 'otg']);

/** MIME types of the extra input formats above (Collabora's names). */
export const EXTRA_MIME_TYPES: Readonly<Record<string, string>> = {
  lwp: 'application/vnd.lotus-wordpro',
  md: 'text/markdown',
  xlt: 'application/vnd.ms-excel',
  xlam: 'application/vnd.ms-excel.addin.macroEnabled.12',
  pps: 'application/vnd.ms-powerpoint',
  ppsm: 'application/vnd.ms-powerpoint.slideshow.macroEnabled.12',
  ppam: 'application/vnd.ms-powerpoint.addin.macroEnabled.12',
};

/**
 * Further MIME types hosts send for formats discovery already lists, by extension: the names Collabora's
 * discovery.xml and freedesktop's shared-mime-info use next to the registered ones (Nextcloud and ownCloud
 * detect MIME types with their own tables, which use these).
 */
export const MIME_ALIASES: Readonly<Record<string, readonly string[]>> = {
  rtf: ['text/rtf'],
  slk: ['text/spreadsheet'],
  cgm: ['image/cgm'],
  dxf: ['image/vnd.dxf'],
  emf: ['image/x-emf'],
  wmf: ['image/x-wmf'],
  wpg: ['image/x-wpg'],
  fh: ['image/x-freehand'],
  jpg: ['image/jpg'],
  pages: ['application/x-iwork-pages-sffpages'],
  numbers: ['application/x-iwork-numbers-sffnumbers'],
  key: ['application/x-iwork-keynote-sffkey'],
  vsd: ['application/vnd.visio2013'],
  vss: ['application/vnd.visio'],
  cdr: ['application/vnd.corel-draw'],
  pdb: ['application/x-aportisdoc', 'application/prs.plucker', 'application/vnd.palm'],
  wps: ['application/vnd.ms-works'],
  wri: ['application/x-mswrite'],
  dif: ['application/x-dif-document'],
  dbf: ['application/x-dbase'],
  wk1: ['application/vnd.lotus-1-2-3'],
  lrf: ['application/x-sony-bbeb'],
  mw: ['application/macwriteii'],
  p65: ['application/x-pagemaker'],
  fb2: ['application/x-fictionbook+xml'],
  cwk: ['application/clarisworks'],
  '602': ['application/x-t602'],
  stw: ['application/vnd.sun.xml.writer.web'],
  xla: ['application/vnd.ms-excel'],
};
