/**
 * Presentations, drawings and pdf (issue 5 "Presentations", "Drawings and pdf"): the slide sorter / pages panel
 * in slot `left` (sorter.ts), the slide commands, and the slideshow (slideshow.ts).
 *
 * Commands (ids are stable; see the lead's list): `slide.new` (.uno:InsertPage), `slide.duplicate`
 * (.uno:DuplicatePage), `slide.delete` (.uno:DeletePage), `slide.moveUp` / `slide.moveDown` (.uno:MovePageUp /
 * .uno:MovePageDown, LibreOffice's names in 7.4 and 25.2: they move the current slide), `slide.startPresentation` (F5),
 * `view.slideSorter` (shows or hides the panel). Drawings and pdf use the same panel and commands with "page"
 * labels; a pdf (view_comment) cannot change its pages, and has no slideshow.
 *
 * Slideshow: `app.exportDocument('svg', 'slideshow')`; host/ emits the App event `slideshow` with the one-use URL
 * (or sends the host Download_As with DownloadAsPostMessage). `startPresentation=true` starts it once the
 * document is loaded; .ppsx and .pps files start in it unless `startPresentation=false`.
 */
import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';
import './messages.ts';
import { Slideshow } from './slideshow.ts';
import { Sorter } from './sorter.ts';

let nextDownload = 0;

/** 16 px stroke icons of the panel's buttons (new, duplicate, delete, up, down): SVG path data. */
const ICONS = [
  'M8 3v10M3 8h10',
  'M5.5 5.5h7v7h-7zM3.5 10.5v-7h7',
  'M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.7 8.5h5.6l.7-8.5',
  'M8 13V3M4 7l4-4 4 4',
  'M8 3v10M4 9l4 4 4-4',
];

function icon(d: string): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', d);
  path.setAttribute('fill', 'none');
  path.setAttribute('stroke', 'currentColor');
  path.setAttribute('stroke-width', '1.4');
  path.setAttribute('stroke-linecap', 'round');
  path.setAttribute('stroke-linejoin', 'round');
  svg.append(path);
  return svg;
}

/** True when the document should open in its slideshow (spec: startPresentation; ppsx/pps by default). */
export function startsInSlideshow(fileName: string, param: string | undefined): boolean {
  if (param === 'false') return false;
  if (param === 'true') return true;
  return /\.(ppsx|pps)$/i.test(fileName);
}

/**
 * The zoom (1 = 100 %) at which a whole slide of `docWidth` x `docHeight` twips fits a view of `viewWidth` x
 * `viewHeight` CSS px with `margin` px around it, between 25 % and 200 % (at 15 twips per CSS px at 100 %).
 * Collabora opens presentations fitted so (issue 16).
 */
export function fitSlideZoom(viewWidth: number, viewHeight: number, docWidth: number, docHeight: number, margin = 16): number {
  if (docWidth <= 0 || docHeight <= 0 || viewWidth <= 0 || viewHeight <= 0) return 1;
  const z = Math.min(((viewWidth - 2 * margin) * 15) / docWidth, ((viewHeight - 2 * margin) * 15) / docHeight);
  return Math.max(0.25, Math.min(2, Math.floor(z * 100) / 100));
}

export function mountSlides(app: App): void {
  const { session, commands, slots } = app;
  // A presentation opens fitted to the window, and fits again when the window changes size until the user zooms.
  let fitted: number | undefined;
  const fitToWindow = () => {
    const status = session.state.status;
    // Touch devices fit the width instead (mobile/).
    if (!status || status.docType !== 'presentation' || !app.view || matchMedia('(pointer: coarse)').matches) return;
    const { clientWidth, clientHeight } = app.view.scroller;
    if (clientWidth <= 0 || clientHeight <= 0) return; // not laid out yet: the size observer fits it then
    fitted = fitSlideZoom(clientWidth, clientHeight, status.width, status.height);
    app.view.setZoom(fitted);
  };
  const untouched = () => fitted === undefined || Math.abs(app.view.zoom - fitted) < 0.001;
  let watching = false;
  session.on('status', () => {
    if (!watching && app.view) {
      // The window, the slide panel or the chrome around the slide changed its size: fit again unless the user zoomed.
      watching = true;
      new ResizeObserver(() => untouched() && requestAnimationFrame(fitToWindow)).observe(app.view.scroller);
    }
  });
  let sorter: Sorter | undefined;
  const slideshow = new Slideshow(app);
  let kind: 'slides' | 'pages' | undefined;

  const editable = () => session.live && !session.state.status?.readonly;

  /** Exports the slideshow and shows it (host/ delivers the URL through the `slideshow` event). */
  const startSlideshow = async () => {
    let delivered = false;
    let asked = false;
    const offs = [
      app.events.on('slideshow', () => (delivered = true)),
      session.on('sent', (m) => (asked ||= m.type === 'download' && m.purpose === 'slideshow')),
    ];
    app.notify(t('slides.show.preparing'));
    try {
      await app.exportDocument('svg', 'slideshow');
      // Without host/'s export (it asked nothing), ask the daemon directly.
      if (!delivered && !asked && session.state.status?.fileInfo.DownloadAsPostMessage !== true) {
        const id = `slideshow${++nextDownload}`;
        const ready = await session.request({ type: 'download', id, format: 'svg', purpose: 'slideshow' }, 'downloadReady', (m) => m.id === id, 120_000);
        slideshow.show(new URL(ready.url, location.href).href);
      }
    } catch {
      app.notify(t('slides.show.failed'), 'error');
    } finally {
      for (const off of offs) off();
    }
  };
  app.events.on('slideshow', (url) => slideshow.show(url));

  session.on('status', (m) => {
    // A pdf (its pages cannot change): commented by a user who may write it, or only read.
    const pdf = m.commentsOnly || /\.pdf$/i.test(String(m.fileInfo.BaseFileName ?? ''));
    const multi = m.docType === 'presentation' || m.docType === 'drawing';
    sorter?.destroy();
    sorter = undefined;
    if (!multi && !pdf) return;
    kind = m.docType === 'presentation' ? 'slides' : 'pages';
    sorter = new Sorter(app, kind === 'pages');
    slots.left.replaceChildren(panelBar(pdf), sorter.element);
    slots.left.hidden = false;
    slots.left.classList.add('ode-left-sorter');
    sorter.setParts(m.parts, m.partNames, m.width, m.height);
    registerCommands(m.docType === 'presentation');
  });
  // Fitted at once, with the slide panel in place: the view asks for its first tiles after the `status` handlers
  // (view/index.ts), so they come at the fitted zoom, not at 100 % first.
  session.on('status', () => untouched() && fitToWindow());
  // View > Notes shows the portrait notes page (documentSize with the view's mode and size): fitted as well, and the
  // slide again when the view goes back, unless the user zoomed.
  session.on('documentSize', () => untouched() && fitToWindow());
  session.on('documentSize', (m) => {
    if (sorter && m.parts >= 0) sorter.setParts(m.parts, m.partNames, m.width, m.height, m.mode ?? 0);
  });
  session.on('part', (m) => sorter?.select(m.part));
  session.on('invalidate', (m) => sorter?.invalidate(m.part));
  session.on('reloaded', () => sorter?.invalidate(-1));
  session.on('tile', (h, png) => {
    if (sorter?.isThumbnail(h)) void sorter.tileArrived(h, png);
  });

  /** The panel's own buttons for the part commands (hidden for a pdf: its pages cannot change). */
  function panelBar(pdf: boolean): HTMLElement {
    const bar = document.createElement('div');
    bar.className = 'ode-sorter-bar';
    bar.setAttribute('role', 'toolbar');
    bar.setAttribute('aria-label', t(kind === 'pages' ? 'slides.panel.pages' : 'slides.panel.slides'));
    bar.hidden = pdf;
    const buttons = (['slide.new', 'slide.duplicate', 'slide.delete', 'slide.moveUp', 'slide.moveDown'] as const).map((id, i) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'ode-sorter-button';
      b.dataset.command = id;
      b.append(icon(ICONS[i]));
      b.addEventListener('click', () => commands.run(id));
      bar.append(b);
      return b;
    });
    const update = () => {
      for (const b of buttons) {
        const id = b.dataset.command!;
        const label = commands.get(id)?.label;
        if (label) {
          b.setAttribute('aria-label', t(label));
          b.title = t(label);
        }
        b.hidden = commands.isHidden(id);
        b.disabled = !commands.isEnabled(id);
      }
    };
    commands.on('changed', update);
    session.on('status', update);
    queueMicrotask(update);
    return bar;
  }

  function registerCommands(presentation: boolean): void {
    const w = presentation ? 'slide' : 'page';
    const partCommand = (id: string, label: string, uno: string, enabled: () => boolean = editable) => ({ id, label, enabled, run: () => session.uno(uno) });
    commands.register(
      partCommand('slide.new', `${w}.new`, '.uno:InsertPage'),
      partCommand('slide.duplicate', `${w}.duplicate`, '.uno:DuplicatePage'),
      partCommand('slide.delete', `${w}.delete`, '.uno:DeletePage', () => editable() && (sorter?.count ?? 0) > 1),
      partCommand('slide.moveUp', `${w}.moveUp`, '.uno:MovePageUp', () => editable() && session.state.part > 0),
      partCommand('slide.moveDown', `${w}.moveDown`, '.uno:MovePageDown', () => editable() && session.state.part < (sorter?.count ?? 0) - 1),
      {
        id: 'view.slideSorter',
        label: presentation ? 'view.slideSorter' : 'view.pagePanel',
        checked: () => !slots.left.hidden,
        run: () => {
          slots.left.hidden = !slots.left.hidden;
          commands.refresh();
        },
      },
    );
    if (presentation) {
      commands.register({
        id: 'slide.startPresentation',
        label: 'slide.startPresentation',
        shortcut: 'F5',
        enabled: () => session.live,
        run: () => void startSlideshow(),
      });
    }
  }

  // F5 starts the slideshow (and must not reload the page).
  window.addEventListener(
    'keydown',
    (e) => {
      if (e.key !== 'F5' || e.ctrlKey || e.altKey || e.metaKey || kind !== 'slides' || slideshow.open) return;
      e.preventDefault();
      e.stopPropagation();
      commands.run('slide.startPresentation');
    },
    true,
  );
  session.on('part', () => commands.refresh());
  session.on('documentSize', () => commands.refresh());

  app.events.once('documentLoaded', () => {
    const s = session.state.status;
    if (s?.docType === 'presentation' && startsInSlideshow(String(s.fileInfo.BaseFileName ?? ''), app.config.settings.startPresentation)) void startSlideshow();
  });
}
