import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { pdfInfo } from '../helpers/pdf.ts';

/**
 * Each file of corpus/broken/ with the answer documented in docs/errors.md ("The broken corpus"), taken from
 * the corpus MANIFEST's description of the file: 200 for the valid edge case, else the error code.
 */
const EXPECTED: Array<[string, number, string | null]> = [
  ['empty.docx', 200, null], // well-formed docx with an empty body
  ['truncated62886.docx', 422, 'load_failed'], // zip without a central directory
  ['testODTnotaZipFile.odt', 422, 'load_failed'], // 24 bytes of text named .odt
  ['empty_file.ods', 422, 'load_failed'], // a 1-byte file named .ods
  ['invalid.xlsx', 422, 'load_failed'], // an empty zip named .xlsx
  ['testInvalidPkg3.odt', 422, 'load_failed'], // a zip holding only the mimetype entry
  ['bug53475-password-is-pass.docx', 422, 'password_required'], // encrypted OOXML (OLE2 EncryptedPackage)
  ['encrypted-with-pwd_hello.odt', 422, 'password_required'], // ODF with encrypted entries
  ['PasswordProtected.doc', 422, 'password_required'], // Word 97 with the fEncrypted flag
];
const good = join(CORPUS, 'content-controls/ContentControls.docx');

describe('corpus/broken: each file gets its documented answer, and the next request still succeeds', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon();
  });
  afterAll(async () => daemon?.stop());

  it.each(EXPECTED)('%s -> %i %s', async (file, status, code) => {
    const r = await postConvert(daemon.url, '/ode/convert-to/pdf', join(CORPUS, 'broken', file));
    expect(r.status, JSON.stringify(r.error)).toBe(status);
    if (code) {
      expect(r.error?.code).toBe(code);
      expect(r.error?.message).not.toMatch(/file:\/\/|\/tmp\//); // no internal paths leak to callers
    } else {
      expect(Number(pdfInfo(r.body).Pages)).toBeGreaterThanOrEqual(1);
    }
    const next = await postConvert(daemon.url, '/ode/convert-to/pdf', good);
    expect(next.status).toBe(200);
  });
});
