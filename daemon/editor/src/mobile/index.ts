/**
 * Phones and tablets (issue 9 "Mobile and tablet"): the layout decisions of small screens and touch, as attributes
 * on <html> the modules' CSS reads (mobile.css): `data-form-factor` (`mobile`, `tablet`, `desktop`: what the load
 * message told LibreOffice, device.ts), `data-touch` (a finger: finger-sized targets, one-row scrolling toolbar) and
 * `data-compact` (a narrow viewport: menus in a row of their own, slides in a strip under the slide, side panels
 * over the document). On touch devices, text documents, presentations and drawings open fitted to the width (and
 * stay fitted when the viewport turns, unless the user zoomed), the hidden input lets the keyboard autocorrect and
 * capitalise (view/input.ts replays its edits), and while the on-screen keyboard covers the page the editor shrinks
 * to what is left and the caret stays in view. Touch gestures on the document are the view's (view/touch.ts).
 */
import type { App } from '../core/app.ts';
import { deviceTraits } from './device.ts';
import { fitWidthZoom, formFactorOf, isCompact } from './form-factor.ts';

/** Mounts the phone and tablet adaptations: form-factor classes, touch gestures, the on-screen keyboard handling. */
export function mountMobile(app: App): void {
  const root = document.documentElement;
  const { session, slots } = app;
  const layout = () => {
    const traits = deviceTraits();
    root.dataset.formFactor = formFactorOf(traits);
    root.toggleAttribute('data-touch', traits.coarse);
    root.toggleAttribute('data-compact', isCompact(traits.width));
    // The slide strip runs across under the slide in the compact layout.
    slots.left.querySelector('.ode-sorter-list')?.setAttribute('aria-orientation', root.hasAttribute('data-compact') ? 'horizontal' : 'vertical');
  };
  layout();

  // Fit to width at load on touch devices (not spreadsheets), and again after a turn if the user did not zoom.
  let fitted: number | undefined;
  const fit = () => {
    const status = session.state.status;
    if (!root.hasAttribute('data-touch') || !status || status.docType === 'spreadsheet') return;
    fitted = fitWidthZoom(app.view.scroller.clientWidth, status.width);
    app.view.setZoom(fitted);
  };
  session.on('status', () => {
    layout();
    // biome-ignore lint/suspicious/noFocusedTests: fit() fits the slide to the window, not a focused test
    fit();
    const input = slots.doc.querySelector<HTMLTextAreaElement>('.ode-input');
    if (input && root.hasAttribute('data-touch')) {
      const prose = session.state.status?.docType !== 'spreadsheet';
      input.setAttribute('autocorrect', prose ? 'on' : 'off');
      input.autocapitalize = prose ? 'sentences' : 'off';
    }
  });
  addEventListener('resize', () => {
    const untouched = fitted !== undefined && Math.abs(app.view.zoom - fitted) < 0.001;
    layout();
    if (untouched) requestAnimationFrame(fit);
  });

  // The on-screen keyboard: the part of the layout viewport it covers is left out, and the caret stays visible.
  const vv = window.visualViewport;
  if (!vv) return;
  vv.addEventListener('resize', () => {
    const covered = Math.max(0, Math.round(innerHeight - vv.height - vv.offsetTop));
    root.style.setProperty('--ode-keyboard', `${covered}px`);
    const caret = app.view.caretRect;
    if (caret && document.activeElement?.classList.contains('ode-input')) requestAnimationFrame(() => app.view.scrollIntoView(caret));
  });
}
