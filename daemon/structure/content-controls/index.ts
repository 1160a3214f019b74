import type { StructureDocument } from '../document.ts';
import { StructureError } from '../errors.ts';
import type { RecipeStep, Selector } from '../transform/recipe.ts';

/** A content control item of the extraction result (spec: "Content control item"). */
export interface ContentControlItem {
  id: number;
  tag: string;
  alias: string;
  content: string;
  type: string;
  Checked?: string;
  DateFormat?: string;
  DateLanguage?: string;
  CurrentDate?: string;
}

/** Content controls of a docx or odt, keyed `ContentControls.ByIndex.<n>` in document order. */
export function extractContentControls(_doc: StructureDocument): Record<string, ContentControlItem> {
  throw new StructureError('not_implemented', 'content controls are not built yet');
}

/** Applies one `ContentControls.<Method>.<Index>` step (its value: the properties to set). */
export function transformContentControls(_doc: StructureDocument, _selector: Selector, step: RecipeStep): void {
  throw new StructureError('not_implemented', 'content control transforms are not built yet', step.path);
}
