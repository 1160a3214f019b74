import { describe, expect, it } from 'vitest';
import { DOWNLOAD_FORMATS } from './commands.ts';
import { menusFor, visibleEntries, type MenuEntry } from './menus.ts';

const ids = (entries: MenuEntry[]): string[] => entries.flatMap((e) => (typeof e === 'string' ? [e] : ids(e.items)));

describe('the menus per document type', () => {
  it('has a Sheet menu only for spreadsheets and a Slide menu for presentations and drawings', () => {
    const titles = (t: Parameters<typeof menusFor>[0]) => menusFor(t).map((m) => m.label);
    expect(titles('text')).toEqual(['menu.file', 'menu.edit', 'menu.insert', 'menu.format', 'menu.view', 'menu.help']);
    expect(titles('spreadsheet')).toContain('menu.sheet');
    expect(titles('spreadsheet')).not.toContain('menu.slide');
    expect(titles('presentation')).toContain('menu.slide');
    expect(titles('drawing')).toContain('menu.slide');
  });

  it('puts page break and ruler in text documents only, the cell commands in spreadsheets only', () => {
    const all = (t: Parameters<typeof menusFor>[0]) => menusFor(t).flatMap((m) => ids(m.items));
    expect(all('text')).toEqual(expect.arrayContaining(['insert.pageBreak', 'view.ruler']));
    for (const t of ['spreadsheet', 'presentation', 'drawing'] as const) expect(all(t)).not.toContain('insert.pageBreak');
    expect(all('spreadsheet')).toEqual(expect.arrayContaining(['format.cells', 'insert.function', 'sheet.insert']));
    expect(all('text')).not.toContain('format.cells');
    expect(all('presentation')).toContain('view.slideSorter');
  });

  it('offers every download format of the type under File > Download as', () => {
    for (const t of ['text', 'spreadsheet', 'presentation', 'drawing'] as const) {
      const file = menusFor(t)[0].items;
      const sub = file.find((e): e is { label: string; items: MenuEntry[] } => typeof e !== 'string' && e.label === 'menu.downloadAs');
      expect(sub?.items).toEqual(DOWNLOAD_FORMATS[t].map((f) => `file.downloadAs.${f}`));
    }
    expect(DOWNLOAD_FORMATS.text).toEqual(expect.arrayContaining(['pdf', 'odt', 'docx', 'doc', 'rtf', 'txt', 'html']));
  });
});

describe('visibleEntries', () => {
  const shown = new Set(['a', 'b', 'c']);
  const isHidden = (id: string) => !shown.has(id);

  it('leaves hidden ids out and never shows a separator first, last or twice', () => {
    expect(visibleEntries(isHidden, ['-', 'x', 'a', '-', 'y', '-', 'b', '-', 'z'])).toEqual(['a', '-', 'b']);
  });

  it('shows a submenu only when one of its items shows', () => {
    const sub = { label: 's', items: ['x', '-', 'c'] };
    expect(visibleEntries(isHidden, ['a', { label: 'empty', items: ['x', '-', 'y'] }, sub])).toEqual(['a', sub]);
  });
});
