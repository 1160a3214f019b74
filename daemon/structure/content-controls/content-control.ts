/**
 * The format-neutral content control (spec: "Content control item" and "Content-control properties"): what the
 * extraction reports and what a transformation may change. The DOCX (`ooxml-sdt.ts`, w:sdt) and ODT
 * (`odf-content-control.ts`, loext:content-control) proxies implement it over the parsed parts of a
 * StructureDocument, so selectors and validation (`index.ts`) are written once.
 */

/** The control types of the spec, spelled as LibreOffice's ExtractDocumentStructure spells them. */
export type ContentControlType = 'rich-text' | 'plain-text' | 'checkbox' | 'drop-down-list' | 'combo-box' | 'date' | 'picture';

/** A content control item of the extraction result (spec: "Content control item"). */
export interface ContentControlItem {
  /** w:id / loext:id; may be negative (a signed 32-bit number) and need not be unique; 0 when absent. */
  id: number;
  tag: string;
  alias: string;
  /** The text as shown: runs' text, tabs as "\t", line breaks as "\n", paragraphs joined by "\n". */
  content: string;
  type: ContentControlType;
  /** Checkbox only: "true" or "false". */
  Checked?: string;
  /** Date only: the display pattern, e.g. `dd-MM-yyyy`. */
  DateFormat?: string;
  /** Date only: the BCP 47 language tag of the display, e.g. `da-DK`. */
  DateLanguage?: string;
  /** Date only: the stored value, ISO 8601 as written in the document (e.g. `2012-01-11T00:00:00Z`), or "". */
  CurrentDate?: string;
}

/** The checkbox glyphs a control shows for each state (w14:checkedState / loext:checked-state). */
export interface CheckboxStates {
  checked: string;
  unchecked: string;
}

/** One content control of an open document, with the writes a transformation needs. */
export interface ContentControl {
  /** The item as extraction reports it. */
  item(): ContentControlItem;
  /** id, tag and alias only (what the selectors match), without reading the content. */
  identity(): Pick<ContentControlItem, 'id' | 'tag' | 'alias'>;
  /** The two glyphs of a checkbox; undefined for other types. */
  checkboxStates(): CheckboxStates | undefined;
  /** Replaces the shown text by `text` (unformatted; the first run's formatting is kept), clearing the placeholder flag; "" restores the placeholder text where the document has one. */
  setContent(text: string): void;
  /** Sets a checkbox's state and shows the matching glyph. */
  setChecked(checked: boolean): void;
  /** Sets the alias (Word's "title"). */
  setAlias(alias: string): void;
  /** Sets a date control's stored value (ISO 8601), not its shown text. */
  setDate(iso: string): void;
}

/** Unicode ballot boxes: the default checkbox glyphs of Word and LibreOffice. */
export const DEFAULT_CHECKBOX_STATES: CheckboxStates = { checked: '\u2612', unchecked: '\u2610' };
