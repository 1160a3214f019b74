import { closeSync, openSync, readSync } from 'node:fs';
import { OdeError } from '../errors.ts';

/**
 * Extensions whose files are zip packages (OOXML: ECMA-376 Part 2 Open Packaging Conventions; ODF 1.3 Part 2
 * packages; their StarOffice predecessors and Visio's vsdx).
 */
export const ZIP_PACKAGE_EXTENSIONS: ReadonlySet<string> = new Set([
  'docx',
  'docm',
  'dotx',
  'dotm',
  'xlsx',
  'xlsm',
  'xltx',
  'xltm',
  'xlsb',
  'pptx',
  'pptm',
  'potx',
  'potm',
  'ppsx',
  'vsdx',
  'odt',
  'ott',
  'odm',
  'otm',
  'oth',
  'ods',
  'ots',
  'odp',
  'otp',
  'odg',
  'otg',
  'sxw',
  'stw',
  'sxg',
  'sxc',
  'stc',
  'sxi',
  'sti',
  'sxd',
  'std',
]);

const ZIP_LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** OLE2 compound file: how encrypted OOXML (EncryptionInfo + EncryptedPackage) is stored (MS-OFFCRYPTO). */
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** True when a zip-package type (docx, xlsx, ...) arrives as an OLE2 container: an encrypted OOXML package. */
export function isEncryptedPackage(path: string, ext: string): boolean {
  if (!ZIP_PACKAGE_EXTENSIONS.has(ext)) return false;
  const head = Buffer.alloc(8);
  const fd = openSync(path, 'r');
  try {
    return readSync(fd, head, 0, 8, 0) === 8 && head.equals(OLE2);
  } finally {
    closeSync(fd);
  }
}

/**
 * Refuses a file that cannot be what its extension says before it costs a LibreOffice load: a zip-package type
 * (docx, odt, xlsx, ...) must start with a zip local file header (a zip holding at least one entry) or be an
 * OLE2 container (encrypted OOXML). LibreOffice would otherwise "open" such a file as plain text and answer a
 * PDF of its bytes (corpus: testODTnotaZipFile.odt, empty_file.ods, invalid.xlsx).
 * @throws OdeError load_failed naming the extension and what was found.
 */
export function checkContainer(path: string, ext: string): void {
  if (!ZIP_PACKAGE_EXTENSIONS.has(ext)) return;
  const head = Buffer.alloc(8);
  const fd = openSync(path, 'r');
  let n: number;
  try {
    n = readSync(fd, head, 0, 8, 0);
  } finally {
    closeSync(fd);
  }
  if (n >= 4 && head.subarray(0, 4).equals(ZIP_LOCAL_HEADER)) return;
  if (n >= 8 && head.equals(OLE2)) return;
  const found = n === 0 ? 'an empty file' : head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x05, 0x06])) ? 'an empty zip archive' : 'not a zip package';
  throw new OdeError('load_failed', `The file is not a valid .${ext} document: a .${ext} file is a zip package, and this is ${found}.`);
}
