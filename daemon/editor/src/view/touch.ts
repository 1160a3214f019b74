import type { TileView } from './tile-view.ts';

/** What touch gestures ask of the view module. */
export interface TouchDeps {
  /** A long press at client px: LibreOffice's context menu is asked for there (a right click). */
  longPress(clientX: number, clientY: number): void;
}

/** A press held this long without moving is a long press (Android's and iOS's long-press time is about 500 ms). */
export const LONG_PRESS_MS = 550;
/** A finger that moves this far (CSS px) is scrolling, not pressing. */
const SLOP_PX = 10;

const distance = (t: TouchList) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);

/**
 * Touch gestures of the document view (phones and tablets). One finger: a drag scrolls (the browser's own
 * scrolling, `touch-action: pan-x pan-y` in view.css), a tap places the caret (the browser's compatibility mouse
 * events reach input.ts), a long press opens LibreOffice's context menu (no tap follows it). Two fingers: pinch
 * zoom around their middle (the old tiles are scaled until those of the new zoom come, as for Ctrl+wheel).
 * Selection handles and shape knobs take their own touches (pointer events in handles.ts).
 */
export function attachTouch(view: TileView, deps: TouchDeps): void {
  const el = view.scroller;
  let pinch: { distance: number; zoom: number } | undefined;
  let press: { x: number; y: number; timer: ReturnType<typeof setTimeout> } | undefined;
  let longPressed = false;
  const cancelPress = () => {
    if (press) clearTimeout(press.timer);
    press = undefined;
  };
  el.addEventListener(
    'touchstart',
    (e) => {
      if (e.touches.length >= 2) {
        cancelPress();
        pinch = { distance: Math.max(1, distance(e.touches)), zoom: view.zoom };
        e.preventDefault();
        return;
      }
      const target = e.target as HTMLElement;
      if (e.touches.length !== 1 || target.closest('.ode-handle, .ode-frame-knob')) return;
      longPressed = false;
      cancelPress();
      const { clientX: x, clientY: y } = e.touches[0];
      press = {
        x,
        y,
        timer: setTimeout(() => {
          press = undefined;
          longPressed = true;
          deps.longPress(x, y);
        }, LONG_PRESS_MS),
      };
    },
    { passive: false },
  );
  el.addEventListener(
    'touchmove',
    (e) => {
      if (pinch && e.touches.length >= 2) {
        e.preventDefault();
        const t = e.touches;
        view.setZoom(
          (pinch.zoom * distance(t)) / pinch.distance,
          { clientX: (t[0].clientX + t[1].clientX) / 2, clientY: (t[0].clientY + t[1].clientY) / 2 },
          true,
        );
        return;
      }
      const t = e.touches[0];
      if (press && t && Math.hypot(t.clientX - press.x, t.clientY - press.y) > SLOP_PX) cancelPress();
    },
    { passive: false },
  );
  const end = (e: TouchEvent) => {
    cancelPress();
    if (e.touches.length < 2) pinch = undefined;
    // The finger of a long press lifts: no tap (no compatibility mouse events) follows.
    if (longPressed && e.touches.length === 0) {
      longPressed = false;
      if (e.cancelable) e.preventDefault();
    }
  };
  el.addEventListener('touchend', end, { passive: false });
  el.addEventListener('touchcancel', end);
}
