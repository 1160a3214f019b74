import { STRUCTURE_FILTERS, type StructureFilterName } from '../../structure/filters.ts';
import { OdeError } from '../errors.ts';

/** A parsed `filter` field: what to extract, and the trackchanges arguments. */
export interface StructureFilter {
  /** Undefined: no filter given, everything that applies. */
  name: StructureFilterName | undefined;
  /** trackchanges `contextLen:<n>`: longest textBefore/textAfter, characters. */
  contextLen?: number;
  /** trackchanges `startPageNumber:true`. */
  startPageNumber?: boolean;
}

/**
 * Parses the spec's `filter` form field: one of the filter names, and for `trackchanges` the comma-separated
 * arguments `contextLen:<non-negative integer>` and `startPageNumber:true` (spec: Extraction).
 * @throws OdeError bad_request naming the unknown filter or argument.
 */
export function parseStructureFilter(text: string | undefined): StructureFilter {
  if (text === undefined || text.trim() === '') return { name: undefined };
  const [head, ...args] = text.split(',').map((s) => s.trim());
  if (!(STRUCTURE_FILTERS as readonly string[]).includes(head))
    throw new OdeError('bad_request', `filter: "${head}" is not one of ${STRUCTURE_FILTERS.join(', ')}`);
  const filter: StructureFilter = { name: head as StructureFilterName };
  for (const arg of args) {
    const [key, value] = arg.split(':').map((s) => s.trim());
    if (head !== 'trackchanges') throw new OdeError('bad_request', `filter: ${head} takes no arguments, got "${arg}"`);
    if (key === 'contextLen' && /^\d+$/.test(value ?? '')) filter.contextLen = Number(value);
    else if (key === 'startPageNumber' && (value === 'true' || value === 'false')) filter.startPageNumber = value === 'true';
    else throw new OdeError('bad_request', `filter: "${arg}" is not contextLen:<non-negative integer> or startPageNumber:true`);
  }
  return filter;
}
