/**
 * Fixture: loads each case in one process and reports what LibreOffice did. Args: one JSON array of
 * { file, password?, options? } (file relative to the corpus, or absolute; "missing:<name>" loads a file
 * that does not exist). For a loaded document it
 * reports the document type and the first 200 characters of its text (.uno:SelectAll + getTextSelection).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { Office } from '../index.ts';
import { copyToWork, emit, errorInfo, fixtureArgs, settle } from './fixture-env.ts';

interface LoadCase {
  file: string;
  password?: string;
  options?: string;
}

const { workDir, profileUrl, args } = fixtureArgs();
const cases = JSON.parse(args[0] ?? '[]') as LoadCase[];
const office = Office.init({ profileUrl });
const passwordQuestions: string[] = [];
office.registerCallback((type, payload) => {
  if (type === 20 || type === 21) passwordQuestions.push(`${type}:${payload}`);
});

const results = [];
let n = 0;
for (const c of cases) {
  const name = `${n++}-${c.file.split('/').pop()}`;
  const url = c.file.startsWith('missing:') ? pathToFileURL(join(workDir, name)).href : copyToWork(workDir, c.file, name);
  const started = performance.now();
  try {
    const doc = await office.documentLoad(url, { password: c.password, options: c.options });
    const docType = doc.getDocumentType();
    doc.postUnoCommand('.uno:SelectAll');
    // SelectAll is dispatched asynchronously: wait until it ran (an input fence). Polling for a non-empty selection
    // was beaten at load: in Calc the cell cursor's own text ("name", A1) is there before the whole sheet is selected.
    await settle(doc);
    const text = doc.getTextSelection('text/plain;charset=utf-8').text;
    doc.destroy();
    results.push({ ...c, loaded: true, docType, text: text.slice(0, 200), ms: performance.now() - started });
  } catch (err) {
    results.push({ ...c, loaded: false, ...errorInfo(err), ms: performance.now() - started });
  }
}
// Office callbacks reach JS through a queue (thread-safe function): let the last load's password question arrive.
await new Promise((r) => setTimeout(r, 100));
office.destroy();
emit({ results, passwordQuestions });
