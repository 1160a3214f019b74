import { unzipSync } from 'fflate';
import { StructureError } from '../errors.ts';

/**
 * A zip package (OOXML: ECMA-376 Part 2 OPC; ODF 1.3 Part 2) read lazily: listing reads only the central
 * directory, and a part is inflated the first time it is asked for, so extracting document properties never
 * inflates the document body.
 */
export class ZipPackage {
  private readonly bytes: Uint8Array;
  private readonly cache = new Map<string, Uint8Array>();
  private readonly partNames: readonly string[];

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

  /** Part names in archive order (no leading slash, as stored). */
  names(): readonly string[] {
    return this.partNames;
  }

  /** True when the part exists. `name` may start with `/` (OPC part names do). */
  has(name: string): boolean {
    return this.partNames.includes(name.replace(/^\//, ''));
  }

  /** The part's bytes, or undefined when it does not exist. */
  bytesOf(name: string): Uint8Array | undefined {
    const key = name.replace(/^\//, '');
    if (!this.partNames.includes(key)) return undefined;
    let data = this.cache.get(key);
    if (!data) {
      try {
        data = unzipSync(this.bytes, { filter: (file) => file.name === key })[key];
      } catch (e) {
        throw new StructureError('bad_package', `the part ${key} cannot be inflated: ${(e as Error).message}`, key);
      }
      if (!data) throw new StructureError('bad_package', `the part ${key} is missing from the archive`, key);
      this.cache.set(key, data);
    }
    return data;
  }

  /** The part as UTF-8 text, or undefined when it does not exist. */
  textOf(name: string): string | undefined {
    const data = this.bytesOf(name);
    return data ? new TextDecoder('utf-8').decode(data) : undefined;
  }
}
