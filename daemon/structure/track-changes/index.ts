import type { StructureDocument } from '../document.ts';
import { StructureError } from '../errors.ts';

/** A tracked change item of the extraction result (spec: "Tracked change item"). */
export interface TrackedChangeItem {
  type: 'Insert' | 'Delete' | 'Format';
  dateTime: string;
  author: string;
  description: string;
  comment: string;
  startPageNumber?: number;
  textBefore: string;
  textAfter: string;
  textChanged: string;
}

/** Options of the trackchanges filter; `startPageNumbers[i]` is the page of the i-th change, from a kit's layout. */
export interface TrackChangesOptions {
  contextLen?: number;
  startPageNumbers?: readonly number[];
}

/** Tracked changes of a docx or odt, keyed `TrackChanges.ByIndex.<n>` in document order. */
export function extractTrackChanges(_doc: StructureDocument, _opts: TrackChangesOptions): Record<string, TrackedChangeItem> {
  throw new StructureError('not_implemented', 'tracked changes are not built yet');
}
