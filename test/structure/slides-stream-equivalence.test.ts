import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StructureDocument, type StructureFormat } from '../../daemon/structure/document.ts';
import { transformStructure } from '../../daemon/structure/index.ts';
import { extractSlides, openDeck, transformSlides } from '../../daemon/structure/slides/index.ts';
import { readThroughDom } from '../../daemon/structure/slides/part-reads.ts';
import { parseRecipe } from '../../daemon/structure/transform/recipe.ts';
import { CORPUS } from '../helpers/convert-client.ts';

/**
 * The slides extraction and the commands' lookups read parts as trees built by streaming while no command has
 * changed them (slides/part-reads.ts over xml/read-tree.ts; the same rules read both). Here they must give exactly
 * what the DOM reads give (readThroughDom): on every corpus deck, on the outputs of transforms, and on a document
 * in the middle of a transform (changed parts read through the DOM, the others streamed).
 */
const DECKS = [
  'presentations/AllSlidesConverterSC.pptx',
  'presentations/LibreOfficeImpress_odp_1.3.odp',
  'presentations/Presentation1.odp',
  'presentations/aascu.org_hbcu_leadershipsummit_cooper_.pptx',
  'presentations/layouts.pptx',
  'presentations/logo_in_presentation.odp',
  'presentations/test_custom_formats.odp',
  'presentations/themes.pptx',
  'properties/prProps.pptx',
];

const formatOf = (file: string): StructureFormat => (file.endsWith('.odp') ? 'odp' : 'pptx');
const bytesOf = (file: string) => new Uint8Array(readFileSync(join(CORPUS, file)));

/** Two SlideCommands steps: the second opens a new deck on the document the first one changed. */
const STEPS = [
  [{ InsertMasterSlide: 0 }, { RenameSlide: 'Inserted' }, { JumpToSlide: 0 }, { DuplicateSlide: '' }],
  [{ JumpToSlideByName: 'Inserted' }, { MoveSlide: 0 }, { JumpToSlide: 'last' }, { DeleteSlide: '' }, { RenameSlide: 'Renamed' }],
];
const RECIPE = JSON.stringify({ Transforms: STEPS.map((s) => ({ SlideCommands: s })) });

/** Names, counts and the whole result, as the commands and the extraction see them. */
function view(doc: StructureDocument): unknown {
  const deck = openDeck(doc);
  const count = deck.slideCount();
  return {
    describe: deck.describe(),
    names: deck.slideNames(),
    masters: deck.masterNames(),
    count,
    objects: Array.from({ length: count }, (_, i) => deck.objectCount(i)),
  };
}

function bothWays(bytes: Uint8Array, format: StructureFormat): { streamed: unknown; dom: unknown } {
  const streamed = view(StructureDocument.open(bytes, format));
  const domDoc = StructureDocument.open(bytes, format);
  readThroughDom(domDoc);
  return { streamed, dom: view(domDoc) };
}

describe('slides: streaming reads equal DOM reads', () => {
  for (const file of DECKS) {
    it(`${file}: extraction and lookups`, () => {
      const { streamed, dom } = bothWays(bytesOf(file), formatOf(file));
      expect(streamed).toEqual(dom);
    });

    it(`${file}: slide names read first (from the names view of each slide, not whole slides)`, () => {
      const format = formatOf(file);
      const domDoc = StructureDocument.open(bytesOf(file), format);
      readThroughDom(domDoc);
      expect(openDeck(StructureDocument.open(bytesOf(file), format)).slideNames()).toEqual(openDeck(domDoc).slideNames());
    });

    it(`${file}: the output of a transform, and the document in the middle of it`, async () => {
      const format = formatOf(file);
      const out = await transformStructure(bytesOf(file), format, RECIPE);
      const { streamed, dom } = bothWays(out, format);
      expect(streamed).toEqual(dom);
      // the same steps on one document: after them, changed parts are DOM and the rest streamed
      const doc = StructureDocument.open(bytesOf(file), format);
      for (const step of parseRecipe(RECIPE)) transformSlides(doc, step);
      expect(extractSlides(doc)).toEqual((dom as { describe: unknown }).describe);
    });
  }
});
