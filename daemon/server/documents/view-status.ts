/**
 * What a document tells its views about itself and about each other (editor.md `status` and `views`): the
 * CheckFileInfo UI properties a view's editor needs, its rights and features, and the list of users with their
 * colours; and what LibreOffice is told about each view when its LibreOfficeKit view is made. Pure functions over the
 * document's facts; EditDocument sends the messages and makes the views.
 */
import type { ServerMessage } from '../../protocol/editor.ts';
import { LOK_DOCTYPE_DRAWING, LOK_DOCTYPE_PRESENTATION, LOK_DOCTYPE_SPREADSHEET, LOK_DOCTYPE_TEXT } from '../../protocol/lok-enums.ts';
import type { FileInfo } from '../wopi/check-file-info.ts';
import type { EditingKit, OpenedDocument } from './editing-kit.ts';
import { editorGates, featurePolicy } from './feature-policy.ts';
import type { ViewHandle } from './view-handle.ts';

/** LOK_DOCTYPE_* as editor.md names it (LOK_DOCTYPE_OTHER and unknown numbers: `text`). */
const DOC_TYPES: Readonly<Record<number, 'text' | 'spreadsheet' | 'presentation' | 'drawing'>> = {
  [LOK_DOCTYPE_TEXT]: 'text',
  [LOK_DOCTYPE_SPREADSHEET]: 'spreadsheet',
  [LOK_DOCTYPE_PRESENTATION]: 'presentation',
  [LOK_DOCTYPE_DRAWING]: 'drawing',
};
/** The views' colours, given in join order (and again from the first after the eighth). */
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#e377c2', '#8c564b'];

/** The CheckFileInfo properties the editor's UI needs (status.fileInfo). */
const UI_PROPERTIES = [
  'BaseFileName',
  'UserCanWrite',
  'UserCanNotWriteRelative',
  'HidePrintOption',
  'DisablePrint',
  'HideSaveOption',
  'HideExportOption',
  'HideRepairOption',
  'DisableExport',
  'DisableCopy',
  'EnableOwnerTermination',
  'SupportsRename',
  'UserCanRename',
  'WatermarkText',
  'IsAdminUser',
  'IsAnonymousUser',
  'PostMessageOrigin',
  'DownloadAsPostMessage',
  'SaveAsPostmessage',
  'EnableInsertRemoteImage',
  'EnableRemoteLinkPicker',
  'EnableInsertRemoteFile',
  'EnableRemoteAIContent',
  'DisableInsertLocalImage',
  'DisableInactiveMessages',
  'IsUserLocked',
  'IsUserRestricted',
  'UserExtraInfo',
  'OwnerId',
  'UserId',
] as const satisfies ReadonlyArray<keyof FileInfo>;

/**
 * The `status` message of a view (editor.md): the document as the kit opened it (`info`: type, parts, size in
 * twips), the view's UI properties, and its rights: `readOnlyForAll` (the storage refused the size, or another
 * application locks the file) makes every view read-only.
 */
export function statusFor(view: ViewHandle, info: OpenedDocument, readOnlyForAll: boolean): ServerMessage {
  const fileInfo = Object.fromEntries(UI_PROPERTIES.map((k) => [k, view.fileInfo[k]]));
  fileInfo.UserCanWrite = !view.readonly && !readOnlyForAll;
  return {
    type: 'status',
    viewId: view.viewId,
    docType: DOC_TYPES[info.docType] ?? 'text',
    parts: info.parts,
    part: 0,
    partNames: info.partNames,
    width: info.width,
    height: info.height,
    readonly: view.readonly || readOnlyForAll,
    // The view may add comments and save them (a pdf opened by a user who may write it, view-handle.ts mayStore);
    // not when the storage refused the file or another application locks it.
    commentsOnly: view.commentsOnly === true && !readOnlyForAll,
    fileInfo,
    features: editorGates(featurePolicy(view.fileInfo)),
  };
}

/** Each view's colour, given once when it joins (a view keeps its colour for the document's life). */
export class ViewColors {
  private next = 0;
  private readonly colors = new Map<ViewHandle, string>();

  /** Gives `view` the next colour. */
  assign(view: ViewHandle): void {
    this.colors.set(view, COLORS[this.next++ % COLORS.length]);
  }

  /** The `views` message (editor.md): every view with its user, colour and rights, in join order. */
  viewsMessage(views: Iterable<ViewHandle>): ServerMessage {
    const list = [...views].map((v) => ({
      viewId: v.viewId,
      userId: v.fileInfo.UserId,
      userName: v.fileInfo.UserFriendlyName,
      color: this.colors.get(v) ?? COLORS[0],
      readonly: v.readonly,
      extraInfo: v.fileInfo.UserExtraInfo,
      ...(v.fileInfo.IsAnonymousUser ? { anonymous: true } : {}),
    }));
    return { type: 'views', views: list };
  }
}

/** CheckFileInfo WatermarkText when it is a non-empty string (spec: painted on each tile of that user's view). */
export function watermarkOf(fileInfo: { WatermarkText?: unknown }): string | undefined {
  return typeof fileInfo.WatermarkText === 'string' && fileInfo.WatermarkText.trim() !== '' ? fileInfo.WatermarkText : undefined;
}

/** The `createView` request of a view (kit.md, Editing: `createView`). */
export type KitViewRequest = Parameters<EditingKit['createView']>[0];

/**
 * What LibreOffice is told about `view` when its LibreOfficeKit view is made (kit.md, Editing: `createView`): its
 * user, language, time zone and watermark, and its rights: read-only when the view may not change the document, or
 * when `readOnlyForAll` (the storage refused the size, or another application locks the file), so that input the
 * daemon lets through (a mouse drag) cannot change it either (kit view-rights.ts: setViewReadOnly).
 */
export function kitViewRequest(view: ViewHandle, readOnlyForAll: boolean): KitViewRequest {
  return {
    userName: view.fileInfo.UserFriendlyName,
    userId: view.fileInfo.UserId,
    readOnly: view.readonly || readOnlyForAll,
    commentsOnly: view.commentsOnly,
    lang: view.lang,
    timezone: view.timezone,
    watermarkText: watermarkOf(view.fileInfo),
  };
}

/**
 * The `open` request that loads `input` (a path in the kit folder) with `view` as its first view (kit.md, Editing:
 * `open`): the view as kitViewRequest gives it, and its device form factor.
 */
export function kitOpenRequest(view: ViewHandle, input: string, readOnlyForAll: boolean): Parameters<EditingKit['open']>[0] {
  const { userName, readOnly, commentsOnly, lang, timezone, watermarkText } = kitViewRequest(view, readOnlyForAll);
  return { input, userName, lang, readOnly, commentsOnly, timezone, deviceFormFactor: view.deviceFormFactor, watermarkText };
}
