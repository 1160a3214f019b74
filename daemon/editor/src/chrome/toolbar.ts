/**
 * The toolbar (WAI-ARIA toolbar pattern: role=toolbar, one control in the tab order, Left/Right/Home/End move):
 * buttons built from command ids (hidden commands are left out, disabled ones aria-disabled, toggles aria-pressed
 * from their UNO state) and the value controls: paragraph style (`.uno:StyleApply` values), font name
 * (`.uno:CharFontName` values) and size, zoom. Controls reflect the UNO states of the cursor position.
 */
import type { App } from '../core/app.ts';
import { registerMessages, t } from '../core/i18n.ts';
import { commandChecked, onCommandsChanged } from './command-state.ts';
import type { DocType } from './commands.ts';
import { el, rove, stateText } from './dom.ts';
import { icon } from './icons.ts';
import { markLocked } from './locked.ts';

type Entry = string | '|' | 'style' | 'fontName' | 'fontSize' | 'zoom';

/** The toolbar's layout per document type. */
function layout(docType: DocType): Entry[] {
  const common: Entry[] = ['file.save', 'edit.undo', 'edit.redo', '|'];
  const chars: Entry[] = [
    'fontName',
    'fontSize',
    'format.bold',
    'format.italic',
    'format.underline',
    'format.strikethrough',
    'format.fontColor',
    'format.highlightColor',
    '|',
  ];
  const align: Entry[] = ['format.alignLeft', 'format.alignCenter', 'format.alignRight', 'format.justify'];
  const lists: Entry[] = ['format.bulletList', 'format.numberedList', '|'];
  const inserts: Entry[] = ['insert.image', 'insert.table', 'insert.link', 'insert.comment', '|', 'zoom'];
  switch (docType) {
    case 'text':
      return [...common, 'style', ...chars, ...align, ...lists, ...inserts];
    case 'spreadsheet':
      return [
        ...common,
        'style',
        ...chars,
        ...align,
        'format.mergeCells',
        '|',
        'format.numberStandard',
        'format.numberCurrency',
        'format.numberPercent',
        'insert.autoSum',
        '|',
        ...inserts.filter((e) => e !== 'insert.table'), // a sheet is a table already
      ];
    default:
      return [...common, 'slide.new', '|', ...chars, ...align, ...lists, ...inserts];
  }
}

const ICONS: Record<string, string> = {
  'file.save': 'save',
  'edit.undo': 'undo',
  'edit.redo': 'redo',
  'format.bold': 'bold',
  'format.italic': 'italic',
  'format.underline': 'underline',
  'format.strikethrough': 'strikethrough',
  'format.fontColor': 'fontColor',
  'format.highlightColor': 'highlight',
  'format.alignLeft': 'alignLeft',
  'format.alignCenter': 'alignCenter',
  'format.alignRight': 'alignRight',
  'format.justify': 'justify',
  'format.bulletList': 'bulletList',
  'format.numberedList': 'numberedList',
  'insert.image': 'image',
  'insert.table': 'table',
  'insert.link': 'link',
  'insert.comment': 'comment',
  'format.mergeCells': 'merge',
  'format.numberStandard': 'number',
  'format.numberCurrency': 'currency',
  'format.numberPercent': 'percent',
  'insert.autoSum': 'sum',
  'slide.new': 'slide',
};
const FONT_SIZES = [6, 7, 8, 9, 10, 10.5, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 26, 28, 32, 36, 40, 44, 48, 54, 60, 66, 72, 80, 88, 96];
const ZOOMS = [50, 75, 100, 125, 150, 200, 300];

registerMessages({
  en: { 'toolbar.cellStyle': 'Cell style', 'toolbar.commonStyles': 'Common styles', 'toolbar.allStyles': 'All styles' },
  fr: { 'toolbar.cellStyle': 'Style de cellule', 'toolbar.commonStyles': 'Styles courants', 'toolbar.allStyles': 'Tous les styles' },
  de: { 'toolbar.cellStyle': 'Zellvorlage', 'toolbar.commonStyles': 'Häufige Vorlagen', 'toolbar.allStyles': 'Alle Vorlagen' },
});

/**
 * How many of LibreOffice's paragraph styles come first in a text document's `.uno:StyleApply` values: LOK's list
 * of common styles (desktop/source/lib/init.cxx getStyles: Text body, Quotations, Title, Subtitle, Heading 1-3),
 * which Collabora Online shows above the others (its TopToolbar, `ParagraphStyles.slice(0, 7)`).
 */
const COMMON_PARAGRAPH_STYLES = 7;

/**
 * The style list as groups (issue 23: 128 unsorted paragraph styles): the common styles first (text: the first
 * `COMMON_PARAGRAPH_STYLES` LibreOffice sends, with the default style; spreadsheets: "Default"), then every other
 * style sorted by name in the user's language. `names` is the family's list from `.uno:StyleApply`'s values.
 */
export function styleGroups(names: readonly string[], docType: DocType, locale?: string): { common: string[]; others: string[] } {
  const unique = [...new Set(names)];
  const defaults = ['Standard', 'Default Paragraph Style', 'Default'];
  const common = docType === 'text' ? unique.slice(0, COMMON_PARAGRAPH_STYLES) : [];
  for (const d of defaults) if (unique.includes(d) && !common.includes(d)) common.unshift(d);
  const others = unique.filter((n) => !common.includes(n)).sort((a, b) => a.localeCompare(b, locale, { sensitivity: 'base', numeric: true }));
  return { common, others };
}

/** The spreadsheet style box's placeholder (value ''): shown, never offered in the list. */
function cellStylePlaceholder(): HTMLOptionElement {
  return el('option', { value: '', disabled: true, hidden: true }, {}, t('toolbar.cellStyle'));
}

/**
 * Shows `value` in `select` unless the user is choosing, adding an option (labelled `label`, default the value)
 * when it has none. Names compare without case: LibreOffice's state may spell a style otherwise than its list
 * ("Text Body" / "Text body", as Collabora notes).
 */
function showValue(select: HTMLSelectElement, value: string, label = value): void {
  if (!value || document.activeElement === select) return;
  const option = [...select.options].find((o) => o.value === value) ?? [...select.options].find((o) => o.value.toLowerCase() === value.toLowerCase());
  if (option) select.value = option.value;
  else {
    select.append(el('option', { value }, {}, label));
    select.value = value;
  }
}

export class Toolbar {
  readonly element: HTMLElement;
  private readonly buttons = new Map<string, HTMLButtonElement>();
  readonly controls: Partial<Record<'style' | 'fontName' | 'fontSize' | 'zoom', HTMLSelectElement>> = {};
  private current = 0;

  constructor(
    private readonly app: App,
    private readonly docType: DocType,
    host: HTMLElement,
  ) {
    this.element = host;
    host.setAttribute('role', 'toolbar');
    host.setAttribute('aria-label', t('toolbar.label'));
    host.classList.add('ode-toolbar');
    const group = el('div', { className: 'ode-toolbar-items' });
    for (const entry of layout(docType)) {
      if (entry === '|') group.append(el('span', { className: 'ode-tb-sep' }, { role: 'separator', 'aria-orientation': 'vertical' }));
      else if (entry === 'style' || entry === 'fontName' || entry === 'fontSize' || entry === 'zoom') group.append(this.select(entry));
      else group.append(this.button(entry));
    }
    host.prepend(group);
    host.addEventListener('keydown', (e) => this.onKey(e));
    host.addEventListener('focusin', (e) => {
      const i = this.items().indexOf(e.target as HTMLElement);
      if (i >= 0) this.current = rove(this.items(), i, false);
    });
    onCommandsChanged(app, () => this.refresh());
    app.session.on('stateChanged', (m) => this.reflect(m.command, stateText(m.value)));
    // States that came before the toolbar (it is built on the first status).
    for (const [command, value] of app.session.state.states) this.reflect(command, stateText(value));
    // The lists wait for the first painted tiles (listing the fonts keeps the kit busy) or the user.
    app.events.once('documentLoaded', () => void this.loadValues());
    for (const s of [this.controls.fontName, this.controls.style]) s?.addEventListener('focus', () => void this.loadValues(), { once: true });
  }

  /** The toolbar button of command `id`, if shown. */
  buttonOf(id: string): HTMLButtonElement | undefined {
    const b = this.buttons.get(id);
    return b && !b.hidden ? b : undefined;
  }

  /** Focuses the toolbar (its current control). */
  focus(): void {
    const items = this.items();
    if (items.length) this.current = rove(items, Math.min(this.current, items.length - 1));
  }

  private items(): HTMLElement[] {
    return [...this.element.querySelectorAll<HTMLElement>('.ode-toolbar-items > button, .ode-toolbar-items > select')].filter((x) => !x.hidden);
  }

  private button(id: string): HTMLButtonElement {
    const b = el('button', { type: 'button', className: 'ode-button ode-tb-button', tabIndex: -1 }, { 'data-command': id });
    this.buttons.set(id, b);
    b.addEventListener('mousedown', (e) => e.preventDefault()); // the caret keeps the focus
    b.addEventListener('click', () => {
      if (b.getAttribute('aria-disabled') === 'true' && !this.app.commands.isLocked(id)) return;
      this.app.commands.run(id);
    });
    this.updateButton(b);
    return b;
  }

  private updateButton(b: HTMLButtonElement): void {
    const id = b.dataset.command!;
    const c = this.app.commands.get(id);
    b.hidden = this.app.commands.isHidden(id);
    if (!c) return;
    const label = t(c.label).replace(/…$/, '');
    if (b.getAttribute('aria-label') !== label) {
      b.setAttribute('aria-label', label);
      b.title = c.shortcut ? `${label} (${c.shortcut})` : label;
      b.replaceChildren(icon(c.icon ?? ICONS[id], label.slice(0, 2)));
      if (c.shortcut) b.setAttribute('aria-keyshortcuts', c.shortcut.replace(/Ctrl/g, 'Control'));
    }
    const checked = commandChecked(this.app, id);
    if (checked === undefined) b.removeAttribute('aria-pressed');
    else b.setAttribute('aria-pressed', String(checked));
    if (this.app.commands.isEnabled(id)) b.removeAttribute('aria-disabled');
    else b.setAttribute('aria-disabled', 'true');
    markLocked(b, this.app.commands.isLocked(id));
  }

  private select(kind: 'style' | 'fontName' | 'fontSize' | 'zoom'): HTMLSelectElement {
    // The style box lists cell styles in a spreadsheet (issue 23: it was labelled "Paragraph style" there).
    const styleLabel = this.docType === 'spreadsheet' ? 'toolbar.cellStyle' : 'toolbar.style';
    const label = { style: styleLabel, fontName: 'toolbar.fontName', fontSize: 'toolbar.fontSize', zoom: 'toolbar.zoom' }[kind];
    const s = el('select', { className: `ode-select ode-tb-${kind}`, tabIndex: -1, title: t(label) }, { 'aria-label': t(label) });
    this.controls[kind] = s;
    if (kind === 'fontSize') {
      s.append(...FONT_SIZES.map((n) => el('option', { value: String(n) }, {}, String(n))));
      s.selectedIndex = -1; // blank until LibreOffice says (a state comes when the cursor moves)
    }
    if (kind === 'zoom') {
      s.append(...ZOOMS.map((z) => el('option', { value: String(z / 100), selected: z === 100 }, {}, `${z} %`)));
      s.addEventListener('change', () => this.app.view.setZoom(Number(s.value)));
      // A zoom not in the list (a fitted slide: 0.82) is shown as a percentage too.
      queueMicrotask(() =>
        this.app.view?.onViewportChange(() => showValue(s, String(Math.round(this.app.view.zoom * 100) / 100), `${Math.round(this.app.view.zoom * 100)} %`)),
      );
      return s;
    }
    const command = { style: 'format.paragraphStyle', fontName: 'format.fontName', fontSize: 'format.fontSize' }[kind];
    s.dataset.command = command;
    if (kind === 'style' && this.docType === 'spreadsheet') {
      // LibreOffice 25.2 sends no `.uno:StyleApply` state in spreadsheets (measured: "" at load, nothing as the cell
      // cursor moves), so the box cannot show the cell's style: it shows its label as a placeholder once the cursor
      // moves, and applies the style chosen (Collabora Online has no cell style box at all).
      s.append(cellStylePlaceholder());
      s.value = '';
      this.app.session.on('cellAddress', () => {
        if (document.activeElement !== s) s.value = '';
      });
    }
    // A closed select changes with the arrow keys: a keyboard user keeps the focus to go on choosing; a choice
    // made with the pointer sends the focus back to the document.
    let byKeyboard = false;
    s.addEventListener('keydown', () => (byKeyboard = true));
    s.addEventListener('mousedown', () => (byKeyboard = false));
    s.addEventListener('change', () => {
      this.app.commands.run(command, s.value);
      if (!byKeyboard) this.app.view.focus();
    });
    s.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.app.view.focus();
    });
    return s;
  }

  private valuesLoaded = false;

  /** Fills the style and font lists from LibreOffice's command values (once). */
  private async loadValues(): Promise<void> {
    if (this.valuesLoaded) return;
    this.valuesLoaded = true;
    const { session } = this.app;
    const values = async (command: string): Promise<Record<string, unknown>> => {
      const m = await session.request({ type: 'commandValues', command }, 'commandValues', (x) => x.command === command);
      const v = m.value as { commandValues?: Record<string, unknown> } | null;
      return (v?.commandValues ?? v ?? {}) as Record<string, unknown>;
    };
    try {
      const fonts = this.controls.fontName;
      if (fonts) {
        const names = Object.keys(await values('.uno:CharFontName')).sort((a, b) => a.localeCompare(b));
        const current = fonts.value;
        fonts.replaceChildren(...names.map((n) => el('option', { value: n }, {}, n)));
        fonts.selectedIndex = -1;
        showValue(fonts, stateText(session.state.states.get('.uno:CharFontName')) || current);
      }
      const styles = this.controls.style;
      if (styles) {
        const family = this.docType === 'spreadsheet' ? 'CellStyles' : 'ParagraphStyles';
        const list = (await values('.uno:StyleApply'))[family];
        if (Array.isArray(list)) {
          const current = styles.value;
          const { common, others } = styleGroups(
            list.filter((n): n is string => typeof n === 'string'),
            this.docType,
            document.documentElement.lang || undefined,
          );
          const options = (names: string[]) => names.map((n) => el('option', { value: n }, {}, n));
          styles.replaceChildren(
            ...(this.docType === 'spreadsheet' ? [cellStylePlaceholder()] : []),
            ...(common.length
              ? [
                  el('optgroup', { label: t('toolbar.commonStyles') }, {}, ...options(common)),
                  el('optgroup', { label: t('toolbar.allStyles') }, {}, ...options(others)),
                ]
              : options(others)),
          );
          styles.selectedIndex = -1;
          if (this.docType === 'spreadsheet') styles.value = '';
          showValue(styles, stateText(session.state.states.get('.uno:StyleApply')) || current);
        }
      }
    } catch (e) {
      console.warn('[ode] toolbar values', e);
    }
  }

  /** Shows a UNO state in its control. */
  private reflect(command: string, value: string): void {
    if (command === '.uno:CharFontName' && this.controls.fontName) showValue(this.controls.fontName, value);
    else if (command === '.uno:FontHeight' && this.controls.fontSize) {
      const n = parseFloat(value);
      if (Number.isFinite(n) && n > 0) showValue(this.controls.fontSize, String(n));
    } else if (command === '.uno:StyleApply' && this.controls.style) showValue(this.controls.style, value);
  }

  private refresh(): void {
    for (const b of this.buttons.values()) this.updateButton(b);
    for (const s of Object.values(this.controls)) {
      const id = s.dataset.command;
      if (!id) continue;
      s.hidden = this.app.commands.isHidden(id);
      s.disabled = !this.app.commands.isEnabled(id);
    }
    // Separators: none first, last or twice in a row.
    let previousShown: 'item' | 'sep' | undefined;
    let lastSep: HTMLElement | undefined;
    for (const child of this.element.querySelectorAll<HTMLElement>('.ode-toolbar-items > *')) {
      if (child.classList.contains('ode-tb-sep')) {
        child.hidden = previousShown !== 'item';
        if (!child.hidden) (previousShown = 'sep'), (lastSep = child);
      } else if (!child.hidden) previousShown = 'item';
    }
    if (previousShown === 'sep' && lastSep) lastSep.hidden = true;
    const items = this.items();
    if (items.length && !items.some((x) => x.tabIndex === 0)) this.current = rove(items, 0, false);
  }

  private onKey(e: KeyboardEvent): void {
    const items = this.items();
    const i = items.indexOf(e.target as HTMLElement);
    if (i < 0) return;
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: items.length - 1 }[e.key];
    if (next === undefined) {
      if (e.key === 'Escape') this.app.view.focus();
      return;
    }
    e.preventDefault();
    this.current = rove(items, next);
  }
}
