/**
 * The chrome's own dialogs (built on modal.ts): Save as, Rename, Insert link, table size, comment, special
 * character, Repair (LibreOffice's undo list), keyboard shortcuts, the colour palette and the local image picker.
 * Each returns what the user chose (undefined when cancelled); the commands (commands.ts) send it.
 */
import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';
import { PALETTE } from './colors.ts';
import { el } from './dom.ts';
import { openModal, popover, promptText } from './modal.ts';

function field(label: string, input: HTMLInputElement | HTMLTextAreaElement): HTMLLabelElement {
  input.classList.add('ode-field');
  return el('label', { className: 'ode-modal-field' }, {}, el('span', {}, {}, label), input);
}

/** Save as: the new full file name (with extension), default the current name. */
export function askSaveAsName(current: string): Promise<string | undefined> {
  return promptText(t('dialog.saveAs'), t('dialog.saveAs.name'), current);
}

/** Rename: the new name without extension. */
export function askNewName(currentBase: string): Promise<string | undefined> {
  return promptText(t('dialog.rename'), t('dialog.rename.name'), currentBase);
}

/** Insert link: the text shown (default: the selected text) and the URL (an address without a scheme gets https://). */
export async function askLink(selectedText = ''): Promise<{ text: string; url: string } | undefined> {
  const text = el('input', { type: 'text', value: selectedText });
  const url = el('input', { type: 'url', placeholder: 'https://' });
  const answer = await openModal({
    title: t('dialog.link'),
    body: [field(t('dialog.link.text'), text), field(t('dialog.link.url'), url)],
    buttons: [
      { value: 'ok', label: t('dialog.link.insert'), primary: true },
      { value: 'cancel', label: t('modal.cancel') },
    ],
    initialFocus: url,
    validate: () => url.value.trim() !== '',
  });
  if (answer === undefined) return undefined;
  let href = url.value.trim();
  if (!/^[a-z][a-z0-9+.-]*:/i.test(href)) href = `https://${href}`;
  return { text: text.value.trim() || href, url: href };
}

/** Table size: rows × columns from a grid (mouse) or the two number fields (keyboard). */
export async function askTableSize(): Promise<{ rows: number; cols: number } | undefined> {
  const rows = el('input', { type: 'number', min: '1', max: '100', value: '2' });
  const cols = el('input', { type: 'number', min: '1', max: '64', value: '2' });
  const grid = el('div', { className: 'ode-table-grid' }, { 'aria-hidden': 'true' });
  const size = el('div', { className: 'ode-table-size' }, { 'aria-live': 'polite' });
  const show = () => {
    const r = Number(rows.value),
      c = Number(cols.value);
    size.textContent = t('dialog.table.size', { rows: r, cols: c });
    for (const cell of grid.children) {
      const e = cell as HTMLElement;
      e.classList.toggle('ode-on', Number(e.dataset.r) <= r && Number(e.dataset.c) <= c);
    }
  };
  let choose: (value: string | undefined) => void = () => undefined;
  for (let r = 1; r <= 8; r++)
    for (let c = 1; c <= 10; c++) {
      const cell = el('span', {}, { 'data-r': String(r), 'data-c': String(c) });
      cell.addEventListener('mouseenter', () => ((rows.value = String(r)), (cols.value = String(c)), show()));
      cell.addEventListener('click', () => choose('ok'));
      grid.append(cell);
    }
  rows.addEventListener('input', show);
  cols.addEventListener('input', show);
  show();
  const answer = await openModal({
    title: t('dialog.table'),
    body: [grid, size, el('div', { className: 'ode-modal-row' }, {}, field(t('dialog.table.rows'), rows), field(t('dialog.table.cols'), cols))],
    buttons: [
      { value: 'ok', label: t('dialog.table.insert'), primary: true },
      { value: 'cancel', label: t('modal.cancel') },
    ],
    initialFocus: rows,
    validate: () => Number(rows.value) >= 1 && Number(cols.value) >= 1,
    bind: (close) => (choose = close),
  });
  return answer === undefined ? undefined : { rows: Math.min(100, Number(rows.value)), cols: Math.min(64, Number(cols.value)) };
}

/** What the Insert comment dialog tells its caller while it is open (issue 16: a comment being typed is in a save). */
export interface CommentDraftHooks {
  /**
   * At open: `take` closes the dialog and returns the text typed so far (trimmed; undefined when empty or taken
   * already), for a save or an export that must include a comment still being typed; the dialog then resolves
   * undefined (the caller sent the text itself).
   */
  onOpen?(take: () => string | undefined): void;
  /** Ctrl+S in the comment's field: the caller takes the text and saves. */
  onSave?(): void;
  /** The text changed (as typed, untrimmed). */
  onInput?(text: string): void;
}

/** A comment's text (undefined when cancelled, or when `hooks.onOpen`'s `take` took it). */
export async function askComment(hooks: CommentDraftHooks = {}): Promise<string | undefined> {
  const text = el('textarea', { rows: 4 });
  let taken = false;
  const take = (close: (value: string | undefined) => void) => () => {
    const value = text.value.trim();
    if (taken || !value) return undefined;
    taken = true;
    close('cancel');
    return value;
  };
  text.addEventListener('input', () => hooks.onInput?.(text.value));
  text.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 's' && hooks.onSave) {
      e.preventDefault();
      hooks.onSave();
    }
  });
  const answer = await openModal({
    title: t('dialog.comment'),
    body: field(t('dialog.comment.text'), text),
    initialFocus: text,
    validate: () => text.value.trim() !== '',
    bind: (close) => hooks.onOpen?.(take(close)),
  });
  return answer === undefined || taken ? undefined : text.value.trim();
}

const SPECIAL = '©®™§¶†‡•…–—‘’“”«»‹›€£¥¢°±×÷≠≤≥≈∞√∑∏∂∫µπΩαβγδλσ←↑→↓↔⇒⇔✓✗★☆♠♣♥♦½¼¾¹²³';

/** A special character from a grid (arrow keys move, Enter inserts). */
export async function askSpecialCharacter(): Promise<string | undefined> {
  const grid = el('div', { className: 'ode-char-grid' }, { role: 'group', 'aria-label': t('dialog.special') });
  const chars = [...SPECIAL];
  const buttons = chars.map((ch, i) => {
    const code = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    const b = el(
      'button',
      { type: 'button', className: 'ode-char', tabIndex: i === 0 ? 0 : -1, title: code },
      { 'aria-label': `${ch} ${code}`, 'data-value': ch },
      ch,
    );
    grid.append(b);
    return b;
  });
  grid.addEventListener('keydown', (e) => {
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 10, ArrowUp: -10 }[e.key];
    if (i < 0 || step === undefined) return;
    e.preventDefault();
    const next = buttons[Math.max(0, Math.min(buttons.length - 1, i + step))];
    buttons.forEach((b) => (b.tabIndex = b === next ? 0 : -1));
    next.focus();
  });
  return openModal({
    title: t('dialog.special'),
    body: grid,
    buttons: [{ value: 'cancel', label: t('modal.cancel') }],
    initialFocus: buttons[0],
    className: 'ode-modal-wide',
    bind: (close) => buttons.forEach((b) => b.addEventListener('click', () => close(b.dataset.value))),
  });
}

/** One undo action as LibreOffice lists it (getCommandValues `.uno:Undo`). */
interface UndoAction {
  index: number;
  comment: string;
  viewId?: number;
  dateTime?: string;
}

/**
 * Repair: LibreOffice's undo list (newest first); resolves with how many steps to undo to get back to the
 * chosen state (1 = the last change only).
 */
export async function askRepair(app: App): Promise<number | undefined> {
  const reply = await app.session.request({ type: 'commandValues', command: '.uno:Undo' }, 'commandValues', (m) => m.command === '.uno:Undo');
  const value = reply.value as { actions?: UndoAction[] } | null;
  const actions = (value?.actions ?? []).slice().sort((a, b) => b.index - a.index);
  if (actions.length === 0) {
    await openModal({
      title: t('dialog.repair'),
      body: el('p', {}, {}, t('dialog.repair.none')),
      buttons: [{ value: 'ok', label: t('modal.close'), primary: true }],
    });
    return undefined;
  }
  const list = el('div', { className: 'ode-repair-list' }, { role: 'radiogroup', 'aria-label': t('dialog.repair.list') });
  const inputs = actions.map((a, i) => {
    const user = app.session.state.views.find((v) => v.viewId === a.viewId)?.userName ?? '';
    const time = a.dateTime ? new Date(a.dateTime).toLocaleTimeString() : '';
    const input = el('input', { type: 'radio', name: 'ode-repair', value: String(i + 1), checked: i === 0 });
    list.append(
      el(
        'label',
        { className: 'ode-repair-item' },
        {},
        input,
        ` ${user || time ? t('dialog.repair.item', { comment: a.comment, user: user || '?', time: time || '?' }) : a.comment}`,
      ),
    );
    return input;
  });
  const answer = await openModal({
    title: t('dialog.repair'),
    body: list,
    buttons: [
      { value: 'ok', label: t('dialog.repair.jump'), primary: true },
      { value: 'cancel', label: t('modal.cancel') },
    ],
    initialFocus: inputs[0],
  });
  if (answer === undefined) return undefined;
  return Number(inputs.find((i) => i.checked)?.value ?? 1);
}

/** The keyboard shortcuts dialog: `rows` are [keys, action] pairs. */
export async function showShortcuts(rows: Array<[string, string]>): Promise<void> {
  const table = el(
    'table',
    { className: 'ode-shortcuts' },
    {},
    el(
      'thead',
      {},
      {},
      el('tr', {}, {}, el('th', {}, { scope: 'col' }, t('dialog.shortcuts.key')), el('th', {}, { scope: 'col' }, t('dialog.shortcuts.action'))),
    ),
    el('tbody', {}, {}, ...rows.map(([k, a]) => el('tr', {}, {}, el('td', {}, {}, el('kbd', {}, {}, k)), el('td', {}, {}, a)))),
  );
  const scroll = el('div', { className: 'ode-shortcuts-scroll', tabIndex: 0 }, { role: 'region', 'aria-label': t('dialog.shortcuts') }, table);
  await openModal({
    title: t('dialog.shortcuts'),
    body: scroll,
    buttons: [{ value: 'ok', label: t('modal.close'), primary: true }],
    className: 'ode-modal-wide',
  });
}

/** A colour palette under `anchor`; `pick` gets `#rrggbb`, or `auto` for no colour. */
export function colorPalette(anchor: HTMLElement, title: string, pick: (hex: string) => void): void {
  const grid = el('div', { className: 'ode-palette' }, { role: 'group', 'aria-label': t('color.palette', { name: title }) });
  const items = [{ key: 'color.none', hex: 'auto' }, ...PALETTE].map((c, i) => {
    const b = el('button', { type: 'button', className: 'ode-swatch', tabIndex: i === 0 ? 0 : -1, title: t(c.key) }, { 'aria-label': t(c.key) });
    if (c.hex !== 'auto') b.style.setProperty('--swatch', c.hex);
    else b.classList.add('ode-swatch-none');
    b.addEventListener('click', () => (pop.close(), pick(c.hex)));
    grid.append(b);
    return b;
  });
  grid.addEventListener('keydown', (e) => {
    const i = items.indexOf(document.activeElement as HTMLButtonElement);
    const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
    if (i < 0 || !step) return;
    e.preventDefault();
    const next = items[(i + step + items.length) % items.length];
    items.forEach((b) => (b.tabIndex = b === next ? 0 : -1));
    next.focus();
  });
  const pop = popover(anchor, grid, title);
}

/** Opens the browser's file picker for an image; resolves with its MIME type and base64 bytes. */
export function pickLocalImage(): Promise<{ mimeType: string; base64: string } | undefined> {
  return new Promise((resolve) => {
    const input = el(
      'input',
      { type: 'file', accept: 'image/png,image/jpeg,image/gif,image/svg+xml,image/bmp,image/webp' },
      { 'aria-hidden': 'true', hidden: '' },
    );
    document.body.append(input);
    input.addEventListener('change', async () => {
      const file = input.files?.[0];
      input.remove();
      if (!file) return resolve(undefined);
      const bytes = new Uint8Array(await file.arrayBuffer());
      let binary = '';
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      resolve({ mimeType: file.type || 'image/png', base64: btoa(binary) });
    });
    input.addEventListener('cancel', () => (input.remove(), resolve(undefined)));
    input.click();
  });
}
