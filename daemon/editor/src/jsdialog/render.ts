/**
 * HTML for the widgets of a JSDialog (docs/editing.md, "Dialogs"): every widget type Format > Paragraph,
 * Character and Cells use as native, labelled form controls (a fixed text with `labelFor` is a `<label for>`, a
 * field with `labelledBy` names its label), frames as fieldsets, tab controls as WAI-ARIA tabs, LibreOffice's
 * previews as images. Each control sends its `dialogEvent` when the user commits a change (Collabora's event
 * names and widget types, as LibreOffice's vcl/jsdialog executor takes them). Types it does not know are shown as
 * their children, or not at all when they have none.
 */
import type { DialogEvent } from '../../../protocol/editor.ts';
import { clickEvent, findWidget, mnemonic, RESPONSE, responseOf, spinValue, SPIN_TYPES, type JsDialogTree, type JsWidget } from './model.ts';

/** What the renderer needs from its dialog. */
export interface RenderContext {
  readonly windowId: number;
  readonly dialog: JsDialogTree;
  /** Sends one event of this dialog's widgets. */
  send(event: DialogEvent): void;
  /** Element ids already used in this dialog (widget ids repeat across tab pages; the first keeps the id). */
  readonly usedIds: Set<string>;
  /** The tab page index to show for a tab control id (kept across rebuilds); set when the user picks a tab. */
  readonly tabs: Map<string, number>;
  /**
   * Runs a tool item's UNO command (`.uno:Bold`) as a command of the view, as Collabora Online does for the sidebar's
   * tool items; without it (dialogs) a tool item's click goes to the toolbox as a `dialogEvent`.
   */
  readonly uno?: (command: string) => void;
}

/** Types that are drawn by their parent or not at all (scroll bars, a list box's inner parts). */
const SKIPPED = new Set(['scrollbar', 'scrollbarbox', 'control']);

/** The DOM id of widget `id` of window `windowId`. */
export function domId(windowId: number, id: string): string {
  return `ode-jsd-${windowId}-${id.replace(/[^\w-]/g, '_')}`;
}

const aria = (w: JsWidget): { label?: string; description?: string } =>
  typeof w.aria === 'object' && w.aria !== null ? (w.aria as { label?: string; description?: string }) : {};
const textOf = (w: JsWidget) => mnemonic(typeof w.text === 'string' ? w.text : '').label;
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined;

/** The text of the fixed text that labels `w` in the tree (its `labelledBy`, or one whose `labelFor` is `w`), if any. */
function labelText(ctx: RenderContext, w: JsWidget): string {
  let label = typeof w.labelledBy === 'string' && w.labelledBy !== '' ? findWidget(ctx.dialog, w.labelledBy) : undefined;
  if (!label && w.id !== '') label = findLabelFor(ctx.dialog, w.id);
  return label ? textOf(label) || aria(label).label || '' : '';
}

/** The first fixed text of `tree` whose `labelFor` is `id`. */
function findLabelFor(tree: JsWidget, id: string): JsWidget | undefined {
  if (tree.type === 'fixedtext' && tree.labelFor === id) return tree;
  for (const c of tree.children ?? []) {
    const found = findLabelFor(c, id);
    if (found) return found;
  }
  return undefined;
}

/** Gives `control` widget `w`'s DOM id if free, its label (labelledBy) and disabled state. */
function identify(ctx: RenderContext, w: JsWidget, control: HTMLElement): void {
  if (w.id !== '') {
    const id = domId(ctx.windowId, w.id);
    if (!ctx.usedIds.has(id)) {
      ctx.usedIds.add(id);
      control.id = id;
    }
  }
  if (typeof w.labelledBy === 'string' && w.labelledBy !== '') control.setAttribute('aria-labelledby', domId(ctx.windowId, w.labelledBy));
  else if (aria(w).label && !(control instanceof HTMLButtonElement)) control.setAttribute('aria-label', aria(w).label!);
  // What nameControls falls back on when the label above is not rendered as one: the label's text from the tree,
  // LibreOffice's accessible name or tooltip of the field.
  const label = labelText(ctx, w);
  if (label) control.dataset.jsdLabel = label;
  const name = aria(w).label || (typeof w.tooltip === 'string' ? mnemonic(w.tooltip).label : '');
  if (name) control.dataset.jsdName = name;
  if (aria(w).description) control.title = aria(w).description!;
  if (w.enabled === false && 'disabled' in control) (control as HTMLInputElement).disabled = true;
}

/** The root element of one widget: marks its widget id and type for updates and actions. */
function root<T extends HTMLElement>(e: T, w: JsWidget): T {
  e.dataset.jsdId = w.id;
  e.dataset.jsdType = w.type;
  if (w.visible === false) e.hidden = true;
  return e;
}

/** Places a child of a grid in its cell (`left`, `top`, `width` in cells). */
function place(e: HTMLElement, w: JsWidget): void {
  const left = num(w.left);
  const top = num(w.top);
  const span = num(w.width);
  if (left !== undefined) e.style.gridColumn = `${left + 1} / span ${span && span > 0 ? span : 1}`;
  if (top !== undefined) e.style.gridRow = String(top + 1);
}

/** Renders `w`'s children into `into` (grid children placed in their cells). */
function children(w: JsWidget, ctx: RenderContext, into: HTMLElement, grid = false): void {
  for (const c of w.children ?? []) {
    const e = renderWidget(c, ctx);
    if (!e) continue;
    if (grid) place(e, c);
    into.append(e);
  }
}

/** A field that sends its text when the user commits it (blur, Enter): `dirty` while typed and not yet sent. */
function committed(input: HTMLInputElement, send: () => void): void {
  input.addEventListener('input', () => (input.dataset.dirty = '1'));
  input.addEventListener('change', () => {
    delete input.dataset.dirty;
    send();
  });
}

function spinField(w: JsWidget, ctx: RenderContext): HTMLElement {
  const input = document.createElement('input');
  input.type = 'text';
  input.className = 'ode-field ode-jsd-spin';
  input.value = typeof w.text === 'string' ? w.text : '';
  input.setAttribute('role', 'spinbutton');
  input.inputMode = 'decimal';
  const [min, max, value, step] = [num(w.min), num(w.max), num(w.value), num(w.step) ?? 1];
  if (min !== undefined) input.setAttribute('aria-valuemin', String(min));
  if (max !== undefined) input.setAttribute('aria-valuemax', String(max));
  if (value !== undefined) input.setAttribute('aria-valuenow', String(value));
  input.setAttribute('aria-valuetext', input.value);
  identify(ctx, w, input);
  const send = (data: string | undefined) => data !== undefined && ctx.send({ id: w.id, cmd: 'change', data, type: 'spinfield' });
  committed(input, () => send(spinValue(input.value)));
  input.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
    e.preventDefault();
    const now = Number(spinValue(input.value) ?? value ?? 0);
    let next = Math.round((now + (e.key === 'ArrowUp' ? step : -step)) * 1e6) / 1e6;
    if (min !== undefined) next = Math.max(min, next);
    if (max !== undefined) next = Math.min(max, next);
    input.value = String(next);
    delete input.dataset.dirty;
    send(String(next));
  });
  return root(wrap(input), w);
}

function edit(w: JsWidget, ctx: RenderContext): HTMLElement {
  const input = document.createElement('input');
  input.type = 'text';
  input.className = 'ode-field';
  input.value = typeof w.text === 'string' ? w.text : '';
  identify(ctx, w, input);
  committed(input, () => ctx.send({ id: w.id, cmd: 'change', data: input.value, type: 'edit' }));
  return root(wrap(input), w);
}

const entriesOf = (w: JsWidget): string[] =>
  Array.isArray(w.entries)
    ? w.entries.map((e) => (typeof e === 'string' ? e : typeof e === 'object' && e !== null && 'text' in e ? String((e as { text: unknown }).text) : String(e)))
    : [];
const selectedOf = (w: JsWidget): number => {
  const s = Array.isArray(w.selectedEntries) ? Number(w.selectedEntries[0]) : NaN;
  return Number.isInteger(s) ? s : -1;
};

/**
 * A multi-line text (`multilineedit`): LibreOffice's message boxes carry their text in read-only ones (`cursor:
 * false`: "Write-protected content cannot be changed."), shown as a paragraph; an editable one is a text area that
 * sends its text as `change` (executor.cxx: type `edit`, a JSTextView).
 */
function multilineEdit(w: JsWidget, ctx: RenderContext): HTMLElement {
  const text = typeof w.text === 'string' ? w.text : '';
  if (w.cursor === false) {
    const p = document.createElement('p');
    p.className = 'ode-jsd-message';
    p.textContent = text;
    return root(p, w);
  }
  const area = document.createElement('textarea');
  area.className = 'ode-field';
  area.value = text;
  identify(ctx, w, area);
  area.addEventListener('change', () => ctx.send({ id: w.id, cmd: 'change', data: area.value, type: 'edit' }));
  return root(wrap(area), w);
}

function listBox(w: JsWidget, ctx: RenderContext): HTMLElement {
  const entries = entriesOf(w);
  if (w.type === 'combobox' && typeof w.text === 'string') {
    // An editable combo box: a text field with the entries as suggestions.
    const input = document.createElement('input');
    input.type = 'text';
    input.className = 'ode-field';
    input.value = w.text;
    const list = document.createElement('datalist');
    list.id = `${domId(ctx.windowId, w.id)}-entries-${ctx.usedIds.size}`;
    for (const e of entries) list.append(new Option(e));
    input.setAttribute('list', list.id);
    identify(ctx, w, input);
    committed(input, () => {
      const i = entries.indexOf(input.value);
      ctx.send(
        i >= 0
          ? { id: w.id, cmd: 'selected', data: `${i};${input.value}`, type: 'combobox' }
          : { id: w.id, cmd: 'change', data: input.value, type: 'combobox' },
      );
    });
    return root(wrap(input, list), w);
  }
  const select = document.createElement('select');
  select.className = 'ode-select';
  entries.forEach((e, i) => select.append(new Option(e, String(i))));
  select.selectedIndex = selectedOf(w);
  identify(ctx, w, select);
  select.addEventListener('change', () => {
    const i = select.selectedIndex;
    if (i >= 0) ctx.send({ id: w.id, cmd: 'selected', data: `${i};${entries[i]}`, type: 'combobox' });
  });
  return root(wrap(select), w);
}

function toggle(w: JsWidget, ctx: RenderContext, kind: 'checkbox' | 'radio'): HTMLElement {
  const input = document.createElement('input');
  input.type = kind;
  input.checked = w.checked === true || w.checked === 'true';
  if (kind === 'radio') input.name = domId(ctx.windowId, typeof w.group === 'string' ? w.group : 'radio');
  identify(ctx, w, input);
  input.removeAttribute('aria-label');
  input.addEventListener('change', () => {
    if (kind === 'radio' && !input.checked) return;
    ctx.send({ id: w.id, cmd: 'change', data: input.checked ? 'true' : 'false', type: kind === 'radio' ? 'radiobutton' : 'checkbox' });
  });
  const label = document.createElement('label');
  label.className = 'ode-jsd-toggle';
  label.append(input, textOf(w) || aria(w).label || '');
  return root(label, w);
}

function button(w: JsWidget, ctx: RenderContext): HTMLElement | undefined {
  // A list box's own drop-down arrow, and Help (LibreOffice's help is not served here).
  if (!textOf(w) && !aria(w).label && typeof w.symbol === 'string') return undefined;
  if (responseOf(ctx.dialog, w.id) === RESPONSE.help || w.id === 'help') return undefined;
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'ode-button';
  const tip = typeof w.tooltip === 'string' ? mnemonic(w.tooltip).label : '';
  const name = textOf(w) || aria(w).label || tip || w.id;
  if (typeof w.image === 'string' && w.image.startsWith('data:image/')) {
    // A picture button (the styles of a popup such as underline or line spacing): the picture, named by its text.
    const img = document.createElement('img');
    img.src = w.image;
    img.alt = '';
    b.append(img);
    if (textOf(w)) b.append(textOf(w));
    else b.setAttribute('aria-label', name);
    b.classList.add('ode-jsd-picture');
  } else b.textContent = name;
  if (tip) b.title = tip;
  if (responseOf(ctx.dialog, w.id) === RESPONSE.ok || w.has_default === true || w.is_default === true) b.classList.add('ode-primary');
  identify(ctx, w, b);
  if (w.type === 'menubutton') {
    // Its menu would come as a JSDialog popup, which is not rendered yet: shown, but not offered.
    b.disabled = true;
  } else b.addEventListener('click', () => ctx.send(clickEvent(ctx.dialog, w.id)));
  return root(b, w);
}

function fixedText(w: JsWidget, ctx: RenderContext): HTMLElement {
  const { label } = mnemonic(typeof w.text === 'string' ? w.text : '');
  const e = typeof w.labelFor === 'string' && w.labelFor !== '' ? document.createElement('label') : document.createElement('span');
  if (e instanceof HTMLLabelElement) e.htmlFor = domId(ctx.windowId, w.labelFor as string);
  e.className = 'ode-jsd-text';
  e.textContent = label;
  if (w.id !== '') {
    const id = domId(ctx.windowId, w.id);
    if (!ctx.usedIds.has(id)) {
      ctx.usedIds.add(id);
      e.id = id;
    }
  }
  if (w.enabled === false) e.classList.add('ode-jsd-disabled');
  return root(e, w);
}

function frame(w: JsWidget, ctx: RenderContext): HTMLElement {
  const set = document.createElement('fieldset');
  set.className = 'ode-jsd-frame';
  const kids = [...(w.children ?? [])];
  // The frame's title is its first child, a fixed text (LibreOffice's frame label), or its accessible name.
  const title = kids[0]?.type === 'fixedtext' ? kids.shift()! : undefined;
  const legendText = title ? mnemonic(typeof title.text === 'string' ? title.text : '').label : (aria(w).label ?? textOf(w));
  if (legendText) {
    const legend = document.createElement('legend');
    legend.textContent = legendText;
    if (title?.visible === false) legend.hidden = true;
    // The title keeps its widget's DOM id: a field `labelledBy` it (Format cells' Format code, Language) names itself by it.
    const id = title && title.id !== '' ? domId(ctx.windowId, title.id) : undefined;
    if (id && !ctx.usedIds.has(id)) {
      ctx.usedIds.add(id);
      legend.id = id;
    }
    set.append(legend);
  }
  children({ ...w, children: kids }, ctx, set);
  return root(set, w);
}

function tabControl(w: JsWidget, ctx: RenderContext): HTMLElement {
  const box = document.createElement('div');
  box.className = 'ode-jsd-tabs';
  const list = document.createElement('div');
  list.className = 'ode-jsd-tablist';
  list.setAttribute('role', 'tablist');
  const pages = (w.children ?? []).filter((c) => c.type === 'tabpage');
  const tabs = Array.isArray(w.tabs)
    ? (w.tabs as Array<{ text?: string; id?: number; name?: string }>)
    : pages.map((p, i) => ({ text: p.text ?? String(i + 1), id: i + 1 }));
  // `selected` is the tab's `id` (1-based); the page index goes back with `selecttab`.
  let current = ctx.tabs.get(w.id) ?? tabs.findIndex((t) => t.id === num(w.selected));
  if (current < 0 || current >= pages.length)
    current = Math.max(
      0,
      pages.findIndex((p) => p.visible !== false),
    );
  const tabButtons: HTMLButtonElement[] = [];
  const panels: HTMLElement[] = [];
  const base = domId(ctx.windowId, w.id || 'tabs');
  const show = (i: number, focus: boolean) => {
    current = i;
    ctx.tabs.set(w.id, i);
    tabButtons.forEach((b, j) => {
      b.setAttribute('aria-selected', String(j === i));
      b.tabIndex = j === i ? 0 : -1;
    });
    panels.forEach((p, j) => (p.hidden = j !== i));
    if (focus) tabButtons[i]?.focus();
  };
  tabs.forEach((t, i) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'ode-jsd-tab';
    b.setAttribute('role', 'tab');
    b.id = `${base}-tab-${i}`;
    b.setAttribute('aria-controls', `${base}-panel-${i}`);
    b.textContent = mnemonic(t.text ?? '').label;
    b.addEventListener('click', () => {
      if (i === current) return;
      show(i, false);
      ctx.send({ id: w.id, cmd: 'selecttab', data: String(i), type: 'tabcontrol' });
    });
    tabButtons.push(b);
    list.append(b);
  });
  list.addEventListener('keydown', (e) => {
    const n = tabButtons.length;
    const to = e.key === 'ArrowRight' ? (current + 1) % n : e.key === 'ArrowLeft' ? (current - 1 + n) % n : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : -1;
    if (to < 0 || n === 0) return;
    e.preventDefault();
    tabButtons[to].click();
    tabButtons[to].focus();
  });
  box.append(list);
  pages.forEach((p, i) => {
    const panel = document.createElement('div');
    panel.className = 'ode-jsd-panel';
    panel.setAttribute('role', 'tabpanel');
    panel.id = `${base}-panel-${i}`;
    panel.setAttribute('aria-labelledby', `${base}-tab-${i}`);
    children(p, ctx, panel);
    panels.push(panel);
    box.append(panel);
  });
  show(current, false);
  return root(box, w);
}

function drawingArea(w: JsWidget): HTMLElement {
  const label = aria(w).label ?? '';
  if (typeof w.image === 'string' && w.image.startsWith('data:image/')) {
    const img = document.createElement('img');
    img.className = 'ode-jsd-image';
    img.src = w.image;
    img.alt = label;
    const [width, height] = [num(w.imagewidth), num(w.imageheight)];
    if (width) img.width = width;
    if (height) img.height = height;
    return root(img, w);
  }
  const e = document.createElement('div');
  if (label) e.setAttribute('aria-label', label);
  return root(e, w);
}

function expander(w: JsWidget, ctx: RenderContext): HTMLElement {
  const details = document.createElement('details');
  details.className = 'ode-jsd-expander';
  details.open = w.expanded === true;
  const kids = [...(w.children ?? [])];
  const head = kids[0]?.type === 'fixedtext' ? kids.shift()! : undefined;
  const summary = document.createElement('summary');
  summary.textContent = head ? textOf(head) : textOf(w);
  details.append(summary);
  children({ ...w, children: kids }, ctx, details);
  details.addEventListener('toggle', () => ctx.send({ id: w.id, cmd: 'toggle', type: 'expander' }));
  return root(details, w);
}

/**
 * A toolbox (the sidebar's rows of buttons: bold, italic, alignment...): role=toolbar with one button per tool
 * item, pressed when LibreOffice says `selected`; a click runs the item's UNO command when the context can
 * (`ctx.uno`: the sidebar, as Collabora Online's sidebar sends `.uno:Bold` itself), else sends `click` on the
 * toolbox with the item's id (its UNO command in the .ui files), as LibreOffice's executor takes it. A drop-down item (`dropdown`) sends
 * `togglemenu` instead: LibreOffice answers with its popup as a JSDialog (popup.ts).
 */
function toolbox(w: JsWidget, ctx: RenderContext): HTMLElement {
  const bar = document.createElement('div');
  bar.className = 'ode-jsd-toolbox';
  bar.setAttribute('role', 'toolbar');
  if (aria(w).label) bar.setAttribute('aria-label', aria(w).label!);
  const buttons: HTMLButtonElement[] = [];
  for (const item of w.children ?? []) {
    if (item.type !== 'toolitem' && item.type !== 'menubutton' && item.type !== 'pushbutton') {
      const e = renderWidget(item, ctx);
      if (e) bar.append(e);
      continue;
    }
    const ident = item.id !== '' ? item.id : typeof item.command === 'string' ? item.command : '';
    const label = textOf(item) || aria(item).label || (typeof item.command === 'string' ? item.command.replace(/^\.uno:/, '') : ident);
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'ode-jsd-toolitem';
    b.textContent = label;
    b.title = label;
    b.tabIndex = buttons.length === 0 ? 0 : -1;
    if (item.selected === true || item.selected === 'true') b.setAttribute('aria-pressed', 'true');
    else if (typeof item.command === 'string') b.setAttribute('aria-pressed', 'false');
    if (item.enabled === false) b.disabled = true;
    if (item.visible === false) b.hidden = true;
    b.dataset.jsdId = ident;
    b.dataset.jsdType = 'toolitem';
    if (item.type === 'menubutton') b.disabled = true;
    else if (item.dropdown === true) {
      // Its popup comes back as a JSDialog (popup.ts): `togglemenu` opens it, or closes it when it is open.
      b.setAttribute('aria-haspopup', 'dialog');
      b.setAttribute('aria-expanded', 'false');
      b.removeAttribute('aria-pressed');
      b.addEventListener('click', () => ctx.send({ id: w.id, cmd: 'togglemenu', data: ident, type: 'toolbox' }));
    } else if (ctx.uno && ident.startsWith('.uno:')) {
      const run = ctx.uno;
      b.addEventListener('click', () => run(ident));
    } else b.addEventListener('click', () => ctx.send({ id: w.id, cmd: 'click', data: ident, type: 'toolbox' }));
    buttons.push(b);
    bar.append(b);
  }
  bar.addEventListener('keydown', (e) => {
    const shown = buttons.filter((b) => !b.hidden && !b.disabled);
    const i = shown.indexOf(document.activeElement as HTMLButtonElement);
    const to = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? shown.length - 1 : -2;
    if (to === -2 || shown.length === 0) return;
    e.preventDefault();
    const next = shown[(to + shown.length) % shown.length];
    for (const b of buttons) b.tabIndex = b === next ? 0 : -1;
    next.focus();
  });
  return root(bar, w);
}

/**
 * A sidebar panel (Character, Paragraph, Slide Transition...): a disclosure whose summary is the panel's title,
 * open when LibreOffice says `expanded` (its default).
 */
function sidebarPanel(w: JsWidget, ctx: RenderContext): HTMLElement {
  const details = document.createElement('details');
  details.className = 'ode-jsd-sidepanel';
  details.open = w.expanded !== false;
  const summary = document.createElement('summary');
  summary.textContent = textOf(w) || aria(w).label || w.id;
  details.append(summary);
  children(w, ctx, details);
  if (w.hidden === true) details.hidden = true;
  return root(details, w);
}

/**
 * An icon view (the transitions of the Slide Transition deck, layouts...): a WAI-ARIA listbox of its entries
 * (image and text, the tooltip as title); choosing one (click, Enter, Space) sends `select` with its index, as
 * LibreOffice's executor takes it. Arrow keys move between entries.
 */
function iconView(w: JsWidget, ctx: RenderContext): HTMLElement {
  const list = document.createElement('div');
  list.className = 'ode-jsd-iconview';
  list.setAttribute('role', 'listbox');
  identify(ctx, w, list);
  if (!list.getAttribute('aria-label') && !list.getAttribute('aria-labelledby')) list.setAttribute('aria-label', aria(w).label ?? w.id);
  const entries = Array.isArray(w.entries) ? (w.entries as Array<Record<string, unknown>>) : [];
  const options: HTMLElement[] = [];
  const choose = (i: number) => {
    options.forEach((o, j) => {
      o.setAttribute('aria-selected', String(j === i));
      o.tabIndex = j === i ? 0 : -1;
    });
    ctx.send({ id: w.id, cmd: 'select', data: String(i), type: 'iconview' });
  };
  entries.forEach((entry, i) => {
    const option = document.createElement('div');
    option.className = 'ode-jsd-iconview-item';
    option.setAttribute('role', 'option');
    const text = typeof entry.text === 'string' ? entry.text : '';
    const tip = typeof entry.tooltip === 'string' ? entry.tooltip : '';
    const name = text || tip || String(i + 1);
    option.setAttribute('aria-label', name);
    option.title = tip || text;
    const selected = entry.selected === true || entry.selected === 'true';
    option.setAttribute('aria-selected', String(selected));
    option.tabIndex = selected ? 0 : -1;
    if (typeof entry.image === 'string' && entry.image.startsWith('data:image/')) {
      const img = document.createElement('img');
      img.src = entry.image;
      img.alt = '';
      option.append(img);
    }
    if (text) option.append(Object.assign(document.createElement('span'), { textContent: text }));
    option.addEventListener('click', () => choose(i));
    options.push(option);
    list.append(option);
  });
  if (options.length && !options.some((o) => o.tabIndex === 0)) options[0].tabIndex = 0;
  list.addEventListener('keydown', (e) => {
    const i = options.indexOf(document.activeElement as HTMLElement);
    if (i < 0) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      choose(i);
      return;
    }
    const to =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? i + 1
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? i - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? options.length - 1
              : -1;
    if (to < 0 || to >= options.length) return;
    e.preventDefault();
    options.forEach((o, j) => (o.tabIndex = j === to ? 0 : -1));
    options[to].focus();
  });
  return root(list, w);
}

/** The form controls nameControls looks at (the toggles are named by the label around them). */
const FIELDS = 'input, select, textarea';
/** The texts a field can be named by when LibreOffice gives it no label: fixed texts and frame titles. */
const TEXTS = '.ode-jsd-text, legend';

/** The element of id `id` under `root` (which may not be in the document yet). */
const byId = (root: HTMLElement, id: string): HTMLElement | null => root.querySelector<HTMLElement>(`#${CSS.escape(id)}`);

/**
 * Whether `c` has an accessible name by the means the renderer uses (WAI-ARIA 1.2 accessible name computation, the
 * parts that apply here): a non-empty aria-label, an aria-labelledby whose elements exist under `root` with text, a
 * `<label for>` or a wrapping `<label>` with text.
 */
function named(root: HTMLElement, c: HTMLElement): boolean {
  if (c.getAttribute('aria-label')?.trim()) return true;
  const by = c.getAttribute('aria-labelledby');
  if (by && by.split(/\s+/).some((id) => byId(root, id)?.textContent?.trim())) return true;
  if (c.closest('label')?.textContent?.trim()) return true;
  return c.id !== '' && [...root.querySelectorAll<HTMLLabelElement>('label[for]')].some((l) => l.htmlFor === c.id && l.textContent?.trim());
}

/**
 * Names the fields of a rendered JSDialog that LibreOffice left without a usable label, so that every field has an
 * accessible name (WCAG 4.1.2; axe's `label` and `select-name`). LibreOffice 25.2 describes some fields with no
 * label relation at all (Format > Paragraph's line spacing list and its value field, the Slide panel's master slide
 * list), or names a label that is not rendered as such (a frame title; an id repeated across tab pages). A field
 * that has no name is named, in this order, by: its `labelledBy` or `labelFor` label found in the tree
 * (`data-jsd-label`, set at rendering), its own accessible name or tooltip from LibreOffice (`data-jsd-name`), else
 * the text shown just before it (the nearest fixed text or frame title before it in its frame, tab page or sidebar
 * panel, in reading order, that labels no other field), which is what a sighted user reads as its label. Run after every (re)build of `root`.
 */
export function nameControls(root: HTMLElement): void {
  const texts = [...root.querySelectorAll<HTMLElement>(TEXTS)];
  for (const c of root.querySelectorAll<HTMLElement>(FIELDS)) {
    if (c instanceof HTMLInputElement && c.type === 'hidden') continue;
    if (named(root, c)) continue;
    c.removeAttribute('aria-labelledby');
    const given = c.dataset.jsdLabel || c.dataset.jsdName;
    if (given) {
      c.setAttribute('aria-label', given);
      continue;
    }
    // The nearest text before the field (document order) in its group (frame, tab page, sidebar panel) that is
    // shown and is not another field's label.
    const group = c.parentElement?.closest('fieldset, [role=tabpanel], .ode-jsd-sidepanel') ?? root;
    const before = texts
      .filter((t) => group.contains(t))
      .filter(
        (t) =>
          t.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING &&
          !t.closest('[hidden]') &&
          t.textContent?.trim() &&
          !(t instanceof HTMLLabelElement && t.htmlFor && t.htmlFor !== c.id && byId(root, t.htmlFor)),
      );
    const text = before.at(-1);
    if (!text) continue;
    if (!text.id) text.id = `ode-jsd-${root.dataset.windowId ?? 'x'}-text-${texts.indexOf(text)}`;
    c.setAttribute('aria-labelledby', text.id);
  }
}

/** A control with the element that sits beside it (a datalist). */
function wrap(control: HTMLElement, ...extra: HTMLElement[]): HTMLElement {
  const span = document.createElement('span');
  span.className = 'ode-jsd-control';
  span.append(control, ...extra);
  return span;
}

function box(w: JsWidget, ctx: RenderContext, className: string, grid = false): HTMLElement {
  const e = document.createElement('div');
  e.className = className;
  children(w, ctx, e, grid);
  return root(e, w);
}

/** The element of one widget and its subtree, or undefined for a widget not shown. */
export function renderWidget(w: JsWidget, ctx: RenderContext): HTMLElement | undefined {
  if (SKIPPED.has(w.type)) return undefined;
  if (SPIN_TYPES.has(w.type)) return spinField(w, ctx);
  switch (w.type) {
    case 'fixedtext':
      return fixedText(w, ctx);
    case 'edit':
      return edit(w, ctx);
    case 'listbox':
    case 'combobox':
      return listBox(w, ctx);
    case 'checkbox':
      return toggle(w, ctx, 'checkbox');
    case 'radiobutton':
      return toggle(w, ctx, 'radio');
    case 'pushbutton':
    case 'menubutton':
    // A message box's buttons (LibreOffice 25.2's JSMessageDialog: `okbutton`, `cancelbutton`...), pushbuttons too.
    case 'okbutton':
    case 'cancelbutton':
    case 'closebutton':
    case 'yesbutton':
    case 'nobutton':
      return button(w, ctx);
    case 'multilineedit':
      return multilineEdit(w, ctx);
    case 'image':
      // A message box's icon: decorative (its title and text say what it is).
      return typeof w.image === 'string' && w.image.startsWith('data:image/')
        ? root(Object.assign(document.createElement('img'), { src: w.image, alt: '' }), w)
        : undefined;
    case 'frame':
      return frame(w, ctx);
    case 'tabcontrol':
      return tabControl(w, ctx);
    case 'drawingarea':
      return drawingArea(w);
    case 'expander':
      return expander(w, ctx);
    case 'toolbox':
      return toolbox(w, ctx);
    case 'panel':
      return sidebarPanel(w, ctx);
    case 'iconview':
      return iconView(w, ctx);
    case 'separator': {
      const hr = document.createElement('hr');
      hr.className = 'ode-jsd-separator';
      return root(hr, w);
    }
    case 'grid':
      return box(w, ctx, 'ode-jsd-grid', true);
    case 'container':
    case 'box':
    case 'buttonbox':
      return box(w, ctx, w.vertical === true || w.vertical === 'true' ? 'ode-jsd-col' : 'ode-jsd-row');
    case 'scrollwindow':
      return box(w, ctx, 'ode-jsd-scroll');
    default:
      return w.children?.length ? box(w, ctx, 'ode-jsd-col') : undefined;
  }
}
