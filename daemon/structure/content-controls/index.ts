import type { StructureDocument } from '../document.ts';
import { StructureError } from '../errors.ts';
import { childPath, describe, expectBoolean, expectString, isPlainObject, type RecipeStep, type Selector } from '../transform/recipe.ts';
import type { ContentControl, ContentControlItem } from './content-control.ts';
import { streamedParts, type PartReader } from '../xml/read-tree.ts';
import { findOdfContentControls, odfContentControlItems } from './odf-content-control.ts';
import { findOoxmlSdts, ooxmlSdtItems } from './ooxml-sdt.ts';

export type { ContentControlItem, ContentControlType } from './content-control.ts';

/**
 * Content controls (spec: "Content control item", "Content-control selectors" and "Content-control
 * properties") of docx (w:sdt, ooxml-sdt.ts) and odt (loext:content-control, odf-content-control.ts). Order,
 * what counts and what maps to what: docs/structure/content-controls.md.
 */

/** The content controls of a docx or odt, in document order; none for other formats. */
export function contentControlsOf(doc: StructureDocument): ContentControl[] {
  if (doc.format === 'docx') return findOoxmlSdts(doc);
  if (doc.format === 'odt') return findOdfContentControls(doc);
  return [];
}

/**
 * Content controls of a docx or odt, keyed `ContentControls.ByIndex.<n>` in document order (outer before inner).
 * The parts are read as stored in the package, through trees built from the stream (`parts`; `domParts` reads
 * their DOM, as transformations do, which the equivalence tests compare against).
 * @throws StructureError bad_package when a part is not well-formed.
 */
export function extractContentControls(doc: StructureDocument, parts: PartReader = streamedParts): Record<string, ContentControlItem> {
  const items = doc.format === 'docx' ? ooxmlSdtItems(doc, parts) : doc.format === 'odt' ? odfContentControlItems(doc, parts) : [];
  const out: Record<string, ContentControlItem> = {};
  items.forEach((item, i) => {
    out[`ContentControls.ByIndex.${i}`] = item;
  });
  return out;
}

/** The properties a transformation may set (spec: "Content-control properties"). */
const PROPERTIES = ['content', 'checked', 'alias', 'date'] as const;
type Property = (typeof PROPERTIES)[number];

interface Change {
  property: Property;
  value: string | boolean;
}

/**
 * Applies one `ContentControls.<Method>.<Index>` step: its value is an object with any of `content` (string),
 * `checked` (boolean), `alias` (string) and `date` (ISO 8601 date string), set in the order given on every
 * matching control in document order. Checkbox content and Checked stay in sync: content must be the checked or
 * unchecked glyph and sets the state; `checked` shows the glyph. `date` sets a date control's value and not its
 * text; `content` on a date sets only the text. Everything is checked before anything is changed.
 * @throws StructureError unknown_selector (method not ByIndex/ById/ByAlias/ByTag), bad_value (index or value of
 *   the wrong type, a checkbox content that is not a state glyph, a date that is not ISO 8601), out_of_range
 *   (ByIndex past the end), no_match (ById/ByAlias/ByTag matching nothing), unknown_command (unknown property),
 *   unsupported_command (content of a picture control), wrong_kind (checked on a non-checkbox, date on a
 *   non-date control); each with the path of the offending recipe member.
 */
export function transformContentControls(doc: StructureDocument, selector: Selector, step: RecipeStep): void {
  const all = contentControlsOf(doc);
  const targets = select(all, selector, step.path);
  const changes = parseChanges(step);
  const items = targets.map((cc) => cc.item());
  for (const [i, cc] of targets.entries()) for (const change of changes) check(cc, items[i], change, step.path);
  for (const cc of targets) for (const change of changes) apply(cc, change);
}

function select(all: ContentControl[], selector: Selector, path: string): ContentControl[] {
  const { method, index } = selector;
  if (method === 'ByIndex') {
    if (!/^\d+$/.test(index)) throw new StructureError('bad_value', `${path}: ByIndex needs a whole number from 0, got "${index}"`, path);
    const n = Number(index);
    if (n >= all.length) throw new StructureError('out_of_range', `${path}: there is no content control ${n}; the document has ${all.length}`, path);
    return [all[n]];
  }
  let matches: ContentControl[];
  if (method === 'ById') {
    if (!/^-?\d+$/.test(index)) throw new StructureError('bad_value', `${path}: ById needs a whole number, got "${index}"`, path);
    matches = all.filter((cc) => cc.identity().id === Number(index));
  } else if (method === 'ByAlias') {
    matches = all.filter((cc) => cc.identity().alias === index);
  } else if (method === 'ByTag') {
    matches = all.filter((cc) => cc.identity().tag === index);
  } else {
    throw new StructureError('unknown_selector', `${path}: "${method}" is not a content-control selector (ByIndex, ById, ByAlias, ByTag)`, path);
  }
  if (matches.length === 0) throw new StructureError('no_match', `${path}: no content control has ${method.slice(2).toLowerCase()} "${index}"`, path);
  return matches;
}

function parseChanges(step: RecipeStep): Change[] {
  if (!isPlainObject(step.value))
    throw new StructureError(
      'bad_value',
      `${step.path} must be an object of content-control properties (content, checked, alias, date), got ${describe(step.value)}`,
      step.path,
    );
  return Object.entries(step.value).map(([key, value]) => {
    const path = childPath(step.path, key);
    if (!(PROPERTIES as readonly string[]).includes(key))
      throw new StructureError('unknown_command', `${path}: "${key}" is not a content-control property (content, checked, alias, date)`, path);
    const property = key as Property;
    if (property === 'checked') return { property, value: expectBoolean(value, path) };
    const text = expectString(value, path);
    return { property, value: property === 'date' ? normaliseDate(text, path) : text };
  });
}

/**
 * An ISO 8601 date or date-time as Word and LibreOffice store a control's date (`2024-05-01T00:00:00Z`).
 * @throws StructureError bad_value when it is not one, or not a real calendar date.
 */
export function normaliseDate(text: string, path: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(text.trim());
  const valid =
    m &&
    (() => {
      const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
      return (
        d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]) && Number(m[4] ?? 0) < 24 && Number(m[5] ?? 0) < 60 && Number(m[6] ?? 0) < 60
      );
    })();
  if (!m || !valid) throw new StructureError('bad_value', `${path} must be an ISO 8601 date such as 2024-05-01, got ${describe(text)}`, path);
  return `${m[1]}-${m[2]}-${m[3]}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}${m[7] ?? ''}${m[8] ?? 'Z'}`;
}

function check(cc: ContentControl, item: ContentControlItem, change: Change, stepPath: string): void {
  const path = childPath(stepPath, change.property);
  const where = `content control "${item.alias || item.tag || item.id}" (${item.type})`;
  if (change.property === 'content') {
    if (item.type === 'picture')
      throw new StructureError('unsupported_command', `${path}: ${where} is a picture control; setting its content is not supported`, path);
    const states = cc.checkboxStates();
    if (states && change.value !== states.checked && change.value !== states.unchecked) {
      throw new StructureError(
        'bad_value',
        `${path}: ${where} is a checkbox; its content must be "${states.checked}" (checked) or "${states.unchecked}" (unchecked), got ${describe(change.value)}`,
        path,
      );
    }
  } else if (change.property === 'checked' && item.type !== 'checkbox') {
    throw new StructureError('wrong_kind', `${path}: ${where} is not a checkbox`, path);
  } else if (change.property === 'date' && item.type !== 'date') {
    throw new StructureError('wrong_kind', `${path}: ${where} is not a date control`, path);
  }
}

function apply(cc: ContentControl, change: Change): void {
  switch (change.property) {
    case 'content': {
      const states = cc.checkboxStates();
      if (states) cc.setChecked(change.value === states.checked);
      else cc.setContent(change.value as string);
      break;
    }
    case 'checked':
      cc.setChecked(change.value as boolean);
      break;
    case 'alias':
      cc.setAlias(change.value as string);
      break;
    case 'date':
      cc.setDate(change.value as string);
      break;
  }
}
