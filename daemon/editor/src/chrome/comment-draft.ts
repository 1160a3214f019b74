import type { CommentDraftCommand } from '../../../protocol/editor.ts';
import type { EditorSession } from '../core/session.ts';

/**
 * Keeps the daemon told of one comment being written in the browser (editor.md `commentDraft`, issue 16): closing
 * the tab with the Insert comment dialog open or a reply half written must not lose it, and a message sent on
 * `pagehide` is not always delivered (Chromium's tab close: 4 of 7 closes lost it). The daemon keeps the latest text
 * and sends it as the comment's `uno` if the socket closes before the editor sends it itself.
 */
export class CommentDraft {
  private held = false;

  constructor(private readonly session: EditorSession) {}

  /** The text now (trimmed, as the comment's `uno` will carry it): held by the daemon; empty text drops it. */
  update(command: CommentDraftCommand, args: Record<string, string>, text: string): void {
    if (!this.session.live) return;
    if (!text.trim()) return this.drop();
    const values = {
      ...Object.fromEntries(Object.entries(args).map(([k, v]) => [k, { type: 'string', value: v }])),
      Text: { type: 'string', value: text.trim() },
    };
    this.session.send({ type: 'commentDraft', command, args: JSON.stringify(values) });
    this.held = true;
  }

  /** The comment was cancelled: the daemon drops what it holds. */
  drop(): void {
    if (this.held && this.session.live) this.session.send({ type: 'commentDraft' });
    this.held = false;
  }

  /** The comment was sent as its `uno` (the daemon dropped the draft when it came). */
  sent(): void {
    this.held = false;
  }
}
