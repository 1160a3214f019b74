/**
 * The document of the fake kit (kit.md, "The fake kit"): the opened file's bytes kept as they are, and a plain
 * text that typed keys, text input and pastes append to. Saving writes the package back with that text in one
 * extra part (FAKE_TEXT_PART); opening a file that has the part starts from its text, so a journal snapshot or a
 * stored save opened again goes on where it stopped. No LibreOffice: nothing is laid out, converted or rendered.
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { FAKE_KIT_TEXT_PART, type KitEditEvent } from '../../protocol/kit.ts';
import { LOK_DOCTYPE_DRAWING, LOK_DOCTYPE_PRESENTATION, LOK_DOCTYPE_SPREADSHEET, LOK_DOCTYPE_TEXT } from '../../protocol/lok-enums.ts';

/** The page size the fake reports for every document: A4 in twips (11906 x 16838). */
export const FAKE_PAGE_TWIPS = { width: 11906, height: 16838 } as const;

/** A zip package starts with a local file header (PK\3\4). */
function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** LOK_DOCTYPE_* of a file name, as LibreOffice would detect it from the usual extensions; anything else is text. */
export function docTypeOf(path: string): number {
  const ext = extname(path).toLowerCase().slice(1);
  if (/^(xlsx|xlsm|xls|ods|fods|csv)$/.test(ext)) return LOK_DOCTYPE_SPREADSHEET;
  if (/^(pptx|pptm|ppt|odp|fodp)$/.test(ext)) return LOK_DOCTYPE_PRESENTATION;
  if (/^(odg|fodg|vsdx|pdf)$/.test(ext)) return LOK_DOCTYPE_DRAWING;
  return LOK_DOCTYPE_TEXT;
}

/**
 * The text a file saved by the fake kit holds (its FAKE_KIT_TEXT_PART), '' when it has none. For files that are not
 * zip packages the fake appends the text after the original bytes instead, and this returns ''.
 */
export function fakeTextOf(bytes: Uint8Array): string {
  if (!isZip(bytes)) return '';
  try {
    const part = unzipSync(bytes, { filter: (f) => f.name === FAKE_KIT_TEXT_PART })[FAKE_KIT_TEXT_PART];
    return part ? strFromU8(part) : '';
  } catch {
    return '';
  }
}

/** One view of the fake document: its rights as `open`/`createView` gave them. */
interface FakeView {
  readOnly: boolean;
  userName: string;
}

/** The open document of a fake kit: bytes, text, modified flag and views (see the module docstring). */
export class FakeDocument {
  /** The text typed, pasted or found in the opened file's text part. */
  text: string;
  /** Changed since it was opened or last saved (LibreOffice's ModifiedStatus). */
  modified = false;
  readonly docType: number;
  readonly views = new Map<number, FakeView>();
  private nextViewId = 0;
  private readonly original: Uint8Array;

  /** Reads `path` (the kit folder copy the daemon downloaded, or a journal snapshot). @throws Error when unreadable. */
  constructor(readonly path: string) {
    this.original = new Uint8Array(readFileSync(path));
    this.text = fakeTextOf(this.original);
    this.docType = docTypeOf(path);
  }

  /** A new view (LibreOffice numbers views from 0); returns its id. */
  addView(userName: string, readOnly: boolean): number {
    const id = this.nextViewId++;
    this.views.set(id, { readOnly, userName });
    return id;
  }

  /**
   * Applies one input event of a view: a typed character (key `input` with a charCode; 13 a line break, 8 deletes
   * the last character), `textInput` and a finished `composition` append their text. Read-only views change nothing.
   * @returns true when the text changed.
   */
  input(viewId: number, event: KitEditEvent): boolean {
    const view = this.views.get(viewId);
    if (!view || view.readOnly) return false;
    const before = this.text;
    if (event.type === 'key' && event.event === 'input') {
      if (event.charCode === 8) this.text = this.text.slice(0, -1);
      else if (event.charCode === 13) this.text += '\n';
      else if (event.charCode >= 32) this.text += String.fromCodePoint(event.charCode);
    } else if (event.type === 'textInput') {
      this.text += event.text;
    } else if (event.type === 'composition' && event.stage === 'end') {
      this.text += event.text;
    }
    if (this.text === before) return false;
    this.modified = true;
    return true;
  }

  /** Pastes `data` (text/plain only: other flavours are refused, as LibreOffice refuses what it cannot read). */
  paste(viewId: number, mimeType: string, data: Uint8Array): boolean {
    const view = this.views.get(viewId);
    if (!view || view.readOnly || !mimeType.startsWith('text/plain')) return false;
    this.text += new TextDecoder().decode(data);
    this.modified = true;
    return true;
  }

  /**
   * The file as a save writes it: a zip package gets (or replaces) FAKE_KIT_TEXT_PART holding the text, its other
   * parts unchanged (an ODF `mimetype` stays first and stored); any other file is its original bytes followed by the
   * text in UTF-8.
   */
  bytes(): Uint8Array {
    if (!isZip(this.original)) return Buffer.concat([this.original, strToU8(this.text)]);
    const parts = unzipSync(this.original);
    const out: Zippable = {};
    for (const [name, data] of Object.entries(parts)) {
      if (name !== FAKE_KIT_TEXT_PART) out[name] = name === 'mimetype' ? [data, { level: 0 }] : data;
    }
    out[FAKE_KIT_TEXT_PART] = strToU8(this.text);
    return zipSync(out);
  }
}
