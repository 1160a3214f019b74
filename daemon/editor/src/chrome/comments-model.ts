/**
 * The document's comments as the comments panel shows them, read from LibreOffice's shapes (no DOM here):
 * `.uno:ViewAnnotations` answers `{comments: [...]}` and the COMMENT callback (`comments` message) carries one
 * comment with an `action` (Add, Modify, Remove, Resolve, RedlinedDeletion). Fields per document type:
 *   text:         id, parent (7.4) or parentId (25.2) (0: none), author, text (7.4) or html (25.2), dateTime,
 *                 resolved ("true"/"false"), anchorPos "x, y, w, h"
 *   spreadsheet:  id, tab, author, text, dateTime, cellPos "x, y, w, h" (7.4) or cellRange "col row col row" (25.2)
 *   presentation: id, parthash/part, author, text, dateTime, rectangle "x, y, w, h"; LibreOffice 25.2 answers
 *                 `comments` as an object keyed "comment<id>" rather than an array
 * LibreOffice 25.2's Writer sends the comment as `html` only (`<div>` per paragraph, text XML-escaped, e.g.
 * `<div>a &lt; b</div><div>second</div>`), no `text`; Collabora Online's browser shows `text` and edits `html`.
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
  const n = value
    .split(/[,;]/)
    .slice(0, 4)
    .map((s) => Number(s.trim()));
  return n.length === 4 && n.every(Number.isFinite) ? [n[0], n[1], n[2], n[3]] : undefined;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: '\u00a0' };

function entity(whole: string, name: string): string {
  if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
  const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
}

/**
 * The plain text of a comment's `html` as LibreOffice 25.2's Writer sends it: one `<div>` (or `<p>`) per
 * paragraph, `<br>` for a line break, inline formatting tags, text XML-escaped. Paragraphs become lines
 * ("\n"), other tags are dropped, character references decoded; trailing newlines removed.
 */
export function commentHtmlText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(?:div|p)\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, entity)
    .replace(/\n+$/, '');
}

/** The comment's text: `text` when LibreOffice gave one (7.4, Calc, Impress), else the text of `html` (25.2 Writer). */
function commentText(c: Record<string, unknown>): string {
  if (typeof c.text === 'string' && (c.text !== '' || typeof c.html !== 'string')) return c.text.replace(/\n+$/, '');
  if (typeof c.html === 'string') return commentHtmlText(c.html);
  return String(c.text ?? '').replace(/\n+$/, '');
}

/** One comment from LibreOffice's JSON; undefined when it has no id. */
export function parseComment(raw: unknown): DocComment | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const c = raw as Record<string, unknown>;
  if (c.id === undefined || c.id === null || c.id === '') return undefined;
  // 7.4 names the answered comment `parent`, 25.2 `parentId` (a number in .uno:ViewAnnotations, a string in callbacks).
  const parentRaw = c.parent ?? c.parentId;
  const parent = parentRaw === undefined || parentRaw === null || String(parentRaw) === '0' ? '' : String(parentRaw);
  const part = Number(c.tab ?? c.part ?? 0);
  return {
    id: String(c.id),
    parent,
    author: String(c.author ?? ''),
    text: commentText(c),
    dateTime: String(c.dateTime ?? ''),
    resolved: c.resolved === true || c.resolved === 'true',
    anchor: rect(c.anchorPos) ?? rect(c.cellPos) ?? rect(c.rectangle),
    part: Number.isFinite(part) ? part : 0,
  };
}

/**
 * The comments of a `.uno:ViewAnnotations` answer: `{comments: [...]}`, or (LibreOffice 25.2's Impress and Draw)
 * `{comments: {"comment31": {...}, ...}}` taken in its keys' order; [] for anything else.
 */
export function parseAnnotations(value: unknown): DocComment[] {
  const raw = (value as { comments?: unknown } | null)?.comments;
  const list = Array.isArray(raw) ? raw : typeof raw === 'object' && raw !== null ? Object.values(raw) : [];
  return list.map(parseComment).filter((c): c is DocComment => c !== undefined);
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
      return {
        reply: '.uno:ReplyComment',
        edit: '.uno:EditAnnotation',
        remove: '.uno:DeleteComment',
        resolve: '.uno:ResolveComment',
        insert: '.uno:InsertAnnotation',
      };
    case 'spreadsheet':
      return { edit: '.uno:EditAnnotation', remove: '.uno:DeleteNote', insert: '.uno:InsertAnnotation' };
    default:
      return { reply: '.uno:ReplyToAnnotation', edit: '.uno:EditAnnotation', remove: '.uno:DeleteAnnotation', insert: '.uno:InsertAnnotation' };
  }
}
