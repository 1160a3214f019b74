/**
 * The document-structure engine (spec: conversion and structure API, Extraction and Transformation): pure
 * TypeScript over a document's bytes, no file system, no network. Layers (STYLE.md, python-docx): package/
 * (zip parts, OPC relationships), xml/ (DOM helpers), and one folder per domain object.
 *
 * Built so far: the package layer and DocumentProperties extraction (docx, pptx, odt, odp). Content controls,
 * charts, tracked changes, slides and every transformation are still to come (issue 3).
 */
import { readOdfDocumentProperties } from './docprops/odf-docprops.ts';
import { readOoxmlDocumentProperties } from './docprops/ooxml-docprops.ts';
import type { DocumentProperties } from './docprops/document-properties.ts';
import { StructureError } from './errors.ts';
import { ZipPackage } from './package/zip-package.ts';

export { StructureError } from './errors.ts';
export type { DocumentProperties, DocumentStatistics, UserDefinedProperty } from './docprops/document-properties.ts';

/** Formats the engine reads natively: text documents and presentations, OOXML and ODF. */
export type StructureFormat = 'docx' | 'odt' | 'pptx' | 'odp';

/** Layout facts only LibreOffice knows, passed in from a kit: the page count. */
export interface DocumentLayout {
  pageCount?: number;
}

/**
 * The DocumentProperties item of a document (spec: "DocumentProperties item"). When `layout.pageCount` is given
 * (from a kit), it replaces the stored page count.
 * @throws StructureError bad_package for unreadable packages, unsupported_format for other formats.
 */
export function extractDocumentProperties(bytes: Uint8Array, format: StructureFormat, layout: DocumentLayout = {}): DocumentProperties {
  const pkg = ZipPackage.open(bytes);
  let props: DocumentProperties;
  if (format === 'docx' || format === 'pptx') props = readOoxmlDocumentProperties(pkg);
  else if (format === 'odt' || format === 'odp') props = readOdfDocumentProperties(pkg);
  else throw new StructureError('unsupported_format', `the structure engine reads docx, odt, pptx and odp, not ${String(format)}`);
  if (layout.pageCount !== undefined) props.DocumentStatistics.PageCount = layout.pageCount;
  return props;
}
