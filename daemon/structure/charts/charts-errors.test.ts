import { describe, expect, it } from 'vitest';
import { StructureError } from '../errors.ts';
import { corpusFile, transform } from './test-support.ts';

/** Runs a recipe and returns the StructureError it throws (fails the test when it does not throw). */
async function failure(file: string, transforms: unknown): Promise<{ code: string; path: string; message: string }> {
  const format = file.endsWith('.odt') ? 'odt' : 'docx';
  try {
    await transform(corpusFile(file), format, transforms);
  } catch (e) {
    expect(e).toBeInstanceOf(StructureError);
    const err = e as StructureError;
    return { code: err.code, path: err.path, message: err.message };
  }
  throw new Error('the recipe was accepted');
}

describe('chart recipe errors point into the recipe', () => {
  it('resize below 2', async () => {
    const e = await failure('testWORD_charts.docx', [
      { 'Charts.ByEmbedIndex.0': [] },
      { 'Charts.ByTitle.wants a peach': [{ 'datayx.0.0': 1 }, { resize: [1, 3] }] },
    ]);
    expect(e).toMatchObject({ code: 'out_of_range', path: 'Transforms[1]["Charts.ByTitle.wants a peach"][1].resize' });
    expect(e.message).toContain('greater than 1');
  });

  it('resize needs two whole numbers', async () => {
    expect(await failure('Text7.odt', [{ 'Charts.ByEmbedIndex.0': [{ resize: [3] }] }])).toMatchObject({
      code: 'bad_value',
      path: 'Transforms[0]["Charts.ByEmbedIndex.0"][0].resize',
    });
    expect(await failure('Text7.odt', [{ 'Charts.ByEmbedIndex.0': [{ resize: [3, 'x'] }] }])).toMatchObject({
      code: 'bad_value',
      path: 'Transforms[0]["Charts.ByEmbedIndex.0"][0].resize[1]',
    });
  });

  it('a command index out of range', async () => {
    expect(await failure('61745.docx', [{ 'Charts.ByEmbedIndex.1': [{ 'deleterow.4': '' }] }])).toMatchObject({
      code: 'out_of_range',
      path: 'Transforms[0]["Charts.ByEmbedIndex.1"][0]["deleterow.4"]',
    });
    expect(await failure('Text7.odt', [{ 'Charts.ByEmbedIndex.0': [{ 'datayx.1.3': 5 }] }])).toMatchObject({
      code: 'out_of_range',
      path: 'Transforms[0]["Charts.ByEmbedIndex.0"][0]["datayx.1.3"]',
    });
    expect(await failure('Text7.odt', [{ 'Charts.ByEmbedIndex.0': [{ 'insertcolumn.4': '' }] }])).toMatchObject({ code: 'out_of_range' });
    expect(await failure('Text7.odt', [{ 'Charts.ByEmbedIndex.0': [{ 'setcolumndesc.3': 'x' }] }])).toMatchObject({ code: 'out_of_range' });
  });

  it('the last row or column of a chart cannot be deleted', async () => {
    expect(await failure('testWORD_charts.docx', [{ 'Charts.ByEmbedIndex.0': [{ 'deletecolumn.0': '' }] }])).toMatchObject({
      code: 'out_of_range',
      path: 'Transforms[0]["Charts.ByEmbedIndex.0"][0]["deletecolumn.0"]',
    });
    expect(await failure('Text7.odt', [{ 'Charts.ByEmbedIndex.0': [{ resize: [2, 2] }, { 'deleterow.1': '' }, { 'deleterow.0': '' }] }])).toMatchObject({
      code: 'out_of_range',
      path: 'Transforms[0]["Charts.ByEmbedIndex.0"][2]["deleterow.0"]',
    });
  });

  it('an embedded object that does not exist, or is not a chart', async () => {
    expect(await failure('chart1.docx', [{ 'Charts.ByEmbedIndex.7': [{ 'datayx.0.0': 1 }] }])).toMatchObject({
      code: 'out_of_range',
      path: 'Transforms[0]["Charts.ByEmbedIndex.7"]',
    });
    expect(await failure('unknown-content.odt', [{ 'Charts.ByEmbedIndex.1': [{ 'datayx.0.0': 1 }] }])).toMatchObject({
      code: 'wrong_kind',
      path: 'Transforms[0]["Charts.ByEmbedIndex.1"]',
    });
    expect(await failure('chart1.docx', [{ 'Charts.ByEmbedIndex.first': [] }])).toMatchObject({ code: 'bad_value' });
  });

  it('selectors that match nothing, and unknown methods', async () => {
    expect(await failure('chart1.docx', [{ 'Charts.ByTitle.Sales': [{ resize: [2, 2] }] }])).toMatchObject({
      code: 'no_match',
      path: 'Transforms[0]["Charts.ByTitle.Sales"]',
    });
    expect(await failure('Text7.odt', [{ 'Charts.BySubTitle.None': [] }])).toMatchObject({ code: 'no_match' });
    expect(await failure('Text7.odt', [{ 'Charts.ByEmbedName.Object9': [] }])).toMatchObject({ code: 'no_match' });
    expect(await failure('Text7.odt', [{ 'Charts.ByIndex.0': [] }])).toMatchObject({ code: 'unknown_selector' });
  });

  it('tables too large for a document, and descriptions XML cannot hold', async () => {
    expect(await failure('Text7.odt', [{ 'Charts.ByEmbedIndex.0': [{ resize: [100000, 100000] }] }])).toMatchObject({
      code: 'out_of_range',
      path: 'Transforms[0]["Charts.ByEmbedIndex.0"][0].resize',
    });
    expect(await failure('61745.docx', [{ 'Charts.ByEmbedIndex.0': [{ data: [new Array(20000).fill(1), ...new Array(60).fill([])] }] }])).toMatchObject({
      code: 'out_of_range',
    });
    expect(await failure('61745.docx', [{ 'Charts.ByEmbedIndex.0': [{ 'setrowdesc.0': 'bell\u0007' }] }])).toMatchObject({
      code: 'bad_value',
      path: 'Transforms[0]["Charts.ByEmbedIndex.0"][0]["setrowdesc.0"]',
    });
  });

  it('a value of the wrong type', async () => {
    expect(await failure('61745.docx', [{ 'Charts.ByEmbedIndex.0': [{ 'datayx.0.0': 'lots' }] }])).toMatchObject({
      code: 'bad_value',
      path: 'Transforms[0]["Charts.ByEmbedIndex.0"][0]["datayx.0.0"]',
    });
    expect(await failure('61745.docx', [{ 'Charts.ByEmbedIndex.0': [{ 'modifyrow.0': [1, true] }] }])).toMatchObject({
      code: 'bad_value',
      path: 'Transforms[0]["Charts.ByEmbedIndex.0"][0]["modifyrow.0"][1]',
    });
    expect(await failure('61745.docx', [{ 'Charts.ByEmbedIndex.0': [{ 'setrowdesc.0': 5 }] }])).toMatchObject({ code: 'bad_value' });
    expect(await failure('61745.docx', [{ 'Charts.ByEmbedIndex.0': [{ 'deleterow.0': 3 }] }])).toMatchObject({ code: 'bad_value' });
    expect(await failure('61745.docx', [{ 'Charts.ByEmbedIndex.0': [{ data: [1, 2] }] }])).toMatchObject({
      code: 'bad_value',
      path: 'Transforms[0]["Charts.ByEmbedIndex.0"][0].data[0]',
    });
    expect(await failure('61745.docx', [{ 'Charts.ByEmbedIndex.0': 'resize' }])).toMatchObject({
      code: 'bad_recipe',
      path: 'Transforms[0]["Charts.ByEmbedIndex.0"]',
    });
  });

  it('an unknown command, or a known one with the wrong number of indexes', async () => {
    expect(await failure('Text7.odt', [{ 'Charts.ByEmbedIndex.0': [{ 'datayx.0.0': 1 }, { explode: 3 }] }])).toMatchObject({
      code: 'unknown_command',
      path: 'Transforms[0]["Charts.ByEmbedIndex.0"][1].explode',
    });
    expect(await failure('Text7.odt', [{ 'Charts.ByEmbedIndex.0': [{ 'datayx.0': 1 }] }])).toMatchObject({
      code: 'unknown_command',
      path: 'Transforms[0]["Charts.ByEmbedIndex.0"][0]["datayx.0"]',
    });
  });

  it('scatter and bubble charts refuse column changes', async () => {
    expect(await failure('chart1.docx', [{ 'Charts.ByEmbedIndex.4': [{ 'insertcolumn.0': '' }] }])).toMatchObject({
      code: 'unsupported_command',
      path: 'Transforms[0]["Charts.ByEmbedIndex.4"][0]["insertcolumn.0"]',
    });
    expect(await failure('chart1.docx', [{ 'Charts.ByEmbedIndex.6': [{ resize: [3, 4] }] }])).toMatchObject({ code: 'unsupported_command' });
  });
});
