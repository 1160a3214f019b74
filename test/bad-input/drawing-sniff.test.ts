/**
 * The type sniff for drawings and images (daemon/server/structure/package-check.ts): random bytes named .png, .emf,
 * .svg, ... are refused with `load_failed` before a kit sees them (LibreOffice spent 5-14 s on each at load and
 * answered 200), while real files of each format pass. The real files are written by LibreOffice itself
 * (`soffice --convert-to <format>` of a corpus presentation), an oracle independent of the sniff.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPackage, type PackageLimits, PackageRefusal } from '../../daemon/server/structure/package-check.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { randomDocumentBytes } from './bad-documents.ts';

const LIMITS: PackageLimits = { xmlDepth: 500, maxUncompressedBytes: 512 * 1024 * 1024, maxEntries: 10_000, maxRatio: 100 };

/**
 * LibreOffice's export extension -> the input extensions a user names such a file with. The formats whose magic
 * number is least simple (EMF's signature at byte 40, WMF's two headers, TIFF's two byte orders, SVG as text) and
 * the commonest image; each is one soffice start (some 3 s quiet, 15 s at load 20), so not every format is written.
 */
const WRITTEN: Record<string, string[]> = {
  png: ['png'],
  svg: ['svg'],
  emf: ['emf'],
  wmf: ['wmf'],
  tif: ['tiff', 'tif'],
};

/** The sniff's answer for `bytes` named `.ext`: 'ok' or the refusal's code. */
async function verdict(dir: string, bytes: Buffer, ext: string): Promise<string> {
  const path = join(dir, `probe.${ext}`);
  writeFileSync(path, bytes);
  try {
    await checkPackage(path, ext, LIMITS);
    return 'ok';
  } catch (e) {
    if (e instanceof PackageRefusal) return e.code;
    throw e;
  }
}

describe('type sniff of drawings and images', () => {
  let dir: string;
  const real = new Map<string, Buffer>();

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ode-sniff-'));
    const source = join(CORPUS, 'presentations/Presentation1.odp');
    for (const format of Object.keys(WRITTEN)) {
      execFileSync('soffice', [`-env:UserInstallation=file://${dir}/profile`, '--headless', '--convert-to', format, '--outdir', dir, source], {
        stdio: 'ignore',
        timeout: 120_000,
      });
      real.set(format, readFileSync(join(dir, `Presentation1.${format}`)));
    }
  }, 600_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes the files LibreOffice writes in each format', async () => {
    const verdicts: Record<string, string> = {};
    for (const [format, exts] of Object.entries(WRITTEN)) for (const ext of exts) verdicts[ext] = await verdict(dir, real.get(format)!, ext);
    expect(
      Object.values(verdicts).every((v) => v === 'ok'),
      JSON.stringify(verdicts),
    ).toBe(true);
  });

  it('refuses random bytes under every sniffed drawing extension, and a file named as another format', async () => {
    const exts = [...Object.values(WRITTEN).flat(), 'gif', 'jpg', 'jpeg', 'bmp', 'wpg', 'cdr', 'dxf'];
    const verdicts: Record<string, string> = {};
    for (const ext of exts) verdicts[ext] = await verdict(dir, randomDocumentBytes(), ext);
    expect(verdicts).toEqual(Object.fromEntries(exts.map((e) => [e, 'load_failed'])));
    // A PNG named .gif, an EMF named .wmf: the name is not the format.
    expect(await verdict(dir, real.get('png')!, 'gif')).toBe('load_failed');
    expect(await verdict(dir, real.get('emf')!, 'wmf')).toBe('load_failed');
  });
});
