import { StructureError } from '../../structure/errors.ts';

/** Deepest JSON nesting a recipe may have (the spec's recipes nest 5 levels or so). */
export const MAX_RECIPE_DEPTH = 64;

/**
 * Counts the commands of a transformation recipe before the engine walks it: every JSON object and array entry at
 * any level counts as one (a command is at least one object), iteratively, so neither size nor nesting can
 * exhaust the stack. Issue 17: a recipe of 20,000 commands kept the engine busy for 23 s.
 * @returns the count.
 * @throws StructureError recipe_too_large past `maxCommands` or MAX_RECIPE_DEPTH; bad_recipe when not JSON.
 */
export function countRecipeCommands(recipe: string, maxCommands: number): number {
  let json: unknown;
  try {
    json = JSON.parse(recipe);
  } catch (e) {
    throw new StructureError('bad_recipe', `the transform field is not valid JSON: ${(e as Error).message}`, '');
  }
  let count = 0;
  const stack: Array<[unknown, number]> = [[json, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_RECIPE_DEPTH) throw new StructureError('recipe_too_large', `the recipe nests deeper than ${MAX_RECIPE_DEPTH} levels`, '');
    const children = Array.isArray(value) ? value : Object.values(value);
    count += Array.isArray(value) ? value.length : 1;
    if (count > maxCommands) throw new StructureError('recipe_too_large', `the recipe has more than ${maxCommands} commands (limits.recipe_commands)`, '');
    for (const c of children) stack.push([c, depth + 1]);
  }
  return count;
}
