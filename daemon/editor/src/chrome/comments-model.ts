/**
 * The document's comments as the comments panel shows them, read from LibreOffice 7.4's shapes (no DOM here):
 * `.uno:ViewAnnotations` answers `{comments: [...]}` and the COMMENT callback (`comments` message) carries one
 * comment with an `action` (Add, Modify, Remove, Resolve, RedlinedDeletion). Fields per document type:
 *   text:         id, parent (0: none), author, text, dateTime, resolved ("true"/"false"), anchorPos "x, y, w, h"
 *   spreadsheet:  id, tab, author, text, dateTime, cellPos "x, y, w, h"
 *   presentation: id, parthash/part, author, text, dateTime, rectangle "x, y, w, h"
 */
import type { Rect } from '../../../protocol/editor.ts';

export interface DocComment {
  id: string;
  /** The comment this one answers ('' for none). */
  parent: string;
  author: string;
  text: string;
  /** As LibreOffice gave it ("2016-07-03T15:10:00", "2026-11-23T02:31:05,168398494", "11/23/2026"). */
  dateTime: string;
  resolved: boolean;
  /** The anchor in twips (text: the anchor character; spreadsheet: the cell; presentation: the marker). */
  anchor?: Rect;
  /** The part (sheet, slide) the comment is on; 0 in text documents. */
  part: number;
}

/** A comment and its replies (in document order). */
export interface CommentThread {
  root: DocComment;
  replies: DocComment[];
}

function rect(value: unknown): Rect | undefined {
  if (typeof value !== 'string') return undefined;
  const n = value.split(/[,;]/).slice(0, 4).map((s) => Number(s.trim()));
  return n.length === 4 && n.every(Number.isFinite) ? [n[0], n[1], n[2], n[3]] : undefined;
}

/** One comment from LibreOffice's JSON; undefined when it has no id. */
export function parseComment(raw: unknown): DocComment | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const c = raw as Record<string, unknown>;
  if (c.id === undefined || c.id === null || c.id === '') return undefined;
  const parent = c.parent === undefined || c.parent === null || String(c.parent) === '0' ? '' : String(c.parent);
  const part = Number(c.tab ?? c.part ?? 0);
  return {
    id: String(c.id),
    parent,
    author: String(c.author ?? ''),
    text: String(c.text ?? '').replace(/\n+$/, ''),
    dateTime: String(c.dateTime ?? ''),
    resolved: c.resolved === true || c.resolved === 'true',
    anchor: rect(c.anchorPos) ?? rect(c.cellPos) ?? rect(c.rectangle),
    part: Number.isFinite(part) ? part : 0,
  };
}

/** The comments of a `.uno:ViewAnnotations` answer (`{comments: [...]}`); [] for anything else. */
export function parseAnnotations(value: unknown): DocComment[] {
  const list = (value as { comments?: unknown } | null)?.comments;
  return Array.isArray(list) ? list.map(parseComment).filter((c): c is DocComment => c !== undefined) : [];
}

/** The list after one COMMENT callback: Add appends, Modify and Resolve replace, Remove drops (and orphans' parent link). */
export function applyCommentAction(list: DocComment[], action: string, raw: unknown): DocComment[] {
  const c = parseComment(raw);
  if (!c) return list;
  switch (action) {
    case 'Add':
      return [...list.filter((x) => x.id !== c.id), c];
    case 'Modify':
    case 'Resolve': {
      const i = list.findIndex((x) => x.id === c.id);
      if (i < 0) return [...list, c];
      const old = list[i];
      // A Modify without `resolved` keeps the old state.
      const keepResolved = (raw as Record<string, unknown>).resolved === undefined;
      const merged: DocComment = { ...old, ...c, anchor: c.anchor ?? old.anchor, resolved: keepResolved ? old.resolved : c.resolved };
      return list.map((x, j) => (j === i ? merged : x));
    }
    case 'Remove':
    case 'RedlinedDeletion':
      return list.filter((x) => x.id !== c.id);
    default:
      return list;
  }
}

/** Groups comments into threads: each root with every comment that answers it (directly or through another reply). */
export function threads(list: DocComment[]): CommentThread[] {
  const byId = new Map(list.map((c) => [c.id, c]));
  const rootOf = (c: DocComment): DocComment => {
    const seen = new Set<string>();
    let r = c;
    while (r.parent && byId.has(r.parent) && !seen.has(r.id)) {
      seen.add(r.id);
      r = byId.get(r.parent)!;
    }
    return r;
  };
  const out = new Map<string, CommentThread>();
  for (const c of list) {
    const root = rootOf(c);
    let thread = out.get(root.id);
    if (!thread) out.set(root.id, (thread = { root, replies: [] }));
    if (root !== c) thread.replies.push(c);
  }
  return [...out.values()];
}

/** LibreOffice's date text as a Date, or undefined ("2026-11-23T02:31:05,168398494" has a comma and nanoseconds). */
export function commentDate(text: string): Date | undefined {
  const iso = /^(\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d)?)(?:[.,](\d{1,3})\d*)?/.exec(text);
  if (iso) {
    const d = new Date(`${iso[1]}${iso[2] ? `.${iso[2].padEnd(3, '0')}` : ''}`);
    return Number.isNaN(d.getTime()) ? undefined : d;
  }
  const d = new Date(text);
  return text && !Number.isNaN(d.getTime()) ? d : undefined;
}

/** The UNO commands of the comment actions per document type (LibreOffice 7.4 names; undefined: not offered). */
export function commentCommands(docType: string): { reply?: string; edit: string; remove: string; resolve?: string; insert: string } {
  switch (docType) {
    case 'text':
      return { reply: '.uno:ReplyComment', edit: '.uno:EditAnnotation', remove: '.uno:DeleteComment', resolve: '.uno:ResolveComment', insert: '.uno:InsertAnnotation' };
    case 'spreadsheet':
      return { edit: '.uno:EditAnnotation', remove: '.uno:DeleteNote', insert: '.uno:InsertAnnotation' };
    default:
      return { reply: '.uno:ReplyToAnnotation', edit: '.uno:EditAnnotation', remove: '.uno:DeleteAnnotation', insert: '.uno:InsertAnnotation' };
  }
}
