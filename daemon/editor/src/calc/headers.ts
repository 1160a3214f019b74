import type { Rect } from '../../../protocol/editor.ts';
import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';
import { popupMenu } from '../chrome/panels-dom.ts';
import type { CellCursors } from './cell-cursor.ts';
import { columnIndex } from './r1c1.ts';
import { goToCell } from './uno.ts';

/** Twips per pixel of LibreOffice's view at 100 % (no `clientZoom` sent yet). */
const DEFAULT_TWIPS_PER_PX = 15;
/** Twips per CSS px of the document view at zoom 1. */
const TWIPS_PER_CSS_PX = 15;
/** A press this close (px) to the end of a header cell drags its border. */
const RESIZE_EDGE_PX = 4;

/**
 * The row and column header context menus, as Collabora Online's (its Control.RowHeader / ColumnHeader): message
 * id and LibreOffice 25.2 command. They act on the selected rows or columns (sc cellsh1.cxx: SID_INS_ROWS_BEFORE and
 * the others insert or delete whole rows/columns for the selection); Height/Width open LibreOffice's dialog.
 */
export const HEADER_MENUS = {
  row: [
    ['calc.insertRowsAbove', '.uno:InsertRowsBefore'],
    ['calc.insertRowsBelow', '.uno:InsertRowsAfter'],
    ['calc.deleteRows', '.uno:DeleteRows'],
    ['calc.hideRows', '.uno:HideRow'],
    ['calc.showRows', '.uno:ShowRow'],
    ['calc.rowHeight', '.uno:RowHeight'],
    ['calc.optimalRowHeight', '.uno:SetOptimalRowHeight'],
  ],
  col: [
    ['calc.insertColumnsBefore', '.uno:InsertColumnsBefore'],
    ['calc.insertColumnsAfter', '.uno:InsertColumnsAfter'],
    ['calc.deleteColumns', '.uno:DeleteColumns'],
    ['calc.hideColumns', '.uno:HideColumn'],
    ['calc.showColumns', '.uno:ShowColumn'],
    ['calc.columnWidth', '.uno:ColumnWidth'],
    ['calc.optimalColumnWidth', '.uno:SetOptimalColumnWidth'],
  ],
} as const satisfies Record<'row' | 'col', ReadonlyArray<readonly [string, string]>>;

/** The position of a header label: the 0-based column of "AB", the row number of "12". */
function headerIndex(kind: 'col' | 'row', text: string): number {
  return kind === 'col' ? columnIndex(text) : Number(text);
}

/** One header entry: its label and where it starts and ends in twips. */
export interface HeaderEntry {
  text: string;
  start: number;
  end: number;
}

/**
 * Reads LibreOffice's answer (`{rows: [{text, size}], columns: [...]}`: the first entry gives the start position of
 * the first visible row/column, each next one its label and cumulative end position in pixels) as entries in twips.
 * The pixels are those of the view's LOK zoom (sc tabview.cxx getRowColumnHeaders), which the document view sets
 * with `clientZoom`: `twipsPerPx` = tileTwipWidth / tilePixelWidth of the last one.
 */
export function headerEntries(list: unknown, twipsPerPx: number): HeaderEntry[] {
  if (!Array.isArray(list) || list.length === 0) return [];
  const out: HeaderEntry[] = [];
  let prev = Number((list[0] as { size?: unknown }).size ?? 0) * twipsPerPx;
  for (const item of list.slice(1) as Array<{ text?: unknown; size?: unknown }>) {
    const end = Number(item.size) * twipsPerPx;
    if (end > prev) out.push({ text: String(item.text ?? ''), start: prev, end });
    prev = end;
  }
  return out;
}

/**
 * Row and column headers around the document view (issue 5 "Spreadsheets: row and column headers"): two strips
 * inside slot `doc` (the view is inset by CSS to make room, `.ode-main.ode-calc`), filled from `commandValues`
 * `.uno:ViewRowColumnHeaders?x=..&y=..&width=..&height=..` for the visible area (twips); asked again after scrolls,
 * zooms, `headerInvalidated`, `sheetGeometryInvalidated` and sheet changes. The cursor's row and column are
 * highlighted. Clicking a header selects the column or row (`.uno:GoToCell` with `B:B` / `3:3`); Shift extends
 * from the last one clicked; dragging the border at a header's end resizes the column or row; a right click (or
 * Shift+F10 on a strip) opens the header's context menu (`HEADER_MENUS`).
 */
export class Headers {
  readonly columns: HTMLDivElement;
  readonly rows: HTMLDivElement;
  readonly corner: HTMLButtonElement;
  private cols: HeaderEntry[] = [];
  private rws: HeaderEntry[] = [];
  private asking = false;
  private askAgain = false;
  private frame = 0;
  private anchor: { kind: 'col' | 'row'; text: string } | undefined;
  /** The rows or columns last selected from the headers (a right click inside them keeps them selected). */
  private selected: { kind: 'col' | 'row'; from: number; to: number } | undefined;
  /**
   * Until the next `clientZoom` is seen: the one the view sent at load, before the headers existed (tiles are
   * painted at devicePixelRatio, so at 100 % a phone's LibreOffice pixel is 15 / dpr twips).
   */
  private twipsPerPx: number;
  private resizing = false;

  constructor(
    private readonly app: App,
    private readonly cursors: CellCursors,
  ) {
    this.twipsPerPx = DEFAULT_TWIPS_PER_PX / ((window.devicePixelRatio || 1) * (app.view?.zoom ?? 1));
    this.columns = Object.assign(document.createElement('div'), { className: 'ode-calc-colhead', tabIndex: 0 });
    this.columns.setAttribute('role', 'group');
    this.columns.setAttribute('aria-label', t('calc.columnHeaders'));
    this.rows = Object.assign(document.createElement('div'), { className: 'ode-calc-rowhead', tabIndex: 0 });
    this.rows.setAttribute('role', 'group');
    this.rows.setAttribute('aria-label', t('calc.rowHeaders'));
    this.corner = Object.assign(document.createElement('button'), { type: 'button', className: 'ode-calc-corner', title: t('calc.selectAll') });
    this.corner.setAttribute('aria-label', t('calc.selectAll'));
    this.corner.addEventListener('click', () => app.session.uno('.uno:SelectAll'));
    app.slots.doc.append(this.corner, this.columns, this.rows);

    for (const [strip, kind] of [
      [this.columns, 'col'],
      [this.rows, 'row'],
    ] as const) {
      strip.addEventListener('mousedown', (e) => {
        const target = (e.target as HTMLElement).closest<HTMLElement>('[data-header]');
        if (!target || e.button !== 0) return;
        e.preventDefault();
        const r = target.getBoundingClientRect();
        const edge = kind === 'col' ? r.right - e.clientX : r.bottom - e.clientY;
        if (edge <= RESIZE_EDGE_PX && !app.session.state.status?.readonly) this.resize(kind, target, e);
        else this.select(kind, target.dataset.header!, e.shiftKey);
      });
      // Keyboard: Enter or Space on a strip selects the cursor's column or row; Shift+F10 or the menu key opens
      // its context menu.
      strip.addEventListener('keydown', (e) => {
        const menu = e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey);
        if (e.key !== 'Enter' && e.key !== ' ' && !menu) return;
        const hit = this.highlighted(kind);
        if (!hit) return;
        e.preventDefault();
        const target = [...strip.children].find((c) => (c as HTMLElement).dataset.header === hit.text) as HTMLElement | undefined;
        if (menu && target) this.openMenu(kind, target);
        else this.select(kind, hit.text, e.shiftKey);
      });
      strip.addEventListener('contextmenu', (e) => {
        const target = (e.target as HTMLElement).closest<HTMLElement>('[data-header]');
        e.preventDefault();
        if (target) this.openMenu(kind, target);
      });
    }
    app.session.on('sent', (m) => {
      if (m.type === 'clientZoom' && m.tilePixelWidth > 0) this.twipsPerPx = m.tileTwipWidth / m.tilePixelWidth;
    });
    app.view.onViewportChange(() => {
      this.draw();
      this.ask();
    });
  }

  /** Asks LibreOffice for the headers of the visible area (one request at a time; the last wish wins). */
  ask(): void {
    if (this.asking) {
      this.askAgain = true;
      return;
    }
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      void this.fetch();
    });
  }

  private async fetch(): Promise<void> {
    const { session } = this.app;
    if (!session.live) return;
    const a = this.app.view.visibleArea();
    if (a.width <= 0 || a.height <= 0) return;
    const command = `.uno:ViewRowColumnHeaders?x=${a.x}&y=${a.y}&width=${a.width}&height=${a.height}`;
    this.asking = true;
    try {
      const reply = await session.request({ type: 'commandValues', command }, 'commandValues', (m) => m.command === command);
      const value = (reply.value ?? {}) as { rows?: unknown; columns?: unknown };
      this.cols = headerEntries(value.columns, this.twipsPerPx);
      this.rws = headerEntries(value.rows, this.twipsPerPx);
      this.draw();
    } catch {
      // The socket closed or LibreOffice did not answer: the next viewport change asks again.
    } finally {
      this.asking = false;
      if (this.askAgain) {
        this.askAgain = false;
        this.ask();
      }
    }
  }

  private highlighted(kind: 'col' | 'row'): HeaderEntry | undefined {
    const r = this.cursors.rect;
    if (!r) return undefined;
    return kind === 'col' ? this.cols.find((c) => c.start <= r[0] && r[0] < c.end) : this.rws.find((c) => c.start <= r[1] && r[1] < c.end);
  }

  private select(kind: 'col' | 'row', text: string, extend: boolean): void {
    const from = extend && this.anchor?.kind === kind ? this.anchor.text : text;
    if (!extend || this.anchor?.kind !== kind) this.anchor = { kind, text };
    const [a, b] = [headerIndex(kind, from), headerIndex(kind, text)];
    this.selected = { kind, from: Math.min(a, b), to: Math.max(a, b) };
    goToCell(this.app, `${from}:${text}`);
    this.app.view.focus();
  }

  /**
   * The context menu of a row or column header (issue 23: inserting a row took three steps): the header's row or
   * column is selected first unless it is inside the rows/columns already selected from the headers; read-only
   * views get no menu.
   */
  private openMenu(kind: 'col' | 'row', target: HTMLElement): void {
    const { session, slots } = this.app;
    if (session.state.status?.readonly || !session.live) return;
    const text = target.dataset.header!;
    const at = headerIndex(kind, text);
    const s = this.selected;
    const cursor = this.highlighted(kind);
    const within = (n: number) => !!s && s.kind === kind && s.from <= n && n <= s.to;
    // Inside the last header selection, and the cell cursor has not left it since (arrow keys, a click).
    const inside = within(at) && !!cursor && within(headerIndex(kind, cursor.text));
    if (!inside) this.select(kind, text, false);
    const label = t(kind === 'col' ? 'calc.columnMenu' : 'calc.rowMenu', { name: text });
    popupMenu(
      slots.popups,
      target,
      label,
      HEADER_MENUS[kind].map(([message, command]) => ({
        text: t(message),
        run: () => {
          session.uno(command);
          this.app.events.emit('userActive');
          this.app.view.focus();
        },
      })),
    );
  }

  /**
   * Drags the border at the end of a column or row header: the header follows the pointer, and on release the new
   * size goes to LibreOffice (`.uno:ColumnWidth` with ColumnWidth in 1/100 mm and the 1-based Column,
   * `.uno:RowHeight` with RowHeight and Row), which then invalidates the headers and the tiles.
   */
  private resize(kind: 'col' | 'row', target: HTMLElement, down: MouseEvent): void {
    const start = kind === 'col' ? target.offsetWidth : target.offsetHeight;
    const from = kind === 'col' ? down.clientX : down.clientY;
    let size = start;
    this.resizing = true;
    const move = (e: MouseEvent) => {
      size = Math.max(2, start + (kind === 'col' ? e.clientX : e.clientY) - from);
      target.style[kind === 'col' ? 'width' : 'height'] = `${size}px`;
    };
    const up = () => {
      removeEventListener('mousemove', move, true);
      removeEventListener('mouseup', up, true);
      this.resizing = false;
      if (size === start) return this.draw();
      // CSS px at the view's zoom -> twips -> 1/100 mm.
      const hmm = Math.round(((size * TWIPS_PER_CSS_PX) / this.app.view.zoom) * (2540 / 1440));
      const name = target.dataset.header!;
      if (kind === 'col')
        this.app.session.uno('.uno:ColumnWidth', {
          ColumnWidth: { type: 'unsigned short', value: hmm },
          Column: { type: 'unsigned short', value: columnIndex(name) + 1 },
        });
      else this.app.session.uno('.uno:RowHeight', { RowHeight: { type: 'unsigned short', value: hmm }, Row: { type: 'long', value: Number(name) } });
      this.app.view.focus();
    };
    addEventListener('mousemove', move, true);
    addEventListener('mouseup', up, true);
  }

  /** Lays the header cells out for the current scroll position and zoom. */
  draw(): void {
    if (this.resizing) return;
    const cursor: Rect | null = this.cursors.rect;
    const width = this.columns.clientWidth;
    const height = this.rows.clientHeight;
    const cols = this.cols
      .map((c) => ({ c, v: this.app.view.toView([c.start, 0, c.end - c.start, 0]) }))
      .filter(({ v }) => v.left + v.width > 0 && v.left < width)
      .map(({ c, v }) => ({ entry: c, pos: v.left, size: v.width, current: !!cursor && cursor[0] < c.end && c.start < cursor[0] + cursor[2] }));
    const rows = this.rws
      .map((r) => ({ r, v: this.app.view.toView([0, r.start, 0, r.end - r.start]) }))
      .filter(({ v }) => v.top + v.height > 0 && v.top < height)
      .map(({ r, v }) => ({ entry: r, pos: v.top, size: v.height, current: !!cursor && cursor[1] < r.end && r.start < cursor[1] + cursor[3] }));
    update(this.columns, 'col', cols);
    update(this.rows, 'row', rows);
  }
}

/**
 * Brings a strip's header cells to `wanted`, keeping the element of each label (a header under the pointer or in a
 * test's hands stays the same element while the strip scrolls).
 */
function update(strip: HTMLElement, kind: 'col' | 'row', wanted: Array<{ entry: HeaderEntry; pos: number; size: number; current: boolean }>): void {
  const existing = new Map<string, HTMLElement>();
  for (const el of strip.children as HTMLCollectionOf<HTMLElement>) existing.set(el.dataset.header!, el);
  const keep = new Set<HTMLElement>();
  for (const w of wanted) {
    const el = existing.get(w.entry.text) ?? strip.appendChild(cell(kind, w.entry));
    keep.add(el);
    el.classList.toggle('ode-current', w.current);
    if (kind === 'col') el.style.cssText = `left:${w.pos}px;width:${w.size}px`;
    else el.style.cssText = `top:${w.pos}px;height:${w.size}px`;
  }
  for (const el of existing.values()) if (!keep.has(el)) el.remove();
  // Document order = visual order (screen readers, Tab order of the cells' strip).
  const ordered = wanted.map((w) => w.entry.text);
  if ([...strip.children].some((el, i) => (el as HTMLElement).dataset.header !== ordered[i])) {
    const byText = new Map([...(strip.children as HTMLCollectionOf<HTMLElement>)].map((el) => [el.dataset.header!, el]));
    strip.append(...ordered.map((text) => byText.get(text)!));
  }
}

function cell(kind: 'col' | 'row', entry: HeaderEntry): HTMLDivElement {
  const el = Object.assign(document.createElement('div'), { className: 'ode-calc-header', textContent: entry.text });
  el.dataset.header = entry.text;
  el.tabIndex = -1; // the focus comes back here when its context menu closes
  el.setAttribute('role', 'button');
  el.setAttribute('aria-label', t(kind === 'col' ? 'calc.selectColumn' : 'calc.selectRow', { name: entry.text }));
  return el;
}
