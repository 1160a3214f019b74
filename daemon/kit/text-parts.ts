import { LOK_CALLBACK_INVALIDATE_TILES, LOK_DOCTYPE_TEXT } from '../protocol/lok-enums.ts';

/**
 * The payload of callback `type` as the kit forwards it for a document of LibreOffice type `docType`
 * (LibreOfficeKitDocumentType). A text document is one coordinate system painted as part 0 (paintTile; docInfo
 * says part 0), but with LOK_FEATURE_PART_IN_INVALIDATION_CALLBACK Writer's INVALIDATE_TILES names the view's
 * part, which Writer reads as a page (SwView::getPart: the caret's page, or the first one in view): the tiles of
 * what is typed on page 2 were invalidated as part 1 and stayed stale in the tile cache and the editor (issue 16).
 * So for text the part of "x, y, w, h, part[, mode]" and "EMPTY, part[, mode]" becomes 0, as Collabora Online's
 * kit does ("Writer renders everything as part 0"). Every other payload is returned as it is.
 */
export function forwardedPayload(docType: number, type: number, payload: string): string {
  if (docType !== LOK_DOCTYPE_TEXT || type !== LOK_CALLBACK_INVALIDATE_TILES) return payload;
  const fields = payload.split(',');
  const at = fields[0].trim() === 'EMPTY' ? 1 : 4;
  if (fields.length <= at) return payload;
  fields[at] = ' 0';
  return fields.join(',');
}
