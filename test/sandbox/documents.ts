/**
 * Documents that reach outside themselves (issue 18), built in the test from their XML: ODF packages whose
 * content links an image, an OLE object, a section (a file's text) or a spreadsheet's cell to a URL. Each is the
 * smallest package LibreOffice loads: `mimetype` first and stored, the manifest, content.xml.
 */
import { crc32, deflateSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" ' +
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ' +
  'xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3"';

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

/** An ODF package of `mimeType` with `body` (the content of office:body) as content.xml. */
export function odfPackage(mimeType: string, body: string): Uint8Array {
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS}><office:body>${body}</office:body></office:document-content>`;
  const manifest =
    '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">' +
    `<manifest:file-entry manifest:full-path="/" manifest:media-type="${mimeType}"/>` +
    '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>';
  return zipSync({ mimetype: [strToU8(mimeType), { level: 0 }], 'META-INF/manifest.xml': strToU8(manifest), 'content.xml': strToU8(content) }, { level: 6 });
}

const ODT = 'application/vnd.oasis.opendocument.text';
const ODS = 'application/vnd.oasis.opendocument.spreadsheet';

/** A text document showing the image at `url` (linked, not embedded: LibreOffice fetches it to lay it out). */
export function linkedImageOdt(url: string): Uint8Array {
  return odfPackage(
    ODT,
    `<office:text><text:p>image:<draw:frame draw:name="Image1" text:anchor-type="as-char" svg:width="2cm" svg:height="2cm">` +
      `<draw:image xlink:href="${escapeXml(url)}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p></office:text>`,
  );
}

/** A text document with a linked OLE object (a spreadsheet at `url`, shown through its link). */
export function linkedOleOdt(url: string): Uint8Array {
  return odfPackage(
    ODT,
    `<office:text><text:p>object:<draw:frame draw:name="Object1" text:anchor-type="as-char" svg:width="4cm" svg:height="2cm">` +
      `<draw:object xlink:href="${escapeXml(url)}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p></office:text>`,
  );
}

/** A text document whose section is the text of the file at `url` (a section link, as Insert > Section > Link makes). */
export function linkedSectionOdt(url: string): Uint8Array {
  return odfPackage(
    ODT,
    `<office:text><text:p>before</text:p><text:section text:name="Linked1"><text:section-source xlink:href="${escapeXml(url)}" xlink:type="simple"/>` +
      `<text:p>stale</text:p></text:section><text:p>after</text:p></office:text>`,
  );
}

/** A spreadsheet whose A1 is an external reference to Sheet1.A1 of the spreadsheet at `url`. */
export function externalRefOds(url: string): Uint8Array {
  const ref = `'${url}'#$Sheet1.A1`;
  return odfPackage(
    ODS,
    `<office:spreadsheet><table:table table:name="Sheet1"><table:table-row><table:table-cell table:formula="of:=[${escapeXml(ref)}]" office:value-type="float" office:value="0"><text:p>0</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet>`,
  );
}

/** A spreadsheet whose A1 is `=WEBSERVICE(url)` (a web query in a formula). */
export function webServiceOds(url: string): Uint8Array {
  return odfPackage(
    ODS,
    `<office:spreadsheet><table:table table:name="Sheet1"><table:table-row><table:table-cell table:formula="of:=COM.MICROSOFT.WEBSERVICE(&quot;${escapeXml(url)}&quot;)" office:value-type="string"><text:p>-</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet>`,
  );
}

/** A spreadsheet whose first sheet is linked to Sheet1 of the spreadsheet at `url` (a sheet link). */
export function linkedSheetOds(url: string): Uint8Array {
  return odfPackage(
    ODS,
    `<office:spreadsheet><table:table table:name="Sheet1"><table:table-source xlink:type="simple" xlink:href="${escapeXml(url)}" table:table-name="Sheet1" table:mode="copy-results-only"/><table:table-row><table:table-cell office:value-type="string"><text:p>stale</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet>`,
  );
}

/** A `size` x `size` px opaque red PNG (RFC 2083: IHDR, one IDAT, IEND). */
export function redPng(size = 16): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, Buffer.from([255, 0, 0]))]);
  const idat = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
