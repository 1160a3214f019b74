/**
 * A view's rights and settings handed to LibreOffice itself (LibreOfficeKit 25.2 calls, Collabora's kit does the
 * same for its sessions): a read-only view is read-only in LibreOffice (setViewReadOnly: typing, commands that
 * edit, pasting and dragging objects with the mouse do nothing there, while the other views of the shared
 * document still edit); a comments-only view (a pdf opened with view_comment) may still change comments
 * (setAllowChangeComments); and each view has its user's time zone (setViewTimezone; in LibreOffice 25.2 only Calc's
 * Insert Current Time / Date reads it: test/kit-editing/view-timezone.test.ts, docs/editing.md).
 *
 * The kit keeps filtering a read-only view's input too (edit-events.ts `allowedInReadOnly`): LibreOffice's
 * read-only view is the second wall, and on a LibreOffice without these calls (found by class size in the addon)
 * the filter is the only one.
 */
import type { LokDocument } from '../native/index.ts';

/** What LibreOffice is told about one view. */
export interface ViewRights {
  /** The view may not change the document. */
  readOnly: boolean;
  /** With `readOnly`: comments may still be inserted, edited, replied to and deleted. */
  commentsOnly?: boolean;
  /** The user's IANA time zone (e.g. `Europe/Paris`), from the browser; undefined leaves LibreOffice's (the kit's TZ). */
  timezone?: string;
}

/** Which of the calls this LibreOffice has (`optionalCalls`), each false on an addon that does not list them. */
export function viewCalls(doc: LokDocument): { readOnly: boolean; comments: boolean; timezone: boolean } {
  let calls: string[] = [];
  try {
    calls = doc.optionalCalls();
  } catch {
    // An addon built before optional calls: none of them.
  }
  return { readOnly: calls.includes('setViewReadOnly'), comments: calls.includes('setAllowChangeComments'), timezone: calls.includes('setViewTimezone') };
}

/**
 * Lets a read-only view save for a while: LibreOffice does not run `.uno:Save` in a read-only view (no answer at
 * all), but the daemon saves from whichever view is left when the writers have gone (the exit save). Returns the
 * function that makes the view read-only again, or undefined when there was nothing to lift.
 */
export function liftReadOnlyForSave(doc: LokDocument, viewId: number, rights: ViewRights): (() => void) | undefined {
  if (!rights.readOnly || !viewCalls(doc).readOnly) return undefined;
  doc.setViewReadOnly(viewId, false);
  return () => doc.setViewReadOnly(viewId, true);
}

/**
 * Gives LibreOffice view `viewId`'s rights and time zone (the calls it has; the others are skipped). A time zone
 * LibreOffice refuses is skipped with its reason returned, so a bad zone from a browser never fails the view.
 * @returns the problems met (empty when all went through), for the kit's log.
 */
export function applyViewRights(doc: LokDocument, viewId: number, rights: ViewRights): string[] {
  const calls = viewCalls(doc);
  const problems: string[] = [];
  if (calls.readOnly) doc.setViewReadOnly(viewId, rights.readOnly);
  if (calls.comments) doc.setAllowChangeComments(viewId, rights.readOnly && rights.commentsOnly === true);
  if (rights.timezone && calls.timezone) {
    try {
      doc.setViewTimezone(viewId, rights.timezone);
    } catch (e) {
      problems.push(`time zone ${rights.timezone}: ${(e as Error).message}`);
    }
  }
  return problems;
}
