import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StructureDocument } from '../../daemon/structure/document.ts';
import { extractStructure } from '../../daemon/structure/index.ts';
import { openOdpDeck } from '../../daemon/structure/slides/odp-deck.ts';
import { CORPUS } from '../helpers/convert-client.ts';

/**
 * Golden slides extraction of the corpus odp files (spec: "Slides result"). The expected JSON in
 * fixtures/slides/<file>.json was written by hand from each file's content.xml and styles.xml, with LibreOffice's
 * reading rules (odp-deck.ts, docs/structure/slides.md ODP section) and checked against LibreOffice 7.4's re-export
 * of the same files (soffice --convert-to odp): master display names, "page<n>" default names, AutoLayout ids
 * derived from the presentation-page-layout placeholders, white space collapsed as ODF import does, line breaks
 * as U+0001.
 */
const FILES = ['LibreOfficeImpress_odp_1.3.odp', 'Presentation1.odp', 'logo_in_presentation.odp', 'test_custom_formats.odp'];

describe('odp slides extraction (golden)', () => {
  for (const file of FILES) {
    it(file, () => {
      const bytes = readFileSync(join(CORPUS, 'presentations', file));
      const expected = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/slides', `${file}.json`), 'utf8'));
      // through the engine's entry (filter slides) and through the deck itself
      expect(extractStructure(bytes, 'odp', { filter: 'slides' })).toEqual(expected);
      expect(openOdpDeck(StructureDocument.open(bytes, 'odp')).describe()).toEqual(expected);
    });
  }

  it('the deck answers names and counts as the extraction does', () => {
    const doc = StructureDocument.open(readFileSync(join(CORPUS, 'presentations/Presentation1.odp')), 'odp');
    const deck = openOdpDeck(doc);
    expect(deck.slideCount()).toBe(10);
    expect(deck.masterNames()).toEqual(['(Default) Title Master', '(Default) Title/Text Master']);
    expect(deck.slideNames().slice(0, 2)).toEqual(['Slide 1', 'Slide 2']);
  });
});
