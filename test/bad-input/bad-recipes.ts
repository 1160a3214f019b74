/**
 * Malformed and oversized transformation recipes for the bad-input suite, generated: not JSON, wrong shapes,
 * wrong types in every command the API knows, nesting 10,000 deep, 20,000 commands, a field past 1 MB.
 */

/** A named recipe; `expect` is the stable code, or undefined for "any 4xx". */
export interface BadRecipe {
  name: string;
  recipe: string;
  expect?: string;
}

/** The generated cases (about 120). */
export function badRecipes(): BadRecipe[] {
  const cases: BadRecipe[] = [];
  const notJson = [
    '',
    ' ',
    '{',
    '}',
    '[',
    'null',
    'true',
    '0',
    '"x"',
    '{"Transforms":',
    "{'Transforms': []}",
    '{"Transforms": [}',
    'Transforms',
    '\u0000\u0001',
    '{"Transforms": [1,]}',
  ];
  for (const [i, r] of notJson.entries()) cases.push({ name: `not a recipe #${i}`, recipe: r, expect: 'bad_recipe' });
  const shapes: unknown[] = [
    {},
    [],
    { transforms: [] },
    { Transforms: 1 },
    { Transforms: 'x' },
    { Transforms: null },
    { Transforms: [1] },
    { Transforms: [null] },
    { Transforms: [[]] },
    { Transforms: [{}] },
    { Transforms: [{ a: 1, b: 2 }] },
    { Transforms: [true] },
  ];
  for (const [i, r] of shapes.entries()) cases.push({ name: `bad shape #${i}`, recipe: JSON.stringify(r), expect: 'bad_recipe' });
  const selectors = [
    'ContentControls.ByIndex.0',
    'ContentControls.ById.1',
    'ContentControls.ByAlias.x',
    'ContentControls.ByTag.x',
    'Charts.ByIndex.0',
    'Charts.ByTitle.x',
    'Charts.ByEmbedIndex.0',
    'DocumentProperties',
    'SlideCommands',
    'Nonsense',
    'ContentControls.ByIndex.-1',
    'ContentControls.ByIndex.99999999999',
    'Charts.ByIndex.x',
  ];
  const values: unknown[] = [
    1,
    'x',
    null,
    true,
    [],
    [1, 2],
    { nonsense: 1 },
    { content: 1 },
    { checked: 'yes' },
    [{ nonsense: 1 }],
    [{ resize: 'x' }],
    [{ deleteRow: -5 }],
    { Title: 5 },
    { UserDefinedProperties: { x: { Type: 'nope' } } },
  ];
  for (const s of selectors) for (const v of values) cases.push({ name: `${s} = ${JSON.stringify(v)}`, recipe: JSON.stringify({ Transforms: [{ [s]: v }] }) });
  let deep = '1';
  for (let i = 0; i < 10_000; i++) deep = `[${deep}]`;
  cases.push({ name: 'arrays nested 10,000 deep', recipe: `{"Transforms": [{"DocumentProperties": {"Title": ${deep}}}]}`, expect: 'recipe_too_large' });
  let deepObj = '1';
  for (let i = 0; i < 10_000; i++) deepObj = `{"a":${deepObj}}`;
  cases.push({ name: 'objects nested 10,000 deep', recipe: `{"Transforms": [{"DocumentProperties": ${deepObj}}]}`, expect: 'recipe_too_large' });
  const many = Array.from({ length: 20_000 }, (_, i) => ({ DocumentProperties: { Title: `t${i}` } }));
  cases.push({ name: '20,000 commands', recipe: JSON.stringify({ Transforms: many }), expect: 'recipe_too_large' });
  return cases;
}
