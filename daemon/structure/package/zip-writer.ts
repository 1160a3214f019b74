import { crc32, deflateRawSync } from 'node:zlib';
import { StructureError } from '../errors.ts';

/**
 * One entry to write: its data as it goes into the archive (already compressed when `compression` is 8), with the
 * CRC-32 and size of the uncompressed bytes.
 */
export interface ZipEntry {
  name: string;
  /** The bytes as stored in the archive: raw deflate data for method 8, the plain bytes for method 0. */
  data: Uint8Array;
  /** CRC-32 of the uncompressed bytes. */
  crc: number;
  /** Uncompressed size in bytes. */
  size: number;
  /** 0 stored, 8 deflated (APPNOTE 4.4.5). */
  compression: 0 | 8;
  mtime: Date;
}

/**
 * An entry for `bytes`: deflated (level 6, node:zlib), or stored when `store` is set (ODF's `mimetype`) or when
 * deflating does not make it smaller.
 */
export function entryOf(name: string, bytes: Uint8Array, mtime: Date, store = false): ZipEntry {
  const crc = crc32(bytes) >>> 0;
  if (!store) {
    const deflated = deflateRawSync(bytes, { level: 6 });
    if (deflated.length < bytes.length) return { name, data: deflated, crc, size: bytes.length, compression: 8, mtime };
  }
  return { name, data: bytes, crc, size: bytes.length, compression: 0, mtime };
}

/**
 * Writes a zip archive the way office suites write their packages (APPNOTE 6.3; ODF 1.3 Part 2, 3.3; ECMA-376
 * Part 2, annex C): every local header carries the CRC-32 and both sizes (general-purpose flag bit 3 clear, no
 * data descriptor), no extra fields, entries in the given order, a central directory and its end record.
 * LibreOffice since 24.x refuses packages whose entries use data descriptors, so fflate's streaming writer (which
 * always writes them) cannot be used; and no zip library copies already-deflated entries without descriptors.
 * Names that are not ASCII are written as UTF-8 with flag bit 11.
 * @returns the archive's bytes.
 * @throws StructureError bad_package when the archive would need ZIP64 (over 65 535 entries or 4 GiB).
 */
export function writeZip(entries: readonly ZipEntry[]): Uint8Array {
  const encoder = new TextEncoder();
  const names = entries.map((e) => encoder.encode(e.name));
  const localSize = entries.reduce((n, e, i) => n + 30 + names[i].length + e.data.length, 0);
  const centralSize = names.reduce((n, name) => n + 46 + name.length, 0);
  if (entries.length > 0xffff || localSize + centralSize + 22 > 0xffffffff)
    throw new StructureError('bad_package', 'the package is too large to write without ZIP64');
  const out = new Uint8Array(localSize + centralSize + 22);
  const view = new DataView(out.buffer);
  const offsets: number[] = [];
  let at = 0;
  entries.forEach((e, i) => {
    offsets.push(at);
    at = header(view, out, at, 0x04034b50, e, names[i], 0);
    out.set(e.data, at);
    at += e.data.length;
  });
  const centralStart = at;
  entries.forEach((e, i) => {
    at = header(view, out, at, 0x02014b50, e, names[i], offsets[i]);
  });
  view.setUint32(at, 0x06054b50, true);
  view.setUint16(at + 8, entries.length, true);
  view.setUint16(at + 10, entries.length, true);
  view.setUint32(at + 12, at - centralStart, true);
  view.setUint32(at + 16, centralStart, true);
  return out;
}

/** Writes a local file header (signature 0x04034b50) or a central directory header; returns the offset after it. */
function header(view: DataView, out: Uint8Array, at: number, signature: number, e: ZipEntry, name: Uint8Array, localOffset: number): number {
  const central = signature === 0x02014b50;
  const utf8 = name.length !== e.name.length || /[^\x20-\x7e]/.test(e.name);
  let p = at;
  view.setUint32(p, signature, true);
  p += 4;
  if (central) {
    view.setUint16(p, 20, true); // made by: MS-DOS (FAT attributes), APPNOTE 2.0
    p += 2;
  }
  view.setUint16(p, 20, true); // needed to extract: 2.0 (deflate)
  view.setUint16(p + 2, utf8 ? 0x0800 : 0, true);
  view.setUint16(p + 4, e.compression, true);
  view.setUint32(p + 6, dosDateTime(e.mtime), true);
  view.setUint32(p + 10, e.crc >>> 0, true);
  view.setUint32(p + 14, e.data.length, true);
  view.setUint32(p + 18, e.size, true);
  view.setUint16(p + 22, name.length, true);
  view.setUint16(p + 24, 0, true); // extra field length
  p += 26;
  if (central) {
    // comment length, disk number start, internal (2) and external (4) attributes: all zero
    view.setUint32(p + 10, localOffset, true);
    p += 14;
  }
  out.set(name, p);
  return p + name.length;
}

/**
 * MS-DOS date and time (APPNOTE 4.4.6), local time as zip tools read it. A date the format cannot hold (before
 * 1980, as an entry whose stored DOS date is zero reads, or unreadable) is written as 1980-01-01 00:00.
 */
function dosDateTime(when: Date): number {
  const d = Number.isNaN(when.getTime()) || when.getFullYear() < 1980 ? new Date(1980, 0, 1) : when;
  const year = Math.min(d.getFullYear(), 2107);
  const date = ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate();
  const time = (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1);
  return ((date << 16) | time) >>> 0;
}
