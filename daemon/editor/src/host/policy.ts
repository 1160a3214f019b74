/**
 * Which commands the host's CheckFileInfo properties and the iframe parameters hide or disable (spec: "CheckFileInfo
 * response properties", "Iframe query parameters"). Pure: ids in, sets out (host/index.ts applies them to the
 * command registry). Imports only protocol types.
 */
import type { FeatureGate } from '../../../protocol/editor.ts';

/** What the policy reads: status.fileInfo (may be empty before `status`), the iframe parameters, the view's mode. */
export interface PolicyInput {
  fileInfo: Record<string, unknown>;
  settings: Record<string, string>;
  /** The view is read-only (permission=readonly, UserCanWrite false, a file too large). */
  readonly: boolean;
  /** view_comment (pdf): read-only, but comments may be added. */
  commentsOnly: boolean;
  /** Every registered command id (patterns such as `file.downloadAs.*` are matched against them). */
  ids: readonly string[];
  /** This user's id, when known (views list), to compare with OwnerId. */
  userId?: string;
  /** status.features: IsUserLocked / IsUserRestricted resolved by the daemon (feature-policy.ts). */
  features?: { locked: FeatureGate[]; restricted: FeatureGate[] };
}

export interface Policy {
  hidden: Set<string>;
  disabled: Set<string>;
  /** IsUserLocked: shown disabled with a lock; choosing one asks the host to unlock (id -> feature). */
  locked: Map<string, string>;
}

/** The commands that change the document: hidden in a read-only view. */
const EDITING = [
  'file.save',
  'file.rename',
  'file.repair',
  'edit.undo',
  'edit.redo',
  'edit.cut',
  'edit.paste',
  'insert.*',
  'format.*',
  'sheet.insert',
  'sheet.delete',
  'sheet.rename',
  'sheet.moveLeft',
  'sheet.moveRight',
  'data.*',
  'slide.new',
  'slide.duplicate',
  'slide.delete',
  'slide.moveUp',
  'slide.moveDown',
  // The menus of issue 23 (chrome/menu-commands.ts): tables, track changes, rows and columns, frozen panes, slides.
  'table.*',
  'review.*',
  'sheet.insertRows*',
  'sheet.insertColumns*',
  'sheet.deleteRows',
  'sheet.deleteColumns',
  'view.freeze*',
  'slide.hide',
  'slide.show',
  'slide.transition',
  'tools.autoSpell',
  'tools.autoCorrect*',
];

/** True when `id` is `pattern` or falls under a pattern ending in `*` (`file.downloadAs.*`, `file.sign*`). */
export function matches(pattern: string, id: string): boolean {
  return pattern.endsWith('*') ? id.startsWith(pattern.slice(0, -1)) : pattern === id;
}

/** The ids (among `ids`, plus `pattern` itself when it is no pattern) a pattern names. */
export function expand(pattern: string, ids: readonly string[]): string[] {
  return pattern.endsWith('*') ? ids.filter((id) => matches(pattern, id)) : [pattern];
}

const yes = (v: unknown) => v === true || v === 'true';

/** The hidden and disabled commands for one view. */
export function computePolicy(p: PolicyInput): Policy {
  const fi = p.fileInfo;
  const hidden = new Set<string>();
  const disabled = new Set<string>();
  const locked = new Map<string, string>();
  const hide = (...patterns: string[]) => patterns.forEach((pat) => expand(pat, p.ids).forEach((id) => hidden.add(id)));
  const disable = (...patterns: string[]) => patterns.forEach((pat) => expand(pat, p.ids).forEach((id) => disabled.add(id)));

  if (yes(fi.HidePrintOption) || yes(fi.DisablePrint)) hide('file.print');
  if (yes(fi.DisablePrint)) disable('file.print');
  if (yes(fi.HideSaveOption)) hide('file.save');
  if (yes(fi.HideExportOption) || yes(fi.DisableExport)) hide('file.downloadAs.*');
  if (yes(fi.DisableExport)) disable('file.downloadAs.*');
  if (yes(fi.HideRepairOption)) hide('file.repair');
  if (yes(fi.DisableCopy)) disable('edit.copy', 'edit.cut');
  // UserCanNotWriteRelative defaults to true: Save As is shown only when the host says false.
  // (With SaveAsPostmessage the host saves: no PutRelativeFile is needed.)
  if (fi.UserCanNotWriteRelative !== false && !yes(fi.SaveAsPostmessage)) hide('file.saveAs');
  if (!(yes(fi.SupportsRename) && yes(fi.UserCanRename))) hide('file.rename');
  const owner = typeof fi.OwnerId === 'string' && fi.OwnerId !== '' ? fi.OwnerId : undefined;
  const user = p.userId ?? (typeof fi.UserId === 'string' ? fi.UserId : undefined);
  // Without both ids the daemon decides (it refuses closeDocument to anyone but the owner).
  if (!yes(fi.EnableOwnerTermination) || (owner !== undefined && user !== undefined && owner !== user)) hide('file.closeForEveryone');
  if (yes(fi.DisableInsertLocalImage)) hide('insert.image');
  if (yes(fi.IsAnonymousUser)) hide('file.rename', 'file.saveAs');
  if (!yes(fi.EnableInsertRemoteImage)) hide('insert.remoteImage');
  if (!yes(fi.EnableRemoteLinkPicker)) hide('insert.remoteLink');
  if (!yes(fi.EnableInsertRemoteFile)) hide('insert.remoteFile');
  if (!yes(fi.EnableRemoteAIContent)) hide('insert.aiContent');

  if (!yes(p.settings.closebutton)) hide('file.close');
  if (!yes(p.settings.revisionhistory)) hide('file.versions');
  if (!yes(p.settings.debug) && !yes(p.settings.randomUser)) hide('help.debug');
  if (p.readonly || p.settings.permission === 'readonly') {
    hide(...EDITING);
    // A comments-only view (a pdf opened with view_comment) adds comments and saves them back (issue 16), unless
    // the host hides Save.
    if (p.commentsOnly) {
      hidden.delete('insert.comment');
      if (!yes(fi.HideSaveOption)) hidden.delete('file.save');
    }
  }
  // IsUserRestricted: hidden (the daemon refuses them too); IsUserLocked: shown, disabled, with a lock.
  for (const g of p.features?.restricted ?? []) hide(...g.commands);
  for (const g of p.features?.locked ?? [])
    for (const pat of g.commands) for (const id of expand(pat, p.ids)) if (p.ids.includes(id)) locked.set(id, g.feature);
  return { hidden, disabled, locked };
}
