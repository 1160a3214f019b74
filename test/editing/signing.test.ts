import { X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDirs, runFixture } from '../../daemon/native/test-fixtures/run-fixture.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { useEditing } from '../helpers/editing-setup.ts';
import type { EditorClient } from '../helpers/editor-client.ts';
import { makeSigningCredentials, pemBody } from '../helpers/signing-credentials.ts';

/** Every text frame a client received, as one string. */
const frames = (c: EditorClient) => c.messages.map((m) => JSON.stringify(m)).join('\n');

/** LibreOffice's SignatureState numbers (sfx2/signaturestate.hxx). */
const OK = 1;
const NOTVALIDATED = 4;
const PARTIAL_OK = 5;
const NOTVALIDATED_PARTIAL_OK = 6;

describe('signing with the user certificate (UserPrivateInfo.SignatureCert/Key/Ca)', () => {
  const env = useEditing({ readyKits: 1, maxKits: 3 });
  const dirs = fixtureDirs('ode-signing');
  let creds: ReturnType<typeof makeSigningCredentials>;
  let caDerPath: string;
  beforeAll(() => {
    creds = makeSigningCredentials();
    caDerPath = join(dirs.workDir(), 'ca.der');
    writeFileSync(caDerPath, new X509Certificate(creds.caPem).raw);
  });
  afterAll(() => dirs.cleanup());

  /** A fresh LibreOffice's verdict on `bytes` (saved as `name`): without, then with the test CA. */
  async function verdict(bytes: Buffer, name: string): Promise<{ before: number; added: boolean[]; after: number }> {
    const work = dirs.workDir();
    const path = join(work, `stored-${name}`);
    writeFileSync(path, bytes);
    const run = await runFixture<{ before: number; added: boolean[]; after: number }>('signature-state', {
      workDir: work,
      profileDir: dirs.profileDir,
      args: [path, caDerPath],
      timeoutMs: 60_000,
    });
    if (!run.result) throw new Error(`signature-state fixture failed (${run.code}): ${run.stderr.slice(-500)}`);
    return run.result;
  }

  it('an odt signed in the editor is stored signed and valid; another view never sees the credentials and cannot sign', async () => {
    const privateInfo = { SignatureCert: creds.certPem, SignatureKey: creds.keyPem, SignatureCa: creds.caPem };
    const src = env.host.addFile('odt1', 'chart.odt', readFileSync(join(CORPUS, 'charts/chart.odt')), { UserPrivateInfo: privateInfo });
    const signer = await env.open(src);
    const first = await signer.client.next('signatureState');
    expect(first).toEqual({ type: 'signatureState', state: 'unsigned', canSign: true });

    // The second user's CheckFileInfo has no credentials.
    env.host.files.get('odt1')!.info = { UserFriendlyName: 'Other User', UserId: 'user-2' };
    const other = await env.open(src);
    expect(await other.client.next('signatureState')).toEqual({ type: 'signatureState', state: 'unsigned', canSign: false });

    // Refused by the daemon over the WebSocket for the view without credentials.
    let from = other.client.messages.length;
    other.client.send({ type: 'sign' });
    const refused = await other.client.next('error', (m) => m.code === 'sign_unavailable', 20_000, from);
    expect(refused.message).toMatch(/no signing certificate/);
    const putsBefore = env.host.requests.filter((r) => r.operation === 'PutFile').length;

    // An unsaved change, then sign: the change and the signature are stored together.
    signer.client.type('Signed ');
    from = signer.client.messages.length;
    const fromOther = other.client.messages.length;
    signer.client.send({ type: 'sign' });
    const signed = await signer.client.next('signed', () => true, 60_000, from);
    expect(signed).toEqual({ type: 'signed', ok: true, state: 'valid' });
    expect(await signer.client.next('signatureState', () => true, 20_000, from)).toEqual({ type: 'signatureState', state: 'valid', canSign: true });
    expect(await other.client.next('signatureState', () => true, 20_000, fromOther)).toEqual({ type: 'signatureState', state: 'valid', canSign: false });

    const puts = env.host.requests.filter((r) => r.operation === 'PutFile');
    expect(puts.length).toBe(putsBefore + 1);
    const stored = puts.at(-1)!.body;
    const zip = unzipSync(new Uint8Array(stored));
    expect(Object.keys(zip)).toContain('META-INF/documentsignatures.xml');
    const sigXml = new TextDecoder().decode(zip['META-INF/documentsignatures.xml']);
    expect(sigXml).toContain(pemBody(creds.certPem).slice(0, 64));
    expect(new TextDecoder().decode(zip['content.xml'])).toContain('Signed ');

    // A fresh LibreOffice: not validated without the CA, valid (OK) once the CA is trusted.
    const v = await verdict(stored, 'signed.odt');
    expect(v).toEqual({ before: NOTVALIDATED, added: [true], after: OK });

    // The credentials never reached the other view (nor the signer's own socket).
    for (const c of [other.client, signer.client]) {
      const text = frames(c);
      expect(text).not.toContain(pemBody(creds.keyPem).slice(0, 40));
      expect(text).not.toContain('PRIVATE KEY');
      expect(text).not.toContain('SignatureKey');
      expect(text).not.toContain('SignatureCert');
    }
    expect(frames(other.client)).not.toContain(pemBody(creds.certPem).slice(0, 40));
  }, 180_000);

  it('a docx signed in the editor gets _xmlsignatures/ and LibreOffice reports it partial (OOXML)', async () => {
    const privateInfo = { SignatureCert: creds.certPem, SignatureKey: creds.keyPem, SignatureCa: creds.caPem };
    const src = env.host.addFile('docx1', 'delins.docx', readFileSync(join(CORPUS, 'tracked-changes/delins.docx')), { UserPrivateInfo: privateInfo });
    const signer = await env.open(src);
    expect(await signer.client.next('signatureState')).toMatchObject({ state: 'unsigned', canSign: true });
    const from = signer.client.messages.length;
    signer.client.send({ type: 'sign' });
    expect(await signer.client.next('signed', () => true, 60_000, from)).toEqual({ type: 'signed', ok: true, state: 'partial' });
    const stored = env.host.requests.filter((r) => r.operation === 'PutFile' && r.path.endsWith('/docx1/contents')).at(-1)?.body;
    expect(stored).toBeDefined();
    const names = Object.keys(unzipSync(new Uint8Array(stored!)));
    expect(names.some((n) => n.startsWith('_xmlsignatures/') && n.endsWith('.xml'))).toBe(true);
    const v = await verdict(stored!, 'signed.docx');
    expect(v).toEqual({ before: NOTVALIDATED_PARTIAL_OK, added: [true], after: PARTIAL_OK });
  }, 180_000);
});
