/**
 * Fixture: docx -> pdf (documentLoad + saveAs + destroy) N times in one warm process. Args: <corpus docx>
 * <runs>. Reports every run in ms (the first includes LibreOffice's first-load warm-up).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { Office } from '../index.ts';
import { copyToWork, emit, fixtureArgs } from './fixture-env.ts';

const { workDir, profileUrl, args } = fixtureArgs();
const file = args[0] ?? 'content-controls/ContentControls.docx';
const runs = Number(args[1] ?? 20);
const initStart = performance.now();
const office = Office.init({ profileUrl });
const initMs = performance.now() - initStart;
const ms: number[] = [];
for (let i = 0; i <= runs; i++) {
  // Run 0 warms LibreOffice up (first load 130-260 ms); runs 1..N are the measurement.
  const url = copyToWork(workDir, file, `in-${i}.docx`);
  const started = performance.now();
  const doc = await office.documentLoad(url, { options: 'Batch=true' });
  await doc.saveAs(pathToFileURL(join(workDir, `out-${i}.pdf`)).href, 'pdf');
  doc.destroy();
  ms.push(performance.now() - started);
}
office.destroy();
const measured = ms.slice(1).sort((a, b) => a - b);
const median = measured[Math.floor(measured.length / 2)];
emit({ initMs, firstMs: ms[0], runs: ms.slice(1), median, min: measured[0], max: measured[measured.length - 1] });
