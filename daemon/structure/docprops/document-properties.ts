/**
 * The DocumentProperties item of the extraction result (spec: conversion and structure API, "DocumentProperties
 * item"). Field names are LibreOffice's XDocumentProperties names, which is what the spec lists.
 */

/** A user-defined property: `type` as LibreOffice names the value's type; `value` absent for date/time/duration types (spec). */
export interface UserDefinedProperty {
  type: string;
  value?: string | number | boolean;
}

/** The document statistics (numbers). */
export interface DocumentStatistics {
  PageCount: number;
  TableCount: number;
  ImageCount: number;
  ObjectCount: number;
  ParagraphCount: number;
  WordCount: number;
  CharacterCount: number;
  NonWhitespaceCharacterCount: number;
}

/** Every property of the spec's DocumentProperties item. Dates are ISO 8601 without zone. */
export interface DocumentProperties {
  Author: string;
  Generator: string;
  Title: string;
  Subject: string;
  Description: string;
  Language: string;
  ModifiedBy: string;
  PrintedBy: string;
  TemplateName: string;
  TemplateURL: string;
  AutoloadURL: string;
  DefaultTarget: string;
  Coverage: string;
  Identifier: string;
  Rights: string;
  Source: string;
  Type: string;
  CreationDate: string;
  ModificationDate: string;
  PrintDate: string;
  TemplateDate: string;
  AutoloadSecs: number;
  EditingCycles: number;
  EditingDuration: number;
  Keywords: string[];
  Contributor: string[];
  Publisher: string[];
  Relation: string[];
  DocumentStatistics: DocumentStatistics;
  UserDefinedProperties: Record<string, UserDefinedProperty>;
}

/** An unset date, as LibreOffice writes an empty css::util::DateTime (spec: "empty dates as zeros"). */
export const EMPTY_DATE = '0000-00-00T00:00:00';

/** UNO type names of the date/time/duration user-defined types, whose values are not extracted (spec). */
export const UNO_DATE_TYPES = { dateTime: 'com.sun.star.util.DateTime', date: 'com.sun.star.util.Date', duration: 'com.sun.star.util.Duration' } as const;

/** A DocumentProperties item with every field empty, zero or unset. */
export function emptyDocumentProperties(): DocumentProperties {
  return {
    Author: '',
    Generator: '',
    Title: '',
    Subject: '',
    Description: '',
    Language: '',
    ModifiedBy: '',
    PrintedBy: '',
    TemplateName: '',
    TemplateURL: '',
    AutoloadURL: '',
    DefaultTarget: '',
    Coverage: '',
    Identifier: '',
    Rights: '',
    Source: '',
    Type: '',
    CreationDate: EMPTY_DATE,
    ModificationDate: EMPTY_DATE,
    PrintDate: EMPTY_DATE,
    TemplateDate: EMPTY_DATE,
    AutoloadSecs: 0,
    EditingCycles: 0,
    EditingDuration: 0,
    Keywords: [],
    Contributor: [],
    Publisher: [],
    Relation: [],
    DocumentStatistics: {
      PageCount: 0,
      TableCount: 0,
      ImageCount: 0,
      ObjectCount: 0,
      ParagraphCount: 0,
      WordCount: 0,
      CharacterCount: 0,
      NonWhitespaceCharacterCount: 0,
    },
    UserDefinedProperties: {},
  };
}

/**
 * Normalises an ISO 8601 date-time (W3CDTF in OOXML, xsd:dateTime in ODF) to `YYYY-MM-DDTHH:MM:SS` without
 * zone, as LibreOffice keeps it (a `Z` is dropped, the value stays UTC; fractions of seconds are dropped).
 * A date alone gets midnight. Anything unreadable is the empty date.
 */
export function isoDateTime(text: string | undefined): string {
  const m = /^\s*(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\s*$/.exec(text ?? '');
  if (!m) return EMPTY_DATE;
  return `${m[1]}-${m[2]}-${m[3]}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}`;
}

/** Seconds of an ISO 8601 duration such as `PT00H05M30S` or `P1DT2H` (fractions dropped); 0 when unreadable. */
export function durationSeconds(text: string | undefined): number {
  const m = /^\s*P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.\d+)?S)?)?\s*$/.exec(text ?? '');
  if (!m) return 0;
  const [d, h, min, s] = [m[1], m[2], m[3], m[4]].map((x) => Number(x ?? 0));
  return ((d * 24 + h) * 60 + min) * 60 + s;
}

/** A non-negative integer from text, or 0. */
export function count(text: string | null | undefined): number {
  const n = Number.parseInt(text ?? '', 10);
  return Number.isFinite(n) && n >= 0 ? n : 0;
}
