/**
 * The checks a file passes before a kit or the structure engine sees it (issue 17, "limits before LibreOffice"):
 * a zip package's entry count, total uncompressed size and per-entry compression ratio from its central
 * directory; the real inflated size and CRC-32 of every entry (a lying directory is caught while inflating, with a
 * cap; a damaged entry is refused);
 * the element depth of every XML part, flat ODF included; and a type sniff for the formats LibreOffice would
 * otherwise guess at for a long time (RTF, PowerPoint 97, flat ODF, and the drawings and images that have a magic
 * number: PNG, GIF, JPEG, TIFF, BMP, EMF, WMF, WPG, CorelDRAW, DXF, SVG). Runs in a structure worker thread
 * (engine-tasks.ts): the inflating and parsing never block the daemon's event loop.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { crc32 } from 'node:zlib';
import { SaxesParser } from 'saxes';
import yauzl from 'yauzl';
import { ZIP_PACKAGE_EXTENSIONS } from '../convert/container-check.ts';

/** The limits of a package check (limits.* in ode.yaml). */
export interface PackageLimits {
  /** Deepest element nesting in any XML part (limits.xml_depth). */
  xmlDepth: number;
  /** Sum of uncompressed sizes, bytes (limits.package.max_uncompressed_mb). */
  maxUncompressedBytes: number;
  /** Entries (limits.package.max_entries). */
  maxEntries: number;
  /** Uncompressed/compressed ratio of one entry larger than RATIO_FLOOR (limits.package.max_ratio). */
  maxRatio: number;
}

/** A refused file: a catalogue code (daemon/server/errors.ts) and a message naming the limit. */
export class PackageRefusal extends Error {
  constructor(
    readonly code: 'package_too_large' | 'xml_too_deep' | 'load_failed',
    message: string,
  ) {
    super(message);
  }
}

/** Entries smaller than this (uncompressed bytes) are not held to the ratio: a tiny part may compress very well. */
const RATIO_FLOOR = 1024 * 1024;

/** Flat (single XML file) ODF documents: must be XML, and are parsed for depth and well-formedness. */
const FLAT_XML = new Set(['fodt', 'fods', 'fodp', 'fodg']);

/** Parts read as XML inside a package. */
const XML_PART = /(\.xml|\.rels)$/i;

/**
 * Checks the file at `path` (extension `ext`, lower case) against `limits`.
 * @throws PackageRefusal package_too_large (entries, total size, ratio, an entry inflating past its declared size),
 *   xml_too_deep, load_failed (a zip package whose central directory cannot be read, a flat ODF file that is not
 *   well-formed XML, an RTF without `{\rtf`, a .ppt that is not an OLE2 compound file, a drawing or image without
 *   its format's magic number).
 */
export async function checkPackage(path: string, ext: string, limits: PackageLimits): Promise<void> {
  if (ZIP_PACKAGE_EXTENSIONS.has(ext)) return checkZip(path, limits);
  await sniff(path, ext);
  if (FLAT_XML.has(ext)) await checkXmlStream(createReadStream(path), ext, limits.xmlDepth);
}

const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** Starts with these bytes (hex). */
const startsWith =
  (...hex: string[]) =>
  (head: Buffer): boolean =>
    hex.some((h) => head.subarray(0, h.length / 2).equals(Buffer.from(h, 'hex')));

/**
 * Drawings and images opened in Draw, by extension: the test their first bytes must pass and the format's name.
 * The magic numbers are the formats' own (PNG: ISO/IEC 15948 signature; GIF87a/89a; JPEG SOI + marker; TIFF byte
 * order + 42; BMP "BM"; EMF: EMR_HEADER record type 1 with the " EMF" signature at byte 40; WMF: the placeable
 * header key or a META_HEADER of type 1/2, header size 9; WPG: FF "WPC"; CorelDRAW: RIFF (3 to X3), a zip (X4 and later) or "WL"
 * (1-2); DXF: "AutoCAD Binary DXF" or an ASCII group code (a number) on the first line; SVG: XML or gzip (svgz)).
 * Random bytes under these names made LibreOffice try every graphic filter, then its text import, for 5-14 s at
 * load 20 (bad-input test, 26 Nov), and answer 200 with a PDF of the bytes as text.
 */
const DRAWING_MAGIC: Readonly<Record<string, { test: (head: Buffer, text: string) => boolean; name: string }>> = {
  png: { test: startsWith('89504e470d0a1a0a'), name: 'a PNG image' },
  gif: { test: startsWith('474946383761', '474946383961'), name: 'a GIF image' },
  jpg: { test: startsWith('ffd8ff'), name: 'a JPEG image' },
  jpeg: { test: startsWith('ffd8ff'), name: 'a JPEG image' },
  tiff: { test: startsWith('49492a00', '4d4d002a'), name: 'a TIFF image' },
  tif: { test: startsWith('49492a00', '4d4d002a'), name: 'a TIFF image' },
  bmp: { test: startsWith('424d'), name: 'a BMP image' },
  emf: { test: (h) => startsWith('01000000')(h) && h.subarray(40, 44).toString('latin1') === ' EMF', name: 'an EMF metafile' },
  wmf: { test: startsWith('d7cdc69a', '01000900', '02000900'), name: 'a WMF metafile' },
  wpg: { test: startsWith('ff575043'), name: 'a WordPerfect graphic' },
  cdr: { test: startsWith('52494646', '574c', '504b0304'), name: 'a CorelDRAW drawing' },
  dxf: { test: (_h, text) => text.startsWith('AutoCAD Binary DXF') || /^-?\d+[ \t]*\r?\n/.test(text), name: 'a DXF drawing' },
  svg: { test: (h, text) => text.startsWith('<') || startsWith('1f8b')(h), name: 'an SVG drawing' },
};

/**
 * A type sniff where LibreOffice's own type detection, given bytes that are not the named type, tries every
 * import filter in turn (tens of seconds for random bytes named .rtf; a 500 for random bytes named .ppt).
 */
async function sniff(path: string, ext: string): Promise<void> {
  const head = await readHead(path, 64);
  const text = head
    .toString('latin1')
    .replace(/^\xef\xbb\xbf/, '')
    .trimStart();
  if (ext === 'rtf' && !text.startsWith('{\\rtf')) throw new PackageRefusal('load_failed', 'The file is not an RTF document: it does not start with "{\\rtf".');
  if ((ext === 'ppt' || ext === 'pps' || ext === 'pot') && !head.subarray(0, 8).equals(OLE2))
    throw new PackageRefusal('load_failed', `The file is not a PowerPoint 97-2003 .${ext}: it is not an OLE2 compound file.`);
  if (FLAT_XML.has(ext) && !text.startsWith('<')) throw new PackageRefusal('load_failed', `The file is not a flat ODF .${ext} document: it is not XML.`);
  const drawing = DRAWING_MAGIC[ext];
  if (drawing && !drawing.test(head, text))
    throw new PackageRefusal('load_failed', `The file is not ${drawing.name} (.${ext}): its first bytes are not the format's.`);
}

function readHead(path: string, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    createReadStream(path, { start: 0, end: n - 1 })
      .on('data', (c) => chunks.push(c as Buffer))
      .on('end', () => resolve(Buffer.concat(chunks)))
      .on('error', reject);
  });
}

/**
 * Counts the element depth of an XML part fed to it in chunks (saxes, no positions kept); the first refusal it
 * meets is returned by write() and end(). With `strict`, XML that is not well-formed is refused (flat ODF:
 * LibreOffice cannot load it either); inside a package a part that does not parse is left to the reader (it may be
 * encrypted or binary): parsing stops at the error, its depth is checked up to there.
 */
class DepthCheck {
  private readonly parser = new SaxesParser({ position: false });
  private readonly decoder = new StringDecoder('utf8');
  private depth = 0;
  private stopped = false;
  private refusal: PackageRefusal | undefined;

  constructor(
    private readonly part: string,
    private readonly maxDepth: number,
    private readonly strict: boolean,
  ) {
    this.parser.on('opentag', () => {
      if (++this.depth > this.maxDepth)
        this.refuse(new PackageRefusal('xml_too_deep', `${this.part} nests XML elements deeper than ${this.maxDepth} (limits.xml_depth).`));
    });
    this.parser.on('closetag', () => this.depth--);
    this.parser.on('error', (e) => this.malformed(e));
  }

  /** Feeds `chunk` (bytes of the part, UTF-8); returns the refusal once there is one. */
  write(chunk: Buffer): PackageRefusal | undefined {
    if (this.stopped) return this.refusal;
    try {
      this.parser.write(this.decoder.write(chunk));
    } catch (e) {
      this.malformed(e as Error);
    }
    return this.refusal;
  }

  /** The part ended: returns the refusal, if any (an unclosed document counts as not well-formed). */
  end(): PackageRefusal | undefined {
    if (!this.stopped) {
      try {
        this.parser.close();
      } catch (e) {
        this.malformed(e as Error);
      }
    }
    return this.refusal;
  }

  private malformed(e: Error): void {
    if (this.strict) this.refuse(new PackageRefusal('load_failed', `${this.part} is not well-formed XML: ${e.message.split('\n')[0]}`));
    this.stopped = true;
  }

  private refuse(r: PackageRefusal): void {
    this.refusal ??= r;
    this.stopped = true;
  }
}

/** Streams a flat XML file through a strict DepthCheck; rejects with its refusal. */
function checkXmlStream(stream: Readable, part: string, maxDepth: number): Promise<void> {
  const check = new DepthCheck(part, maxDepth, true);
  return new Promise((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => {
      const refusal = check.write(chunk);
      if (refusal) stream.destroy(refusal);
    });
    stream.on('end', () => {
      const refusal = check.end();
      if (refusal) reject(refusal);
      else resolve();
    });
    stream.on('error', (e) => reject(e));
  });
}

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // A package whose central directory cannot be read is refused here: LibreOffice, run headless, does not repair
    // it either (corpus: truncated62886.docx), and on some damaged directories it searches until its time limit.
    yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: false, strictFileNames: false }, (err, zip) =>
      err ? reject(new PackageRefusal('load_failed', `The zip package is damaged: ${err.message}.`)) : resolve(zip),
    );
  });
}

async function checkZip(path: string, limits: PackageLimits): Promise<void> {
  const head = await readHead(path, 8);
  // Encrypted OOXML is an OLE2 compound file, not a zip (MS-OFFCRYPTO): LibreOffice decrypts it with the password.
  if (head.equals(OLE2)) return;
  const zip = await openZip(path);
  try {
    if (zip.entryCount > limits.maxEntries)
      throw new PackageRefusal(
        'package_too_large',
        `The package has ${zip.entryCount} entries; the limit is ${limits.maxEntries} (limits.package.max_entries).`,
      );
    const entries = await listEntries(zip);
    let total = 0;
    for (const e of entries) {
      total += e.uncompressedSize;
      if (total > limits.maxUncompressedBytes)
        throw new PackageRefusal(
          'package_too_large',
          `The package inflates to more than ${mb(limits.maxUncompressedBytes)} MB (limits.package.max_uncompressed_mb).`,
        );
      if (e.uncompressedSize > RATIO_FLOOR && e.uncompressedSize > limits.maxRatio * Math.max(1, e.compressedSize)) {
        throw new PackageRefusal(
          'package_too_large',
          `${e.fileName} inflates ${Math.round(e.uncompressedSize / Math.max(1, e.compressedSize))} times (${mb(e.uncompressedSize)} MB); the limit is ${limits.maxRatio} (limits.package.max_ratio).`,
        );
      }
    }
    for (const e of entries) {
      if (e.isEncrypted() || (e.compressionMethod !== 0 && e.compressionMethod !== 8) || e.fileName.endsWith('/')) continue;
      // Every entry inflates to its declared size and CRC-32: a damaged entry can keep LibreOffice searching
      // until its time limit (a corrupted .odp: 504 after load_secs), so it is refused here.
      // XML parts are depth-checked from the same inflate (one pass per entry).
      await verifyEntry(zip, e, XML_PART.test(e.fileName) ? new DepthCheck(e.fileName, limits.xmlDepth, false) : undefined);
    }
  } finally {
    zip.close();
  }
}

const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));

function listEntries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on('entry', (e: yauzl.Entry) => {
      entries.push(e);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', (e: Error) => reject(new PackageRefusal('load_failed', `The zip package's directory is damaged: ${e.message}.`)));
    zip.readEntry();
  });
}

function openEntry(zip: yauzl.ZipFile, e: yauzl.Entry): Promise<Readable | undefined> {
  return new Promise((resolve) => zip.openReadStream(e, (err, s) => resolve(err ? undefined : s)));
}

/**
 * Inflates an entry, checking its size against the directory (as it goes) and its CRC-32 (at the end), and feeds
 * the bytes to `xml` (an XML part's depth check) when given.
 */
async function verifyEntry(zip: yauzl.ZipFile, e: yauzl.Entry, xml?: DepthCheck): Promise<void> {
  const stream = await openEntry(zip, e);
  if (!stream) throw new PackageRefusal('load_failed', `The zip package is damaged: ${e.fileName} cannot be read.`);
  let crc = 0;
  await new Promise<void>((resolve, reject) => {
    capped(stream, e)
      .on('data', (chunk: Buffer) => {
        crc = crc32(chunk, crc);
        const refusal = xml?.write(chunk);
        if (refusal) stream.destroy(refusal);
      })
      .on('end', () => {
        const refusal = xml?.end();
        if (refusal) reject(refusal);
        else resolve();
      })
      .on('error', (err: Error) =>
        reject(
          err instanceof PackageRefusal
            ? err
            : new PackageRefusal('load_failed', `The zip package is damaged: ${e.fileName} does not inflate (${err.message}).`),
        ),
      );
  });
  if (crc >>> 0 !== e.crc32 >>> 0) throw new PackageRefusal('load_failed', `The zip package is damaged: ${e.fileName} fails its CRC-32 check.`);
}

/** Passes an entry's inflated bytes on, failing the stream as soon as they exceed the size the directory declared. */
function capped(stream: Readable, e: yauzl.Entry): Readable {
  let seen = 0;
  stream.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > e.uncompressedSize)
      stream.destroy(new PackageRefusal('package_too_large', `${e.fileName} inflates past the ${e.uncompressedSize} bytes its zip directory declares.`));
  });
  return stream;
}
