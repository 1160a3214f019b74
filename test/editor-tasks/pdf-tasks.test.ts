import { describe, expect, it } from 'vitest';
import { onePagePdf } from '../helpers/pdf.ts';
import { poll, useTaskEnv } from './task-env.ts';

/**
 * PDF tasks (issue 16) in Chromium through a host page: a PDF the user may write is opened for comments only
 * (LibreOffice 25.2's comments-only view, as Collabora's view_comment); a comment added from the toolbar and
 * saved with the Save button is in the PDF the host stores, as an annotation read from its bytes (not through
 * LibreOffice). The PDF is written by the test (helpers/pdf.ts onePagePdf), so it needs no conversion.
 */
const env = useTaskEnv();

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

  it('a user who may not write the pdf (UserCanWrite false) reads it: "Read-only", no Comment, no Save', async () => {
    const doc = await env.open('reader.pdf', onePagePdf('Handout to read'), { userId: 'bob', userName: 'Bob Reader', fileInfo: { UserCanWrite: false } });
    const badge = doc.frame.locator('.ode-status .ode-badge');
    await poll(() => badge.textContent(), 30_000).toBe('Read-only');
    expect(await doc.frame.locator('.ode-state').textContent()).toBe('Read-only');
    expect(await doc.frame.locator('.ode-status').textContent()).not.toContain('Comments only');
    // The pages panel is there without its page buttons (a pdf's pages cannot change), the comment and save commands are not.
    await poll(() => doc.frame.getByRole('listbox', { name: 'Pages' }).isVisible(), 30_000).toBe(true);
    expect(await doc.frame.getByRole('toolbar', { name: 'Pages' }).isVisible()).toBe(false);
    const toolbar = doc.frame.getByRole('toolbar');
    expect(await toolbar.getByRole('button', { name: 'Comment', exact: true }).isVisible()).toBe(false);
    expect(await toolbar.getByRole('button', { name: 'Save', exact: true }).isVisible()).toBe(false);
    // Its shortcut opens no Insert comment dialog either.
    await doc.frame.locator('.ode-input').focus();
    await doc.page.keyboard.press('Control+Alt+C');
    await doc.page.keyboard.type('not a comment');
    expect(await doc.frame.getByRole('dialog', { name: 'Insert comment' }).count()).toBe(0);
    await doc.close();
  }, 180_000);
});
