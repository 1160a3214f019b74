import type { StructureDocument } from '../document.ts';
import { StructureError } from '../errors.ts';
import type { RecipeStep } from '../transform/recipe.ts';

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

/** The slides of a pptx or odp. */
export function extractSlides(_doc: StructureDocument): SlidesResult {
  throw new StructureError('not_implemented', 'slides are not built yet');
}

/** Applies one `SlideCommands` step (its value: the list of slide commands). */
export function transformSlides(_doc: StructureDocument, step: RecipeStep): void {
  throw new StructureError('not_implemented', 'slide commands are not built yet', step.path);
}
