import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { citedKeys } from './citations.ts';

/** A minimal ODF text package (ODF 1.3 Part 2: mimetype first and stored) whose content.xml body is `body`. */
function odt(body: string, textPrefix = 'text'): Uint8Array {
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:${textPrefix}="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3"><office:body><office:text>${body}</office:text></office:body></office:document-content>`;
  const manifest =
    '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>';
  return zipSync({
    mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }],
    'content.xml': strToU8(content),
    'META-INF/manifest.xml': strToU8(manifest),
  });
}

describe('citedKeys (docs/citations.md: the ZOTERO_ITEM bookmarks of the document)', () => {
  it('reads point and range bookmarks in document order, each key once, other bookmarks left out', () => {
    const body =
      '<text:p>See <text:bookmark text:name="ZOTERO_ITEM_ABCD1234_0a1b"/>(Doe, 2020) and ' +
      '<text:bookmark-start text:name="ZOTERO_ITEM_WXYZ9876_ffff"/>(Roe, 2021)<text:bookmark-end text:name="ZOTERO_ITEM_WXYZ9876_ffff"/>.</text:p>' +
      '<text:p><text:bookmark text:name="ZOTERO_ITEM_ABCD1234_1234"/><text:bookmark text:name="_Toc1"/><text:bookmark text:name="ZOTERO_BIBL_00aa"/></text:p>';
    expect(citedKeys(odt(body))).toEqual(['ABCD1234', 'WXYZ9876']);
  });

  it('goes by the namespace, not the prefix', () => {
    expect(citedKeys(odt('<t:p><t:bookmark t:name="ZOTERO_ITEM_QQQQ0000_abcd"/></t:p>', 't'))).toEqual(['QQQQ0000']);
  });

  it('a document without citations has no keys; bytes that are not a package are refused', () => {
    expect(citedKeys(odt('<text:p>Nothing cited</text:p>'))).toEqual([]);
    expect(() => citedKeys(strToU8('not a zip'))).toThrow();
  });
});
