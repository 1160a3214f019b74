import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { useEditing } from '../helpers/editing-setup.ts';

/** A pdf opened with view_comment: read-only, but comments pass (daemon and kit), for the first view and a later one. */
describe('pdf in view_comment: comments only', () => {
  const env = useEditing({ readyKits: 1, maxKits: 3 });

  it('typing is refused; .uno:InsertAnnotation adds a comment (painted) from both views', async () => {
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

    for (const [who, c] of [['first', a.client], ['second', b.client]] as const) {
      await new Promise((r) => setTimeout(r, 300));
      from = c.messages.length;
      c.send({ type: 'uno', command: '.uno:InsertAnnotation', args: JSON.stringify({ Text: { type: 'string', value: `Note from the ${who} view` } }) });
      // LibreOffice 7.4 paints comments into Draw's tiles (no COMMENT callback there): the page is repainted.
      await c.next('invalidate', () => true, 20_000, from);
      expect(c.messages.slice(from).some((m) => m.type === 'error' && m.code === 'readonly')).toBe(false);
    }
  }, 120_000);
});
