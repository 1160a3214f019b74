import { strFromU8, unzipSync } from 'fflate';

/**
 * The main part of a .docx (`word/document.xml`, ECMA-376 Part 1, 11.3.10) as text, read from the package bytes with
 * fflate: the independent oracle of the tests that read a stored or exported file back;
 * '' when the package has no such part.
 * @throws Error when the bytes are not a zip package.
 */
export function documentXml(bytes: Uint8Array): string {
  const part = unzipSync(new Uint8Array(bytes), { filter: (f) => f.name === 'word/document.xml' })['word/document.xml'];
  return part ? strFromU8(part) : '';
}

/** The text of a .docx's main part: its `w:t` runs' contents joined with nothing between them (entities left as written). */
export function docxText(bytes: Uint8Array): string {
  return [...documentXml(bytes).matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');
}
