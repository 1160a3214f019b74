import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { useEditing } from '../helpers/editing-setup.ts';
import { onePagePdf } from '../helpers/pdf.ts';

/** The comments of a Draw document as LibreOffice lists them (`.uno:ViewAnnotations`). */
type Annotations = { comments?: Record<string, { author?: string; text?: string }> };

/** True when a PDF's bytes hold an annotation whose text is `text` (LibreOffice writes it as UTF-16BE hex). */
function hasAnnotation(pdf: Buffer, text: string): boolean {
  const latin = pdf.toString('latin1');
  return /\/Annots\s*\[/.test(latin) && latin.toUpperCase().includes(Buffer.from(text, 'utf16le').swap16().toString('hex').toUpperCase());
}

/**
 * A pdf opened with view_comment (LibreOffice 25.2: setViewReadOnly + setAllowChangeComments in the kit, as
 * Collabora's comments-only mode): typing is refused, comments are added from the first view and a later one,
 * and they are saved back to the host as PDF annotations (on 7.4 they stayed in the session).
 */
describe('pdf in view_comment: comments only', () => {
  const env = useEditing({ readyKits: 1, maxKits: 3 });

  it('typing is refused; .uno:InsertAnnotation adds a comment from both views; saving stores a pdf with both annotations', async () => {
    const pdf = await postConvert(env.daemon.url, '/ode/convert-to/pdf', join(CORPUS, 'presentations/AllSlidesConverterSC.pptx'));
    expect(pdf.status).toBe(200);
    const src = env.host.addFile('pdf1', 'handout.pdf', pdf.body, { UserCanWrite: true });
    const a = await env.open(src);
    const b = await env.open(src);
    expect(a.status).toMatchObject({ docType: 'drawing', readonly: true, commentsOnly: true, parts: 5 });
    expect(b.status).toMatchObject({ readonly: true, commentsOnly: true });

    let from = b.client.messages.length;
    b.client.type('x');
    await b.client.next('error', (m) => m.code === 'readonly', 10_000, from);

    for (const [who, c] of [
      ['first', a.client],
      ['second', b.client],
    ] as const) {
      from = c.messages.length;
      c.send({ type: 'uno', command: '.uno:InsertAnnotation', args: JSON.stringify({ Text: { type: 'string', value: `Note from the ${who} view` } }) });
      // LibreOffice announces each added comment to every view (LOK_CALLBACK_COMMENT, action Add): wait for this
      // one, not for 'modified' (the second comment finds the document modified already; under load the list
      // was asked for before the second comment was in).
      await c.next('comments', (m) => m.action === 'Add' && JSON.stringify(m.comment).includes(`Note from the ${who} view`), 60_000, from);
      expect(c.messages.slice(from).some((m) => m.type === 'error' && m.code === 'readonly')).toBe(false);
    }
    from = a.client.messages.length;
    a.client.send({ type: 'commandValues', command: '.uno:ViewAnnotations' });
    const listed = (await a.client.next('commandValues', (m) => m.command === '.uno:ViewAnnotations', 10_000, from)).value as Annotations;
    expect(
      Object.values(listed.comments ?? {})
        .map((c) => c.text)
        .sort(),
    ).toEqual(['Note from the first view', 'Note from the second view']);

    from = a.client.messages.length;
    a.client.send({ type: 'save' });
    expect(await a.client.next('saved', () => true, 60_000, from)).toMatchObject({ ok: true });
    const stored = env.host.files.get('pdf1')!.bytes;
    expect(stored.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(hasAnnotation(stored, 'Note from the first view')).toBe(true);
    expect(hasAnnotation(stored, 'Note from the second view')).toBe(true);
    expect(hasAnnotation(pdf.body, 'Note from the first view')).toBe(false);
  }, 180_000);

  it('a user without UserCanWrite only reads the pdf: status readonly, not commentsOnly; a comment is refused and nothing is saved', async () => {
    const src = env.host.addFile('pdf-reader', 'reader.pdf', onePagePdf('Handout to read'), { UserCanWrite: false });
    const r = await env.open(src);
    expect(r.status).toMatchObject({ docType: 'drawing', readonly: true, commentsOnly: false });
    let from = r.client.messages.length;
    r.client.send({ type: 'uno', command: '.uno:InsertAnnotation', args: JSON.stringify({ Text: { type: 'string', value: 'Not allowed' } }) });
    await r.client.next('error', (m) => m.code === 'readonly', 10_000, from);
    from = r.client.messages.length;
    r.client.send({ type: 'commandValues', command: '.uno:ViewAnnotations' });
    const listed = (await r.client.next('commandValues', (m) => m.command === '.uno:ViewAnnotations', 10_000, from)).value as Annotations;
    expect(Object.values(listed.comments ?? {})).toEqual([]);
    from = r.client.messages.length;
    r.client.send({ type: 'save' });
    await r.client.next('error', (m) => m.code === 'readonly', 10_000, from);
    expect(env.host.of('PutFile').filter((q) => q.path.includes('/pdf-reader/')).length).toBe(0);
  }, 120_000);
});
