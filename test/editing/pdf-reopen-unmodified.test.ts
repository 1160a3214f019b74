import { describe, expect, it } from 'vitest';
import { documentsClosed } from '../helpers/daemon.ts';
import { useEditing } from '../helpers/editing-setup.ts';
import { onePagePdf } from '../helpers/pdf.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 16 (new-user try): a pdf with a comment, saved and opened again, showed "Unsaved changes" at once, so every
 * close uploaded a new version (LibreOffice 25.2 calls it modified right after the load). Opened again and closed
 * without a change, it is not modified and no PutFile is made; a comment added then is a change, shown and stored.
 */
describe('a pdf with comments opened again unchanged', () => {
  const env = useEditing({ readyKits: 1, maxKits: 3 });

  it('is not modified after the load, and its close uploads nothing', async () => {
    const src = env.host.addFile('pdf-re', 'reopen.pdf', onePagePdf('A handout'), { UserCanWrite: true });
    const first = await env.open(src);
    let from = first.client.messages.length;
    first.client.send({ type: 'uno', command: '.uno:InsertAnnotation', args: JSON.stringify({ Text: { type: 'string', value: 'A remark' } }) });
    await first.client.next('comments', (m) => m.action === 'Add', 60_000, from);
    from = first.client.messages.length;
    first.client.send({ type: 'save' });
    expect(await first.client.next('saved', () => true, 60_000, from)).toMatchObject({ ok: true });
    first.client.close();
    expect(await documentsClosed(env.daemon.server, 60_000)).toBe(true);
    const puts = env.host.of('PutFile').length;

    const again = await env.open(src);
    // The comment is there; LibreOffice's ModifiedStatus after the load, as the editor shows it.
    from = again.client.messages.length;
    again.client.send({ type: 'commandValues', command: '.uno:ViewAnnotations' });
    const listed = (await again.client.next('commandValues', (m) => m.command === '.uno:ViewAnnotations', 30_000, from)).value as {
      comments?: Record<string, { text?: string }>;
    };
    expect(Object.values(listed.comments ?? {}).map((c) => c.text)).toEqual(['A remark']);
    await sleep(2000);
    expect(again.client.messages.filter((m) => m.type === 'modified' && m.modified === true)).toEqual([]);
    again.client.close();
    expect(await documentsClosed(env.daemon.server, 60_000)).toBe(true);
    expect(env.host.of('PutFile').length).toBe(puts);

    // A comment added after such a load is a change: shown as modified, and stored by the close.
    const third = await env.open(src);
    from = third.client.messages.length;
    third.client.send({ type: 'uno', command: '.uno:InsertAnnotation', args: JSON.stringify({ Text: { type: 'string', value: 'A second remark' } }) });
    await third.client.next('modified', (m) => m.modified, 60_000, from);
    third.client.close();
    expect(await documentsClosed(env.daemon.server, 60_000)).toBe(true);
    expect(env.host.of('PutFile').length).toBe(puts + 1);
    expect(env.host.of('PutFile').at(-1)!.headers['x-ode-wopi-isexitsave']).toBe('true');
  }, 300_000);
});
