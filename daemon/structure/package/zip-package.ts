import { Zip, ZipDeflate, ZipPassThrough, unzipSync, type ZipInputFile } from 'fflate';
import yauzl from 'yauzl';
import { StructureError } from '../errors.ts';

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
 * data, and fast. Changed and new parts are deflated.
 */
export class ZipPackage {
  private readonly bytes: Uint8Array;
  private readonly cache = new Map<string, Uint8Array>();
  private readonly partNames: string[];
  private readonly changed = new Map<string, Uint8Array>();
  private removed = false;
  /**
   * Single-part inflations so far, per folder; past BATCH_AFTER, when at least a quarter of the folder has been
   * wanted, the folder's remaining XML parts are inflated in one pass.
   */
  private readonly singleReads = new Map<string, number>();

  private constructor(bytes: Uint8Array, names: string[]) {
    this.bytes = bytes;
    this.partNames = names;
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

  /** The part as UTF-8 text, or undefined when it does not exist. */
  textOf(name: string): string | undefined {
    const data = this.bytesOf(name);
    return data ? new TextDecoder('utf-8').decode(data) : undefined;
  }

  /** Replaces a part, or adds it at the end of the archive. Text is written as UTF-8. */
  setPart(name: string, data: Uint8Array | string): void {
    const k = key(name);
    if (!this.partNames.includes(k)) this.partNames.push(k);
    this.changed.set(k, typeof data === 'string' ? new TextEncoder().encode(data) : data);
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
    const chunks: Uint8Array[] = [];
    let failure: Error | undefined;
    const zip = new Zip((err, chunk) => {
      if (err) failure = err;
      else chunks.push(chunk);
    });
    const order = [...this.partNames];
    const mimetype = order.indexOf('mimetype');
    if (mimetype > 0) order.unshift(...order.splice(mimetype, 1));
    for (const name of order) {
      const edited = this.changed.get(name);
      const raw = originals.get(name);
      if (!edited && raw) {
        const file = rawEntry(name, raw);
        zip.add(file);
        file.ondata!(null, raw.data as Uint8Array<ArrayBuffer>, true);
      } else {
        const data = edited ?? this.bytesOf(name)!;
        // ODF 1.3 Part 2, 3.3: the mimetype entry is stored uncompressed.
        const file = name === 'mimetype' ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
        zip.add(file);
        file.push(data, true);
      }
    }
    zip.end();
    if (failure) throw new StructureError('bad_package', `the package cannot be written: ${failure.message}`);
    return concat(chunks);
  }
}

/** Parts inflated one at a time before the rest of the XML parts are inflated together. */
const BATCH_AFTER = 8;

function key(name: string): string {
  return name.replace(/^\//, '');
}

/** One original entry's compressed bytes and the central directory facts needed to copy it. */
interface RawEntry {
  data: Uint8Array;
  crc: number;
  size: number;
  compression: number;
  mtime: Date;
}

/** A zip input that writes already-compressed bytes as they are (fflate's custom ZipInputFile). */
function rawEntry(name: string, raw: RawEntry): ZipInputFile {
  return { filename: name, size: raw.size, crc: raw.crc, compression: raw.compression, mtime: raw.mtime, terminate: () => undefined };
}

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
    if (entry.isEncrypted() || (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)) continue;
    const { fileDataStart } = await zipfile.readLocalFileHeaderPromise(entry, { minimal: true });
    out.set(entry.fileName, {
      data: bytes.subarray(fileDataStart, fileDataStart + entry.compressedSize),
      crc: entry.crc32,
      size: entry.uncompressedSize,
      compression: entry.compressionMethod,
      mtime: entry.getLastModDate(),
    });
  }
  zipfile.close();
  return out;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
