/**
 * The menu bar's content per document type, as command ids (the shared brief's table): an item shows only when
 * its command is registered and not hidden; a menu shows only when one of its items does. `-` is a separator;
 * `{label, items}` a submenu.
 */
import { DOWNLOAD_FORMATS, type DocType } from './commands.ts';
import { SLIDE_LAYOUTS } from './menu-commands.ts';

export type MenuEntry = string | { label: string; items: MenuEntry[] };
export interface MenuDef {
  /** Message key of the title (`menu.file`). */
  label: string;
  items: MenuEntry[];
}

/**
 * The menus of a document of type `docType`, in menu bar order: Collabora Online's compact menus (its
 * Control.Menubar.js, issue 23), whose order is File, Edit, View, Insert, Format, then References, Table and Form
 * (text), Table (presentations, drawings), Sheet and Data (spreadsheets), Slide (presentations) or Page (drawings),
 * Tools, Help. Collabora's track changes are Edit > Track Changes (no Review menu).
 */
export function menusFor(docType: DocType): MenuDef[] {
  const text = docType === 'text';
  const calc = docType === 'spreadsheet';
  const slides = docType === 'presentation' || docType === 'drawing';
  const drawing = docType === 'drawing';
  const shapes: MenuEntry = { label: 'menu.shape', items: ['insert.shape.rectangle', 'insert.shape.ellipse', 'insert.shape.arrow', 'insert.shape.star'] };
  const menus: MenuDef[] = [
    {
      label: 'menu.file',
      items: [
        'file.save',
        'file.saveAs',
        'file.rename',
        { label: 'menu.downloadAs', items: DOWNLOAD_FORMATS[docType].map((f) => `file.downloadAs.${f}`) },
        'file.print',
        'file.sign',
        '-',
        'file.repair',
        'file.versions',
        '-',
        'file.closeForEveryone',
        'file.close',
      ],
    },
    {
      label: 'menu.edit',
      items: [
        'edit.undo',
        'edit.redo',
        '-',
        'edit.cut',
        'edit.copy',
        'edit.paste',
        '-',
        'edit.selectAll',
        'edit.findReplace',
        '-',
        // Collabora's Edit > Track Changes (text documents only: the review.* commands are registered there).
        {
          label: 'menu.trackChanges',
          items: [
            'review.trackChanges',
            'review.showChanges',
            '-',
            'review.manageChanges',
            'review.acceptChange',
            'review.acceptAll',
            'review.rejectChange',
            'review.rejectAll',
            '-',
            'review.previousChange',
            'review.nextChange',
          ],
        },
      ],
    },
    {
      label: 'menu.view',
      items: [
        'view.zoomIn',
        'view.zoomOut',
        'view.zoomReset',
        '-',
        slides ? 'view.normal' : '-',
        'view.notes',
        '-',
        text ? 'view.ruler' : '-',
        'view.sidebar',
        'view.comments',
        'view.users',
        slides ? 'view.slideSorter' : '-',
        '-',
        'view.freezePanes',
        'view.freezeFirstRow',
        'view.freezeFirstColumn',
        '-',
        'view.theme',
      ],
    },
    {
      label: 'menu.insert',
      items: [
        'insert.image',
        'insert.remoteImage',
        '-',
        'insert.table',
        'insert.chart',
        ...(text ? [] : ['insert.pivotTable', 'insert.function', 'insert.autoSum']),
        shapes,
        'insert.textBox',
        '-',
        'insert.link',
        'insert.remoteLink',
        'insert.comment',
        ...(text
          ? [
              '-',
              { label: 'menu.headerFooter', items: ['insert.header', 'insert.footer'] },
              { label: 'menu.field', items: ['insert.pageNumber', 'insert.pageCount', 'insert.date', 'insert.time'] },
              'insert.footnote',
              'insert.endnote',
              '-',
              'insert.pageBreak',
            ]
          : ['insert.headerFooter', 'insert.slideNumber']),
        'insert.specialCharacter',
        '-',
        'insert.remoteFile',
        'insert.aiContent',
        '-',
        'insert.citation',
        'insert.bibliography',
        'insert.eSignature',
      ],
    },
    {
      label: 'menu.format',
      items: [
        'format.bold',
        'format.italic',
        'format.underline',
        'format.strikethrough',
        '-',
        'format.fontColor',
        'format.highlightColor',
        '-',
        'format.alignLeft',
        'format.alignCenter',
        'format.alignRight',
        'format.justify',
        '-',
        'format.bulletList',
        'format.numberedList',
        '-',
        'format.mergeCells',
        'format.numberStandard',
        'format.numberCurrency',
        'format.numberPercent',
        { label: 'menu.borders', items: ['format.bordersAll', 'format.bordersOuter', 'format.bordersNone', '-', 'format.bordersDialog'] },
        '-',
        'format.character',
        'format.paragraph',
        'format.page',
        calc ? 'format.cells' : '-',
        '-',
        'format.clear',
      ],
    },
  ];
  if (text)
    // Collabora's References (its Zotero entries are Insert > Citation and Bibliography here).
    menus.push({
      label: 'menu.references',
      items: [
        'insert.tableOfContents',
        'references.indexEntry',
        'references.updateIndex',
        'insert.updateIndexes',
        '-',
        'insert.footnote',
        'insert.endnote',
        'references.notesSettings',
        '-',
        'references.bookmark',
        'references.crossReference',
      ],
    });
  if (text || slides)
    menus.push({
      label: 'menu.table',
      items: [
        'insert.table',
        { label: 'menu.tableInsert', items: ['table.insertRowsAbove', 'table.insertRowsBelow', '-', 'table.insertColumnsBefore', 'table.insertColumnsAfter'] },
        { label: 'menu.tableDelete', items: ['table.deleteRows', 'table.deleteColumns', 'table.delete'] },
        '-',
        'table.mergeCells',
        'table.splitCells',
        '-',
        'table.properties',
      ],
    });
  if (text)
    // Collabora's Form: content controls (Word's, kept in docx as w:sdt).
    menus.push({
      label: 'menu.form',
      items: ['form.richText', 'form.checkbox', 'form.dropdown', 'form.picture', 'form.date', '-', 'form.properties'],
    });
  if (calc) {
    menus.push({
      label: 'menu.sheet',
      items: [
        { label: 'menu.rows', items: ['sheet.insertRowsAbove', 'sheet.insertRowsBelow', 'sheet.deleteRows'] },
        { label: 'menu.columns', items: ['sheet.insertColumnsBefore', 'sheet.insertColumnsAfter', 'sheet.deleteColumns'] },
        '-',
        'sheet.insert',
        'sheet.delete',
        'sheet.rename',
        '-',
        'sheet.moveLeft',
        'sheet.moveRight',
      ],
    });
    menus.push({
      label: 'menu.data',
      items: ['data.sortAscending', 'data.sortDescending', 'data.sort', '-', 'data.autoFilter', 'data.standardFilter', 'data.removeFilter'],
    });
  }
  if (drawing)
    // Collabora's Page menu of drawings (its New, Duplicate and Delete page), with the slide panel's moves.
    menus.push({ label: 'menu.page', items: ['slide.new', 'slide.duplicate', 'slide.delete', '-', 'slide.moveUp', 'slide.moveDown'] });
  else if (slides)
    menus.push({
      label: 'menu.slide',
      items: [
        'slide.new',
        'slide.duplicate',
        'slide.delete',
        'slide.hide',
        'slide.show',
        '-',
        { label: 'menu.slideLayout', items: SLIDE_LAYOUTS.map(([id]) => id) },
        '-',
        'slide.moveUp',
        'slide.moveDown',
        '-',
        'slide.transition',
        '-',
        'slide.startPresentation',
      ],
    });
  menus.push({
    label: 'menu.tools',
    // Collabora's Tools > AutoCorrect > While Typing (.uno:AutoFormatMenu > .uno:OnlineAutoFormat).
    items: ['tools.spelling', 'tools.autoSpell', 'tools.wordCount', '-', { label: 'menu.autoCorrect', items: ['tools.autoCorrectWhileTyping'] }],
  });
  menus.push({ label: 'menu.help', items: ['help.shortcuts', 'help.debug'] });
  return menus;
}

/**
 * The entries of `items` a menu shows: ids that are not hidden (`isHidden` is true for unregistered ids too),
 * submenus with something to show, separators only between shown items (never first, last or twice).
 */
export function visibleEntries(isHidden: (id: string) => boolean, items: MenuEntry[]): MenuEntry[] {
  const out: MenuEntry[] = [];
  for (const e of items) {
    if (e === '-') {
      if (out.length > 0 && out[out.length - 1] !== '-') out.push(e);
    } else if (typeof e === 'string') {
      if (!isHidden(e)) out.push(e);
    } else if (visibleEntries(isHidden, e.items).length > 0) out.push(e);
  }
  while (out[out.length - 1] === '-') out.pop();
  return out;
}
