import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { makeSigningCredentials } from '../helpers/signing-credentials.ts';

describe('PDF signing from PEM (spec: Digital signature options)', () => {
  let daemon: TestDaemon;
  const pem = makeSigningCredentials();
  beforeAll(async () => {
    daemon = await startDaemon();
  });
  afterAll(async () => daemon?.stop());

  it('signs the exported PDF; pdfsig reports a valid signature by the test signer', async () => {
    const options = {
      SignPDF: { type: 'boolean', value: 'true' },
      SignCertificateCertPem: { type: 'string', value: pem.certPem },
      SignCertificateKeyPem: { type: 'string', value: pem.keyPem },
      SignCertificateCaPem: { type: 'string', value: pem.caPem },
      SignatureReason: { type: 'string', value: 'Approved' },
      SignatureLocation: { type: 'string', value: 'Lisbon' },
    };
    const r = await postConvert(daemon.url, '/ode/convert-to/pdf', join(CORPUS, 'content-controls/ContentControls.docx'), { options: JSON.stringify(options) });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'ode-sig-'));
    try {
      writeFileSync(join(dir, 's.pdf'), r.body);
      const out = execFileSync('pdfsig', [join(dir, 's.pdf')], { encoding: 'utf8' });
      expect(out).toContain('Signature #1');
      expect(out).toContain('Ode Test Signer');
      expect(out).toMatch(/Signature Validation: Signature is Valid/);
      // The reason and location are in the signature dictionary (pdfsig does not print them).
      expect(r.body.toString('latin1')).toContain('/Reason (Approved)');
      expect(r.body.toString('latin1')).toContain('/Location (Lisbon)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a key that does not match the certificate is refused with bad_options', async () => {
    const other = makeSigningCredentials();
    const options = {
      SignPDF: { type: 'boolean', value: 'true' },
      SignCertificateCertPem: { type: 'string', value: pem.certPem },
      SignCertificateKeyPem: { type: 'string', value: other.keyPem },
      SignCertificateCaPem: { type: 'string', value: pem.caPem },
    };
    const r = await postConvert(daemon.url, '/ode/convert-to/pdf', join(CORPUS, 'content-controls/ContentControls.docx'), { options: JSON.stringify(options) });
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe('bad_options');
    expect(r.error?.message).toContain('SignCertificateKeyPem');
  });
});
