import type { ServerMessage } from '../../protocol/editor.ts';
import type { FileInfo } from '../wopi/check-file-info.ts';

/**
 * One user's view of a document as the document logic sees it (implemented by sessions/view-session.ts): who it
 * is, what it may do, and how to reach its socket.
 */
export interface ViewHandle {
  /** This user's CheckFileInfo answer. */
  readonly fileInfo: FileInfo;
  /** The access token; replaced by Reset_Access_Token. */
  token: string;
  /** access_token_ttl of `token` (ms since the epoch), when the host gave one: the edit journal keeps it with the token. */
  tokenTtl?: number;
  /** True when this view may not change the document (UserCanWrite false, permission=readonly, view_comment). */
  readonly readonly: boolean;
  /**
   * A pdf opened by a user who may write it (UserCanWrite, not permission=readonly): read-only, but comments may be
   * added, edited and deleted, and are saved back (optional: false when absent).
   */
  readonly commentsOnly?: boolean;
  /** LibreOffice's view id, set by the document when the view is created (and again after a reload). */
  viewId: number;
  /** The editor language (BCP 47) and device form factor from the `load` message. */
  readonly lang: string | undefined;
  readonly deviceFormFactor: string | undefined;
  /** The browser's IANA time zone from the `load` message (optional: LibreOffice's own when absent). */
  readonly timezone?: string;
  send(msg: ServerMessage): void;
  sendBinary(frame: Uint8Array): void;
  close(code: number, reason: string): void;
  /**
   * Resolves once every message the view sent before now has been handled (a `ping` answered by its `pong`), or
   * after `timeoutMs`; used by a drain before the exit save. Optional: absent, nothing is awaited.
   */
  flush?(timeoutMs: number): Promise<void>;
}

/**
 * True when `view`'s changes are stored back to the host: a writable view, or a comments-only view (a pdf opened
 * with view_comment) of a user who may write the file (UserCanWrite), as Collabora saves a pdf's comments.
 */
export function mayStore(view: ViewHandle): boolean {
  return !view.readonly || (view.commentsOnly === true && view.fileInfo.UserCanWrite === true);
}
