import { unzipSync } from 'fflate';
import yauzl from 'yauzl';
import { StructureError } from '../errors.ts';
import { isStrictPackage, toStrict, toTransitional } from './strict-namespaces.ts';
import { entryOf, writeZip, type ZipEntry } from './zip-writer.ts';

/**
 * A zip package (OOXML: ECMA-376 Part 2 OPC; ODF 1.3 Part 2) read lazily and written back preserving what was
 * not touched.
 *
 * Reading: listing reads only the central directory, and a part is inflated the first time it is asked for, so
 * extracting document properties never inflates the document body.
 *
 * Writing: `setPart` / `removePart` record changes; `save()` writes a new archive in the original entry order
 * (new parts at the end, except that an ODF `mimetype` always stays first and stored). Untouched entries are
 * copied as their original compressed bytes with their CRC (no inflate, no deflate): byte for byte the same
 * data, and fast. Changed and new parts are deflated. Headers are written as office suites write them
 * (package/zip-writer.ts: sizes and CRC in the local headers, no data descriptors, no extra fields).
 */
export class ZipPackage {
  private readonly bytes: Uint8Array;
  private readonly cache = new Map<string, Uint8Array>();
  private readonly partNames: string[];
  private readonly changed = new Map<string, Uint8Array>();
  private removed = false;
  /**
   * True for an ISO 29500 Strict OOXML package: its XML parts are read with Transitional namespace URIs and the
   * parts written go back to Strict ones (package/strict-namespaces.ts).
   */
  readonly strict: boolean;
  /**
   * Single-part inflations so far, per folder; past BATCH_AFTER, when at least a quarter of the folder has been
   * wanted, the folder's remaining XML parts are inflated in one pass.
   */
  private readonly singleReads = new Map<string, number>();

  private constructor(bytes: Uint8Array, names: string[]) {
    this.bytes = bytes;
    this.partNames = names;
    this.strict = names.includes('_rels/.rels') && isStrictPackage(this.rawText('_rels/.rels'));
  }

  /**
   * Opens a package.
   * @throws StructureError bad_package when the bytes are not a readable zip archive.
   */
  static open(bytes: Uint8Array): ZipPackage {
    const names: string[] = [];
    try {
      unzipSync(bytes, {
        filter: (file) => {
          names.push(file.name);
          return false;
        },
      });
    } catch (e) {
      throw new StructureError('bad_package', `not a readable zip package: ${(e as Error).message}`);
    }
    if (names.length === 0) throw new StructureError('bad_package', 'the zip package is empty');
    return new ZipPackage(bytes, names);
  }

  /** Part names in archive order (no leading slash, as stored), including parts added since opening. */
  names(): readonly string[] {
    return this.partNames;
  }

  /** True when the part exists. `name` may start with `/` (OPC part names do). */
  has(name: string): boolean {
    return this.partNames.includes(key(name));
  }

  /** The part's bytes (as changed, if it was), or undefined when it does not exist. */
  bytesOf(name: string): Uint8Array | undefined {
    const k = key(name);
    if (!this.partNames.includes(k)) return undefined;
    const edited = this.changed.get(k);
    if (edited) return edited;
    let data = this.cache.get(k);
    if (!data) {
      // fflate reads the whole central directory on every call: for a package whose many parts are wanted (a
      // deck's slides), one pass over the folder's XML parts beats one call per part (aascu.pptx: 54 -> 9 ms).
      // The batch is the part's folder and its _rels: a deck's slides, not its masters and themes too.
      const folder = k.slice(0, k.lastIndexOf('/') + 1).replace(/_rels\/$/, '');
      const inBatch = (name: string) => name.startsWith(folder) && /\.(xml|rels)$/i.test(name) && !name.slice(folder.length).replace(/^_rels\//, '').includes('/');
      const reads = (this.singleReads.get(folder) ?? 0) + 1;
      this.singleReads.set(folder, reads);
      // Only when a good share of the folder is wanted: aascu.pptx reads 9 of its 99 slide layouts.
      const batch = reads > BATCH_AFTER && /\.(xml|rels)$/i.test(k) && reads * 4 >= this.partNames.filter(inBatch).length;
      try {
        const found = unzipSync(this.bytes, { filter: (file) => file.name === k || (batch && inBatch(file.name) && !this.cache.has(file.name)) });
        for (const [name, bytes] of Object.entries(found)) this.cache.set(name, bytes);
        data = found[k];
      } catch (e) {
        throw new StructureError('bad_package', `the part ${k} cannot be inflated: ${(e as Error).message}`, k);
      }
      if (!data) throw new StructureError('bad_package', `the part ${k} is missing from the archive`, k);
    }
    return data;
  }

  /**
   * The part as UTF-8 text, or undefined when it does not exist. The XML parts of a Strict package are given with
   * Transitional namespace URIs.
   */
  textOf(name: string): string | undefined {
    const text = this.rawText(name);
    return text !== undefined && this.strict && isXmlPart(name) ? toTransitional(text) : text;
  }

  private rawText(name: string): string | undefined {
    const data = this.bytesOf(name);
    return data ? new TextDecoder('utf-8').decode(data) : undefined;
  }

  /**
   * Replaces a part, or adds it at the end of the archive. Text is written as UTF-8; XML text given to a Strict
   * package (with Transitional URIs, as it reads) is written with Strict ones.
   */
  setPart(name: string, data: Uint8Array | string): void {
    const k = key(name);
    if (!this.partNames.includes(k)) this.partNames.push(k);
    const text = typeof data === 'string' && this.strict && isXmlPart(k) ? toStrict(data) : data;
    this.changed.set(k, typeof text === 'string' ? new TextEncoder().encode(text) : text);
  }

  /** Removes a part (nothing happens when it does not exist). */
  removePart(name: string): void {
    const k = key(name);
    const i = this.partNames.indexOf(k);
    if (i >= 0) {
      this.partNames.splice(i, 1);
      this.removed = true;
    }
    this.changed.delete(k);
    this.cache.delete(k);
  }

  /** True when a part was set or removed since opening. */
  isModified(): boolean {
    return this.changed.size > 0 || this.removed;
  }

  /**
   * Writes the package: untouched entries as their original compressed bytes, changed ones deflated.
   * @returns the new archive's bytes.
   * @throws StructureError bad_package when an original entry cannot be read.
   */
  async save(): Promise<Uint8Array> {
    const originals = await readRawEntries(this.bytes);
    const order = [...this.partNames];
    const mimetype = order.indexOf('mimetype');
    if (mimetype > 0) order.unshift(...order.splice(mimetype, 1));
    const now = new Date();
    const entries: ZipEntry[] = order.map((name) => {
      const edited = this.changed.get(name);
      const raw = originals.get(name);
      // ODF 1.3 Part 2, 3.3: the mimetype entry is stored uncompressed (an original that was deflated is stored anew).
      if (!edited && raw && !(name === 'mimetype' && raw.compression !== 0)) return { name, ...raw };
      return entryOf(name, edited ?? this.bytesOf(name)!, raw?.mtime ?? now, name === 'mimetype');
    });
    return writeZip(entries);
  }
}

/** Parts inflated one at a time before the rest of the XML parts are inflated together. */
const BATCH_AFTER = 8;

/** XML parts: the ones whose namespaces Strict spells differently. */
function isXmlPart(name: string): boolean {
  return /\.(xml|rels)$/i.test(name);
}

function key(name: string): string {
  return name.replace(/^\//, '');
}

/** One original entry's compressed bytes and the central directory facts needed to copy it. */
type RawEntry = Omit<ZipEntry, 'name'>;

/** Reads every entry's raw (still compressed) bytes with yauzl: central directory, then each local header. */
async function readRawEntries(bytes: Uint8Array): Promise<Map<string, RawEntry>> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const zipfile = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true, decodeStrings: true, validateEntrySizes: false, strictFileNames: false }, (err, z) => (err ? reject(err) : resolve(z))),
  ).catch((e: Error) => {
    throw new StructureError('bad_package', `not a readable zip package: ${e.message}`);
  });
  const entries: yauzl.Entry[] = await new Promise((resolve, reject) => {
    const list: yauzl.Entry[] = [];
    zipfile.on('entry', (entry: yauzl.Entry) => {
      list.push(entry);
      zipfile.readEntry();
    });
    zipfile.on('end', () => resolve(list));
    zipfile.on('error', reject);
    zipfile.readEntry();
  });
  const out = new Map<string, RawEntry>();
  for (const entry of entries) {
    const compression = entry.compressionMethod;
    if (entry.isEncrypted() || (compression !== 0 && compression !== 8)) continue;
    const { fileDataStart } = await zipfile.readLocalFileHeaderPromise(entry, { minimal: true });
    out.set(entry.fileName, {
      data: bytes.subarray(fileDataStart, fileDataStart + entry.compressedSize),
      crc: entry.crc32,
      size: entry.uncompressedSize,
      compression,
      mtime: entry.getLastModDate(),
    });
  }
  zipfile.close();
  return out;
}
