/**
 * documentLoad's options string (LOK 7.4 documentLoadWithOptions): LibreOffice takes out `Language=`,
 * `Batch=` (and DeviceFormFactor=, MacroSecurityLevel=, EnableMacrosExecution=) and passes the rest as the
 * import filter's FilterOptions. Under LibreOfficeKit 7.4, though, the CSV import ignores FilterOptions and
 * always runs its Text Import dialog: see README.md, "Load options".
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

  it('a CSV with Batch=true and CSV filter options fails: LOK 7.4 shows the Text Import dialog anyway and Batch cancels it', async () => {
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
        ]),
      ],
    });
    expect(run.code, run.stderr).toBe(0);
    for (const r of run.result!.results) {
      expect(r).toMatchObject({ loaded: false, code: 'load_failed' });
      expect(r.message).toContain('loadComponentFromURL returned an empty reference');
    }
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
