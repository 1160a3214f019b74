/**
 * The slide command interpreter (spec: Transformation, "Slide commands" and the edit commands of
 * EditTextObject), format-neutral over a `SlideDeck`. Semantics follow LibreOffice/Collabora's implementation
 * (sd unomodel.cxx, the SlideCommands handlers) with one difference: where LibreOffice logs a warning and clamps
 * a bad index, we refuse the recipe with an error whose path points at the command (nothing is written). The
 * rules, one by one, are in docs/structure/slides.md.
 */
import { StructureError } from '../errors.ts';
import { commandList, describe, expectInteger, expectString, isPlainObject, type RecipeStep } from '../transform/recipe.ts';
import type { CharFormat, ParaFormat, SlideDeck, TextObjectEditor, TextPosition, TextRange } from './deck.ts';

/** The state of one SlideCommands list: the current slide, and the object EditTextObject left selected. */
interface State {
  deck: SlideDeck;
  current: number;
  /** The object left marked by the last EditTextObject on the current slide (slide-level UnoCommand acts on it). */
  marked?: number;
}

/** The UNO commands the spec lists as tested, by name. */
const UNO_TOGGLES: Record<string, keyof Pick<CharFormat, 'bold' | 'italic' | 'strikeout' | 'shadowed' | 'underline'>> = {
  '.uno:Bold': 'bold',
  '.uno:Italic': 'italic',
  '.uno:Strikeout': 'strikeout',
  '.uno:Shadowed': 'shadowed',
  '.uno:Underline': 'underline',
};
const UNO_ALIGN: Record<string, NonNullable<ParaFormat['align']>> = {
  '.uno:LeftPara': 'left',
  '.uno:CenterPara': 'center',
  '.uno:RightPara': 'right',
  '.uno:JustifyPara': 'justify',
};
const UNO_OTHER = ['.uno:SuperScript', '.uno:SubScript', '.uno:DefaultBullet', '.uno:DefaultNumbering', '.uno:Color', '.uno:CharBackColor'];

/** Runs deck calls, giving errors without a path the command's path. */
function at<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof StructureError && !e.path) throw new StructureError(e.code, `${path}: ${e.message}`, path);
    throw e;
  }
}

/** True for the "no value" forms of DeleteSlide / DuplicateSlide: "", null, "NONE". */
function isNone(v: unknown): boolean {
  return v === '' || v === null || v === 'NONE';
}

/** A slide index in [0, count). */
function slideIndex(v: unknown, path: string, count: number): number {
  return expectInteger(v, path, 0, count - 1);
}

/**
 * Runs the commands of a SlideCommands step against `deck`, in order, from current slide 0.
 * @throws StructureError naming the failing command's path.
 */
export function runSlideCommands(deck: SlideDeck, step: RecipeStep): void {
  const state: State = { deck, current: 0 };
  for (const cmd of commandList(step.value, step.path)) runCommand(state, cmd);
}

function runCommand(s: State, cmd: RecipeStep): void {
  const { deck } = s;
  const { key, value, path } = cmd;
  const count = deck.slideCount();
  const dot = key.indexOf('.');
  const name = dot < 0 ? key : key.slice(0, dot);
  const arg = dot < 0 ? undefined : key.slice(dot + 1);
  const needNoArg = () => {
    if (arg !== undefined) throw new StructureError('unknown_command', `${path}: "${key}" is not a slide command (${name} takes no ".<n>")`, path);
  };
  const objectArg = (): number => {
    if (arg === undefined || !/^\d+$/.test(arg)) throw new StructureError('bad_value', `${path}: ${name} needs an object index, as in "${name}.0"`, path);
    return expectInteger(Number(arg), path, 0, deck.objectCount(s.current) - 1);
  };
  switch (name) {
    case 'JumpToSlide':
      needNoArg();
      s.current = value === 'last' ? count - 1 : slideIndex(value, path, count);
      s.marked = undefined;
      return;
    case 'JumpToSlideByName': {
      needNoArg();
      const wanted = expectString(value, path);
      const i = deck.slideNames().indexOf(wanted);
      if (i < 0) throw new StructureError('no_match', `${path}: no slide is named ${JSON.stringify(wanted)}`, path);
      s.current = i;
      s.marked = undefined;
      return;
    }
    case 'InsertMasterSlide':
    case 'InsertMasterSlideByName': {
      needNoArg();
      const masters = deck.masterNames();
      let m: number;
      if (name === 'InsertMasterSlide') m = expectInteger(value, path, 0, masters.length - 1);
      else {
        m = masters.indexOf(expectString(value, path));
        if (m < 0)
          throw new StructureError(
            'no_match',
            `${path}: no master slide is named ${JSON.stringify(value)}; the masters are ${masters.map((n) => JSON.stringify(n)).join(', ')}`,
            path,
          );
      }
      at(path, () => deck.insertSlide(s.current + 1, m));
      s.current += 1;
      s.marked = undefined;
      return;
    }
    case 'DeleteSlide': {
      needNoArg();
      const i = isNone(value) ? s.current : slideIndex(value, path, count);
      if (count <= 1) throw new StructureError('out_of_range', `${path}: the last remaining slide cannot be deleted`, path);
      at(path, () => deck.deleteSlide(i));
      if (i <= s.current) s.current = Math.max(0, s.current - 1);
      s.marked = undefined;
      return;
    }
    case 'MoveSlide': {
      const from = arg === undefined ? s.current : slideIndex(arg, path, count);
      if (arg !== undefined && !/^\d+$/.test(arg)) throw new StructureError('bad_value', `${path}: MoveSlide.<n> needs a slide index`, path);
      // LibreOffice accepts the slide count as "to the end".
      const to = Math.min(expectInteger(value, path, 0, count), count - 1);
      if (from === to) return;
      at(path, () => deck.moveSlide(from, to));
      const cur = s.current;
      if (cur === from) s.current = to;
      else if (from < cur && to >= cur) s.current = cur - 1;
      else if (from > cur && to <= cur) s.current = cur + 1;
      return;
    }
    case 'DuplicateSlide': {
      needNoArg();
      const i = isNone(value) ? s.current : slideIndex(value, path, count);
      at(path, () => deck.duplicateSlide(i));
      s.current = i + 1;
      s.marked = undefined;
      return;
    }
    case 'ChangeLayout':
    case 'ChangeLayoutByName': {
      needNoArg();
      const layouts = deck.layouts();
      let id: number;
      if (name === 'ChangeLayout') {
        id = expectInteger(value, path);
        if (!layouts.some((l) => l.id === id))
          throw new StructureError('out_of_range', `${path}: ${id} is not a layout id; the ids are ${layouts.map((l) => l.id).join(', ')}`, path);
      } else {
        const found = layouts.find((l) => l.name === expectString(value, path));
        if (!found)
          throw new StructureError(
            'no_match',
            `${path}: ${JSON.stringify(value)} is not a layout name; the names are ${layouts.map((l) => l.name).join(', ')}`,
            path,
          );
        id = found.id;
      }
      at(path, () => deck.changeLayout(s.current, id));
      return;
    }
    case 'RenameSlide': {
      needNoArg();
      const newName = expectString(value, path);
      if (newName === '') throw new StructureError('bad_value', `${path}: a slide name cannot be empty`, path);
      if (/^Slide \d+$/.test(newName)) throw new StructureError('bad_value', `${path}: default names such as ${JSON.stringify(newName)} cannot be set`, path);
      const names = deck.slideNames();
      const clash = names.findIndex((n, i) => n === newName && i !== s.current);
      if (clash >= 0) throw new StructureError('bad_value', `${path}: slide ${clash} is already named ${JSON.stringify(newName)}; names must be unique`, path);
      at(path, () => deck.renameSlide(s.current, newName));
      return;
    }
    case 'SetText': {
      const obj = objectArg();
      const text = expectString(value, path);
      const editor = textObject(s, obj, path);
      const paras = editor.paragraphs();
      editor.insertText({ start: { paragraph: 0, offset: 0 }, end: { paragraph: paras.length - 1, offset: paras[paras.length - 1].length } }, text);
      return;
    }
    case 'EditTextObject': {
      const obj = objectArg();
      const editor = textObject(s, obj, path);
      editTextObject(editor, value, path);
      s.marked = obj;
      return;
    }
    case 'UnoCommand': {
      needNoArg();
      const uno = parseUno(value, path);
      if (s.marked === undefined) {
        throw new StructureError(
          'unsupported_command',
          `${path}: ${uno.name} at slide level acts on the selected object, and none is selected (edit one with EditTextObject.<n> first, or put the UnoCommand inside it)`,
          path,
        );
      }
      const editor = textObject(s, s.marked, path);
      const paras = editor.paragraphs();
      applyUno(editor, { start: { paragraph: 0, offset: 0 }, end: { paragraph: paras.length - 1, offset: paras[paras.length - 1].length } }, uno, path);
      return;
    }
    default:
      throw new StructureError('unknown_command', `${path}: "${key}" is not a slide command`, path);
  }
}

function textObject(s: State, obj: number, path: string): TextObjectEditor {
  const editor = s.deck.textObject(s.current, obj);
  if (!editor) throw new StructureError('wrong_kind', `${path}: object ${obj} of slide ${s.current} is not a text object`, path);
  return editor;
}

/** Runs the edit commands of EditTextObject.<n>: SelectParagraph, SelectText, InsertText, UnoCommand. */
function editTextObject(editor: TextObjectEditor, value: unknown, path: string): void {
  // The text edit starts with the cursor at the start of the text.
  let sel: TextRange = { start: { paragraph: 0, offset: 0 }, end: { paragraph: 0, offset: 0 } };
  for (const cmd of commandList(value, path)) {
    const paras = editor.paragraphs();
    switch (cmd.key) {
      case 'SelectParagraph': {
        const p = cmd.value === '*' ? paras.length - 1 : expectInteger(cmd.value, cmd.path, 0, paras.length - 1);
        sel = { start: { paragraph: p, offset: 0 }, end: { paragraph: p, offset: paras[p].length } };
        break;
      }
      case 'SelectText':
        sel = selectText(paras, cmd.value, cmd.path);
        break;
      case 'InsertText': {
        const text = expectString(cmd.value, cmd.path);
        const start = sel.start;
        const end = editor.insertText(sel, text);
        // LibreOffice selects the inserted text.
        sel = { start, end };
        break;
      }
      case 'UnoCommand':
        applyUno(editor, sel, parseUno(cmd.value, cmd.path), cmd.path);
        break;
      default:
        throw new StructureError(
          'unknown_command',
          `${cmd.path}: "${cmd.key}" is not an edit command (SelectParagraph, SelectText, InsertText, UnoCommand)`,
          cmd.path,
        );
    }
  }
}

/**
 * SelectText [para, char, para2, char2] (LibreOffice's ESelection order): none = all text; one = that paragraph;
 * two = a cursor at (para, char); three = from (para, char) to the end of para2; "*" = the last paragraph or the
 * last character of the paragraph.
 */
function selectText(paras: string[], value: unknown, path: string): TextRange {
  if (!Array.isArray(value)) throw new StructureError('bad_value', `${path} must be an array of 0 to 4 numbers, got ${describe(value)}`, path);
  if (value.length > 4) throw new StructureError('bad_value', `${path} takes at most 4 numbers, got ${value.length}`, path);
  const lastPara = paras.length - 1;
  const para = (v: unknown, i: number) => (v === '*' ? lastPara : expectInteger(v, `${path}[${i}]`, 0, lastPara));
  const char = (v: unknown, i: number, p: number) => (v === '*' ? paras[p].length : expectInteger(v, `${path}[${i}]`, 0, paras[p].length));
  const pos = (p: number, c: number): TextPosition => ({ paragraph: p, offset: c });
  switch (value.length) {
    case 0:
      return { start: pos(0, 0), end: pos(lastPara, paras[lastPara].length) };
    case 1: {
      const p = para(value[0], 0);
      return { start: pos(p, 0), end: pos(p, paras[p].length) };
    }
    case 2: {
      const p = para(value[0], 0);
      const c = char(value[1], 1, p);
      return { start: pos(p, c), end: pos(p, c) };
    }
    default: {
      const p1 = para(value[0], 0);
      const c1 = char(value[1], 1, p1);
      const p2 = para(value[2], 2);
      const c2 = value.length === 4 ? char(value[3], 3, p2) : paras[p2].length;
      const a = pos(p1, c1);
      const b = pos(p2, c2);
      const before = a.paragraph < b.paragraph || (a.paragraph === b.paragraph && a.offset <= b.offset);
      return before ? { start: a, end: b } : { start: b, end: a };
    }
  }
}

/** A parsed UNO command: its name and its JSON argument object. */
interface Uno {
  name: string;
  args: Record<string, unknown>;
}

/**
 * Parses ".uno:Name" or ".uno:Name {json}".
 * @throws StructureError bad_value (not a string, bad JSON), unsupported_command (not in the tested list).
 */
function parseUno(value: unknown, path: string): Uno {
  const text = expectString(value, path).trim();
  const space = text.search(/[\s{]/);
  const name = space < 0 ? text : text.slice(0, space);
  const rest = space < 0 ? '' : text.slice(space).trim();
  let args: Record<string, unknown> = {};
  if (rest) {
    try {
      const parsed: unknown = JSON.parse(rest);
      if (!isPlainObject(parsed)) throw new Error('not an object');
      args = parsed;
    } catch (e) {
      throw new StructureError('bad_value', `${path}: the argument of ${name} must be a JSON object: ${(e as Error).message}`, path);
    }
  }
  if (!(name in UNO_TOGGLES) && !(name in UNO_ALIGN) && !UNO_OTHER.includes(name)) {
    throw new StructureError(
      'unsupported_command',
      `${path}: ${JSON.stringify(name)} is not supported; the supported UNO commands are ${[...Object.keys(UNO_TOGGLES), ...UNO_OTHER, ...Object.keys(UNO_ALIGN)].join(', ')}`,
      path,
    );
  }
  return { name, args };
}

/** The color of `.uno:Color {"Color.Color": {"type": "long", "value": n}}` (or CharBackColor.Color). */
function colorArg(uno: Uno, key: string, path: string): number {
  const arg = uno.args[key] ?? uno.args[key.split('.')[0]];
  const v = isPlainObject(arg) ? arg.value : arg;
  if (v === undefined) throw new StructureError('bad_value', `${path}: ${uno.name} needs the argument {"${key}": {"type": "long", "value": <colour>}}`, path);
  return expectInteger(v, path, -1, 0xffffff);
}

/** Applies a tested UNO command to the selection (character commands) or its paragraphs (paragraph commands). */
function applyUno(editor: TextObjectEditor, sel: TextRange, uno: Uno, path: string): void {
  const toggle = UNO_TOGGLES[uno.name];
  if (toggle) {
    const now = editor.charFormatAt(sel.start)[toggle];
    editor.formatChars(sel, { [toggle]: !now });
    return;
  }
  const align = UNO_ALIGN[uno.name];
  if (align) {
    editor.formatParagraphs(sel.start.paragraph, sel.end.paragraph, { align });
    return;
  }
  switch (uno.name) {
    case '.uno:SuperScript':
    case '.uno:SubScript': {
      const want = uno.name === '.uno:SuperScript' ? 'super' : 'sub';
      editor.formatChars(sel, { escapement: editor.charFormatAt(sel.start).escapement === want ? 'none' : want });
      return;
    }
    case '.uno:DefaultBullet':
    case '.uno:DefaultNumbering': {
      const kind = uno.name === '.uno:DefaultBullet' ? 'bullet' : 'numbering';
      const on = editor.paraFormatAt(sel.start.paragraph)[kind];
      editor.formatParagraphs(sel.start.paragraph, sel.end.paragraph, { [kind]: !on });
      return;
    }
    case '.uno:Color':
      editor.formatChars(sel, { color: colorArg(uno, 'Color.Color', path) });
      return;
    case '.uno:CharBackColor':
      editor.formatChars(sel, { backColor: colorArg(uno, 'CharBackColor.Color', path) });
      return;
  }
}
