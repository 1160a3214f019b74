/**
 * Document signing in an editing kit (kit.md, Editing: `signDoc`, `signatureState`).
 *
 * LibreOfficeKit's insertCertificate (7.4 and 25.2; desktop/source/lib/init.cxx doc_insertCertificate) builds an NSS
 * certificate from the DER certificate and PKCS#8 key, then SfxObjectShell::SignDocumentContentUsingCertificate:
 * when the document is modified it is saved in place first, then the signature is written into the file the
 * document was loaded from (`input`), not into LibreOffice's memory: a later saveAs/export would drop it, so the
 * daemon uploads `input` itself. NSS needs no set-up in a kit: LibreOffice initialises it on first use, with a
 * temporary store when the profile has no certificate database (measured: a fresh kit profile signs, about
 * 250-470 ms on 2 cores). addCertificate trusts a CA for the whole process (every document of the kit).
 *
 * SignatureState (sfx2/signaturestate.hxx): 0 NOSIGNATURES, 1 OK, 2 BROKEN, 3 INVALID, 4 NOTVALIDATED,
 * 5 PARTIAL_OK, 6 NOTVALIDATED_PARTIAL_OK. A docx that LibreOffice signs reports PARTIAL_OK (5) even when the
 * certificate verifies: LibreOffice (7.4, and 25.2: test/editing/signing.test.ts) does not count [Content_Types].xml
 * and the _rels parts as signed.
 */
import type { LokDocument } from '../native/index.ts';
import { kitError } from './edit-save.ts';

/** Trusts each CA certificate; returns how many LibreOffice accepted. */
export function trustCertificates(doc: LokDocument, ca: Uint8Array[]): number {
  let added = 0;
  for (const der of ca) if (doc.addCertificate(Buffer.from(der))) added++;
  return added;
}

/**
 * Signs `doc` in its file: trusts `ca`, then insertCertificate. The caller has set the view.
 * @throws Error with `code` sign_failed when LibreOffice refuses (key not matching the certificate, a format
 * that cannot be signed, a read-only file).
 */
export function signDocument(doc: LokDocument, certificate: Uint8Array, privateKey: Uint8Array, ca: Uint8Array[]): { signed: boolean; signatureState: number } {
  trustCertificates(doc, ca);
  const signed = doc.insertCertificate(Buffer.from(certificate), Buffer.from(privateKey));
  if (!signed) throw kitError('sign_failed', 'LibreOffice could not sign the document with this certificate');
  return { signed, signatureState: doc.getSignatureState() };
}
