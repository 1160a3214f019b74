import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync, zipSync, strToU8, strFromU8, type Zippable } from 'fflate';
import { PNG } from 'pngjs';
import { CORPUS } from '../helpers/convert-client.ts';

const SOURCE = join(CORPUS, 'charts/Text7.odt');
const PICTURE = 'Pictures/100000000000025800000190B2D562FB.jpg';

/**
 * Builds a real ODF text document of about 21 MB at `path`: the corpus's charts/Text7.odt with its photo replaced
 * by a 2300 x 2300 PNG of random pixels (incompressible, so the file stays large in its zip). content.xml and the
 * manifest point at the new picture, so LibreOffice loads, lays out and exports it. Returns the file's size.
 */
export function writeBigOdt(path: string): number {
  const entries = unzipSync(readFileSync(SOURCE));
  const side = 2300;
  const png = new PNG({ width: side, height: side });
  png.data = randomBytes(side * side * 4);
  const pngBytes = PNG.sync.write(png, { deflateLevel: 0 });
  const out: Zippable = {};
  // ODF: `mimetype` first and stored.
  out.mimetype = [entries.mimetype, { level: 0 }];
  for (const [name, bytes] of Object.entries(entries)) {
    if (name === 'mimetype' || name === PICTURE || name.endsWith('/')) continue;
    if (name === 'content.xml' || name === 'META-INF/manifest.xml') {
      const text = strFromU8(bytes)
        .replaceAll(PICTURE, 'Pictures/big.png')
        .replace(/<manifest:file-entry[^>]*Pictures\/big\.png[^>]*>/, (entry) => entry.replace('image/jpeg', 'image/png'));
      if (!text.includes('Pictures/big.png')) throw new Error(`${name} of ${SOURCE} no longer names ${PICTURE}`);
      out[name] = strToU8(text);
    } else out[name] = bytes;
  }
  out['Pictures/big.png'] = [pngBytes, { level: 0 }];
  const zip = zipSync(out);
  writeFileSync(path, zip);
  return zip.length;
}
