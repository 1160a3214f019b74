/**
 * Test documents that name a printer, made from scratch (issue 15, "the print-server stall"): documents written on
 * office desktops carry the printer they were last printed on, and loading one made LibreOffice look that printer
 * up in CUPS (20 s per document when the print server does not answer).
 *
 * - ODT: `settings.xml` with the `PrinterName` and `PrinterSetup` config items, as OpenOffice/LibreOffice write
 *   them; PrinterSetup is VCL's JobSetup stream (vcl/source/gdi/jobset.cxx, the "364" layout: printer, device,
 *   port and driver name fields, then paper and orientation), base64.
 * - DOCX / XLSX / PPTX: the printer settings part (`word|xl|ppt/printerSettings/printerSettings1.bin`, a Windows
 *   DEVMODEW naming the printer) with its relationship (ECMA-376 Part 1, 15.2.15) and content type, as Word, Excel
 *   and PowerPoint write it.
 */
import { strToU8, zipSync, type Zippable } from 'fflate';

/** The printer the documents name. */
export const PRINTER_NAME = 'HP LaserJet 4250 PCL6';

/** A paragraph of text every document shows, to check that the content survived. */
export const PRINTER_DOC_TEXT = 'This document names a printer';

/** VCL's JobSetup stream (JOBSET_FILE364_SYSTEM layout) for `printer` with driver `driver`, A4 portrait. */
export function jobSetup(printer: string, driver = 'SGENPRT'): Buffer {
  const old = Buffer.alloc(64 + 32 + 32 + 32); // ImplOldJobSetupData: printer, device, port, driver names
  old.write(printer.slice(0, 63), 0, 'latin1');
  old.write(driver.slice(0, 31), 64 + 32 + 32, 'latin1');
  const data = Buffer.alloc(2 + 2 + 4 + 2 + 2 + 2 + 4 + 4); // Impl364JobSetupData, little-endian
  data.writeUInt16LE(data.length, 0); // nSize
  data.writeUInt16LE(3, 2); // nSystem: JOBSETUP_SYSTEM_UNIX
  data.writeUInt32LE(0, 4); // nDriverDataLen
  data.writeUInt16LE(0, 8); // nOrientation: portrait
  data.writeUInt16LE(0, 10); // nPaperBin
  data.writeUInt16LE(0, 12); // nPaperFormat: PAPER_A4
  data.writeUInt32LE(21000, 14); // nPaperWidth, 1/100 mm
  data.writeUInt32LE(29700, 18); // nPaperHeight
  const head = Buffer.alloc(4);
  const total = head.length + old.length + data.length;
  head.writeUInt16LE(total, 0); // nLen
  head.writeUInt16LE(0xffff, 2); // JOBSET_FILE364_SYSTEM
  return Buffer.concat([head, old, data]);
}

/** An ODT whose settings.xml names `printer` (PrinterName and PrinterSetup config items). */
export function odtNamingPrinter(printer = PRINTER_NAME): Buffer {
  const office = 'urn:oasis:names:tc:opendocument:xmlns:office:1.0';
  const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="${office}" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">
<office:body><office:text><text:p>${PRINTER_DOC_TEXT}</text:p></office:text></office:body></office:document-content>`;
  const settings = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-settings xmlns:office="${office}" xmlns:config="urn:oasis:names:tc:opendocument:xmlns:config:1.0" office:version="1.2">
<office:settings><config:config-item-set config:name="ooo:configuration-settings">
<config:config-item config:name="PrinterName" config:type="string">${printer}</config:config-item>
<config:config-item config:name="PrinterSetup" config:type="base64Binary">${jobSetup(printer).toString('base64')}</config:config-item>
<config:config-item config:name="PrintPaperFromSetup" config:type="boolean">false</config:config-item>
</config:config-item-set></office:settings></office:document-settings>`;
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">
<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>
<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
<manifest:file-entry manifest:full-path="settings.xml" manifest:media-type="text/xml"/>
</manifest:manifest>`;
  return zip({
    mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }],
    'content.xml': strToU8(content),
    'settings.xml': strToU8(settings),
    'META-INF/manifest.xml': strToU8(manifest),
  });
}

/** A Windows DEVMODEW (220 bytes) naming `printer`, A4, as Office stores in printerSettings1.bin. */
export function devModeW(printer = PRINTER_NAME): Buffer {
  const b = Buffer.alloc(220);
  b.write(printer.slice(0, 31), 0, 'utf16le'); // dmDeviceName WCHAR[32]
  b.writeUInt16LE(0x0401, 64); // dmSpecVersion
  b.writeUInt16LE(0x0600, 66); // dmDriverVersion
  b.writeUInt16LE(220, 68); // dmSize
  b.writeUInt16LE(0, 70); // dmDriverExtra
  b.writeUInt32LE(0x00000001 | 0x00000002 | 0x00000100, 72); // dmFields: ORIENTATION | PAPERSIZE | COPIES
  b.writeInt16LE(1, 76); // dmOrientation: portrait
  b.writeInt16LE(9, 78); // dmPaperSize: DMPAPER_A4
  b.writeInt16LE(1, 88); // dmCopies
  return b;
}

const RELS_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const PRINTER_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/printerSettings';
const OFFICE_DOC_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument';

function rels(items: Array<[string, string, string]>): Uint8Array {
  return strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${RELS_NS}">` +
      items.map(([id, type, target]) => `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`).join('') +
      '</Relationships>',
  );
}

function contentTypes(printerContentType: string, overrides: Array<[string, string]>): Uint8Array {
  return strToU8(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      `<Default Extension="bin" ContentType="${printerContentType}"/>` +
      overrides.map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`).join('') +
      '</Types>',
  );
}

/** A DOCX with `word/printerSettings/printerSettings1.bin` related from the main document part. */
export function docxNamingPrinter(printer = PRINTER_NAME): Buffer {
  const w = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  return zip({
    '[Content_Types].xml': contentTypes('application/vnd.openxmlformats-officedocument.wordprocessingml.printerSettings', [
      ['/word/document.xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml'],
    ]),
    '_rels/.rels': rels([['rId1', OFFICE_DOC_REL, 'word/document.xml']]),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${w}"><w:body><w:p><w:r><w:t>${PRINTER_DOC_TEXT}</w:t></w:r></w:p>` +
        '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>',
    ),
    'word/_rels/document.xml.rels': rels([['rId1', PRINTER_REL, 'printerSettings/printerSettings1.bin']]),
    'word/printerSettings/printerSettings1.bin': devModeW(printer),
  });
}

/** An XLSX whose sheet relates `xl/printerSettings/printerSettings1.bin` from its page setup (r:id). */
export function xlsxNamingPrinter(printer = PRINTER_NAME): Buffer {
  const s = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const r = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  return zip({
    '[Content_Types].xml': contentTypes('application/vnd.openxmlformats-officedocument.spreadsheetml.printerSettings', [
      ['/xl/workbook.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml'],
      ['/xl/worksheets/sheet1.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml'],
    ]),
    '_rels/.rels': rels([['rId1', OFFICE_DOC_REL, 'xl/workbook.xml']]),
    'xl/workbook.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="${s}" xmlns:r="${r}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': rels([['rId1', 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet', 'worksheets/sheet1.xml']]),
    'xl/worksheets/sheet1.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${s}" xmlns:r="${r}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>${PRINTER_DOC_TEXT}</t></is></c></row></sheetData>` +
        '<pageSetup paperSize="9" orientation="portrait" r:id="rId1"/></worksheet>',
    ),
    'xl/worksheets/_rels/sheet1.xml.rels': rels([['rId1', PRINTER_REL, '../printerSettings/printerSettings1.bin']]),
    'xl/printerSettings/printerSettings1.bin': devModeW(printer),
  });
}

/** A PPTX (one slide with a text box) whose presentation part relates `ppt/printerSettings/printerSettings1.bin`. */
export function pptxNamingPrinter(printer = PRINTER_NAME): Buffer {
  const p = 'http://schemas.openxmlformats.org/presentationml/2006/main';
  const a = 'http://schemas.openxmlformats.org/drawingml/2006/main';
  const r = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const rel = (t: string) => `http://schemas.openxmlformats.org/officeDocument/2006/relationships/${t}`;
  const ct = (t: string) => `application/vnd.openxmlformats-officedocument.presentationml.${t}+xml`;
  const spTree = (shapes: string) =>
    `<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shapes}</p:spTree></p:cSld>`;
  const textBox =
    '<p:sp><p:nvSpPr><p:cNvPr id="2" name="Text 1"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>' +
    '<p:spPr><a:xfrm><a:off x="914400" y="914400"/><a:ext cx="7315200" cy="914400"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>' +
    `<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>${PRINTER_DOC_TEXT}</a:t></a:r></a:p></p:txBody></p:sp>`;
  const theme =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<a:theme xmlns:a="${a}" name="T"><a:themeElements>` +
    '<a:clrScheme name="C"><a:dk1><a:srgbClr val="000000"/></a:dk1><a:lt1><a:srgbClr val="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="1F497D"/></a:dk2><a:lt2><a:srgbClr val="EEECE1"/></a:lt2>' +
    '<a:accent1><a:srgbClr val="4F81BD"/></a:accent1><a:accent2><a:srgbClr val="C0504D"/></a:accent2><a:accent3><a:srgbClr val="9BBB59"/></a:accent3><a:accent4><a:srgbClr val="8064A2"/></a:accent4>' +
    '<a:accent5><a:srgbClr val="4BACC6"/></a:accent5><a:accent6><a:srgbClr val="F79646"/></a:accent6><a:hlink><a:srgbClr val="0000FF"/></a:hlink><a:folHlink><a:srgbClr val="800080"/></a:folHlink></a:clrScheme>' +
    '<a:fontScheme name="F"><a:majorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme>' +
    '<a:fmtScheme name="M"><a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:fillStyleLst>' +
    '<a:lnStyleLst><a:ln w="9525"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="9525"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="9525"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln></a:lnStyleLst>' +
    '<a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst>' +
    '<a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:bgFillStyleLst></a:fmtScheme>' +
    '</a:themeElements></a:theme>';
  return zip({
    '[Content_Types].xml': contentTypes('application/vnd.openxmlformats-officedocument.presentationml.printerSettings', [
      ['/ppt/presentation.xml', ct('presentation.main')],
      ['/ppt/slides/slide1.xml', ct('slide')],
      ['/ppt/slideLayouts/slideLayout1.xml', ct('slideLayout')],
      ['/ppt/slideMasters/slideMaster1.xml', ct('slideMaster')],
      ['/ppt/theme/theme1.xml', 'application/vnd.openxmlformats-officedocument.theme+xml'],
    ]),
    '_rels/.rels': rels([['rId1', OFFICE_DOC_REL, 'ppt/presentation.xml']]),
    'ppt/presentation.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:presentation xmlns:a="${a}" xmlns:r="${r}" xmlns:p="${p}">` +
        '<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst><p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst>' +
        '<p:sldSz cx="9144000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>',
    ),
    'ppt/_rels/presentation.xml.rels': rels([
      ['rId1', rel('slideMaster'), 'slideMasters/slideMaster1.xml'],
      ['rId2', rel('slide'), 'slides/slide1.xml'],
      ['rId3', rel('theme'), 'theme/theme1.xml'],
      ['rId4', PRINTER_REL, 'printerSettings/printerSettings1.bin'],
    ]),
    'ppt/slides/slide1.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:sld xmlns:a="${a}" xmlns:r="${r}" xmlns:p="${p}">${spTree(textBox)}</p:sld>`,
    ),
    'ppt/slides/_rels/slide1.xml.rels': rels([['rId1', rel('slideLayout'), '../slideLayouts/slideLayout1.xml']]),
    'ppt/slideLayouts/slideLayout1.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:sldLayout xmlns:a="${a}" xmlns:r="${r}" xmlns:p="${p}" type="blank">${spTree('')}</p:sldLayout>`,
    ),
    'ppt/slideLayouts/_rels/slideLayout1.xml.rels': rels([['rId1', rel('slideMaster'), '../slideMasters/slideMaster1.xml']]),
    'ppt/slideMasters/slideMaster1.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:sldMaster xmlns:a="${a}" xmlns:r="${r}" xmlns:p="${p}">${spTree('')}` +
        '<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>' +
        '<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>',
    ),
    'ppt/slideMasters/_rels/slideMaster1.xml.rels': rels([
      ['rId1', rel('slideLayout'), '../slideLayouts/slideLayout1.xml'],
      ['rId2', rel('theme'), '../theme/theme1.xml'],
    ]),
    'ppt/theme/theme1.xml': strToU8(theme),
    'ppt/printerSettings/printerSettings1.bin': devModeW(printer),
  });
}

function zip(files: Zippable): Buffer {
  return Buffer.from(zipSync(files, { level: 6 }));
}
