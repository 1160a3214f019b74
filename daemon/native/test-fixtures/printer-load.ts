/**
 * Fixture: loads documents and saves each as PDF through the bare addon, WITHOUT the kit's print-server guard
 * (daemon/kit/print-guard.ts), to show what LibreOffice does on its own with the environment it was given (e.g.
 * CUPS_SERVER). Args: <file>... (absolute paths). Result: per file, load and save times in ms.
 */
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { Office } from '../index.ts';
import { copyToWork, emit, fixtureArgs } from './fixture-env.ts';

const { workDir, profileUrl, args } = fixtureArgs();
const office = Office.init({ profileUrl });
const results: Array<{ file: string; loadMs: number; saveMs: number }> = [];
for (const file of args) {
  const url = copyToWork(workDir, file);
  const t0 = performance.now();
  const doc = await office.documentLoad(url, { options: 'Batch=true' });
  const t1 = performance.now();
  await doc.saveAs(pathToFileURL(join(workDir, `${basename(file)}.pdf`)).href, 'pdf');
  results.push({ file: basename(file), loadMs: Math.round(t1 - t0), saveMs: Math.round(performance.now() - t1) });
  doc.destroy();
}
office.destroy();
emit(results);
