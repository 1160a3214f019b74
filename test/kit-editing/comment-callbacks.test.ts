import { afterEach, describe, expect, it } from 'vitest';
import { LOK_CALLBACK_COMMENT } from '../../daemon/protocol/lok-enums.ts';
import type { KitProcess } from '../../daemon/server/pool/kit-process.ts';
import { endKit, LIMITS, nextCallback, stage, startKit } from './helpers.ts';

const CORPUS = '/work/shared/corpus/';

/** The comment ids of `.uno:ViewAnnotations` (an array in Writer and Calc, an object keyed by name in Impress). */
function listedIds(json: string | null): string[] {
  const comments = (JSON.parse(json ?? '{}') as { comments?: unknown }).comments ?? [];
  return Object.values(comments as Record<string, { id: string | number }>).map((c) => String(c.id));
}

interface CommentPayload {
  comment: { action: string; id: string | number; text?: string; html?: string };
}

const str = (value: string) => ({ type: 'string', value });

/**
 * COMMENT callbacks (issue 15, one of the 7.4 statements retried on 25.2): the comments panel
 * (daemon/editor/src/chrome/comments.ts) applies LOK's COMMENT callbacks and, because LibreOffice 7.4 did not
 * always send them, also reads `.uno:ViewAnnotations` again after the document changed. The kit turns tiled
 * annotations off (LOK_FEATURE_NO_TILED_ANNOTATIONS) as Collabora Online does. In LibreOffice 25.2 each comment
 * command of the panel (commentCommands: insert, edit, delete) is answered by a COMMENT callback with its action
 * (Add, Modify, Remove) in a text document, a spreadsheet and a presentation.
 */
describe('kit editing: COMMENT callbacks for the comment commands', () => {
  let kit: KitProcess | undefined;
  let tmp: string | undefined;
  afterEach(async () => {
    await endKit(kit, tmp);
    kit = tmp = undefined;
  });

  const cases = [
    { file: 'properties/documentProperties.docx', remove: '.uno:DeleteComment' },
    { file: 'spreadsheets/SampleSS.xlsx', remove: '.uno:DeleteNote' },
    { file: 'presentations/layouts.pptx', remove: '.uno:DeleteAnnotation' },
  ];
  for (const { file, remove } of cases) {
    it(`${file}: .uno:InsertAnnotation -> Add, .uno:EditAnnotation -> Modify, ${remove} -> Remove`, async () => {
      ({ kit, tmp } = await startKit());
      const k = kit;
      const opened = await k.open({ input: stage(k, CORPUS + file), userName: 'Ada' }, LIMITS);
      const v = opened.viewId;
      const comment = (action: string) =>
        nextCallback(
          k,
          (_viewId, type, payload) => type === LOK_CALLBACK_COMMENT && (JSON.parse(payload) as CommentPayload).comment.action === action,
          10_000,
          `COMMENT ${action}`,
        ).then((cb) => (JSON.parse(cb.payload) as CommentPayload).comment);
      const added = comment('Add');
      k.sendEvent(v, { type: 'uno', command: '.uno:InsertAnnotation', args: JSON.stringify({ Text: str('Ode probe one') }) });
      const a = await added;
      const id = String(a.id);
      expect(a.text ?? a.html).toContain('Ode probe one');
      // LibreOffice's own list agrees.
      expect(listedIds(await k.commandValues(v, '.uno:ViewAnnotations'))).toContain(id);

      const modified = comment('Modify');
      k.sendEvent(v, { type: 'uno', command: '.uno:EditAnnotation', args: JSON.stringify({ Id: str(id), Text: str('Ode probe two') }) });
      const m = await modified;
      expect(String(m.id)).toBe(id);
      expect(m.text ?? m.html).toContain('Ode probe two');

      const removed = comment('Remove');
      k.sendEvent(v, { type: 'uno', command: remove, args: JSON.stringify({ Id: str(id) }) });
      expect(String((await removed).id)).toBe(id);
      expect(listedIds(await k.commandValues(v, '.uno:ViewAnnotations'))).not.toContain(id);
    }, 120_000);
  }
});
