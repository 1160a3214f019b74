/**
 * Fixture: saveAs pdf of one document with several filterOptions strings. Args: <corpus file> then a JSON
 * array of filterOptions (null = none). Reports each output path, or the error; the test inspects the PDFs.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { Office } from '../index.ts';
import { copyToWork, emit, errorInfo, fixtureArgs } from './fixture-env.ts';

const { workDir, profileUrl, args } = fixtureArgs();
const [file, variantsJson] = args;
const variants = JSON.parse(variantsJson ?? '[null]') as Array<string | null>;
const office = Office.init({ profileUrl });
const doc = await office.documentLoad(copyToWork(workDir, file ?? ''), { options: 'Batch=true' });
const results = [];
let n = 0;
for (const filterOptions of variants) {
  const out = join(workDir, `out-${n++}.pdf`);
  try {
    await doc.saveAs(pathToFileURL(out).href, 'pdf', filterOptions ?? undefined);
    results.push({ filterOptions, path: out });
  } catch (err) {
    results.push({ filterOptions, ...errorInfo(err) });
  }
}
doc.destroy();
office.destroy();
emit(results);
