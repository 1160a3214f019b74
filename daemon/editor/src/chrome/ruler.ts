/**
 * A simple horizontal ruler for text documents (View > Ruler): centimetre ticks across the page and its margins
 * from LibreOffice's RULER_UPDATE (`rulerUpdate`: pageOffset, pageWidth, leftOffset, margin1/margin2 in 1/100 mm),
 * drawn on a canvas above the document and kept in step with scrolling and zoom. Decorative (aria-hidden).
 */
import type { App } from '../core/app.ts';
import { el } from './dom.ts';

/** The page and its text area in twips from the document's left edge. */
interface RulerState {
  pageLeft: number;
  pageWidth: number;
  textLeft: number;
  textRight: number;
}

const TWIPS_PER_CM = 1440 / 2.54;
/** LibreOffice's ruler gives 1/100 mm. */
const TWIPS_PER_MM100 = 1440 / 2540;
const STORAGE_KEY = 'ode.ruler';

export class Ruler {
  readonly element: HTMLCanvasElement;
  private state: RulerState | undefined;
  private shownNow = false;

  constructor(private readonly app: App) {
    this.element = el('canvas', { className: 'ode-ruler', hidden: true }, { 'aria-hidden': 'true' });
    app.session.on('rulerUpdate', (m) => {
      // SvxRuler::NotifyKit: pageOffset (page's left edge), pageWidth, leftOffset (left margin), margin1/margin2
      // (the paragraph's left and right edges from the left margin), all in 1/100 mm.
      const r = m.ruler as Record<string, unknown>;
      const n = (k: string) => (Number(r[k] ?? 0) || 0) * TWIPS_PER_MM100;
      const pageLeft = n('pageOffset');
      this.state = {
        pageLeft,
        pageWidth: n('pageWidth'),
        textLeft: pageLeft + n('leftOffset') + n('margin1'),
        textRight: pageLeft + n('leftOffset') + n('margin2'),
      };
      this.draw();
    });
    app.events.on('themeChanged', () => this.draw());
    // The user's own choice, unless the host says SavedUIState=false; else the host's ui_defaults TextRuler.
    const defaults = app.config.uiDefaults ?? {};
    let own: string | null = null;
    try {
      if (defaults.savedUIState !== false) own = localStorage.getItem(STORAGE_KEY);
    } catch {
      /* storage blocked: the host's default, else hidden */
    }
    this.shownNow = own !== null ? own === '1' : defaults.text?.ShowRuler === true;
    app.session.once('status', () => {
      this.element.hidden = !this.shownNow;
      app.view.onViewportChange(() => this.draw());
      this.draw();
    });
  }

  shown(): boolean {
    return this.shownNow;
  }

  toggle(): void {
    this.shownNow = !this.shownNow;
    this.element.hidden = !this.shownNow;
    try {
      localStorage.setItem(STORAGE_KEY, this.shownNow ? '1' : '0');
    } catch {
      /* not remembered */
    }
    this.app.commands.refresh();
    this.draw();
  }

  private draw(): void {
    if (!this.shownNow || !this.app.view) return;
    const c = this.element;
    const dpr = devicePixelRatio || 1;
    const width = c.clientWidth || c.parentElement?.clientWidth || 0;
    const height = 18;
    c.width = Math.round(width * dpr);
    c.height = Math.round(height * dpr);
    const g = c.getContext('2d');
    if (!g) return;
    const css = getComputedStyle(document.documentElement);
    const fg = css.getPropertyValue('--muted').trim() || '#888';
    const page = css.getPropertyValue('--bar').trim() || '#fff';
    const shade = css.getPropertyValue('--line').trim() || '#ddd';
    g.scale(dpr, dpr);
    g.clearRect(0, 0, width, height);
    // Without a ruler update yet: the page is the document less Writer's border (DOCUMENTBORDER, 284 twips).
    const docWidth = this.app.session.state.status?.width ?? 0;
    const st = this.state ?? { pageLeft: 284, pageWidth: Math.max(0, docWidth - 568), textLeft: 284, textRight: docWidth - 284 };
    const origin = this.app.view.scroller.getBoundingClientRect().left - c.getBoundingClientRect().left;
    const x = (twips: number) => origin + this.app.view.toView([twips, 0, 0, 0]).left;
    g.fillStyle = shade;
    g.fillRect(x(st.pageLeft), 2, x(st.pageLeft + st.pageWidth) - x(st.pageLeft), height - 4);
    g.fillStyle = page;
    g.fillRect(x(st.textLeft), 2, Math.max(0, x(st.textRight) - x(st.textLeft)), height - 4);
    g.strokeStyle = fg;
    g.fillStyle = fg;
    g.font = '9px sans-serif';
    g.textAlign = 'center';
    g.beginPath();
    // Centimetres from the left margin, both ways, within the page.
    for (let half = -Math.floor(((st.textLeft - st.pageLeft) / TWIPS_PER_CM) * 2); ; half++) {
      const twips = st.textLeft + (half / 2) * TWIPS_PER_CM;
      if (twips > st.pageLeft + st.pageWidth) break;
      const px = Math.round(x(twips)) + 0.5;
      const cm = Math.abs(half / 2);
      if (half % 2 === 0 && cm > 0) g.fillText(String(cm), px, 12);
      else {
        g.moveTo(px, half % 2 === 0 ? 4 : 8);
        g.lineTo(px, half % 2 === 0 ? 14 : 10);
      }
    }
    g.stroke();
  }
}
