import type { Frame, Page } from 'playwright-core';

/**
 * The editor's caret: `x`, `y`, `width`, `height` on the page (CSS px, where a finger or the mouse must go), and
 * `docX`, `docY` in the document view's content (CSS px from the top left of the scrolled content, `.ode-sizer`):
 * those do not change when the view scrolls, so they compare across a scroll (the view follows the caret as text is
 * typed).
 */
export interface CaretBox {
  x: number;
  y: number;
  width: number;
  height: number;
  docX: number;
  docY: number;
}

/** How long apart the reads of `settledCaret` are (ms): the caret is settled when three reads in a row agree. */
const READ_MS = 150;

/** Page function: the caret's box (CaretBox), or null while it is hidden. */
const readCaret = (): CaretBox | null => {
  type Box = { left: number; top: number; width: number; height: number };
  type El = { hidden: boolean; getBoundingClientRect(): Box; closest(s: string): El | null };
  const c = (globalThis as unknown as { document: { querySelector(s: string): El | null } }).document.querySelector('.ode-caret');
  if (!c || c.hidden) return null;
  const r = c.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) return null;
  const content = c.closest('.ode-sizer')?.getBoundingClientRect() ?? { left: 0, top: 0 };
  return { x: r.left, y: r.top, width: r.width, height: r.height, docX: r.left - content.left, docY: r.top - content.top };
};

/** The editor's caret box in `target` (its `.ode-caret`), or null while it is hidden. */
export function caretBox(target: Page | Frame): Promise<CaretBox | null> {
  return target.evaluate(readCaret);
}

/**
 * Waits for the condition a user sees after input: the caret shows, `moved` accepts its box (e.g. it is right of or
 * below where it was before the text was typed), and it stays put over the next two reads, READ_MS apart (LibreOffice
 * has laid out the input and sent its last cursor for it). Resolves with that box. `moved` by default accepts any box.
 * @throws Error after `timeoutMs` (ms), naming the last box read.
 */
export async function settledCaret(target: Page | Frame, moved: (box: CaretBox) => boolean = () => true, timeoutMs = 60_000): Promise<CaretBox> {
  const until = Date.now() + timeoutMs;
  let last: CaretBox | null = null;
  for (let still = 0; ; ) {
    const now = await caretBox(target);
    const same = now !== null && last !== null && now.x === last.x && now.y === last.y && now.docX === last.docX && now.docY === last.docY;
    still = now && same && moved(now) ? still + 1 : 0;
    if (now && still >= 2) return now;
    last = now;
    if (Date.now() > until) throw new Error(`the caret did not settle where expected within ${timeoutMs} ms (last box: ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, READ_MS));
  }
}

/**
 * `moved` for settledCaret: in the document's content, the caret is right of `from` on the same line, or on a line
 * below it (typed text wraps). Compares `docX`/`docY`, so a scroll in between does not matter (the zoom must not change).
 */
export const pastBox =
  (from: CaretBox) =>
  (box: CaretBox): boolean =>
    box.docY > from.docY + from.height / 2 || (Math.abs(box.docY - from.docY) < from.height / 2 && box.docX > from.docX + 1);
