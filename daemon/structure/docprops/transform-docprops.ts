import type { StructureDocument } from '../document.ts';
import { isOoxml } from '../document.ts';
import { StructureError } from '../errors.ts';
import { childPath, commandList, expectInteger, expectString, isPlainObject, describe, type RecipeStep } from '../transform/recipe.ts';
import { writeOdfProperties } from './odf-docprops-writer.ts';
import { writeOoxmlProperties } from './ooxml-docprops-writer.ts';

/**
 * DocumentProperties transformation (spec: Transformation, "Document-property commands"): `DocumentProperties`
 * with members named like the extracted properties; statistics cannot be changed; `UserDefinedProperties` is an
 * array of `Add.<name>` ({type, value}) and `Delete` (name) commands, or the older object form.
 */

/** The string properties of the spec. */
export const STRING_PROPERTIES = [
  'Author',
  'Generator',
  'Title',
  'Subject',
  'Description',
  'Language',
  'ModifiedBy',
  'PrintedBy',
  'TemplateName',
  'TemplateURL',
  'AutoloadURL',
  'DefaultTarget',
  'Coverage',
  'Identifier',
  'Rights',
  'Source',
  'Type',
] as const;
/** The date-time properties (ISO 8601; a zone, when given, is converted to UTC). */
export const DATE_PROPERTIES = ['CreationDate', 'ModificationDate', 'PrintDate', 'TemplateDate'] as const;
/** The number properties (AutoloadSecs and EditingDuration in seconds, EditingCycles a count). */
export const NUMBER_PROPERTIES = ['AutoloadSecs', 'EditingCycles', 'EditingDuration'] as const;
/** The string-array properties. */
export const ARRAY_PROPERTIES = ['Keywords', 'Contributor', 'Publisher', 'Relation'] as const;

type StringProperty = (typeof STRING_PROPERTIES)[number];
type DateProperty = (typeof DATE_PROPERTIES)[number];
type NumberProperty = (typeof NUMBER_PROPERTIES)[number];
type ArrayProperty = (typeof ARRAY_PROPERTIES)[number];

/** A user-defined property value to write: the spec's types string, boolean, double, float, long. */
export interface UserPropertyValue {
  type: 'string' | 'boolean' | 'double' | 'float' | 'long';
  value: string | number | boolean;
}

/** The validated changes of one DocumentProperties command, ready for a format writer. */
export interface PropertyChanges {
  strings: Partial<Record<StringProperty, string>>;
  /** `YYYY-MM-DDTHH:MM:SS` (UTC). */
  dates: Partial<Record<DateProperty, string>>;
  numbers: Partial<Record<NumberProperty, number>>;
  arrays: Partial<Record<ArrayProperty, string[]>>;
  /** In recipe order: a value to add (or replace), or null to delete. */
  userDefined: Array<{ name: string; value: UserPropertyValue | null; path: string }>;
}

/**
 * Applies a `DocumentProperties` step: validates every member first (so a bad one changes nothing), then writes
 * the core/app/custom parts (OOXML) or meta.xml (ODF).
 * @throws StructureError bad_value (wrong type), unknown_command (unknown member), unsupported_command
 *   (DocumentStatistics, or a property the format cannot store), no_match (Delete of a missing property).
 */
export function transformDocumentProperties(doc: StructureDocument, step: RecipeStep): void {
  const changes = parseChanges(step);
  if (isOoxml(doc.format)) writeOoxmlProperties(doc, changes, step.path);
  else writeOdfProperties(doc, changes);
}

/**
 * Overwrites ModifiedBy (LibreOffice's user name in a kit: empty) and ModificationDate (`now`), and counts the
 * save in EditingCycles, as LibreOffice does on any save (spec: DocumentProperties rules).
 */
export function stampSave(doc: StructureDocument, now: Date): void {
  const stamp: PropertyChanges = { strings: { ModifiedBy: '' }, dates: { ModificationDate: utcStamp(now) }, numbers: {}, arrays: {}, userDefined: [] };
  if (isOoxml(doc.format)) writeOoxmlProperties(doc, stamp, 'save', { incrementRevision: true });
  else writeOdfProperties(doc, stamp, { incrementRevision: true });
}

function parseChanges(step: RecipeStep): PropertyChanges {
  if (!isPlainObject(step.value)) throw new StructureError('bad_value', `${step.path} must be an object of properties, got ${describe(step.value)}`, step.path);
  const out: PropertyChanges = { strings: {}, dates: {}, numbers: {}, arrays: {}, userDefined: [] };
  for (const [name, value] of Object.entries(step.value)) {
    const path = childPath(step.path, name);
    if ((STRING_PROPERTIES as readonly string[]).includes(name)) out.strings[name as StringProperty] = expectString(value, path);
    else if ((DATE_PROPERTIES as readonly string[]).includes(name)) out.dates[name as DateProperty] = parseDate(value, path);
    else if ((NUMBER_PROPERTIES as readonly string[]).includes(name)) out.numbers[name as NumberProperty] = expectInteger(value, path, 0);
    else if ((ARRAY_PROPERTIES as readonly string[]).includes(name)) out.arrays[name as ArrayProperty] = parseStringArray(value, path);
    else if (name === 'UserDefinedProperties') out.userDefined = parseUserDefined(value, path);
    else if (name === 'DocumentStatistics')
      throw new StructureError(
        'unsupported_command',
        `${path}: document statistics are recounted by LibreOffice when the document is opened and cannot be set`,
        path,
      );
    else throw new StructureError('unknown_command', `${path}: "${name}" is not a document property (see the spec's DocumentProperties item)`, path);
  }
  return out;
}

function parseStringArray(value: unknown, path: string): string[] {
  if (!Array.isArray(value)) throw new StructureError('bad_value', `${path} must be an array of strings, got ${describe(value)}`, path);
  return value.map((v, i) => expectString(v, `${path}[${i}]`));
}

/** An ISO 8601 date or date-time, normalised to `YYYY-MM-DDTHH:MM:SS` in UTC (no zone means UTC already). */
function parseDate(value: unknown, path: string): string {
  const text = expectString(value, path);
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text.trim());
  const date = m ? new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}${m[7] ?? 'Z'}`) : undefined;
  if (!date || Number.isNaN(date.getTime()))
    throw new StructureError('bad_value', `${path} must be an ISO 8601 date such as 2024-05-01T10:30:00, got ${describe(value)}`, path);
  return utcStamp(date);
}

/** `YYYY-MM-DDTHH:MM:SS` of a Date in UTC. */
export function utcStamp(d: Date): string {
  return d.toISOString().slice(0, 19);
}

const USER_TYPES = ['string', 'boolean', 'double', 'float', 'long'] as const;

function parseUserDefined(value: unknown, path: string): PropertyChanges['userDefined'] {
  const out: PropertyChanges['userDefined'] = [];
  for (const cmd of commandList(value, path)) {
    if (cmd.key === 'Delete') {
      out.push({ name: expectString(cmd.value, cmd.path), value: null, path: cmd.path });
      continue;
    }
    if (!cmd.key.startsWith('Add.') || cmd.key.length <= 4)
      throw new StructureError('unknown_command', `${cmd.path}: user-defined property commands are Add.<name> and Delete`, cmd.path);
    const name = cmd.key.slice(4);
    if (!isPlainObject(cmd.value))
      throw new StructureError('bad_value', `${cmd.path} must be {"type": ..., "value": ...}, got ${describe(cmd.value)}`, cmd.path);
    const type = expectString(cmd.value.type, childPath(cmd.path, 'type'));
    if (!(USER_TYPES as readonly string[]).includes(type))
      throw new StructureError(
        'unsupported_command',
        `${childPath(cmd.path, 'type')}: "${type}" is not one of ${USER_TYPES.join(', ')} (date, time and duration values cannot be set)`,
        childPath(cmd.path, 'type'),
      );
    const at = childPath(cmd.path, 'value');
    const raw = cmd.value.value;
    let v: string | number | boolean;
    if (type === 'string') v = expectString(raw, at);
    else if (type === 'boolean') {
      if (typeof raw === 'boolean') v = raw;
      else if (raw === 'true' || raw === 'false') v = raw === 'true';
      else throw new StructureError('bad_value', `${at} must be true or false, got ${describe(raw)}`, at);
    } else {
      v = type === 'long' ? expectInteger(raw, at) : Number(raw);
      if (typeof v !== 'number' || !Number.isFinite(v) || (typeof raw !== 'number' && (typeof raw !== 'string' || raw.trim() === '')))
        throw new StructureError('bad_value', `${at} must be a number, got ${describe(raw)}`, at);
    }
    out.push({ name, value: { type: type as UserPropertyValue['type'], value: v }, path: cmd.path });
  }
  return out;
}
