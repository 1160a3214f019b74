/**
 * documentLoad's options string (LOK documentLoadWithOptions, 7.4 and 25.2): LibreOffice takes out `Language=`,
 * `Batch=` (and DeviceFormFactor=, MacroSecurityLevel=, EnableMacrosExecution=) and passes the rest as the
 * import filter's FilterOptions. A CSV loads with `Batch=true` and its FilterOptions are honoured (LibreOffice
 * 25.2; 7.4 always ran its Text Import dialog); without `Batch=true` the load still waits on that dialog: see
 * README.md, "Load options".
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { fixtureDirs, runFixture } from './test-fixtures/run-fixture.ts';

const dirs = fixtureDirs('ode-native-load-options');
afterAll(() => dirs.cleanup());

interface LoadResult {
  loaded: boolean;
  code?: string;
  message?: string;
  docType?: number;
  text?: string;
}

function semicolonCsv(dir: string): string {
  const file = join(dir, 'semicolons.csv');
  writeFileSync(file, 'name;amount;note\nx;1,5;a b\ny;2;c\n');
  return file;
}

describe('documentLoad options', () => {
  it('Language= and Batch= are taken out wherever they stand; the remaining FilterOptions do not disturb a docx load', async () => {
    const run = await runFixture<{ results: LoadResult[] }>('load-cases', {
      workDir: dirs.workDir(),
      profileDir: dirs.profileDir,
      args: [
        JSON.stringify([
          { file: 'content-controls/ContentControls.docx', options: 'Language=de-DE,Batch=true' },
          { file: 'content-controls/ContentControls.docx', options: 'Batch=true,Language=fr-FR,59,34,76,1' },
          { file: 'content-controls/ContentControls.docx', options: '59,34,76,1,Language=en-US,Batch=true' },
        ]),
      ],
    });
    expect(run.code, run.stderr).toBe(0);
    for (const r of run.result!.results) expect(r).toMatchObject({ loaded: true, docType: 0 });
  });

  it('a CSV with Batch=true loads in Calc and its FilterOptions are honoured (LibreOffice 25.2; 7.4 refused it)', async () => {
    const workDir = dirs.workDir();
    const csv = semicolonCsv(workDir);
    const run = await runFixture<{ results: LoadResult[] }>('load-cases', {
      workDir,
      profileDir: dirs.profileDir,
      args: [
        JSON.stringify([
          { file: csv, options: 'Batch=true,59,34,76,1' },
          { file: csv, options: 'Language=de-DE,Batch=true,59,34,76,1' },
          { file: csv, options: '59,34,76,1,Batch=true' },
          // Comma as separator: the semicolons are text, only `1,5` is split.
          { file: csv, options: '44,34,76,1,Batch=true' },
        ]),
      ],
    });
    expect(run.code, run.stderr).toBe(0);
    const [a, b, c, comma] = run.result!.results;
    for (const r of [a, b, c, comma]) expect(r).toMatchObject({ loaded: true, docType: 1 });
    // Calc's text selection is tab-separated cells: separator 59 split each line into three cells.
    for (const r of [a, b, c]) expect(r!.text).toMatch(/^name\tamount\tnote\r?\n/);
    expect(comma!.text).toMatch(/^name;amount;note\t?\r?\nx;1\t5;a b\t?\r?\n/);
  });

  it('a CSV without Batch=true never finishes loading: the modal dialog waits on LibreOffice main thread', async () => {
    const workDir = dirs.workDir();
    const csv = semicolonCsv(workDir);
    const run = await runFixture<{ results: LoadResult[] }>('load-cases', {
      workDir,
      profileDir: dirs.profileDir,
      args: [JSON.stringify([{ file: csv, options: '59,34,76,1' }])],
      // A normal load takes well under a second; the hung kit must be SIGKILLed.
      timeoutMs: 8000,
    });
    expect(run.timedOut).toBe(true);
    expect(run.signal).toBe('SIGKILL');
    expect(run.result).toBeUndefined();
  });
});
