import { readFileSync } from 'node:fs';
import { StructureDocument, type StructureFormat } from '../document.ts';
import { parseRecipe, parseSelector } from '../transform/recipe.ts';
import { extractContentControls, transformContentControls } from './index.ts';
import type { ContentControlItem } from './content-control.ts';

/** Test helpers for the content-control suites: corpus and fixture files, and a recipe run through this domain only. */

/** A corpus file's bytes (`content-controls/<name>`), read-only. */
export const corpusFile = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`../../../../shared/corpus/content-controls/${name}`, import.meta.url)));

/** A fixture file's bytes (`test/structure/fixtures/content-controls/<name>`). */
export const fixtureFile = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`../../../test/structure/fixtures/content-controls/${name}`, import.meta.url)));

/** A file by name: fixtures hold the .json goldens, LibreOffice's .odt files and run-level-controls.docx. */
export const anyFile = (name: string): Uint8Array => (name.startsWith('run-level') || name.endsWith('.odt') ? fixtureFile(name) : corpusFile(name));

/** The format of a file name. */
export const formatOf = (name: string): StructureFormat => (name.endsWith('.odt') ? 'odt' : 'docx');

/** The extracted content controls of a document. */
export function extract(bytes: Uint8Array, format: StructureFormat): Record<string, ContentControlItem> {
  return extractContentControls(StructureDocument.open(bytes, format));
}

/** Runs `{"Transforms": transforms}` (content-control steps only) and saves, as the engine's transformStructure does. */
export async function transform(bytes: Uint8Array, format: StructureFormat, transforms: unknown): Promise<Uint8Array> {
  const doc = StructureDocument.open(bytes, format);
  for (const step of parseRecipe(JSON.stringify({ Transforms: transforms }))) transformContentControls(doc, parseSelector(step.key, step.path), step);
  return doc.save();
}
