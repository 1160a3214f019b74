/**
 * External data in documents (issue 18) against a real daemon with its kits in the sandbox: documents linking an
 * image, an OLE object, a section (a link updated by a user: Edit > Links > Update, `.uno:UpdateAllLinks`) and a
 * spreadsheet external reference to a listener of this test on 127.0.0.1 (port 0). The listener's own request log
 * is the oracle. With `net.lok_allow.host` empty no request reaches it; with 127.0.0.1 allowed (a live config
 * change) the image, the object and the section are fetched through the daemon's fetch proxy; past
 * `security.external_data.max_mb` a fetch is cut.
 *
 * LibreOffice itself never fetches a spreadsheet's external references through LibreOfficeKit (documents load
 * with UpdateDocMode NO_UPDATE and the cells show Err:540, "external content disabled"): the test checks that no
 * request leaves for them in either case.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { updateLinksAndRead } from './kit-links.ts';
import { externalRefOds, linkedImageOdt, linkedOleOdt, linkedSectionOdt, redPng } from './documents.ts';

let daemon: TestDaemon;
let listener: Server;
let base: string;
const hits: string[] = [];
/** Bytes the listener sends for /big.png (over the size limit set in the last test). */
const BIG = Buffer.concat([Buffer.from(redPng(8)), Buffer.alloc(3 * 1024 * 1024)]);

beforeAll(async () => {
  listener = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    if (req.url === '/image.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(redPng(32));
    if (req.url === '/big.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(BIG);
    if (req.url === '/section.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('fetched section text\n');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(listener.address() as { port: number }).port}`;
  daemon = await startDaemon({ security: { sandbox: 'required' }, kits: { prespawn: 1, max: 4 } }, 1);
});

afterAll(async () => {
  await daemon?.stop();
  await new Promise<void>((r) => listener.close(() => r()));
});

async function convert(bytes: Uint8Array, name: string, to: string): Promise<{ status: number; body: Buffer }> {
  const form = new FormData();
  form.append('data', new Blob([bytes]), name);
  const r = await fetch(`${daemon.url}/ode/convert-to/${to}`, { method: 'POST', body: form });
  return { status: r.status, body: Buffer.from(await r.arrayBuffer()) };
}

describe('external data with net.lok_allow.host empty (the default)', () => {
  it('a linked image, a linked OLE object and a spreadsheet external reference reach nothing; the conversions succeed', async () => {
    hits.length = 0;
    const image = await convert(linkedImageOdt(`${base}/image.png`), 'image.odt', 'pdf');
    const object = await convert(linkedOleOdt(`${base}/object.ods`), 'object.odt', 'pdf');
    const sheet = await convert(externalRefOds(`${base}/book.ods`), 'book.ods', 'csv');
    expect([image.status, object.status, sheet.status]).toEqual([200, 200, 200]);
    expect(image.body.subarray(0, 5).toString()).toBe('%PDF-');
    await new Promise((r) => setTimeout(r, 300));
    expect(hits).toEqual([]);
  });

  it('a section link updated by the user reaches nothing and keeps its old text', async () => {
    hits.length = 0;
    const text = await updateLinksAndRead(daemon.server.pool, linkedSectionOdt(`${base}/section.txt`));
    expect(text).not.toContain('fetched section text');
    expect(hits).toEqual([]);
  });
});

describe('external data with 127.0.0.1 in net.lok_allow.host', () => {
  beforeAll(() => daemon.reconfigure({ net: { lok_allow: { host: ['127\\.0\\.0\\.1'] } } }));

  it('the linked image and the linked object are fetched through the proxy', async () => {
    hits.length = 0;
    const image = await convert(linkedImageOdt(`${base}/image.png`), 'image.odt', 'pdf');
    expect(image.status).toBe(200);
    expect(hits).toContain('GET /image.png');
    const object = await convert(linkedOleOdt(`${base}/object.ods`), 'object.odt', 'pdf');
    expect(object.status).toBe(200);
    expect(hits).toContain('GET /object.ods');
  });

  it('a section link updated by the user gets the remote text', async () => {
    hits.length = 0;
    const text = await updateLinksAndRead(daemon.server.pool, linkedSectionOdt(`${base}/section.txt`));
    expect(hits).toContain('GET /section.txt');
    expect(text).toContain('fetched section text');
  });

  it('a spreadsheet external reference is still not fetched (LibreOffice keeps external content disabled)', async () => {
    hits.length = 0;
    const sheet = await convert(externalRefOds(`${base}/book.ods`), 'book.ods', 'csv');
    expect(sheet.status).toBe(200);
    expect(sheet.body.toString()).toContain('Err:540');
    expect(hits).toEqual([]);
  });

  it('a fetch over security.external_data.max_mb is cut; the conversion still answers', async () => {
    daemon.reconfigure({ net: { lok_allow: { host: ['127\\.0\\.0\\.1'] } }, security: { external_data: { max_mb: 1 } } });
    const cutBefore = daemon.server.pool.fetchProxy!.stats.cut;
    hits.length = 0;
    const started = Date.now();
    const image = await convert(linkedImageOdt(`${base}/big.png`), 'big.odt', 'pdf');
    expect(image.status).toBe(200);
    expect(hits).toContain('GET /big.png');
    expect(daemon.server.pool.fetchProxy!.stats.cut).toBeGreaterThan(cutBefore);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
