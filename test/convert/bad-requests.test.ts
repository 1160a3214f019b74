import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';

const letter = join(CORPUS, 'content-controls/ContentControls.docx');

describe('bad requests get a clear error and the daemon keeps serving', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon({ limits: { max_upload_mb: 1 } });
  });
  afterAll(async () => daemon?.stop());

  it('no file: 400 no_file', async () => {
    const form = new FormData();
    form.append('format', 'pdf');
    const res = await fetch(`${daemon.url}/ode/convert-to`, { method: 'POST', body: form });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('no_file');
  });

  it('no format: 400 no_format', async () => {
    const r = await postConvert(daemon.url, '/ode/convert-to', letter);
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe('no_format');
  });

  it('an output the input kind cannot produce: 400 naming the formats it can', async () => {
    const r = await postConvert(daemon.url, '/ode/convert-to/xlsx', letter);
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe('unsupported_format');
    expect(r.error?.formats).toEqual(expect.arrayContaining(['pdf', 'odt', 'docx', 'rtf', 'txt']));
    expect(r.error?.message).toContain('pdf');
  });

  it('an unknown input type: 400 unknown_input_format', async () => {
    const r = await postConvert(daemon.url, '/ode/convert-to/pdf', { bytes: Buffer.from('hello'), filename: 'x.zzz' });
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe('unknown_input_format');
  });

  it('a malformed escape in the path format: 400 bad_request', async () => {
    const r = await postConvert(daemon.url, '/ode/convert-to/pd%ZZ', letter);
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe('bad_request');
  });

  it('not multipart: 400 bad_request', async () => {
    const res = await fetch(`${daemon.url}/ode/convert-to/pdf`, { method: 'POST', body: 'just text', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('bad_request');
  });

  it('too large: 413 too_large, and nothing is left in the upload folder', async () => {
    const big = { bytes: Buffer.alloc(2 * 1024 * 1024, 65), filename: 'big.txt' };
    const r = await postConvert(daemon.url, '/ode/convert-to/pdf', big);
    expect(r.status).toBe(413);
    expect(r.error?.code).toBe('too_large');
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(daemon.server.context.uploadDir)).toEqual([]);
  });

  it('unknown endpoint 404 and wrong method 405, as JSON', async () => {
    const a = await fetch(`${daemon.url}/nope`);
    expect(a.status).toBe(404);
    expect(((await a.json()) as { code: string }).code).toBe('not_found');
    const b = await fetch(`${daemon.url}/ode/convert-to/pdf`);
    expect(b.status).toBe(405);
    expect(((await b.json()) as { code: string }).code).toBe('method_not_allowed');
  });

  it('a denied caller gets 403 naming the address; X-Forwarded-For is checked too', async () => {
    const r = await postConvert(daemon.url, '/ode/convert-to/pdf', letter, {}, { 'X-Forwarded-For': '203.0.113.9' });
    expect(r.status).toBe(403);
    expect(r.error?.code).toBe('forbidden_host');
    expect(r.error?.message).toContain('203.0.113.9');
    daemon.reconfigure({ net: { post_allow: { host: ['10\\.9\\.9\\.9'] } } });
    try {
      const denied = await postConvert(daemon.url, '/ode/convert-to/pdf', letter);
      expect(denied.status).toBe(403);
      expect(denied.error?.message).toContain('127.0.0.1');
    } finally {
      daemon.reconfigure({});
    }
    const ok = await postConvert(daemon.url, '/ode/convert-to/pdf', letter);
    expect(ok.status).toBe(200);
  });

  it('after all of that the daemon still converts, and /health answers', async () => {
    const r = await postConvert(daemon.url, '/ode/convert-to/pdf', letter);
    expect(r.status).toBe(200);
    const h = (await (await fetch(`${daemon.url}/health`)).json()) as { status: string; kits: { ready: number } };
    expect(h.status).toBe('ok');
  });
});
