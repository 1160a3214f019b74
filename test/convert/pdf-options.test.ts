import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { pdfInfo, pdfMeta, pixelDifference, renderPage } from '../helpers/pdf.ts';

const deck = join(CORPUS, 'presentations/layouts.pptx'); // 10 slides
const letter = join(CORPUS, 'content-controls/ContentControls.docx');
const opt = (o: Record<string, { type: string; value: unknown }>) => ({ options: JSON.stringify(o) });

describe('PDF export options, checked from outside', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon({ kits: { prespawn: 2, convert_concurrency: 2 } }, 2);
  });
  afterAll(async () => daemon?.stop());

  it('PageRange changes the page count', async () => {
    const all = await postConvert(daemon.url, '/ode/convert-to/pdf', deck);
    expect(Number(pdfInfo(all.body).Pages)).toBe(10);
    const some = await postConvert(daemon.url, '/ode/convert-to/pdf', deck, opt({ PageRange: { type: 'string', value: '2-4' } }));
    expect(some.status).toBe(200);
    expect(Number(pdfInfo(some.body).Pages)).toBe(3);
  });

  it('EncryptFile with DocumentOpenPassword gives an encrypted PDF that opens with that password only', async () => {
    const r = await postConvert(
      daemon.url,
      '/ode/convert-to/pdf',
      letter,
      opt({ EncryptFile: { type: 'boolean', value: 'true' }, DocumentOpenPassword: { type: 'string', value: 's3cret' } }),
    );
    expect(r.status).toBe(200);
    expect(() => pdfInfo(r.body)).toThrow();
    const info = pdfInfo(r.body, ['-upw', 's3cret']);
    expect(info.Encrypted).toMatch(/^yes/);
    expect(Number(info.Pages)).toBeGreaterThanOrEqual(1);
  });

  it('SelectPdfVersion 2 gives PDF/A-2b metadata; the deprecated PDFVer does the same', async () => {
    const r = await postConvert(daemon.url, '/ode/convert-to/pdf', letter, opt({ SelectPdfVersion: { type: 'long', value: 2 } }));
    expect(r.status).toBe(200);
    const meta = pdfMeta(r.body);
    expect(meta).toMatch(/pdfaid:part[^0-9]*2/);
    expect(meta).toMatch(/pdfaid:conformance[^A-Z]*B/);
    const old = await postConvert(daemon.url, '/ode/convert-to/pdf', letter, { PDFVer: 'PDF/A-2b' });
    expect(pdfMeta(old.body)).toMatch(/pdfaid:part[^0-9]*2/);
  });

  it('Watermark changes the rendered page against the same conversion without it', async () => {
    const plain = await postConvert(daemon.url, '/ode/convert-to/pdf', letter);
    const marked = await postConvert(daemon.url, '/ode/convert-to/pdf', letter, opt({ Watermark: { type: 'string', value: 'CONFIDENTIAL' } }));
    expect(marked.status).toBe(200);
    const again = await postConvert(daemon.url, '/ode/convert-to/pdf', letter);
    const a = renderPage(plain.body);
    // The same conversion twice renders the same; the watermark makes a visible difference.
    expect(pixelDifference(a, renderPage(again.body))).toBeLessThan(0.001);
    expect(pixelDifference(a, renderPage(marked.body))).toBeGreaterThan(0.01);
  });

  it('SelectPdfVersion 4 writes PDF/A-4 (pdfaid:part 4, PDF 2.0) and 20 writes a %PDF-2.0 file; PDFVer PDF/A-4 too', async () => {
    const a4 = await postConvert(daemon.url, '/ode/convert-to/pdf', letter, opt({ SelectPdfVersion: { type: 'long', value: 4 } }));
    expect(a4.status, JSON.stringify(a4.error)).toBe(200);
    expect(pdfMeta(a4.body)).toMatch(/pdfaid:part[^0-9]*4/);
    // PDF/A-4 is based on PDF 2.0 (ISO 19005-4).
    expect(a4.body.subarray(0, 8).toString('latin1')).toBe('%PDF-2.0');
    const v20 = await postConvert(daemon.url, '/ode/convert-to/pdf', letter, opt({ SelectPdfVersion: { type: 'long', value: 20 } }));
    expect(v20.status, JSON.stringify(v20.error)).toBe(200);
    expect(v20.body.subarray(0, 8).toString('latin1')).toBe('%PDF-2.0');
    expect(pdfMeta(v20.body)).not.toMatch(/pdfaid:part/);
    expect(Number(pdfInfo(v20.body).Pages)).toBeGreaterThanOrEqual(1);
    const old = await postConvert(daemon.url, '/ode/convert-to/pdf', letter, { PDFVer: 'PDF/A-4' });
    expect(pdfMeta(old.body)).toMatch(/pdfaid:part[^0-9]*4/);
    // The default is PDF 1.7.
    const plain = await postConvert(daemon.url, '/ode/convert-to/pdf', letter);
    expect(plain.body.subarray(0, 8).toString('latin1')).toBe('%PDF-1.7');
  });

  it('a PDF version that does not exist is refused with bad_options', async () => {
    const r = await postConvert(daemon.url, '/ode/convert-to/pdf', letter, opt({ SelectPdfVersion: { type: 'long', value: 5 } }));
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe('bad_options');
  });

  it('a password-protected input opens with the password field (beyond the spec, as Gotenberg offers)', async () => {
    const file = join(CORPUS, 'broken/encrypted-with-pwd_hello.odt');
    const r = await postConvert(daemon.url, '/ode/convert-to/pdf', file, { password: 'hello' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(Number(pdfInfo(r.body).Pages)).toBeGreaterThanOrEqual(1);
    const wrong = await postConvert(daemon.url, '/ode/convert-to/pdf', file, { password: 'nope' });
    expect(wrong.status).toBe(422);
    expect(wrong.error?.code).toBe('password_invalid');
  });

  it('pdftotext finds the watermark text only in the watermarked PDF', async () => {
    const marked = await postConvert(daemon.url, '/ode/convert-to/pdf', letter, opt({ Watermark: { type: 'string', value: 'ODEMARK' } }));
    const dir = mkdtempSync(join(tmpdir(), 'ode-wm-'));
    try {
      writeFileSync(join(dir, 'a.pdf'), marked.body);
      expect(execFileSync('pdftotext', [join(dir, 'a.pdf'), '-'], { encoding: 'utf8' })).toContain('ODEMARK');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
