/**
 * A simple horizontal ruler for text documents (View > Ruler): centimetre ticks across the page and its margins
 * from LibreOffice's RULER_UPDATE (`rulerUpdate`: margin1/margin2, leftOffset, pageOffset, pageWidth in twips),
 * drawn on a canvas above the document and kept in step with scrolling and zoom. Decorative (aria-hidden).
 */
import type { App } from '../core/app.ts';
import { el } from './dom.ts';

interface RulerState {
  margin1: number;
  margin2: number;
  pageWidth: number;
}

const TWIPS_PER_CM = 1440 / 2.54;
const STORAGE_KEY = 'ode.ruler';

export class Ruler {
  readonly element: HTMLCanvasElement;
  private state: RulerState | undefined;
  private shownNow = false;

  constructor(private readonly app: App) {
    this.element = el('canvas', { className: 'ode-ruler', hidden: true }, { 'aria-hidden': 'true' });
    app.session.on('rulerUpdate', (m) => {
      const r = m.ruler as Record<string, unknown>;
      const n = (k: string) => Number(r[k] ?? 0) || 0;
      this.state = { margin1: n('margin1'), margin2: n('margin2'), pageWidth: n('pageWidth') };
      this.draw();
    });
    app.events.on('themeChanged', () => this.draw());
    try {
      this.shownNow = localStorage.getItem(STORAGE_KEY) === '1';
    } catch {
      /* storage blocked: hidden */
    }
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
    const docWidth = this.state?.pageWidth || this.app.session.state.status?.width || 0;
    const box = this.app.view.toView([0, 0, docWidth, 0]);
    const scrollerLeft = this.app.view.scroller.getBoundingClientRect().left - c.getBoundingClientRect().left;
    const x0 = scrollerLeft + box.left;
    const scale = box.width / Math.max(1, docWidth);
    g.fillStyle = shade;
    g.fillRect(x0, 2, box.width, height - 4);
    const m1 = this.state?.margin1 ?? 0;
    const m2 = this.state?.margin2 ?? 0;
    g.fillStyle = page;
    g.fillRect(x0 + m1 * scale, 2, Math.max(0, box.width - (m1 + m2) * scale), height - 4);
    g.strokeStyle = fg;
    g.fillStyle = fg;
    g.font = '9px sans-serif';
    g.textAlign = 'center';
    g.beginPath();
    for (let cm = 0, twips = 0; twips <= docWidth; cm += 0.5, twips = cm * TWIPS_PER_CM) {
      const x = Math.round(x0 + (m1 + twips) * scale) + 0.5;
      if (x > x0 + box.width) break;
      const whole = Number.isInteger(cm);
      if (whole && cm > 0) g.fillText(String(cm), x, 12);
      else {
        g.moveTo(x, whole ? 4 : 8);
        g.lineTo(x, whole ? 14 : 10);
      }
    }
    g.stroke();
  }
}
