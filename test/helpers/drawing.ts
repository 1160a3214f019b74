/**
 * A small ODF drawing made in the test (the corpus has no drawing): two pages, "One" with a rectangle holding
 * `text` and "Two" with an ellipse; the mimetype first and stored, as ODF requires.
 */
import { strToU8, zipSync } from 'fflate';

/** The bytes of a two-page .odg whose first page's rectangle holds `text`. */
export function twoPageDrawing(text = 'Drawn for a phone'): Uint8Array {
  const ns =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"';
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ns} office:version="1.3"><office:body><office:drawing><draw:page draw:name="One"><draw:rect svg:x="2cm" svg:y="2cm" svg:width="12cm" svg:height="5cm"><text:p>${text}</text:p></draw:rect></draw:page><draw:page draw:name="Two"><draw:ellipse svg:x="3cm" svg:y="3cm" svg:width="8cm" svg:height="8cm"/></draw:page></office:drawing></office:body></office:document-content>`;
  const manifest =
    '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.graphics"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>';
  return zipSync({
    mimetype: [strToU8('application/vnd.oasis.opendocument.graphics'), { level: 0 }],
    'content.xml': strToU8(content),
    'META-INF/manifest.xml': strToU8(manifest),
  });
}
