import type { StructureDocument } from '../document.ts';
import { StructureError } from '../errors.ts';
import type { RecipeStep } from '../transform/recipe.ts';
import { runSlideCommands } from './commands.ts';
import type { SlideDeck } from './deck.ts';
import { openOdpDeck } from './odp-deck.ts';
import { openPptxDeck } from './pptx-deck.ts';

/** One paragraph list of a text in a slide object. */
export interface SlideText {
  ParaCount: number;
  Paragraphs: string[];
}

/** One object of a slide: its texts, or nothing when it holds no text. */
export type SlideObject = { TextCount: number; Texts: Record<string, SlideText> } | Record<string, never>;

/** One slide (spec: "Slides result"). */
export interface SlideItem {
  SlideName: string;
  MasterSlideName: string;
  LayoutId: number;
  LayoutName: string;
  ObjectCount: number;
  Objects: Record<string, SlideObject>;
}

/** The slides result: its members go straight into DocStructure. */
export interface SlidesResult {
  SlideCount: number;
  MasterSlideCount: number;
  MasterSlides: Record<string, { Name: string }>;
  Slides: Record<string, SlideItem>;
}

/**
 * The deck of a presentation, by format: pptx-deck.ts (PresentationML) or odp-deck.ts (ODF draw:page).
 * `forCommands` says the deck is opened to run slide commands (an ODP deck then parses content.xml at once).
 * @throws StructureError wrong_kind for a text document; bad_package for unreadable parts.
 */
export function openDeck(doc: StructureDocument, forCommands = false): SlideDeck {
  if (doc.format === 'pptx') return openPptxDeck(doc);
  if (doc.format === 'odp') return openOdpDeck(doc, forCommands);
  throw new StructureError('wrong_kind', `slides are in presentations, and this is a ${doc.format} text document`);
}

/**
 * The slides of a pptx or odp (spec: "Slides result"): SlideCount, MasterSlideCount, MasterSlides
 * (`MasterSlide <n>`: {Name}), Slides (`Slide <n>`: SlideName, MasterSlideName, LayoutId, LayoutName,
 * ObjectCount, Objects `Objects <n>` with TextCount and Texts `Text <n>` {ParaCount, Paragraphs}, or {}),
 * as LibreOffice 7.4 reports them (docs/structure/slides.md).
 * @throws StructureError wrong_kind for a text document; bad_package for unreadable parts.
 */
export function extractSlides(doc: StructureDocument): SlidesResult {
  return openDeck(doc).describe();
}

/**
 * Applies one `SlideCommands` step (its value: the list of slide commands, array or object form) with the
 * current-slide rules of the spec (commands.ts).
 * @throws StructureError with the path of the failing command: bad_recipe, unknown_command, bad_value,
 *   out_of_range, no_match, unsupported_command, wrong_kind.
 */
export function transformSlides(doc: StructureDocument, step: RecipeStep): void {
  runSlideCommands(openDeck(doc, true), step);
}
