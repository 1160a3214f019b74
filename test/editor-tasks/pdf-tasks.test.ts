import { describe, expect, it } from 'vitest';
import { poll, useTaskEnv } from './task-env.ts';

/**
 * PDF tasks (issue 16) in Chromium through a host page: a PDF the user may write is opened for comments only
 * (LibreOffice 25.2's comments-only view, as Collabora's view_comment); a comment added from the toolbar and
 * saved with the Save button is in the PDF the host stores, as an annotation read from its bytes (not through
 * LibreOffice). The PDF is written here (PDF 1.4, ISO 32000-1 section 7: one page, one line of Helvetica text),
 * so the test needs no conversion.
 */
const env = useTaskEnv();

/** A one-page PDF with `text` on it: objects, a cross-reference table with exact byte offsets, a trailer. */
function onePagePdf(text: string): Buffer {
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

/**
 * True when a PDF's bytes hold an annotation whose text is `text`: an /Annots array, and the text as LibreOffice
 * writes it (UTF-16BE hex string, as test/editing/pdf-comments.test.ts reads it) or as a literal string.
 */
function hasAnnotation(pdf: Buffer, text: string): boolean {
  const latin = pdf.toString('latin1');
  const hex = Buffer.from(text, 'utf16le').swap16().toString('hex').toUpperCase();
  return /\/Annots\s*\[/.test(latin) && (latin.toUpperCase().includes(hex) || latin.includes(`(${text})`));
}

describe('pdf: open for comments, add a comment, save it back', () => {
  it('the toolbar Comment adds a comment; the Save button stores a pdf with it as an annotation', async () => {
    const original = onePagePdf('Handout for review');
    const doc = await env.open('handout.pdf', original, { userId: 'ada', userName: 'Ada Lovelace' });
    const toolbar = doc.frame.getByRole('toolbar');
    // A comments-only view: no editing buttons, Comment and Save are there.
    await poll(() => toolbar.getByRole('button', { name: 'Comment', exact: true }).isVisible(), 30_000).toBe(true);
    expect(await toolbar.getByRole('button', { name: 'Bold', exact: true }).isVisible()).toBe(false);
    const save = toolbar.getByRole('button', { name: 'Save', exact: true });
    expect(await save.isVisible()).toBe(true);
    // The status bar says what this user can do: comment (and save), not "Read-only".
    const badge = doc.frame.locator('.ode-status .ode-badge');
    await poll(() => badge.textContent()).toBe('Comments only');
    expect(await doc.frame.locator('.ode-status').textContent()).not.toContain('Read-only');
    await toolbar.getByRole('button', { name: 'Comment', exact: true }).click();
    const dialog = doc.frame.getByRole('dialog', { name: 'Insert comment' });
    await dialog.waitFor();
    await doc.page.keyboard.type('Checked on the handout');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'detached' });
    await poll(() => doc.frame.locator('.ode-state').textContent(), 60_000).toBe('Unsaved changes');
    await poll(() => save.getAttribute('aria-disabled')).not.toBe('true');
    const before = doc.putFiles();
    await save.click();
    await poll(() => doc.putFiles(), 90_000).toBeGreaterThan(before);
    const stored = doc.stored();
    expect(stored.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(hasAnnotation(stored, 'Checked on the handout')).toBe(true);
    expect(hasAnnotation(original, 'Checked on the handout')).toBe(false);
    await poll(() => doc.frame.locator('.ode-state').textContent(), 30_000).toBe('All changes saved');
    await doc.page.screenshot({ path: 'test/artifacts/editor-tasks-pdf.png' });
  }, 240_000);
});
