import { StructureError } from '../errors.ts';

/**
 * The transformation recipe (spec: conversion and structure API, "Transformation"): `{"Transforms": [...]}`,
 * preferably an array of objects with exactly one property each, or the older object form. Every command the
 * engine runs is a `RecipeStep` that knows where it stands in the recipe, so an error can point at it.
 */

/** One command: its key (an item selector, `DocumentProperties`, `SlideCommands`, or an inner command name), its value, and its path in the recipe. */
export interface RecipeStep {
  key: string;
  value: unknown;
  /** Where the value stands, e.g. `Transforms[2]["Charts.ByTitle.Sales"]`. */
  path: string;
}

/** A selector `Type.Method.Index` split in three; the index keeps any further dots (`ByAlias.My.Alias`). */
export interface Selector {
  type: string;
  method: string;
  index: string;
}

/**
 * Parses the `transform` form field into the top-level steps, in order.
 * @throws StructureError bad_recipe when the text is not JSON, has no `Transforms`, or an array element is not
 *   an object with exactly one property.
 */
export function parseRecipe(text: string): RecipeStep[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new StructureError('bad_recipe', `the transform field is not valid JSON: ${(e as Error).message}`, '');
  }
  if (!isPlainObject(json) || !('Transforms' in json))
    throw new StructureError('bad_recipe', 'the transform must be a JSON object with a "Transforms" member', '');
  return commandList(json.Transforms, 'Transforms');
}

/**
 * Normalises a list of commands: an array of one-property objects (`[{"a": 1}, {"b": 2}]`, the current form) or
 * an object (`{"a": 1, "b": 2}`, the older form) becomes steps in order, each with its path.
 * @throws StructureError bad_recipe naming the element that is neither.
 */
export function commandList(value: unknown, path: string): RecipeStep[] {
  if (Array.isArray(value)) {
    return value.map((item, i) => {
      const at = `${path}[${i}]`;
      if (!isPlainObject(item)) throw new StructureError('bad_recipe', `${at} must be an object with one property (a command)`, at);
      const keys = Object.keys(item);
      if (keys.length !== 1) throw new StructureError('bad_recipe', `${at} must have exactly one property, it has ${keys.length}`, at);
      return { key: keys[0], value: item[keys[0]], path: childPath(at, keys[0]) };
    });
  }
  if (isPlainObject(value)) return Object.entries(value).map(([k, v]) => ({ key: k, value: v, path: childPath(path, k) }));
  throw new StructureError('bad_recipe', `${path} must be an array of one-property objects or an object`, path);
}

/** The path of member `key` below `path`: `.key` for plain names, `["key"]` for any other (dots, spaces). */
export function childPath(path: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * Splits an item selector such as `ContentControls.ByAlias.Name` or `Charts.ByEmbedIndex.0` (spec: Extraction
 * result, "Type.Method.Index").
 * @throws StructureError unknown_selector when it has fewer than three components.
 */
export function parseSelector(key: string, path: string): Selector {
  const first = key.indexOf('.');
  const second = first < 0 ? -1 : key.indexOf('.', first + 1);
  if (first < 0 || second < 0) throw new StructureError('unknown_selector', `"${key}" is not a selector of the form Type.Method.Index`, path);
  return { type: key.slice(0, first), method: key.slice(first + 1, second), index: key.slice(second + 1) };
}

/** Splits an inner command key with numeric arguments, such as `deletecolumn.2` or `datayx.1.3`, into name and args. */
export function splitCommand(key: string): { name: string; args: string[] } {
  const [name, ...args] = key.split('.');
  return { name, args };
}

/** True for a non-null, non-array object. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A string value.
 * @throws StructureError bad_value naming the path.
 */
export function expectString(value: unknown, path: string): string {
  if (typeof value !== 'string') throw new StructureError('bad_value', `${path} must be a string, got ${describe(value)}`, path);
  return value;
}

/**
 * A boolean value; the strings "true" and "false" are accepted too (the spec lets longs and booleans be quoted).
 * @throws StructureError bad_value naming the path.
 */
export function expectBoolean(value: unknown, path: string): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new StructureError('bad_value', `${path} must be true or false, got ${describe(value)}`, path);
}

/**
 * A finite number; a numeric string is accepted too.
 * @throws StructureError bad_value naming the path.
 */
export function expectNumber(value: unknown, path: string): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new StructureError('bad_value', `${path} must be a number, got ${describe(value)}`, path);
  return n;
}

/**
 * An integer in [min, max] (either bound optional); a numeric string is accepted too.
 * @throws StructureError bad_value when not an integer, out_of_range when outside the bounds.
 */
export function expectInteger(value: unknown, path: string, min?: number, max?: number): number {
  const n = expectNumber(value, path);
  if (!Number.isInteger(n)) throw new StructureError('bad_value', `${path} must be a whole number, got ${describe(value)}`, path);
  if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
    const range = max === undefined ? `at least ${min}` : min === undefined ? `at most ${max}` : `from ${min} to ${max}`;
    throw new StructureError('out_of_range', `${path} is ${n}, but must be ${range}`, path);
  }
  return n;
}

/**
 * The integer argument of a command key such as `deletecolumn.2`, checked against [min, max].
 * @throws StructureError bad_value / out_of_range naming the path.
 */
export function commandIndex(arg: string | undefined, path: string, min?: number, max?: number): number {
  if (arg === undefined || !/^-?\d+$/.test(arg))
    throw new StructureError('bad_value', `${path}: the command needs a whole-number index after its name, got "${arg ?? ''}"`, path);
  return expectInteger(Number(arg), path, min, max);
}

/** A short description of a JSON value for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'object') return 'an object';
  return String(value);
}
