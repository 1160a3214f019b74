import type { ClientMessage, Rect } from '../../../protocol/editor.ts';
import { t } from '../core/i18n.ts';
import { dragLoHandle, followDrag } from './handle-drag.ts';
import type { TileView } from './tile-view.ts';

/** The eight knobs of a shape's frame: fractions of its width and height. */
const FRAME_KNOBS: Array<[number, number, string]> = [
  [0, 0, 'nw'],
  [0.5, 0, 'n'],
  [1, 0, 'ne'],
  [1, 0.5, 'e'],
  [1, 1, 'se'],
  [0.5, 1, 's'],
  [0, 1, 'sw'],
  [0, 0.5, 'w'],
];

/** What the handles send: editor messages. */
type Send = (msg: ClientMessage) => void;

/**
 * Draggable knobs over the document (issue 5 "caret and selection handles"): the two ends of this view's text
 * selection (LOK TEXT_SELECTION_START/END; dragging one sends `selectText` start/end, as LOK's setTextSelection
 * wants) and the frame of a selected shape or image (GRAPHIC_SELECTION; dragging a knob resizes it with the mouse
 * events LibreOffice takes on its own handles: press at the handle, moves, release). Moving a shape is a plain drag
 * inside its frame (input.ts). Knobs are DOM elements in the view's layer, in document px.
 */
export class Handles {
  private readonly ends = new Map<'start' | 'end', { el: HTMLDivElement; rect: Rect | null }>();
  private readonly frame: HTMLDivElement;
  private graphic: Rect | null = null;
  /** The selection end a pointer drags: it stays shown while LibreOffice redraws the selection (no lost capture). */
  private dragging: 'start' | 'end' | undefined;

  constructor(
    private readonly view: TileView,
    private readonly send: Send,
  ) {
    for (const which of ['start', 'end'] as const) {
      const el = Object.assign(document.createElement('div'), { className: `ode-handle ode-handle-${which}` });
      el.setAttribute('aria-hidden', 'true');
      el.hidden = true;
      view.layer.append(el);
      this.ends.set(which, { el, rect: null });
      this.dragText(el, which);
    }
    this.frame = Object.assign(document.createElement('div'), { className: 'ode-graphic-frame' });
    this.frame.hidden = true;
    this.frame.setAttribute('role', 'img');
    this.frame.setAttribute('aria-label', t('view.selectedObject'));
    for (const [fx, fy, name] of FRAME_KNOBS) {
      const knob = Object.assign(document.createElement('div'), { className: `ode-frame-knob ode-knob-${name}` });
      knob.style.left = `${fx * 100}%`;
      knob.style.top = `${fy * 100}%`;
      this.frame.append(knob);
      this.dragKnob(knob, fx, fy);
    }
    view.layer.append(this.frame);
    view.onOverlaysMoved(() => this.place());
  }

  /** Where a text selection handle is (null: none). */
  setTextHandle(which: 'start' | 'end', rect: Rect | null): void {
    this.ends.get(which)!.rect = rect && (rect[2] > 0 || rect[3] > 0) ? rect : null;
    this.place();
  }

  /** Shows or hides the selection ends after this view's selection changed (LibreOffice sends the ends first). */
  refresh(): void {
    this.place();
  }

  /** This view's selected shape (null: none). */
  setGraphic(rect: Rect | null): void {
    this.graphic = rect && (rect[2] > 0 || rect[3] > 0) ? rect : null;
    this.place();
  }

  private place(): void {
    for (const [which, { el, rect }] of this.ends) {
      el.hidden = which !== this.dragging && (!rect || this.view.selectionRects.length === 0);
      if (!rect) continue;
      const l = this.view.local(rect);
      el.style.left = `${which === 'start' ? l.left : l.left + l.width}px`;
      el.style.top = `${l.top + l.height}px`;
    }
    this.frame.hidden = !this.graphic;
    if (!this.graphic) return;
    const l = this.view.local(this.graphic);
    Object.assign(this.frame.style, { left: `${l.left}px`, top: `${l.top}px`, width: `${l.width}px`, height: `${l.height}px` });
  }

  /** A selection end follows the pointer: the point sent is where the text line is, not where the knob hangs. */
  private dragText(el: HTMLDivElement, which: 'start' | 'end'): void {
    el.addEventListener('pointerdown', (down) => {
      const rect = this.ends.get(which)!.rect;
      if (!rect || down.button !== 0) return;
      down.preventDefault();
      down.stopPropagation();
      this.dragging = which;
      const [px, py] = this.view.toTwips(down.clientX, down.clientY);
      // Offset from the pointer to the middle of the handle's line (twips).
      const dx = (which === 'start' ? rect[0] : rect[0] + rect[2]) - px;
      const dy = rect[1] + rect[3] / 2 - py;
      followDrag(
        el,
        down,
        (e) => {
          const [x, y] = this.view.toTwips(e.clientX, e.clientY);
          this.send({ type: 'selectText', kind: which, x: x + dx, y: y + dy });
        },
        () => {
          this.dragging = undefined;
          this.place();
        },
      );
    });
  }

  /** A frame knob: press at LibreOffice's handle (the frame's corner or edge middle), move by the pointer's delta, release. */
  private dragKnob(knob: HTMLDivElement, fx: number, fy: number): void {
    knob.addEventListener('pointerdown', (down) => {
      const g = this.graphic;
      if (!g || down.button !== 0) return;
      down.preventDefault();
      down.stopPropagation();
      const handle: [number, number] = [Math.round(g[0] + fx * g[2]), Math.round(g[1] + fy * g[3])];
      dragLoHandle(knob, down, handle, (x, y) => this.view.toTwips(x, y), this.send);
    });
  }
}
