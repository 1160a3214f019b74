import { inflateRawSync } from 'node:zlib';
import { StructureError } from '../errors.ts';
import { isStrictPackage, toStrict, toTransitional } from './strict-namespaces.ts';
import { entryOf, writeZip, type ZipEntry } from './zip-writer.ts';

/**
 * A zip package (OOXML: ECMA-376 Part 2 OPC; ODF 1.3 Part 2) read lazily and written back preserving what was
 * not touched.
 *
 * Reading: opening reads only the central directory (one synchronous pass, `readDirectory`), and a part is
 * inflated (node:zlib) the first time it is asked for, so extracting document properties never inflates the
 * document body.
 *
 * Writing: `setPart` / `removePart` record changes; `save()` writes a new archive in the original entry order
 * (new parts at the end, except that an ODF `mimetype` always stays first and stored). Untouched entries are
 * copied as their original compressed bytes with their CRC (no inflate, no deflate): byte for byte the same
 * data, and fast. Changed and new parts are deflated. Headers are written as office suites write them
 * (package/zip-writer.ts: sizes and CRC in the local headers, no data descriptors, no extra fields).
 */
export class ZipPackage {
  private readonly entries: Map<string, DirectoryEntry>;
  private readonly cache = new Map<string, Uint8Array>();
  /** The text of parts read as text (textOf), as it returns it; dropped when the part changes. */
  private readonly texts = new Map<string, string>();
  private readonly partNames: string[];
  private readonly nameSet: Set<string>;
  private readonly changed = new Map<string, Uint8Array>();
  private removed = false;
  /**
   * True for an ISO 29500 Strict OOXML package: its XML parts are read with Transitional namespace URIs and the
   * parts written go back to Strict ones (package/strict-namespaces.ts).
   */
  readonly strict: boolean;

  private constructor(entries: DirectoryEntry[]) {
    this.partNames = entries.map((e) => e.name);
    this.nameSet = new Set(this.partNames);
    this.entries = new Map(entries.map((e) => [e.name, e]));
    this.strict = this.nameSet.has('_rels/.rels') && isStrictPackage(this.rawText('_rels/.rels'));
  }

  /**
   * Opens a package.
   * @throws StructureError bad_package when the bytes are not a readable zip archive.
   */
  static open(bytes: Uint8Array): ZipPackage {
    const entries = readDirectory(bytes);
    if (entries.length === 0) throw new StructureError('bad_package', 'the zip package is empty');
    return new ZipPackage(entries);
  }

  /** Part names in archive order (no leading slash, as stored), including parts added since opening. */
  names(): readonly string[] {
    return this.partNames;
  }

  /** True when the part exists. `name` may start with `/` (OPC part names do). */
  has(name: string): boolean {
    return this.nameSet.has(key(name));
  }

  /**
   * The part's bytes (as changed, if it was), or undefined when it does not exist.
   * @throws StructureError bad_package when the part cannot be inflated (encrypted, an unknown method, bad data).
   */
  bytesOf(name: string): Uint8Array | undefined {
    const k = key(name);
    if (!this.nameSet.has(k)) return undefined;
    const edited = this.changed.get(k);
    if (edited) return edited;
    let data = this.cache.get(k);
    if (!data) {
      const entry = this.entries.get(k);
      if (!entry) throw new StructureError('bad_package', `the part ${k} is missing from the archive`, k);
      data = inflate(entry);
      this.cache.set(k, data);
    }
    return data;
  }

  /**
   * The part as UTF-8 text, or undefined when it does not exist. The XML parts of a Strict package are given with
   * Transitional namespace URIs.
   */
  textOf(name: string): string | undefined {
    const k = key(name);
    const hit = this.texts.get(k);
    if (hit !== undefined) return hit;
    const raw = this.rawText(k);
    const text = raw !== undefined && this.strict && isXmlPart(k) ? toTransitional(raw) : raw;
    // decoded once per part: every reader of a part (trees, views, DOMs, relationships) asks for its text
    if (text !== undefined) this.texts.set(k, text);
    return text;
  }

  /**
   * The part for a streaming read (xml/stream.ts `XmlSource`): its text when it was decoded already, is under
   * `LARGE_PART` bytes, or is an XML part of a Strict package (whose namespaces are rewritten in the text), else its
   * bytes, which the stream decodes piece by piece; undefined when it does not exist. With `keep` false, what is
   * inflated and decoded now is not kept for later reads (for a part read once: less for the garbage collector).
   * @throws StructureError bad_package when the part cannot be inflated.
   */
  sourceOf(name: string, keep = true): string | Uint8Array | undefined {
    const k = key(name);
    const hit = this.texts.get(k);
    if (hit !== undefined) return hit;
    if (!keep && !this.cache.has(k) && !this.changed.has(k) && this.nameSet.has(k) && !(this.strict && isXmlPart(k))) {
      const entry = this.entries.get(k);
      if (entry) {
        const data = inflate(entry);
        return data.length < LARGE_PART ? UTF8.decode(data) : data;
      }
    }
    const data = this.bytesOf(k);
    if (data === undefined || data.length < LARGE_PART || (this.strict && isXmlPart(k))) return this.textOf(k);
    return data;
  }

  private rawText(name: string): string | undefined {
    const data = this.bytesOf(name);
    return data ? UTF8.decode(data) : undefined;
  }

  /**
   * Replaces a part, or adds it at the end of the archive. Text is written as UTF-8; XML text given to a Strict
   * package (with Transitional URIs, as it reads) is written with Strict ones.
   */
  setPart(name: string, data: Uint8Array | string): void {
    const k = key(name);
    if (!this.nameSet.has(k)) {
      this.partNames.push(k);
      this.nameSet.add(k);
    }
    const text = typeof data === 'string' && this.strict && isXmlPart(k) ? toStrict(data) : data;
    this.changed.set(k, typeof text === 'string' ? new TextEncoder().encode(text) : text);
    this.texts.delete(k);
  }

  /** Removes a part (nothing happens when it does not exist). */
  removePart(name: string): void {
    const k = key(name);
    const i = this.partNames.indexOf(k);
    if (i >= 0) {
      this.partNames.splice(i, 1);
      this.nameSet.delete(k);
      this.removed = true;
    }
    this.changed.delete(k);
    this.cache.delete(k);
    this.texts.delete(k);
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
    const order = [...this.partNames];
    const mimetype = order.indexOf('mimetype');
    if (mimetype > 0) order.unshift(...order.splice(mimetype, 1));
    const now = new Date();
    const entries: ZipEntry[] = order.map((name) => {
      const edited = this.changed.get(name);
      const raw = this.entries.get(name)?.raw;
      // ODF 1.3 Part 2, 3.3: the mimetype entry is stored uncompressed (an original that was deflated is stored anew).
      if (!edited && raw && !(name === 'mimetype' && raw.compression !== 0)) return { name, ...raw };
      return entryOf(name, edited ?? this.bytesOf(name)!, raw?.mtime ?? now, name === 'mimetype');
    });
    return writeZip(entries);
  }
}

const UTF8 = new TextDecoder('utf-8');

/**
 * Parts from this size (bytes) are streamed from their bytes (`sourceOf`): as one string, V8 would place them in its
 * large-object space (a string over 128 kB; 64 k characters when one is outside Latin-1), slow to make.
 */
export const LARGE_PART = 64 * 1024;

/** XML parts: the ones whose namespaces Strict spells differently. */
function isXmlPart(name: string): boolean {
  return /\.(xml|rels)$/i.test(name);
}

function key(name: string): string {
  return name.replace(/^\//, '');
}

/** One original entry's compressed bytes and the central directory facts needed to copy it. */
type RawEntry = Omit<ZipEntry, 'name'>;

/** An entry of the central directory: its name, and its raw entry when it can be copied and inflated. */
interface DirectoryEntry {
  name: string;
  /** Undefined for an encrypted entry or a method other than stored (0) and deflate (8). */
  raw?: RawEntry;
}

/**
 * The uncompressed bytes of an entry (node:zlib for deflate).
 * @throws StructureError bad_package when it is encrypted, of another method, or its data does not inflate.
 */
function inflate(entry: DirectoryEntry): Uint8Array {
  const raw = entry.raw;
  if (!raw)
    throw new StructureError(
      'bad_package',
      `the part ${entry.name} cannot be inflated: it is encrypted or compressed by a method other than deflate`,
      entry.name,
    );
  if (raw.compression === 0) return raw.data;
  try {
    return inflateRawSync(raw.data);
  } catch (e) {
    throw new StructureError('bad_package', `the part ${entry.name} cannot be inflated: ${(e as Error).message}`, entry.name);
  }
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * Reads the central directory and the local headers (APPNOTE 4.3.6-4.3.16; ZIP64 records and extra fields 4.3.14,
 * 4.5.3) in one synchronous pass over `bytes`: every entry in directory order, names as UTF-8 with flag bit 11,
 * else Latin-1, with its raw (still compressed) bytes unless it is encrypted or of a method other than stored and
 * deflate.
 * @throws StructureError bad_package when the archive's records are not where they say.
 */
function readDirectory(bytes: Uint8Array): DirectoryEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bad = (why: string) => new StructureError('bad_package', `not a readable zip package: ${why}`);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  const u64 = (at: number) => u32(at) + u32(at + 4) * 0x100000000;
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (u32(at) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw bad('no end of central directory record');
  let count = u16(eocd + 10);
  let at = u32(eocd + 16);
  if ((count === 0xffff || at === 0xffffffff) && eocd >= 20 && u32(eocd - 20) === EOCD64_LOCATOR) {
    const record = u64(eocd - 20 + 8);
    if (record + 56 > bytes.length || u32(record) !== EOCD64) throw bad('no ZIP64 end of central directory record');
    count = u64(record + 32);
    at = u64(record + 48);
  }
  const latin1 = new TextDecoder('latin1');
  const utf8 = new TextDecoder('utf-8');
  const out: DirectoryEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || u32(at) !== CENTRAL) throw bad(`central directory entry ${i} is not where the directory says`);
    const flags = u16(at + 8);
    const compression = u16(at + 10);
    const dosTime = ((u16(at + 14) << 16) | u16(at + 12)) >>> 0;
    const crc = u32(at + 16);
    let compressedSize = u32(at + 20);
    let size = u32(at + 24);
    const nameLength = u16(at + 28);
    const extraLength = u16(at + 30);
    const commentLength = u16(at + 32);
    let localOffset = u32(at + 42);
    const nameBytes = bytes.subarray(at + 46, at + 46 + nameLength);
    const name = (flags & 0x800 ? utf8 : latin1).decode(nameBytes);
    // ZIP64 extended information (header 0x0001): the 8-byte values of the fields that hold 0xffffffff, in order
    for (let e = at + 46 + nameLength, end = e + extraLength; e + 4 <= end; e += 4 + u16(e + 2)) {
      if (u16(e) !== 0x0001) continue;
      let f = e + 4;
      if (size === 0xffffffff) {
        size = u64(f);
        f += 8;
      }
      if (compressedSize === 0xffffffff) {
        compressedSize = u64(f);
        f += 8;
      }
      if (localOffset === 0xffffffff) localOffset = u64(f);
    }
    at += 46 + nameLength + extraLength + commentLength;
    if (flags & 0x1 || (compression !== 0 && compression !== 8)) {
      out.push({ name });
      continue;
    }
    if (localOffset + 30 > bytes.length || u32(localOffset) !== LOCAL) throw bad(`the local header of ${name} is not where the directory says`);
    const dataStart = localOffset + 30 + u16(localOffset + 26) + u16(localOffset + 28);
    if (dataStart + compressedSize > bytes.length) throw bad(`the data of ${name} runs past the end of the archive`);
    out.push({ name, raw: { data: bytes.subarray(dataStart, dataStart + compressedSize), crc, size, compression, mtime: dosDate(dosTime) } });
  }
  return out;
}

/**
 * An MS-DOS date and time (APPNOTE 4.4.6: date in the high 16 bits) as a local time Date, as zip tools read it; a
 * zero date reads as a day in 1979, which the writer writes as 1980-01-01 (zip-writer.ts).
 */
function dosDate(dos: number): Date {
  const date = dos >>> 16;
  const time = dos & 0xffff;
  return new Date(((date >> 9) & 0x7f) + 1980, ((date >> 5) & 0xf) - 1, date & 0x1f, (time >> 11) & 0x1f, (time >> 5) & 0x3f, (time & 0x1f) * 2);
}
