/**
 * A document that links to files of the server (issue 18): a section linked to the daemon's proof key or to
 * another user's document (updated as a user does: Edit > Links > Update), and an image linked to another
 * document's picture. With kits in the sandbox the document gets nothing; the same documents in an unsandboxed
 * kit of the same machine do get the key's text, the other document's text and the picture (the control that
 * shows the test can fail). The oracles are the kit's own text export and poppler's `pdfimages -list`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../daemon/server/config/schema.ts';
import { KitPool } from '../../daemon/server/pool/pool.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { linkedImageOdt, linkedSectionOdt, odfPackage, redPng } from './documents.ts';
import { updateLinksAndRead } from './kit-links.ts';

let daemon: TestDaemon;
let unsandboxed: KitPool;
let scratch: string;
let proofKey: string;
let otherDoc: string;
let otherPicture: string;

/** Number of images in a PDF, from `pdfimages -list` (two header lines, then one line per image). */
function pdfImageCount(pdf: Buffer): number {
  const file = join(scratch, `probe-${Date.now()}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).trim().split('\n').length - 2;
}

async function convertToPdf(bytes: Uint8Array): Promise<Buffer> {
  const form = new FormData();
  form.append('data', new Blob([bytes]), 'linked.odt');
  const r = await fetch(`${daemon.url}/ode/convert-to/pdf`, { method: 'POST', body: form });
  expect(r.status).toBe(200);
  return Buffer.from(await r.arrayBuffer());
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ode-sandbox-files-'));
  daemon = await startDaemon({ security: { sandbox: 'required' }, kits: { prespawn: 1, max: 4 } }, 1);
  const cfg = daemon.store.get();
  proofKey = join(cfg.state_dir, 'proof_key');
  // Another user's files, where the demo host keeps documents.
  mkdirSync(cfg.demo_host.folder, { recursive: true });
  otherDoc = join(cfg.demo_host.folder, 'other.odt');
  writeFileSync(otherDoc, odfPackage('application/vnd.oasis.opendocument.text', '<office:text><text:p>OTHER-USER-SECRET-7</text:p></office:text>'));
  otherPicture = join(cfg.demo_host.folder, 'photo.png');
  writeFileSync(otherPicture, redPng(64));
  // The control: a kit of the same machine without the sandbox.
  const off = configSchema.parse({ state_dir: join(scratch, 'state'), security: { sandbox: 'off' }, kits: { prespawn: 1 } });
  unsandboxed = new KitPool({ config: () => off, log: pino({ level: 'silent' }), tmpRoot: join(scratch, 'kits') });
  unsandboxed.start();
  await unsandboxed.waitReady(1, 120_000);
});

afterAll(async () => {
  await unsandboxed?.stop();
  await daemon?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('file links to the server', () => {
  it('control: an unsandboxed kit reads the proof key and the other document through section links', async () => {
    expect(await updateLinksAndRead(unsandboxed, linkedSectionOdt(`file://${proofKey}`))).toContain('PRIVATE KEY');
    expect(await updateLinksAndRead(unsandboxed, linkedSectionOdt(`file://${otherDoc}`))).toContain('OTHER-USER-SECRET-7');
  });

  it('a sandboxed kit gets nothing from the proof key', async () => {
    const text = await updateLinksAndRead(daemon.server.pool, linkedSectionOdt(`file://${proofKey}`));
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).toContain('before');
  });

  it("a sandboxed kit gets nothing from another user's document", async () => {
    const text = await updateLinksAndRead(daemon.server.pool, linkedSectionOdt(`file://${otherDoc}`));
    expect(text).not.toContain('OTHER-USER-SECRET-7');
    expect(text).toContain('before');
  });

  it("a linked image of another document's picture: none in the sandboxed conversion's PDF (an unsandboxed kit embeds it)", async () => {
    const doc = linkedImageOdt(`file://${otherPicture}`);
    expect(pdfImageCount(await convertToPdf(doc))).toBe(0);
    // The control through the unsandboxed pool's kit: the picture is read and laid out.
    const kit = await unsandboxed.leaseEditingKit();
    try {
      const input = join(kit.jobDir(), 'linked.odt');
      writeFileSync(input, doc);
      await kit.open({ input }, { loadMs: 60_000, convertMs: 60_000 });
      const out = join(kit.dir, 'linked.pdf');
      await kit.exportDoc(out, 'pdf');
      expect(pdfImageCount(readFileSync(out))).toBeGreaterThanOrEqual(1);
    } finally {
      unsandboxed.retireKit(kit);
    }
  });
});
