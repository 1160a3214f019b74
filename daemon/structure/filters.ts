/**
 * The extraction filters (spec: conversion-and-structure-api, "extract-document-structure", form field `filter`).
 * A module of its own, with no imports, so the daemon's main thread can name filters without loading the engine
 * (which runs in worker threads: daemon/server/structure/engine-pool.ts).
 */

/** The extraction filters of the spec (form field `filter`), each naming one part of DocStructure. */
export const STRUCTURE_FILTERS = ['contentcontrol', 'charts', 'docprops', 'trackchanges', 'slides'] as const;

/** One filter name. */
export type StructureFilterName = (typeof STRUCTURE_FILTERS)[number];

/** The filters that apply to each kind of document; others give an empty result (docs/structure/README.md). */
export const FILTERS_BY_KIND: Readonly<Record<'text' | 'presentation', readonly StructureFilterName[]>> = {
  text: ['contentcontrol', 'charts', 'docprops', 'trackchanges'],
  presentation: ['charts', 'docprops', 'slides'],
};
