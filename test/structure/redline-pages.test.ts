import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KitProcess } from '../../daemon/server/pool/kit-process.ts';
import type { RedlinePage } from '../../daemon/protocol/kit.ts';
import { CORPUS } from '../helpers/convert-client.ts';

const LIMITS = { loadMs: 60_000, convertMs: 60_000 };
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * The kit's tracked-change pages (inspect with redlines) against LibreOffice's own PDF of the same document: the
 * changed text LibreOffice quotes in a redline's description must be on the page the kit reports. The PDF shows
 * tracked changes (deletions struck through), so deleted text is there too.
 */
describe('kit: the page each tracked change starts on', () => {
  let kit: KitProcess;
  let tmp: string;
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'ode-redline-pages-'));
    kit = new KitProcess({ loPath: '/usr/lib/libreoffice/program', tmpRoot: tmp, log: pino({ level: 'silent' }) });
    await new Promise<void>((resolve, reject) => {
      kit.once('ready', () => resolve());
      kit.once('exit', () => reject(new Error('kit died')));
    });
  });
  afterAll(async () => {
    await kit?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  async function measure(file: string): Promise<{ redlines: RedlinePage[]; parts: number; pageTexts: string[] }> {
    const dir = kit.jobDir();
    try {
      const input = join(dir, file.split('/').pop()!);
      copyFileSync(join(CORPUS, file), input);
      const r = await kit.inspect({ input, redlines: true }, LIMITS);
      await kit.convert({ input, output: join(dir, 'out.pdf'), format: 'pdf' }, LIMITS);
      const pageTexts = Array.from({ length: r.parts ?? 0 }, (_, i) =>
        squash(execFileSync('pdftotext', ['-f', String(i + 1), '-l', String(i + 1), '-layout', join(dir, 'out.pdf'), '-'], { encoding: 'utf8' })),
      );
      return { redlines: r.redlines ?? [], parts: r.parts ?? 0, pageTexts };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /**
   * Redlines whose quoted text (LibreOffice shortens long ones as `start...end`) has at least 8 characters and is
   * found on exactly one page.
   */
  function checkable(m: { redlines: RedlinePage[]; pageTexts: string[] }) {
    const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return m.redlines
      .map((r) => ({
        r,
        parts: squash(/“(.*)”/s.exec(r.description)?.[1] ?? '')
          .split('...')
          .map((p) => p.trim()),
      }))
      .filter(({ parts }) => parts.join('').length >= 8)
      .map(({ r, parts }) => ({ r, pattern: new RegExp(parts.map(escapeRegExp).join('.*')) }))
      .map(({ r, pattern }) => ({ r, pages: m.pageTexts.flatMap((t, i) => (pattern.test(t) ? [i + 1] : [])) }))
      .filter(({ pages }) => pages.length === 1);
  }

  it('Comment020.docx (2 pages, 17 changes) uses both pages, in order', async () => {
    const m = await measure('tracked-changes/Comment020.docx');
    expect(m.parts).toBe(2);
    expect(m.redlines).toHaveLength(17);
    expect(new Set(m.redlines.map((r) => r.page))).toEqual(new Set([1, 2]));
  });

  it('every change whose text is on one page of the PDF is on that page; pages never go backwards (delins.docx has redlines without a text range)', async () => {
    let checked = 0;
    for (const file of ['tracked-changes/Comment020.docx', 'tracked-changes/delins.docx', 'tracked-changes/RA001-Tracked-Revisions-01.docx']) {
      const m = await measure(file);
      expect(m.redlines.length, file).toBeGreaterThan(0);
      expect(
        m.redlines.every((r) => r.page >= 1 && r.page <= m.parts),
        file,
      ).toBe(true);
      for (let i = 1; i < m.redlines.length; i++) expect(m.redlines[i].page, `${file} #${i}`).toBeGreaterThanOrEqual(m.redlines[i - 1].page);
      for (const { r, pages } of checkable(m)) {
        expect(r.page, `${file}: ${r.description}`).toBe(pages[0]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });

  it('a document without tracked changes answers an empty list', async () => {
    const m = await measure('properties/meta.odt');
    expect(m.redlines).toEqual([]);
  });
});
