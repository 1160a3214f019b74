/**
 * Password-protected and corrupt documents from the corpus, loaded by real LibreOffice (25.2) through the
 * addon, with Batch=true as kits load. What LibreOffice does with each is recorded in README.md ("What LibreOffice
 * does with the corpus"). 25.2 asks no password question in a batch load: the facade's retry (office.ts) is covered
 * by the first two cases.
 */
import { afterAll, describe, expect, it } from 'vitest';

import { fixtureDirs, runFixture } from './test-fixtures/run-fixture.ts';

const dirs = fixtureDirs('ode-native-passwords');
afterAll(() => dirs.cleanup());

interface LoadResult {
  file: string;
  password?: string;
  loaded: boolean;
  code?: string;
  message?: string;
  docType?: number;
  text?: string;
}

async function load(cases: Array<{ file: string; password?: string; options?: string }>) {
  const run = await runFixture<{ results: LoadResult[]; passwordQuestions: string[] }>('load-cases', {
    workDir: dirs.workDir(),
    profileDir: dirs.profileDir,
    args: [JSON.stringify(cases.map((c) => ({ options: 'Batch=true', ...c })))],
  });
  expect(run.code, run.stderr).toBe(0);
  return run.result!;
}

const EMPTY_REFERENCE = 'loadComponentFromURL returned an empty reference';

describe('documentLoad of password-protected documents', () => {
  it('encrypted ODT: password_required without a password, password_invalid with a wrong one, loads with "hello"', async () => {
    const { results } = await load([
      { file: 'broken/encrypted-with-pwd_hello.odt' },
      { file: 'broken/encrypted-with-pwd_hello.odt', password: 'wrong' },
      { file: 'broken/encrypted-with-pwd_hello.odt', password: 'hello' },
    ]);
    expect(results[0]).toMatchObject({ loaded: false, code: 'password_required' });
    expect(results[0].message).toContain(EMPTY_REFERENCE);
    expect(results[1]).toMatchObject({ loaded: false, code: 'password_invalid' });
    expect(results[2]).toMatchObject({ loaded: true, docType: 0, text: 'Hello World!' });
  });

  it('Word 97 .doc with RC4 encryption: password_required, and password_invalid for a wrong password', async () => {
    const { results, passwordQuestions } = await load([{ file: 'broken/PasswordProtected.doc' }, { file: 'broken/PasswordProtected.doc', password: 'wrong' }]);
    expect(results[0]).toMatchObject({ loaded: false, code: 'password_required' });
    expect(results[1]).toMatchObject({ loaded: false, code: 'password_invalid' });
    // LibreOffice (7.4 and 25.2) names a .doc by its bare file name in the password question, not by its URL.
    expect(passwordQuestions).toContain('20:1-PasswordProtected.doc');
  });

  it('agile-encrypted docx with AES-256 + SHA-1 (bug53475): LibreOffice (7.4 and 25.2) cannot decrypt it and never asks', async () => {
    const { results, passwordQuestions } = await load([
      { file: 'broken/bug53475-password-is-pass.docx' },
      { file: 'broken/bug53475-password-is-pass.docx', password: 'pass' },
    ]);
    for (const r of results) {
      expect(r).toMatchObject({ loaded: false, code: 'load_failed' });
      expect(r.message).toContain(EMPTY_REFERENCE);
    }
    expect(passwordQuestions.filter((q) => q.includes('bug53475'))).toEqual([]);
  });

  it('a password given for an unprotected document is not used', async () => {
    const { results } = await load([{ file: 'spreadsheets/SampleSS.xlsx', password: 'unused' }]);
    expect(results[0]).toMatchObject({ loaded: true, docType: 1 });
  });
});

describe('documentLoad of corrupt and odd files', () => {
  it('fails with load_failed and the getError() text, or loads what type detection makes of the bytes', async () => {
    const { results } = await load([
      { file: 'broken/truncated62886.docx' },
      { file: 'broken/testInvalidPkg3.odt' },
      { file: 'broken/testODTnotaZipFile.odt' },
      { file: 'broken/invalid.xlsx' },
      { file: 'broken/empty_file.ods' },
      { file: 'missing:nothing.docx' },
    ]);
    const [truncated, invalidPkg, notZip, invalidXlsx, emptyOds, missing] = results;
    expect(truncated).toMatchObject({ loaded: false, code: 'load_failed' });
    expect(truncated.message).toContain(EMPTY_REFERENCE);
    expect(invalidPkg).toMatchObject({ loaded: false, code: 'load_failed' });
    expect(invalidPkg.message).toContain(EMPTY_REFERENCE);
    // Plain text with an .odt name: detected as text, opened in Writer.
    expect(notZip).toMatchObject({ loaded: true, docType: 0, text: 'This is not a zip file!' });
    // A 22-byte empty zip named .xlsx: opened in Writer as text showing the raw bytes.
    expect(invalidXlsx).toMatchObject({ loaded: true, docType: 0 });
    expect(invalidXlsx.text).toMatch(/^PK/);
    // A one-byte file named .ods: an empty Writer document.
    expect(emptyOds).toMatchObject({ loaded: true, docType: 0, text: '' });
    expect(missing).toMatchObject({ loaded: false, code: 'load_failed' });
    expect(missing.message).toContain('type detection failed');
  });
});
