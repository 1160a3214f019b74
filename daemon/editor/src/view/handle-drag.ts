import type { ClientMessage } from '../../../protocol/editor.ts';

/** A point in the document, twips. */
type Twips = [number, number];

/**
 * Follows the pointer that pressed `target` (`down`, captured so the drag goes on outside it): `onMove` runs at most
 * once an animation frame with the pointer's latest event, `onEnd` once on pointerup or pointercancel, which ends the
 * drag. A move still waiting for its frame then runs after `onEnd`, or not at all with `dropPendingMove` (where
 * `onEnd` itself sends the final position).
 */
export function followDrag(
  target: HTMLElement,
  down: PointerEvent,
  onMove: (e: PointerEvent) => void,
  onEnd: (e: PointerEvent) => void,
  { dropPendingMove = false } = {},
): void {
  target.setPointerCapture(down.pointerId);
  let frame = 0;
  let last = down;
  const move = (e: PointerEvent) => {
    last = e;
    if (!frame)
      frame = requestAnimationFrame(() => {
        frame = 0;
        onMove(last);
      });
  };
  const up = (e: PointerEvent) => {
    if (dropPendingMove) cancelAnimationFrame(frame);
    onEnd(e);
    target.removeEventListener('pointermove', move);
    target.removeEventListener('pointerup', up);
    target.removeEventListener('pointercancel', up);
  };
  target.addEventListener('pointermove', move);
  target.addEventListener('pointerup', up);
  target.addEventListener('pointercancel', up);
}

/**
 * Drags one of LibreOffice's own handles (a shape's frame knob, Calc's fill handle) with the mouse events LibreOffice
 * takes on it: a left-button press at `handle` (twips), moves by the pointer's travel since `down` (`toTwips` maps the
 * pointer's client px to twips; at most one move a frame, followDrag), a release where the pointer is. With
 * `finalMove` a move to the release point goes before the release; `onEnd` runs after it.
 */
export function dragLoHandle(
  target: HTMLElement,
  down: PointerEvent,
  [hx, hy]: Twips,
  toTwips: (clientX: number, clientY: number) => Twips,
  send: (msg: ClientMessage) => void,
  { finalMove = false, onEnd }: { finalMove?: boolean; onEnd?: () => void } = {},
): void {
  const [px, py] = toTwips(down.clientX, down.clientY);
  const at = (e: PointerEvent): Twips => {
    const [x, y] = toTwips(e.clientX, e.clientY);
    return [hx + x - px, hy + y - py];
  };
  const mouse = (event: 'buttondown' | 'move' | 'buttonup', [x, y]: Twips) => send({ type: 'mouse', event, x, y, count: 1, buttons: 1, modifier: 0 });
  mouse('buttondown', [hx, hy]);
  followDrag(
    target,
    down,
    (e) => mouse('move', at(e)),
    (e) => {
      if (finalMove) mouse('move', at(e));
      mouse('buttonup', at(e));
      onEnd?.();
    },
    { dropPendingMove: true },
  );
}
