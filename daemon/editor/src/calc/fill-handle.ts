import type { Rect } from '../../../protocol/editor.ts';
import type { App } from '../core/app.ts';
import { dragLoHandle } from '../view/handle-drag.ts';

/** The square's side (CSS px) when LibreOffice's handle area is drawn smaller at the current zoom. */
const MIN_SIDE_PX = 7;

/**
 * The fill handle (issue 16 "fill handle"; Collabora Online's AutoFillMarkerSection): a small square at the
 * bottom-right corner of this view's cell cursor or selected range, where LibreOffice says its fill handle is
 * (`cellAutoFillArea`, LOK_CALLBACK_CELL_AUTO_FILL_AREA, in twips). Dragging it is LibreOffice's own autofill, as
 * in Collabora: a mouse press in the middle of LibreOffice's handle area (sc's grid window starts the fill when a
 * press hits its handle), moves by the pointer's travel (one per frame), a release where the pointer is; LibreOffice
 * then fills the cells dragged over (a number, a weekday or a date continues as a series; text is copied). Hidden
 * in read-only views. A mouse affordance only: the keyboard's way to the same result is Sheet > Fill (LibreOffice's
 * dialogs).
 */
export class FillHandle {
  private area: Rect | null = null;
  private readonly el: HTMLDivElement;

  constructor(
    private readonly app: App,
    layer: HTMLElement,
  ) {
    this.el = Object.assign(document.createElement('div'), { className: 'ode-fill-handle', hidden: true });
    this.el.setAttribute('aria-hidden', 'true');
    layer.append(this.el);
    app.view.onViewportChange(() => this.draw());
    app.session.on('cellAutoFillArea', (m) => {
      this.area = m.rect;
      this.draw();
    });
    app.session.on('status', () => this.draw());
    this.el.addEventListener('pointerdown', (down) => this.drag(down));
  }

  private writable(): boolean {
    return this.app.session.live && !this.app.session.state.status?.readonly;
  }

  /** Press at LibreOffice's handle, move by the pointer's travel, release (sc ScGridWindow's autofill drag). */
  private drag(down: PointerEvent): void {
    const a = this.area;
    if (!a || down.button !== 0 || !this.writable()) return;
    // No compatibility mouse events: the document view must not see this press as a click into the cells.
    down.preventDefault();
    down.stopPropagation();
    const { view, session } = this.app;
    const handle: [number, number] = [Math.round(a[0] + a[2] / 2), Math.round(a[1] + a[3] / 2)];
    dragLoHandle(
      this.el,
      down,
      handle,
      (x, y) => view.toTwips(x, y),
      (m) => session.send(m),
      {
        finalMove: true,
        onEnd: () => {
          this.app.events.emit('userActive');
          view.focus();
        },
      },
    );
  }

  private draw(): void {
    const a = this.area;
    this.el.hidden = !a || a[2] <= 0 || a[3] <= 0 || !this.writable();
    if (this.el.hidden || !a) return;
    const v = this.app.view.toView(a);
    const side = Math.max(MIN_SIDE_PX, Math.min(v.width, v.height));
    this.el.style.transform = `translate(${v.left + v.width / 2 - side / 2}px, ${v.top + v.height / 2 - side / 2}px)`;
    this.el.style.width = `${side}px`;
    this.el.style.height = `${side}px`;
  }
}
