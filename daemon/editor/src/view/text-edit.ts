/**
 * What an on-screen keyboard did to the hidden input's text, as editing steps LibreOffice can replay (pure: no DOM).
 * The input keeps the text typed since the caret was last placed (its context), so a keyboard's autocorrect,
 * suggestion or word deletion (`insertReplacementText`, `deleteWordBackward`, ...) edits that text like a real text
 * field; the difference between the text before and after is sent: move left over the unchanged end, delete
 * backwards what went, type what came, move right again. Lengths count code points (one caret step each).
 */
export interface TextEdit {
  /** Caret steps left before deleting (the unchanged text after the edit). */
  left: number;
  /** Backspaces. */
  back: number;
  /** Text to type after them ('' for none). */
  text: string;
}

/** The edit that turns `before` into `after` (null: the same text). */
export function textEdit(before: string, after: string): TextEdit | null {
  if (before === after) return null;
  const a = Array.from(before);
  const b = Array.from(after);
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  return { left: s, back: a.length - p - s, text: b.slice(p, b.length - s).join('') };
}
