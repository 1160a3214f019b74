/**
 * Hostile documents for the bad-input suite, generated in the test from real corpus packages: XML nested
 * thousands deep, zip bombs (honest, lying about their sizes, too many entries), truncated and corrupted
 * packages, random bytes. Memory stays bounded: the 1.2 GB bomb is never held inflated.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants as zlibConstants, crc32, deflateRawSync } from 'node:zlib';
import { unzipSync, zipSync, type Zippable } from 'fflate';
import { CORPUS } from '../helpers/convert-client.ts';

/** A small valid docx of the corpus whose body the generators replace. */
export const BASE_DOCX = join(CORPUS, 'broken/empty.docx');
/** A small valid odt of the corpus. */
export const BASE_ODT = join(CORPUS, 'properties/metaTest.odt');
/** A small valid pptx of the corpus. */
export const BASE_PPTX = join(CORPUS, 'properties/prProps.pptx');

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** Rebuilds the package at `base` with `replace` parts (ODF `mimetype` first and stored). */
export function repackage(base: string, replace: Record<string, Uint8Array | string>): Buffer {
  const parts = unzipSync(readFileSync(base));
  const out: Zippable = {};
  if (parts.mimetype) out.mimetype = [parts.mimetype, { level: 0 }];
  for (const [name, data] of Object.entries(parts)) if (name !== 'mimetype') out[name] = data;
  for (const [name, data] of Object.entries(replace)) out[name] = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return Buffer.from(zipSync(out, { level: 6 }));
}

/** A docx whose body nests `w:sdt` `depth` deep (issue 17: 100,000 deep kept the daemon at 100 % CPU). */
export function deepDocx(depth: number): Buffer {
  const open = '<w:sdt><w:sdtContent>'.repeat(depth);
  const close = '</w:sdtContent></w:sdt>'.repeat(depth);
  return repackage(BASE_DOCX, {
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body>${open}<w:p/>${close}</w:body></w:document>`,
  });
}

const ODF_NS = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';

/** An odt whose content.xml nests text:section `depth` deep. */
export function deepOdt(depth: number): Buffer {
  return repackage(BASE_ODT, {
    'content.xml': `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS} office:version="1.3"><office:body><office:text>${'<text:section>'.repeat(depth)}<text:p/>${'</text:section>'.repeat(depth)}</office:text></office:body></office:document-content>`,
  });
}

/** A flat ODF text document nesting text:section `depth` deep. */
export function deepFodt(depth: number): Buffer {
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><office:document ${ODF_NS} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text"><office:body><office:text>${'<text:section>'.repeat(depth)}<text:p/>${'</text:section>'.repeat(depth)}</office:text></office:body></office:document>`,
  );
}

/** A pptx whose first slide nests p:grpSp `depth` deep. */
export function deepPptx(depth: number): Buffer {
  const slide = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree>${'<p:grpSp>'.repeat(depth)}${'</p:grpSp>'.repeat(depth)}</p:spTree></p:cSld></p:sld>`;
  const name = Object.keys(unzipSync(readFileSync(BASE_PPTX))).find((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))!;
  return repackage(BASE_PPTX, { [name]: slide });
}

/**
 * A docx whose word/document.xml inflates to `bytes` (1.2 GB in issue 17), built without ever holding it inflated:
 * a 1 MB run of spaces is deflated once with a full flush (byte-aligned, not final, no reference outside itself),
 * and the part's deflate stream is that block repeated, then a final block; its CRC-32 is computed chunk by chunk.
 * With `lieAbout`, the zip's directories then claim the part is that many bytes (a bomb hiding from a
 * directory-only check).
 */
export function bombDocx(bytes: number, lieAbout?: number): Buffer {
  const parts = unzipSync(readFileSync(BASE_DOCX));
  const head = Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body><w:p><w:r><w:t>`);
  const tail = Buffer.from('</w:t></w:r></w:p></w:body></w:document>');
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  const n = Math.floor((bytes - head.length - tail.length) / chunk.length);
  const flush = { finishFlush: zlibConstants.Z_FULL_FLUSH, level: 9 };
  const deflatedChunk = deflateRawSync(chunk, flush);
  const pieces: Buffer[] = [deflateRawSync(head, flush)];
  let crc = crc32(head);
  for (let i = 0; i < n; i++) {
    pieces.push(deflatedChunk);
    crc = crc32(chunk, crc);
  }
  pieces.push(deflateRawSync(tail));
  crc = crc32(tail, crc);
  const entries: ZipEntry[] = Object.entries(parts)
    .filter(([name]) => name !== 'word/document.xml')
    .map(([name, data]) => ({ name, data: deflateRawSync(data), crc: crc32(data), size: data.length }));
  entries.push({ name: 'word/document.xml', data: Buffer.concat(pieces), crc, size: lieAbout ?? head.length + n * chunk.length + tail.length });
  return writeZip(entries);
}

/** One deflated zip entry: its name, compressed bytes, CRC-32 and (declared) uncompressed size. */
interface ZipEntry {
  name: string;
  data: Buffer;
  crc: number;
  size: number;
}

/** A zip (APPNOTE 6.3: local headers with sizes, central directory, end record) of deflated entries. */
function writeZip(entries: ZipEntry[]): Buffer {
  const out: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(e.crc >>> 0, 16);
    dir.writeUInt32LE(e.data.length, 20);
    dir.writeUInt32LE(e.size, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    central.push(dir, name);
    out.push(local, name, e.data);
    offset += 30 + name.length + e.data.length;
  }
  const dirBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dirBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...out, dirBytes, end]);
}

/** A docx with `n` extra empty entries (a package of too many parts). */
export function manyEntriesDocx(n: number): Buffer {
  const extra: Record<string, string> = {};
  for (let i = 0; i < n; i++) extra[`customXml/x${i}.bin`] = '';
  return repackage(BASE_DOCX, extra);
}

/** `bytes` cut to `fraction` of its length. */
export function truncated(bytes: Buffer, fraction: number): Buffer {
  return bytes.subarray(0, Math.max(1, Math.floor(bytes.length * fraction)));
}

/** A copy of `bytes` with `n` random bytes overwritten at `fraction` of its length (fixed seed-free: random). */
export function corrupted(bytes: Buffer, fraction: number, n = 64): Buffer {
  const out = Buffer.from(bytes);
  const at = Math.min(out.length - 1, Math.floor(out.length * fraction));
  randomBytes(Math.min(n, out.length - at)).copy(out, at);
  return out;
}

/** Random bytes that start with none of the magic numbers a document format has (so a sniff cannot succeed). */
export function randomDocumentBytes(n = 4096): Buffer {
  const b = randomBytes(n);
  b[0] = 0x01;
  b[1] = 0x02;
  return b;
}
