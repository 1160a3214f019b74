import { describe, expect, it } from 'vitest';
import { DOWNLOAD_FORMATS } from './commands.ts';
import { borderArgs, menuUnoItems } from './menu-commands.ts';
import { menusFor, visibleEntries, type MenuEntry } from './menus.ts';

const ids = (entries: MenuEntry[]): string[] => entries.flatMap((e) => (typeof e === 'string' ? [e] : ids(e.items)));

describe('the menus per document type', () => {
  it('has a Sheet menu only for spreadsheets, References and Form for text, a Slide menu for presentations and a Page menu for drawings', () => {
    const titles = (t: Parameters<typeof menusFor>[0]) => menusFor(t).map((m) => m.label);
    // Collabora Online's order (Control.Menubar.js): File, Edit, View, Insert, Format, then the application's menus.
    expect(titles('text')).toEqual([
      'menu.file',
      'menu.edit',
      'menu.view',
      'menu.insert',
      'menu.format',
      'menu.references',
      'menu.table',
      'menu.form',
      'menu.tools',
      'menu.help',
    ]);
    expect(titles('spreadsheet')).toEqual([
      'menu.file',
      'menu.edit',
      'menu.view',
      'menu.insert',
      'menu.format',
      'menu.sheet',
      'menu.data',
      'menu.tools',
      'menu.help',
    ]);
    expect(titles('presentation')).toEqual([
      'menu.file',
      'menu.edit',
      'menu.view',
      'menu.insert',
      'menu.format',
      'menu.table',
      'menu.slide',
      'menu.tools',
      'menu.help',
    ]);
    expect(titles('spreadsheet')).toContain('menu.sheet');
    expect(titles('spreadsheet')).not.toContain('menu.slide');
    expect(titles('presentation')).toContain('menu.slide');
    // Collabora's drawings: Table, then Page (New, Duplicate, Delete page), no Slide menu.
    expect(titles('drawing')).toEqual([
      'menu.file',
      'menu.edit',
      'menu.view',
      'menu.insert',
      'menu.format',
      'menu.table',
      'menu.page',
      'menu.tools',
      'menu.help',
    ]);
    const page = menusFor('drawing').find((m) => m.label === 'menu.page');
    expect(ids(page?.items ?? []).slice(0, 3)).toEqual(['slide.new', 'slide.duplicate', 'slide.delete']);
  });

  it("has Collabora's References and Form entries in text documents, each one LibreOffice command", () => {
    const menu = (label: string) => ids(menusFor('text').find((m) => m.label === label)?.items ?? []).filter((id) => id !== '-');
    const unoOf = new Map(menuUnoItems('text').map((i) => [i.id, i.uno]));
    expect(menu('menu.references').map((id) => unoOf.get(id))).toEqual([
      '.uno:InsertMultiIndex',
      '.uno:InsertIndexesEntry',
      '.uno:UpdateCurIndex',
      '.uno:UpdateAllIndexes',
      '.uno:InsertFootnote',
      '.uno:InsertEndnote',
      '.uno:FootnoteDialog',
      '.uno:InsertBookmark',
      '.uno:InsertReferenceField',
    ]);
    expect(menu('menu.form').map((id) => unoOf.get(id))).toEqual([
      '.uno:InsertContentControl',
      '.uno:InsertCheckboxContentControl',
      '.uno:InsertDropdownContentControl',
      '.uno:InsertPictureContentControl',
      '.uno:InsertDateContentControl',
      '.uno:ContentControlProperties',
    ]);
    for (const t of ['spreadsheet', 'presentation', 'drawing'] as const) expect(menuUnoItems(t).some((i) => /^(references|form)\./.test(i.id))).toBe(false);
  });

  it("puts track changes under Edit > Track changes and AutoCorrect while typing under Tools > AutoCorrect (Collabora's places)", () => {
    const sub = (t: Parameters<typeof menusFor>[0], menu: string, label: string) =>
      menusFor(t)
        .find((m) => m.label === menu)
        ?.items.find((e): e is { label: string; items: MenuEntry[] } => typeof e !== 'string' && e.label === label);
    expect(ids(sub('text', 'menu.edit', 'menu.trackChanges')?.items ?? [])).toEqual(
      expect.arrayContaining(['review.trackChanges', 'review.acceptChange', 'review.nextChange', 'review.acceptAll', 'review.rejectAll']),
    );
    expect(sub('text', 'menu.tools', 'menu.autoCorrect')?.items).toEqual(['tools.autoCorrectWhileTyping']);
    // No review.* command outside text documents: the submenu has nothing to show there.
    for (const t of ['spreadsheet', 'presentation', 'drawing'] as const) expect(menuUnoItems(t).some((i) => i.id.startsWith('review.'))).toBe(false);
  });

  it('puts page break and ruler in text documents only, the cell commands in spreadsheets only', () => {
    const all = (t: Parameters<typeof menusFor>[0]) => menusFor(t).flatMap((m) => ids(m.items));
    expect(all('text')).toEqual(expect.arrayContaining(['insert.pageBreak', 'view.ruler']));
    for (const t of ['spreadsheet', 'presentation', 'drawing'] as const) expect(all(t)).not.toContain('insert.pageBreak');
    expect(all('spreadsheet')).toEqual(expect.arrayContaining(['format.cells', 'insert.function', 'sheet.insert']));
    expect(all('text')).not.toContain('format.cells');
    expect(all('presentation')).toContain('view.slideSorter');
  });

  it('offers every menu command of a document type in one of its menus, and only those of the type', () => {
    for (const t of ['text', 'spreadsheet', 'presentation', 'drawing'] as const) {
      const all = new Set(menusFor(t).flatMap((m) => ids(m.items)));
      for (const item of menuUnoItems(t)) expect(all.has(item.id), `${t}: ${item.id}`).toBe(true);
    }
    const unoOf = (t: Parameters<typeof menusFor>[0]) => new Map(menuUnoItems(t).map((i) => [i.id, i.uno]));
    // LibreOffice's names (sfx/sw/sc/sd .uno: commands), not ours.
    expect(unoOf('text').get('review.trackChanges')).toBe('.uno:TrackChanges');
    expect(unoOf('text').get('insert.footnote')).toBe('.uno:InsertFootnote');
    expect(unoOf('text').get('insert.tableOfContents')).toBe('.uno:InsertMultiIndex');
    expect(unoOf('text').get('table.insertRowsBelow')).toBe('.uno:InsertRowsAfter');
    expect(unoOf('spreadsheet').get('view.freezePanes')).toBe('.uno:FreezePanes');
    expect(unoOf('spreadsheet').get('sheet.deleteColumns')).toBe('.uno:DeleteColumns');
    expect(unoOf('spreadsheet').has('review.trackChanges')).toBe(false);
    expect(unoOf('presentation').get('view.notes')).toBe('.uno:NotesMode');
    expect(unoOf('drawing').has('view.notes')).toBe(false);
  });

  it('builds .uno:SetBorderStyle arguments: four outer lines and five distances, two inner lines, flags, a mask of all seven lines', () => {
    const args = borderArgs(26, 0);
    const outer = args.OuterBorder.value as Array<{ type: string; value: unknown }>;
    const width = (l: { value: unknown }) => (l.value as Record<string, { value: number }>).OuterLineWidth.value;
    const inner = args.InnerBorder.value as Array<{ type: string; value: unknown }>;
    expect(outer).toHaveLength(9);
    expect(outer.slice(0, 4).map(width)).toEqual([26, 26, 26, 26]);
    expect(outer.slice(4).every((d) => d.type === 'long' && d.value === 0)).toBe(true);
    expect(inner).toHaveLength(5);
    expect(width(inner[0])).toBe(0);
    expect(inner[3]).toEqual({ type: 'short', value: 127 });
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
