/**
 * The commands of the menus at Collabora Online's compact-mode level (issue 23, item 1) that are one UNO command
 * each: Edit > Track changes, Table, the Insert entries of text documents (header, footer, fields, notes, shapes,
 * text box), References (indexes, notes, bookmarks, cross-references) and Form (content controls) of text documents,
 * Tools (spelling and autocorrection while typing), the rows, columns, borders and frozen
 * panes of spreadsheets, and the notes view of presentations. Names and arguments are LibreOffice 25.2's UNO
 * commands (docs/editor-chrome.md "UNO commands used"); an item is disabled while LibreOffice says its command is
 * (`.uno:X=disabled`, STATE_CHANGED), a toggle is checked from its state ("true").
 */
import type { App } from '../core/app.ts';
import type { UiCommand } from '../core/commands.ts';
import { registerMessages } from '../core/i18n.ts';
import type { DocType } from './commands.ts';
import { stateText } from './dom.ts';

type UnoArgs = Record<string, { type: string; value: unknown }>;

/** One menu command: its id, its UNO command and arguments, whether it is a toggle (checked from the state). */
interface UnoItem {
  id: string;
  uno: string;
  args?: UnoArgs;
  toggle?: boolean;
  /** Message key of the label when it is not the id (the same command named per application). */
  label?: string;
  /** Runs even in a read-only view (moves or shows, never changes). */
  safe?: boolean;
}

/** A BorderLine2 of `width` (1/100 mm; 0: no line) in black, as `.uno:SetBorderStyle` takes it. */
function borderLine(width: number): { type: string; value: unknown } {
  const short = (value: number) => ({ type: 'short', value });
  return {
    type: 'com.sun.star.table.BorderLine2',
    value: {
      Color: { type: 'com.sun.star.util.Color', value: 0 },
      InnerLineWidth: short(0),
      OuterLineWidth: short(width),
      LineDistance: short(0),
      LineStyle: short(0),
      LineWidth: { type: 'unsigned long', value: 0 },
    },
  };
}

/**
 * The row and column commands of a text or presentation table (`table.*`) and of a spreadsheet (`sheet.*`): the same
 * UNO commands act on the table at the caret or on the sheet's selected rows and columns.
 */
function rowColumnItems(menu: 'table' | 'sheet'): UnoItem[] {
  return [
    { id: `${menu}.insertRowsAbove`, uno: '.uno:InsertRowsBefore' },
    { id: `${menu}.insertRowsBelow`, uno: '.uno:InsertRowsAfter' },
    { id: `${menu}.insertColumnsBefore`, uno: '.uno:InsertColumnsBefore' },
    { id: `${menu}.insertColumnsAfter`, uno: '.uno:InsertColumnsAfter' },
    { id: `${menu}.deleteRows`, uno: '.uno:DeleteRows' },
    { id: `${menu}.deleteColumns`, uno: '.uno:DeleteColumns' },
  ];
}

/**
 * The arguments of `.uno:SetBorderStyle` (SvxBoxItem and SvxBoxInfoItem as UNO sequences): the outer lines
 * left, right, bottom, top and four distances; the inner horizontal and vertical lines, flags, the mask of the
 * lines that are set (all seven: 127) and a distance. `outer` and `inner` are line widths in 1/100 mm (0: none).
 */
export function borderArgs(outer: number, inner: number): UnoArgs {
  const long0 = { type: 'long', value: 0 };
  return {
    OuterBorder: { type: '[]any', value: [borderLine(outer), borderLine(outer), borderLine(outer), borderLine(outer), long0, long0, long0, long0, long0] },
    InnerBorder: { type: '[]any', value: [borderLine(inner), borderLine(inner), { type: 'short', value: 0 }, { type: 'short', value: 127 }, long0] },
  };
}

/**
 * The arguments of `.uno:AssignLayout` for the selected slides: `WhatLayout`, LibreOffice's AutoLayout number
 * (include/xmloff/autolayout.hxx; 0 title slide, 1 title and content, 3 title and two contents, 19 title only, 20
 * blank, 32 centred text), as LibreOffice's own UI tests and Collabora's Change Layout send it.
 */
function layoutArgs(autoLayout: number): UnoArgs {
  return { WhatLayout: { type: 'long', value: autoLayout } };
}

/** The slide layouts of Slide > Layout: command id and AutoLayout number. */
export const SLIDE_LAYOUTS: ReadonlyArray<[id: string, autoLayout: number]> = [
  ['slide.layout.titleSlide', 0],
  ['slide.layout.titleContent', 1],
  ['slide.layout.title2Content', 3],
  ['slide.layout.titleOnly', 19],
  ['slide.layout.centeredText', 32],
  ['slide.layout.blank', 20],
];

/** The width of a thin border line, 1/100 mm (LibreOffice's "thin", 0.75 pt). */
const THIN = 26;

/** The commands of document type `docType` (ids as in menus.ts). */
export function menuUnoItems(docType: DocType): UnoItem[] {
  const text = docType === 'text';
  const calc = docType === 'spreadsheet';
  const impress = docType === 'presentation' || docType === 'drawing';
  const items: UnoItem[] = [];
  if (text) {
    items.push(
      { id: 'review.trackChanges', uno: '.uno:TrackChanges', toggle: true },
      { id: 'review.showChanges', uno: '.uno:ShowTrackedChanges', toggle: true },
      { id: 'review.previousChange', uno: '.uno:PreviousTrackedChange', safe: true },
      { id: 'review.nextChange', uno: '.uno:NextTrackedChange', safe: true },
      { id: 'review.acceptChange', uno: '.uno:AcceptTrackedChange' },
      { id: 'review.rejectChange', uno: '.uno:RejectTrackedChange' },
      { id: 'review.acceptAll', uno: '.uno:AcceptAllTrackedChanges' },
      { id: 'review.rejectAll', uno: '.uno:RejectAllTrackedChanges' },
      { id: 'review.manageChanges', uno: '.uno:AcceptTrackedChanges' },
      // Insert: without a PageStyle, every page style (Collabora's "All").
      { id: 'insert.header', uno: '.uno:InsertPageHeader', args: { On: { type: 'boolean', value: true } } },
      { id: 'insert.footer', uno: '.uno:InsertPageFooter', args: { On: { type: 'boolean', value: true } } },
      { id: 'insert.pageNumber', uno: '.uno:InsertPageNumberField' },
      { id: 'insert.pageCount', uno: '.uno:InsertPageCountField' },
      { id: 'insert.date', uno: '.uno:InsertDateField' },
      { id: 'insert.time', uno: '.uno:InsertTimeField' },
      { id: 'insert.footnote', uno: '.uno:InsertFootnote' },
      { id: 'insert.endnote', uno: '.uno:InsertEndnote' },
      // References (Collabora's menu): indexes, notes' settings, bookmarks and cross-references.
      { id: 'insert.tableOfContents', uno: '.uno:InsertMultiIndex' },
      { id: 'references.indexEntry', uno: '.uno:InsertIndexesEntry' },
      { id: 'references.updateIndex', uno: '.uno:UpdateCurIndex' },
      { id: 'insert.updateIndexes', uno: '.uno:UpdateAllIndexes' },
      { id: 'references.notesSettings', uno: '.uno:FootnoteDialog' },
      { id: 'references.bookmark', uno: '.uno:InsertBookmark' },
      { id: 'references.crossReference', uno: '.uno:InsertReferenceField' },
      // Form (Collabora's menu): content controls, and the properties of the one at the caret.
      { id: 'form.richText', uno: '.uno:InsertContentControl' },
      { id: 'form.checkbox', uno: '.uno:InsertCheckboxContentControl' },
      { id: 'form.dropdown', uno: '.uno:InsertDropdownContentControl' },
      { id: 'form.picture', uno: '.uno:InsertPictureContentControl' },
      { id: 'form.date', uno: '.uno:InsertDateContentControl' },
      { id: 'form.properties', uno: '.uno:ContentControlProperties' },
      { id: 'insert.textBox', uno: '.uno:DrawText' },
      { id: 'tools.autoCorrectWhileTyping', uno: '.uno:OnlineAutoFormat', toggle: true },
    );
  }
  if (text || impress) {
    items.push(
      ...rowColumnItems('table'),
      { id: 'table.delete', uno: '.uno:DeleteTable' },
      { id: 'table.mergeCells', uno: '.uno:MergeCells' },
      { id: 'table.splitCells', uno: '.uno:SplitCell' },
      { id: 'table.properties', uno: '.uno:TableDialog' },
    );
  }
  if (text || impress || calc) {
    // A shape goes in at once, in the middle of the view (LibreOffice's LOK behaviour for the shape commands).
    items.push(
      { id: 'insert.shape.rectangle', uno: '.uno:BasicShapes.rectangle' },
      { id: 'insert.shape.ellipse', uno: '.uno:BasicShapes.ellipse' },
      { id: 'insert.shape.arrow', uno: '.uno:BlockArrowShapes.right-arrow' },
      { id: 'insert.shape.star', uno: '.uno:StarShapes.star5' },
      { id: 'tools.autoSpell', uno: '.uno:SpellOnline', toggle: true },
    );
  }
  if (calc) {
    items.push(
      ...rowColumnItems('sheet'),
      { id: 'view.freezePanes', uno: '.uno:FreezePanes', toggle: true },
      { id: 'view.freezeFirstColumn', uno: '.uno:FreezePanesColumn' },
      { id: 'view.freezeFirstRow', uno: '.uno:FreezePanesRow' },
      { id: 'format.bordersAll', uno: '.uno:SetBorderStyle', args: borderArgs(THIN, THIN) },
      { id: 'format.bordersOuter', uno: '.uno:SetBorderStyle', args: borderArgs(THIN, 0) },
      { id: 'format.bordersNone', uno: '.uno:SetBorderStyle', args: borderArgs(0, 0) },
      { id: 'format.bordersDialog', uno: '.uno:FormatCellBorders' },
      { id: 'data.sort', uno: '.uno:DataSort' },
      { id: 'data.standardFilter', uno: '.uno:DataFilterStandardFilter' },
      { id: 'data.removeFilter', uno: '.uno:DataFilterRemoveFilter' },
      { id: 'insert.pivotTable', uno: '.uno:DataDataPilotRun' },
    );
  }
  if (impress) {
    // `Text` with CreateDirectly: the text box goes in at once (as Collabora's Insert > Text Box).
    items.push({ id: 'insert.textBox', uno: '.uno:Text', args: { CreateDirectly: { type: 'boolean', value: true } } });
  }
  if (docType === 'presentation') {
    items.push(
      { id: 'insert.headerFooter', uno: '.uno:HeaderAndFooter' },
      { id: 'insert.slideNumber', uno: '.uno:InsertPageField' },
      { id: 'view.notes', uno: '.uno:NotesMode', toggle: true, safe: true },
      { id: 'view.normal', uno: '.uno:NormalMultiPaneGUI', toggle: true, safe: true },
      { id: 'slide.hide', uno: '.uno:HideSlide' },
      { id: 'slide.show', uno: '.uno:ShowSlide' },
      ...SLIDE_LAYOUTS.map(([id, n]) => ({ id, uno: '.uno:AssignLayout', args: layoutArgs(n) })),
    );
  }
  return items;
}

/**
 * Registers the menu commands of `docType` (menuUnoItems) on the app's registry. A command is enabled in a live,
 * writable view (a `safe` one in any live view) unless LibreOffice's state for it is "disabled".
 */
export function registerMenuCommands(app: App, docType: DocType): void {
  const { session, commands } = app;
  const live = () => session.live;
  const editable = () => live() && !session.state.status?.readonly;
  const state = (name: string) => stateText(session.state.states.get(name));
  const list: UiCommand[] = menuUnoItems(docType).map((item) => ({
    id: item.id,
    label: item.label ?? item.id,
    state: item.toggle ? item.uno : undefined,
    enabled: () => (item.safe ? live() : editable()) && state(item.uno) !== 'disabled',
    run: () => {
      session.uno(item.uno, item.args);
      app.events.emit('userActive');
      app.view.focus();
    },
  }));
  commands.register(...list.filter((c) => !commands.get(c.id)));
}

registerMessages({
  en: {
    'menu.trackChanges': 'Track changes',
    'menu.references': 'References',
    'menu.form': 'Form',
    'menu.page': 'Page',
    'references.indexEntry': 'Index entry…',
    'references.updateIndex': 'Update index',
    'references.notesSettings': 'Footnotes and endnotes…',
    'references.bookmark': 'Bookmark…',
    'references.crossReference': 'Cross-reference…',
    'form.richText': 'Insert rich text',
    'form.checkbox': 'Insert check box',
    'form.dropdown': 'Insert drop-down list',
    'form.picture': 'Insert picture',
    'form.date': 'Insert date',
    'form.properties': 'Properties…',
    'menu.autoCorrect': 'AutoCorrect',
    'menu.table': 'Table',
    'menu.tools': 'Tools',
    'menu.data': 'Data',
    'menu.headerFooter': 'Header and footer',
    'menu.field': 'Field',
    'menu.shape': 'Shape',
    'menu.tableInsert': 'Insert',
    'menu.tableDelete': 'Delete',
    'menu.rows': 'Rows',
    'menu.columns': 'Columns',
    'menu.borders': 'Borders',
    'menu.freeze': 'Freeze cells',
    'menu.notes': 'Footnotes and endnotes',
    'review.trackChanges': 'Record changes',
    'review.showChanges': 'Show changes',
    'review.previousChange': 'Previous change',
    'review.nextChange': 'Next change',
    'review.acceptChange': 'Accept change',
    'review.rejectChange': 'Reject change',
    'review.acceptAll': 'Accept all',
    'review.rejectAll': 'Reject all',
    'review.manageChanges': 'Manage changes…',
    'insert.header': 'Header',
    'insert.footer': 'Footer',
    'insert.pageNumber': 'Page number',
    'insert.pageCount': 'Page count',
    'insert.date': 'Date',
    'insert.time': 'Time',
    'insert.footnote': 'Footnote',
    'insert.endnote': 'Endnote',
    'insert.tableOfContents': 'Table of contents…',
    'insert.updateIndexes': 'Update all indexes',
    'insert.textBox': 'Text box',
    'insert.shape.rectangle': 'Rectangle',
    'insert.shape.ellipse': 'Ellipse',
    'insert.shape.arrow': 'Right arrow',
    'insert.shape.star': 'Star',
    'insert.headerFooter': 'Header and footer…',
    'insert.slideNumber': 'Slide number',
    'insert.pivotTable': 'Pivot table…',
    'table.insertRowsAbove': 'Rows above',
    'table.insertRowsBelow': 'Rows below',
    'table.insertColumnsBefore': 'Columns before',
    'table.insertColumnsAfter': 'Columns after',
    'table.deleteRows': 'Rows',
    'table.deleteColumns': 'Columns',
    'table.delete': 'Table',
    'table.mergeCells': 'Merge cells',
    'table.splitCells': 'Split cells…',
    'table.properties': 'Table properties…',
    'tools.autoSpell': 'Automatic spell checking',
    'tools.autoCorrectWhileTyping': 'While typing',
    'sheet.insertRowsAbove': 'Insert rows above',
    'sheet.insertRowsBelow': 'Insert rows below',
    'sheet.insertColumnsBefore': 'Insert columns before',
    'sheet.insertColumnsAfter': 'Insert columns after',
    'sheet.deleteRows': 'Delete rows',
    'sheet.deleteColumns': 'Delete columns',
    'view.freezePanes': 'Freeze rows and columns',
    'view.freezeFirstColumn': 'Freeze first column',
    'view.freezeFirstRow': 'Freeze first row',
    'format.bordersAll': 'All borders',
    'format.bordersOuter': 'Outer border',
    'format.bordersNone': 'No borders',
    'format.bordersDialog': 'More borders…',
    'data.sort': 'Sort…',
    'data.standardFilter': 'Standard filter…',
    'data.removeFilter': 'Reset filter',
    'view.notes': 'Notes',
    'view.normal': 'Normal',
    'slide.hide': 'Hide slide',
    'slide.show': 'Show slide',
    'menu.slideLayout': 'Layout',
    'slide.layout.titleSlide': 'Title Slide',
    'slide.layout.titleContent': 'Title, Content',
    'slide.layout.title2Content': 'Title and 2 Content',
    'slide.layout.titleOnly': 'Title Only',
    'slide.layout.centeredText': 'Centered Text',
    'slide.layout.blank': 'Blank Slide',
  },
  fr: {
    'menu.trackChanges': 'Suivi des modifications',
    'menu.references': 'Références',
    'menu.form': 'Formulaire',
    'menu.page': 'Page',
    'references.indexEntry': "Entrée d'index…",
    'references.updateIndex': "Actualiser l'index",
    'references.notesSettings': 'Notes de bas de page et de fin…',
    'references.bookmark': 'Signet…',
    'references.crossReference': 'Renvoi…',
    'form.richText': 'Insérer du texte enrichi',
    'form.checkbox': 'Insérer une case à cocher',
    'form.dropdown': 'Insérer une liste déroulante',
    'form.picture': 'Insérer une image',
    'form.date': 'Insérer une date',
    'form.properties': 'Propriétés…',
    'menu.autoCorrect': 'AutoCorrection',
    'menu.table': 'Tableau',
    'menu.tools': 'Outils',
    'menu.data': 'Données',
    'menu.headerFooter': 'En-tête et pied de page',
    'menu.field': 'Champ',
    'menu.shape': 'Forme',
    'menu.tableInsert': 'Insérer',
    'menu.tableDelete': 'Supprimer',
    'menu.rows': 'Lignes',
    'menu.columns': 'Colonnes',
    'menu.borders': 'Bordures',
    'menu.freeze': 'Figer les cellules',
    'menu.notes': 'Notes de bas de page et de fin',
    'review.trackChanges': 'Enregistrer les modifications',
    'review.showChanges': 'Afficher les modifications',
    'review.previousChange': 'Modification précédente',
    'review.nextChange': 'Modification suivante',
    'review.acceptChange': 'Accepter la modification',
    'review.rejectChange': 'Rejeter la modification',
    'review.acceptAll': 'Tout accepter',
    'review.rejectAll': 'Tout rejeter',
    'review.manageChanges': 'Gérer les modifications…',
    'insert.header': 'En-tête',
    'insert.footer': 'Pied de page',
    'insert.pageNumber': 'Numéro de page',
    'insert.pageCount': 'Nombre de pages',
    'insert.date': 'Date',
    'insert.time': 'Heure',
    'insert.footnote': 'Note de bas de page',
    'insert.endnote': 'Note de fin',
    'insert.tableOfContents': 'Table des matières…',
    'insert.updateIndexes': 'Actualiser tous les index',
    'insert.textBox': 'Zone de texte',
    'insert.shape.rectangle': 'Rectangle',
    'insert.shape.ellipse': 'Ellipse',
    'insert.shape.arrow': 'Flèche droite',
    'insert.shape.star': 'Étoile',
    'insert.headerFooter': 'En-tête et pied de page…',
    'insert.slideNumber': 'Numéro de diapositive',
    'insert.pivotTable': 'Table dynamique…',
    'table.insertRowsAbove': 'Lignes au-dessus',
    'table.insertRowsBelow': 'Lignes en dessous',
    'table.insertColumnsBefore': 'Colonnes avant',
    'table.insertColumnsAfter': 'Colonnes après',
    'table.deleteRows': 'Lignes',
    'table.deleteColumns': 'Colonnes',
    'table.delete': 'Tableau',
    'table.mergeCells': 'Fusionner les cellules',
    'table.splitCells': 'Scinder les cellules…',
    'table.properties': 'Propriétés du tableau…',
    'tools.autoSpell': 'Vérification orthographique automatique',
    'tools.autoCorrectWhileTyping': 'Lors de la frappe',
    'sheet.insertRowsAbove': 'Insérer des lignes au-dessus',
    'sheet.insertRowsBelow': 'Insérer des lignes en dessous',
    'sheet.insertColumnsBefore': 'Insérer des colonnes avant',
    'sheet.insertColumnsAfter': 'Insérer des colonnes après',
    'sheet.deleteRows': 'Supprimer des lignes',
    'sheet.deleteColumns': 'Supprimer des colonnes',
    'view.freezePanes': 'Figer lignes et colonnes',
    'view.freezeFirstColumn': 'Figer la première colonne',
    'view.freezeFirstRow': 'Figer la première ligne',
    'format.bordersAll': 'Toutes les bordures',
    'format.bordersOuter': 'Bordure extérieure',
    'format.bordersNone': 'Aucune bordure',
    'format.bordersDialog': 'Autres bordures…',
    'data.sort': 'Trier…',
    'data.standardFilter': 'Filtre standard…',
    'data.removeFilter': 'Réinitialiser le filtre',
    'view.notes': 'Notes',
    'view.normal': 'Normal',
    'slide.hide': 'Masquer la diapositive',
    'slide.show': 'Afficher la diapositive',
    'menu.slideLayout': 'Disposition',
    'slide.layout.titleSlide': 'Diapositive de titre',
    'slide.layout.titleContent': 'Titre, contenu',
    'slide.layout.title2Content': 'Titre et 2 contenus',
    'slide.layout.titleOnly': 'Titre seul',
    'slide.layout.centeredText': 'Texte centré',
    'slide.layout.blank': 'Diapositive vide',
  },
  de: {
    'menu.trackChanges': 'Änderungen verfolgen',
    'menu.references': 'Referenzen',
    'menu.form': 'Formular',
    'menu.page': 'Seite',
    'references.indexEntry': 'Verzeichniseintrag…',
    'references.updateIndex': 'Verzeichnis aktualisieren',
    'references.notesSettings': 'Fuß- und Endnoten…',
    'references.bookmark': 'Lesezeichen…',
    'references.crossReference': 'Querverweis…',
    'form.richText': 'Rich-Text einfügen',
    'form.checkbox': 'Kontrollkästchen einfügen',
    'form.dropdown': 'Dropdown-Liste einfügen',
    'form.picture': 'Bild einfügen',
    'form.date': 'Datum einfügen',
    'form.properties': 'Eigenschaften…',
    'menu.autoCorrect': 'AutoKorrektur',
    'menu.table': 'Tabelle',
    'menu.tools': 'Extras',
    'menu.data': 'Daten',
    'menu.headerFooter': 'Kopf- und Fußzeile',
    'menu.field': 'Feldbefehl',
    'menu.shape': 'Form',
    'menu.tableInsert': 'Einfügen',
    'menu.tableDelete': 'Löschen',
    'menu.rows': 'Zeilen',
    'menu.columns': 'Spalten',
    'menu.borders': 'Umrandung',
    'menu.freeze': 'Zellen fixieren',
    'menu.notes': 'Fuß- und Endnoten',
    'review.trackChanges': 'Änderungen aufzeichnen',
    'review.showChanges': 'Änderungen anzeigen',
    'review.previousChange': 'Vorherige Änderung',
    'review.nextChange': 'Nächste Änderung',
    'review.acceptChange': 'Änderung annehmen',
    'review.rejectChange': 'Änderung ablehnen',
    'review.acceptAll': 'Alle annehmen',
    'review.rejectAll': 'Alle ablehnen',
    'review.manageChanges': 'Änderungen verwalten…',
    'insert.header': 'Kopfzeile',
    'insert.footer': 'Fußzeile',
    'insert.pageNumber': 'Seitennummer',
    'insert.pageCount': 'Seitenanzahl',
    'insert.date': 'Datum',
    'insert.time': 'Uhrzeit',
    'insert.footnote': 'Fußnote',
    'insert.endnote': 'Endnote',
    'insert.tableOfContents': 'Inhaltsverzeichnis…',
    'insert.updateIndexes': 'Alle Verzeichnisse aktualisieren',
    'insert.textBox': 'Textfeld',
    'insert.shape.rectangle': 'Rechteck',
    'insert.shape.ellipse': 'Ellipse',
    'insert.shape.arrow': 'Pfeil nach rechts',
    'insert.shape.star': 'Stern',
    'insert.headerFooter': 'Kopf- und Fußzeile…',
    'insert.slideNumber': 'Foliennummer',
    'insert.pivotTable': 'Pivot-Tabelle…',
    'table.insertRowsAbove': 'Zeilen oberhalb',
    'table.insertRowsBelow': 'Zeilen unterhalb',
    'table.insertColumnsBefore': 'Spalten davor',
    'table.insertColumnsAfter': 'Spalten danach',
    'table.deleteRows': 'Zeilen',
    'table.deleteColumns': 'Spalten',
    'table.delete': 'Tabelle',
    'table.mergeCells': 'Zellen verbinden',
    'table.splitCells': 'Zellen teilen…',
    'table.properties': 'Tabelleneigenschaften…',
    'tools.autoSpell': 'Automatische Rechtschreibprüfung',
    'tools.autoCorrectWhileTyping': 'Während der Eingabe',
    'sheet.insertRowsAbove': 'Zeilen oberhalb einfügen',
    'sheet.insertRowsBelow': 'Zeilen unterhalb einfügen',
    'sheet.insertColumnsBefore': 'Spalten davor einfügen',
    'sheet.insertColumnsAfter': 'Spalten danach einfügen',
    'sheet.deleteRows': 'Zeilen löschen',
    'sheet.deleteColumns': 'Spalten löschen',
    'view.freezePanes': 'Zeilen und Spalten fixieren',
    'view.freezeFirstColumn': 'Erste Spalte fixieren',
    'view.freezeFirstRow': 'Erste Zeile fixieren',
    'format.bordersAll': 'Alle Umrandungen',
    'format.bordersOuter': 'Äußere Umrandung',
    'format.bordersNone': 'Keine Umrandung',
    'format.bordersDialog': 'Weitere Umrandungen…',
    'data.sort': 'Sortieren…',
    'data.standardFilter': 'Standardfilter…',
    'data.removeFilter': 'Filter zurücksetzen',
    'view.notes': 'Notizen',
    'view.normal': 'Normal',
    'slide.hide': 'Folie ausblenden',
    'slide.show': 'Folie einblenden',
    'menu.slideLayout': 'Folienlayout',
    'slide.layout.titleSlide': 'Titelfolie',
    'slide.layout.titleContent': 'Titel, Inhalt',
    'slide.layout.title2Content': 'Titel und 2 Inhalte',
    'slide.layout.titleOnly': 'Nur Titel',
    'slide.layout.centeredText': 'Zentrierter Text',
    'slide.layout.blank': 'Leere Folie',
  },
});
