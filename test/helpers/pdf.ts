import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';

function withTempPdf<T>(pdf: Buffer, fn: (path: string, dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'ode-pdf-'));
  try {
    const path = join(dir, 'doc.pdf');
    writeFileSync(path, pdf);
    return fn(path, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `pdfinfo` fields (poppler-utils) of a PDF, as a key -> value map; `extra` args such as `-meta` or `-upw`. */
export function pdfInfo(pdf: Buffer, extra: string[] = []): Record<string, string> {
  return withTempPdf(pdf, (path) => {
    const out = execFileSync('pdfinfo', [...extra, path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const rows = out.split('\n').map((l) => /^([^:]+):\s*(.*)$/.exec(l));
    return Object.fromEntries(rows.filter((m): m is RegExpExecArray => m !== null).map((m) => [m[1].trim(), m[2].trim()]));
  });
}

/** The XMP metadata `pdfinfo -meta` prints. */
export function pdfMeta(pdf: Buffer): string {
  return withTempPdf(pdf, (path) => execFileSync('pdfinfo', ['-meta', path], { encoding: 'utf8' }));
}

/** Renders page `page` (1-based) at `dpi` with pdftoppm and returns the decoded RGBA image. */
export function renderPage(pdf: Buffer, page = 1, dpi = 50): PNG {
  return withTempPdf(pdf, (path, dir) => {
    execFileSync('pdftoppm', ['-png', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', path, join(dir, 'page')]);
    return PNG.sync.read(readFileSync(join(dir, 'page.png')));
  });
}

/** Fraction (0..1) of pixels whose RGB differs by more than `threshold` in any channel between two same-size images. */
export function pixelDifference(a: PNG, b: PNG, threshold = 24): number {
  if (a.width !== b.width || a.height !== b.height) return 1;
  let diff = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (
      Math.abs(a.data[i] - b.data[i]) > threshold ||
      Math.abs(a.data[i + 1] - b.data[i + 1]) > threshold ||
      Math.abs(a.data[i + 2] - b.data[i + 2]) > threshold
    )
      diff++;
  }
  return diff / (a.width * a.height);
}

/**
 * A one-page PDF with `text` on it (PDF 1.4, ISO 32000-1 section 7: one line of Helvetica text): objects, a
 * cross-reference table with exact byte offsets, a trailer. Written here, so a test needs no conversion.
 */
export function onePagePdf(text: string): Buffer {
  const content = `BT /F1 24 Tf 72 700 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
