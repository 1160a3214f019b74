/**
 * A presentation as the slide commands and the slides extraction see it, independent of the file format. One
 * implementation per format: `pptx-deck.ts` (PresentationML, ECMA-376 Part 1 19) and `odp-deck.ts` (ODF 1.3
 * draw:page). The command interpreter (`commands.ts`) keeps the current slide and applies the spec's rules
 * (index adjustment, the last slide cannot be deleted, unique names) on top of this interface, so both formats
 * behave the same.
 *
 * Indexes are 0-based. Methods change the document's parsed parts through StructureDocument (xml + markChanged),
 * so `StructureDocument.save()` writes them.
 */
import type { SlidesResult } from './index.ts';

/** A character position in a text object: paragraph index and character offset (UTF-16 code units), 0-based. */
export interface TextPosition {
  paragraph: number;
  offset: number;
}

/** A selection in a text object, from `start` (inclusive) to `end` (exclusive); empty when equal. */
export interface TextRange {
  start: TextPosition;
  end: TextPosition;
}

/**
 * A character formatting change. Each toggle is set to the new state (the interpreter decides the state from the
 * selection's current formatting, as LibreOffice's toggles do). `color` / `backColor` are 0xRRGGBB, -1 = automatic.
 */
export interface CharFormat {
  bold?: boolean;
  italic?: boolean;
  strikeout?: boolean;
  shadowed?: boolean;
  underline?: boolean;
  /** 'super' or 'sub' sets the escapement; 'none' clears it. */
  escapement?: 'super' | 'sub' | 'none';
  color?: number;
  backColor?: number;
}

/** The character toggles and escapement in force at a position (what Bold, Superscript... toggle from). */
export type CharState = Required<Pick<CharFormat, 'bold' | 'italic' | 'strikeout' | 'shadowed' | 'underline'>> & { escapement: 'super' | 'sub' | 'none' };

/** A paragraph formatting change, applied to whole paragraphs. */
export interface ParaFormat {
  align?: 'left' | 'center' | 'right' | 'justify';
  /** Bullets (.uno:DefaultBullet) and numbering (.uno:DefaultNumbering) on or off. */
  bullet?: boolean;
  numbering?: boolean;
}

/** The text of one object (shape) of a slide, editable. */
export interface TextObjectEditor {
  /** The paragraphs' plain text. */
  paragraphs(): string[];
  /** The character formatting in force at a position (for deciding toggles). */
  charFormatAt(pos: TextPosition): CharState;
  /** The paragraph formatting of a paragraph (for deciding bullet/numbering toggles). */
  paraFormatAt(paragraph: number): Required<Pick<ParaFormat, 'bullet' | 'numbering'>>;
  /** Replaces `range` with `text`; `\n` starts a new paragraph. Returns the position after the inserted text. */
  insertText(range: TextRange, text: string): TextPosition;
  /** Applies character formatting to `range` (no-op when the range is empty). */
  formatChars(range: TextRange, format: CharFormat): void;
  /** Applies paragraph formatting to paragraphs `first`..`last` inclusive. */
  formatParagraphs(first: number, last: number, format: ParaFormat): void;
}

/** One presentation, open for slide commands. */
export interface SlideDeck {
  /** Number of slides. */
  slideCount(): number;
  /** Names of the master slides, in order (MasterSlides of the extraction). */
  masterNames(): string[];
  /** The names of the slides, in order (SlideName of the extraction). */
  slideNames(): string[];
  /** The whole slides result as the extraction reports it. */
  describe(): SlidesResult;
  /** Inserts a new empty slide based on master `master` at index `at`. */
  insertSlide(at: number, master: number): void;
  /** Deletes slide `index`. */
  deleteSlide(index: number): void;
  /** Moves slide `from` so that it ends at index `to`. */
  moveSlide(from: number, to: number): void;
  /** Inserts a copy of slide `index` at `index + 1`. */
  duplicateSlide(index: number): void;
  /** Layout ids and names this format can apply (LibreOffice's AutoLayout ids and names, e.g. 1 AUTOLAYOUT_TITLE_CONTENT). */
  layouts(): ReadonlyArray<{ id: number; name: string }>;
  /** Changes the layout of slide `index` to AutoLayout `layoutId`. */
  changeLayout(index: number, layoutId: number): void;
  /** Renames slide `index`. */
  renameSlide(index: number, name: string): void;
  /** Number of objects (shapes) on slide `index`, in the extraction's order. */
  objectCount(index: number): number;
  /** The text editor of object `object` on slide `index`, or undefined when it cannot hold text. */
  textObject(index: number, object: number): TextObjectEditor | undefined;
}
