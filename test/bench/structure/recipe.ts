/**
 * test/bench/structure/recipe.ts: the transform recipe bench:structure times on each document (run.ts, ab.ts).
 */

/**
 * A recipe (the structure API's transform JSON, as a string) that touches what the document has, given its
 * extracted structure: title, one chart cell, the first text content control, the first slide's name.
 */
export function recipeFor(structure: Record<string, unknown>): string {
  const transforms: unknown[] = [{ DocumentProperties: { Title: 'Benchmark title' } }];
  // The chart first: a rich-text content control may wrap the chart (CU009), and replacing its content removes it.
  const chart = Object.keys(structure).find((k) => k.startsWith('Charts.ByEmbedIndex.'));
  if (chart) transforms.push({ [chart]: [{ 'datayx.0.0': 42 }] });
  const text = Object.entries(structure).find(
    ([k, v]) => k.startsWith('ContentControls.') && ['plain-text', 'rich-text'].includes((v as { type?: string }).type ?? ''),
  );
  if (text) transforms.push({ [text[0]]: { content: 'Benchmark value' } });
  if ('Slides' in structure) transforms.push({ SlideCommands: [{ RenameSlide: 'Benchmark slide' }] });
  return JSON.stringify({ Transforms: transforms });
}
