import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost, publicKeyFromDiscovery } from '../helpers/fake-wopi-host.ts';
import { closeServer, listenLocal } from '../helpers/net.ts';

const CLIENT_ID = 'client-7f3a9c-public-id';
const SECRET = 'secret-e1d2c3b4a5-never-in-the-browser';

/**
 * A small real provider following docs/esignature.md: prepare-files-for-signing (checks client_id/secret, keeps the
 * file), the signing page (GET: the "user" completes or, with ?decline, refuses), download-signed-file (PENDING
 * until then, the signed PDF after).
 */
class FakeProvider {
  url = '';
  readonly prepared = new Map<string, { fileName: string; bytes: Buffer; state: 'pending' | 'signed' | 'declined' }>();
  readonly requests: Array<{ path: string; body: Record<string, unknown> }> = [];
  signedPdf = Buffer.alloc(0);
  private server: Server | undefined;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', this.url);
        const json = (status: number, body: unknown) => {
          res.writeHead(status, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (req.method === 'GET' && url.pathname.startsWith('/sign/')) {
          const doc = this.prepared.get(url.pathname.slice(6));
          if (!doc) return json(404, { status: 'error', message: 'unknown doc_id' });
          doc.state = url.searchParams.has('decline') ? 'declined' : 'signed';
          res.writeHead(200, { 'Content-Type': 'text/html' });
          return res.end('<!doctype html><title>Signed</title><p>Done: you can close this window.</p>');
        }
        const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>;
        this.requests.push({ path: url.pathname, body });
        if (body.client_id !== CLIENT_ID || body.secret !== SECRET) return json(401, { status: 'error', message: 'client_id or secret is wrong' });
        if (url.pathname === '/api/signatures/prepare-files-for-signing') {
          const f = (body.files as Array<{ fileName: string; fileContent: string }>)[0];
          const id = randomUUID();
          this.prepared.set(id, { fileName: f.fileName, bytes: Buffer.from(f.fileContent, 'base64'), state: 'pending' });
          return json(200, { status: 'OK', doc_id: id, signing_url: `${this.url}/sign/${id}` });
        }
        if (url.pathname === '/api/signatures/download-signed-file') {
          const doc = this.prepared.get(String(body.doc_id));
          if (!doc) return json(404, { status: 'error', message: 'unknown doc_id' });
          if (doc.state === 'pending') return json(200, { status: 'PENDING' });
          if (doc.state === 'declined') return json(200, { status: 'ERROR', message: 'the signer declined' });
          return json(200, { status: 'OK', filename: doc.fileName, signed_file_contents: this.signedPdf.toString('base64') });
        }
        return json(404, { status: 'error', message: 'no such endpoint' });
      });
    });
    this.url = await listenLocal(this.server);
  }

  async stop(): Promise<void> {
    await closeServer(this.server);
  }
}

/** No text frame the daemon sent carries the provider's client id or secret. */
function expectNoSecrets(c: EditorClient): void {
  const all = JSON.stringify(c.messages);
  expect(all).not.toContain(SECRET);
  expect(all).not.toContain(CLIENT_ID);
}

describe('electronic signature of a pdf through the provider (ServerPrivateInfo.ESignature*)', () => {
  let daemon: TestDaemon;
  let host: FakeWopiHost;
  const provider = new FakeProvider();
  const clients: EditorClient[] = [];
  let original: Buffer;
  let creds: Record<string, unknown>;

  beforeAll(async () => {
    await provider.start();
    host = await FakeWopiHost.start();
    daemon = await startDaemon(
      {
        kits: { prespawn: 1, max: 4 },
        documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 },
        esignature: { poll_secs: 0.2, timeout_secs: 60 },
      },
      1,
    );
    host.proofKey = publicKeyFromDiscovery(await (await fetch(`${daemon.url}/hosting/discovery`)).text());
    const a = await postConvert(daemon.url, '/ode/convert-to/pdf', join(CORPUS, 'presentations/AllSlidesConverterSC.pptx'));
    const b = await postConvert(daemon.url, '/ode/convert-to/pdf', join(CORPUS, 'charts/chart1.docx'));
    expect([a.status, b.status]).toEqual([200, 200]);
    original = a.body;
    // The "signed" PDF is recognisably another document (other page count) with a marker after its end.
    provider.signedPdf = Buffer.concat([b.body, Buffer.from('\n% signed by the fake provider\n')]);
    creds = { ServerPrivateInfo: { ESignatureBaseUrl: provider.url, ESignatureClientId: CLIENT_ID, ESignatureSecret: SECRET } };
  }, 180_000);

  // Each document holds a kit: the views of one test leave before the next opens its own.
  afterEach(async () => {
    for (const c of clients.splice(0)) {
      c.close();
      await c.closed().catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 500));
  });

  afterAll(async () => {
    await daemon?.stop();
    await host?.stop();
    await provider.stop();
  });

  async function open(id: string, name: string, bytes: Buffer, info: Record<string, unknown>) {
    const src = host.addFile(id, name, bytes, { UserCanWrite: true, ...info });
    const v = await EditorClient.open(daemon.url, src, { token: host.token });
    clients.push(v.client);
    const services = await v.client.next('services');
    return { ...v, services };
  }

  it('the signed pdf from the provider becomes the stored document, and the view reloads it', async () => {
    const { client, status, services } = await open('sig1', 'contract.pdf', original, creds);
    expect(status).toMatchObject({ docType: 'drawing', commentsOnly: true, parts: 5 });
    expect(services).toMatchObject({ eSignature: true, citations: false });

    const from = client.messages.length;
    client.send({ type: 'eSignatureStart' });
    const signing = await client.next('eSignature', () => true, 30_000, from);
    expect(signing.state).toBe('signing');
    expect(signing.url).toMatch(new RegExp(`^${provider.url}/sign/`));
    // The provider got the stored pdf itself, with the credentials in the body.
    const prep = provider.requests.find((r) => r.path === '/api/signatures/prepare-files-for-signing')!;
    expect(prep.body).toMatchObject({ client_id: CLIENT_ID, secret: SECRET, container_type: 'pdf' });
    const docId = new URL(signing.url!).pathname.split('/').pop()!;
    expect(provider.prepared.get(docId)!.bytes.equals(original)).toBe(true);
    expect(provider.prepared.get(docId)!.fileName).toBe('contract.pdf');

    // Still waiting: nothing stored yet.
    await new Promise((r) => setTimeout(r, 600));
    expect(host.of('PutFile')).toHaveLength(0);

    // The user completes the provider's steps.
    expect((await fetch(signing.url!)).status).toBe(200);
    const done = await client.next('eSignature', (m) => m.state !== 'signing', 60_000, from);
    expect(done).toMatchObject({ state: 'signed' });
    expect(host.of('PutFile')).toHaveLength(1);
    expect(host.files.get('sig1')!.bytes.equals(provider.signedPdf)).toBe(true);
    // The view shows the signed pdf: reloaded, and the new status has its page count.
    await client.next('reloaded', () => true, 10_000, from);
    const after = await client.next('status', () => true, 10_000, from);
    const signedPages = (await postConvert(daemon.url, '/ode/convert-to/pdf', join(CORPUS, 'charts/chart1.docx'))).body
      .toString('latin1')
      .match(/\/Type\s*\/Page\b/g)!.length;
    expect(after.parts).toBe(signedPages);
    expect(after.parts).not.toBe(5);
    expectNoSecrets(client);
  }, 120_000);

  it('a refusal by the provider is shown and the stored document is unchanged', async () => {
    const { client } = await open('sig2', 'declined.pdf', original, creds);
    const from = client.messages.length;
    client.send({ type: 'eSignatureStart' });
    const signing = await client.next('eSignature', () => true, 30_000, from);
    expect((await fetch(`${signing.url!}?decline`)).status).toBe(200);
    const failed = await client.next('eSignature', (m) => m.state !== 'signing', 30_000, from);
    expect(failed).toMatchObject({ state: 'failed', code: 'refused' });
    expect(failed.message).toContain('the signer declined');
    expect(host.of('PutFile').filter((r) => r.path.endsWith('/sig2/contents'))).toHaveLength(0);
    expect(host.files.get('sig2')!.bytes.equals(original)).toBe(true);
    expectNoSecrets(client);
  }, 60_000);

  it('cancel stops waiting; a provider that is down or refuses the credentials is reported', async () => {
    const { client } = await open('sig3', 'cancel.pdf', original, creds);
    let from = client.messages.length;
    client.send({ type: 'eSignatureStart' });
    await client.next('eSignature', (m) => m.state === 'signing', 30_000, from);
    client.send({ type: 'eSignatureCancel' });
    await client.next('eSignature', (m) => m.state === 'cancelled', 10_000, from);

    const down = await open('sig4', 'down.pdf', original, {
      ServerPrivateInfo: { ESignatureBaseUrl: 'http://127.0.0.1:9', ESignatureClientId: CLIENT_ID, ESignatureSecret: SECRET },
    });
    from = down.client.messages.length;
    down.client.send({ type: 'eSignatureStart' });
    expect(await down.client.next('eSignature', () => true, 30_000, from)).toMatchObject({ state: 'failed', code: 'provider' });

    const wrong = await open('sig5', 'wrong.pdf', original, {
      ServerPrivateInfo: { ESignatureBaseUrl: provider.url, ESignatureClientId: CLIENT_ID, ESignatureSecret: 'not-the-secret' },
    });
    from = wrong.client.messages.length;
    wrong.client.send({ type: 'eSignatureStart' });
    const refused = await wrong.client.next('eSignature', () => true, 30_000, from);
    expect(refused).toMatchObject({ state: 'failed', code: 'provider' });
    expect(refused.message).toContain('client_id or secret is wrong');
    for (const id of ['sig3', 'sig4', 'sig5']) expect(host.files.get(id)!.bytes.equals(original)).toBe(true);
    for (const c of [client, down.client, wrong.client]) expectNoSecrets(c);
    expect(JSON.stringify(wrong.client.messages)).not.toContain('not-the-secret');
  }, 90_000);

  it('without the three values, or for a document that is not a pdf, there is no electronic signature', async () => {
    const none = await open('sig6', 'plain.pdf', original, {});
    expect(none.services).toMatchObject({ eSignature: false });
    const partial = await open('sig7', 'partial.pdf', original, { ServerPrivateInfo: { ESignatureBaseUrl: provider.url, ESignatureClientId: CLIENT_ID } });
    expect(partial.services).toMatchObject({ eSignature: false });
    const from = partial.client.messages.length;
    partial.client.send({ type: 'eSignatureStart' });
    expect(await partial.client.next('eSignature', () => true, 10_000, from)).toMatchObject({ state: 'failed', code: 'not_available' });
    const docx = await postConvert(daemon.url, '/ode/convert-to/docx', join(CORPUS, 'charts/chart1.docx'));
    const text = await open('sig8', 'letter.docx', docx.body, creds);
    expect(text.services).toMatchObject({ eSignature: false });
    expectNoSecrets(text.client);
  }, 90_000);
});
