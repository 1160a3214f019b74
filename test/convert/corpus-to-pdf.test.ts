import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { pdfInfo } from '../helpers/pdf.ts';

// Every readable document of the shared corpus: all folders but broken/, plus broken/empty.docx (a valid
// document with an empty body).
const files = readdirSync(CORPUS, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'broken')
  .flatMap((d) => readdirSync(join(CORPUS, d.name)).map((f) => `${d.name}/${f}`))
  .concat(['broken/empty.docx'])
  .sort();

describe('every readable corpus document converts to PDF over HTTP', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon({ kits: { prespawn: 2, convert_concurrency: 2 } }, 2);
  });
  afterAll(async () => daemon?.stop());

  it('finds the corpus', () => {
    expect(files.length).toBeGreaterThan(40);
  });

  it.each(files)('%s -> pdf', async (file) => {
    const r = await postConvert(daemon.url, '/ode/convert-to/pdf', join(CORPUS, file));
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="[^"]+\.pdf"/);
    expect(r.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(Number(pdfInfo(r.body).Pages)).toBeGreaterThanOrEqual(1);
  });
});
