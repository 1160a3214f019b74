/**
 * The PostMessage API between the editor iframe and its host page, as written down in `postmessage.md` beside this
 * file (the source of truth; host developers read docs/postmessage.md). Imports nothing. Spec: host-integration
 * protocol, "Events"; where it is silent, Collabora Online's names and shapes, which hosts already speak.
 */

/** The envelope of every message, both ways. The editor posts it as a JSON string (as Collabora does). */
export interface PostMessageEnvelope<V = unknown> {
  MessageId: string;
  /** Date.now() of the sender. */
  SendTime: number;
  Values: V;
}

/** One view as Views_List and View_Added describe it. */
export interface HostViewInfo {
  ViewId: number;
  UserId: string;
  UserName: string;
  /** CSS colour of the user's cursor. */
  Color: string;
  ReadOnly: boolean;
  /** Only in Views_List: this editor's own view. */
  IsCurrentView?: boolean;
  UserExtraInfo: Record<string, unknown>;
}

/** Every message the editor posts to the host, by MessageId, with its Values (postmessage.md "Editor -> host"). */
export interface EditorToHost {
  App_LoadingStatus: { Status: 'Frame_Ready' | 'Document_Loaded' | 'Failed'; DocumentLoadedTime?: number; Reason?: string };
  Doc_ModifiedStatus: { Modified: boolean };
  Action_Save_Resp: { success: boolean; fileName?: string; result?: string; errorMsg?: string };
  Views_List: HostViewInfo[];
  /** Collabora's name for the answer to Get_Views (sent too, before Views_List). */
  Get_Views_Resp: HostViewInfo[];
  /** The document was renamed (File > Rename): the new file name, URI-encoded, as Collabora sends it. */
  File_Rename: { NewName: string };
  View_Added: HostViewInfo;
  View_Removed: { ViewId: number };
  Clicked_Button: { Id: string };
  clicked_button: { Id: string };
  UI_Close: { EverModified: boolean };
  UI_FileVersions: Record<string, never>;
  UI_InsertGraphic: Record<string, never>;
  UI_PickLink: Record<string, never>;
  UI_InsertFile: Record<string, never>;
  UI_InsertAIContent: Record<string, never>;
  UI_SaveAs: { format: string };
  /** A locked feature (IsUserLocked) was chosen: the host may offer the user a way to unlock it. */
  UI_Unlock: { Command: string; Feature: string };
  Download_As: { Type: 'print' | 'slideshow' | 'export'; URL: string };
  Session_Closed: { Code: number; Reason: string };
  User_Idle: { Message: string };
  /** The user saved (File > Save, the Save button, Ctrl+S); the save runs unless the host disabled UI_Save (Disable_Default_UIAction). */
  UI_Save: Record<string, never>;
  /** Answer to Get_Export_Formats: the formats of File > Download as for this document's type. */
  Get_Export_Formats_Resp: ExportFormat[];
  /** Following another view changed (Action_FollowUser, or the followed view left): -1 when none is followed. */
  FollowUser_Changed: { FollowedViewId: number; IsFollowUser: boolean; IsFollowEditor: boolean };
  /** Settings iframe only (settings.html): its content height as a CSS length (`"412px"`), whenever it changes. */
  Iframe_Height: { ContentHeight: string };
}

/** Every message the editor takes from the host, by MessageId, with its Values (postmessage.md "Host -> editor"). */
export interface HostToEditor {
  Host_PostmessageReady: Record<string, unknown>;
  Action_Save: { DontTerminateEdit?: boolean; DontSaveIfUnmodified?: boolean; Notify?: boolean };
  Action_SaveAs: { Filename: string; Notify?: boolean };
  Action_Print: Record<string, unknown>;
  Action_Export: { Format: string };
  Action_Close: Record<string, unknown>;
  Close_Session: Record<string, unknown>;
  Grab_Focus: Record<string, unknown>;
  Get_Views: Record<string, unknown>;
  Action_InsertGraphic: { filename?: string; url: string };
  Action_InsertLink: { url: string; text?: string };
  Reset_Access_Token: { token: string; token_ttl?: number };
  Send_UNO_Command: { Command: string; Args?: Record<string, { type: string; value: unknown }> };
  Hide_Button: { id: string };
  Show_Button: { id: string };
  Hide_Menu_Item: { id: string };
  Show_Menu_Item: { id: string };
  Insert_Button: InsertButtonValues;
  insert_button: InsertButtonValues;
  /** `action`: `UI_Save` or `UI_Close` (DEFAULT_UI_ACTIONS); `disable: true`: the editor only posts it, the host acts. */
  Disable_Default_UIAction: { action: string; disable: boolean };
  /** Collabora's classic/notebookbar switch: Ode's editor has one layout, so nothing changes. */
  Action_ChangeUIMode: { Mode: string };
  Get_Export_Formats: Record<string, unknown>;
  /** Follow a view (`ViewId`), the view that moved last (no `ViewId`), or stop (`Follow: false`). */
  Action_FollowUser: { Follow?: boolean; ViewId?: number };
}

/** One entry of Get_Export_Formats_Resp: the menu's label (UI language) and the extension Action_Export takes. */
export interface ExportFormat {
  Label: string;
  Format: string;
}

/** The UI actions whose default a host may turn off with Disable_Default_UIAction (Collabora's, less UI_Hyperlink). */
export const DEFAULT_UI_ACTIONS = ['UI_Save', 'UI_Close'] as const;

/** Values of Insert_Button / insert_button. */
export interface InsertButtonValues {
  id: string;
  /** Icon address (must satisfy the editor page's img-src: https:, data:, or a configured source). */
  imgurl?: string;
  /** Tooltip and accessible name. */
  hint?: string;
  /** Text shown when there is no icon (defaults to hint, then id). */
  label?: string;
  /** Show it on mobile too (the editor has one layout: ignored). */
  mobile?: boolean;
  /** A UNO command the button runs instead of posting Clicked_Button. */
  unoCommand?: string;
}

export type EditorToHostId = keyof EditorToHost;
export type HostToEditorId = keyof HostToEditor;

/** The MessageIds the editor acts on. */
export const HOST_TO_EDITOR_IDS = [
  'Host_PostmessageReady',
  'Action_Save',
  'Action_SaveAs',
  'Action_Print',
  'Action_Export',
  'Action_Close',
  'Close_Session',
  'Grab_Focus',
  'Get_Views',
  'Action_InsertGraphic',
  'Action_InsertLink',
  'Reset_Access_Token',
  'Send_UNO_Command',
  'Hide_Button',
  'Show_Button',
  'Hide_Menu_Item',
  'Show_Menu_Item',
  'Insert_Button',
  'insert_button',
  'Disable_Default_UIAction',
  'Action_ChangeUIMode',
  'Get_Export_Formats',
  'Action_FollowUser',
] as const satisfies readonly HostToEditorId[];

/** An incoming message, decoded: `Values` is always an object (missing or non-object Values become `{}`). */
export interface DecodedMessage {
  MessageId: string;
  SendTime?: number;
  Values: Record<string, unknown>;
}

/** Encodes one message for window.postMessage: the envelope as a JSON string. */
export function encodePostMessage<K extends EditorToHostId>(messageId: K, values: EditorToHost[K], now = Date.now()): string {
  return JSON.stringify({ MessageId: messageId, SendTime: now, Values: values } satisfies PostMessageEnvelope);
}

/**
 * Decodes a message event's data: a JSON string (Collabora's form) or the envelope object itself. Returns null
 * when it is neither, or has no string MessageId.
 */
export function decodePostMessage(data: unknown): DecodedMessage | null {
  let value = data;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const env = value as Record<string, unknown>;
  if (typeof env.MessageId !== 'string' || !env.MessageId) return null;
  const values = typeof env.Values === 'object' && env.Values !== null && !Array.isArray(env.Values) ? (env.Values as Record<string, unknown>) : {};
  return { MessageId: env.MessageId, SendTime: typeof env.SendTime === 'number' ? env.SendTime : undefined, Values: values };
}

/**
 * Collabora Online's button and menu names (Hide_Button, Show_Button, Hide_Menu_Item) mapped to Ode's command ids.
 * Ode's own ids (`file.print`, ...) are taken as they are.
 */
export const BUTTON_ALIASES: Readonly<Record<string, string>> = {
  save: 'file.save',
  saveas: 'file.saveAs',
  rename: 'file.rename',
  print: 'file.print',
  repair: 'file.repair',
  downloadas: 'file.downloadAs.*',
  'downloadas-pdf': 'file.downloadAs.pdf',
  'downloadas-odt': 'file.downloadAs.odt',
  'downloadas-docx': 'file.downloadAs.docx',
  'downloadas-doc': 'file.downloadAs.doc',
  'downloadas-rtf': 'file.downloadAs.rtf',
  'downloadas-txt': 'file.downloadAs.txt',
  'downloadas-epub': 'file.downloadAs.epub',
  'downloadas-html': 'file.downloadAs.html',
  'downloadas-ods': 'file.downloadAs.ods',
  'downloadas-xlsx': 'file.downloadAs.xlsx',
  'downloadas-xls': 'file.downloadAs.xls',
  'downloadas-csv': 'file.downloadAs.csv',
  'downloadas-odp': 'file.downloadAs.odp',
  'downloadas-pptx': 'file.downloadAs.pptx',
  'downloadas-ppt': 'file.downloadAs.ppt',
  'downloadas-odg': 'file.downloadAs.odg',
  'downloadas-png': 'file.downloadAs.png',
  'downloadas-svg': 'file.downloadAs.svg',
  closebutton: 'file.close',
  close: 'file.close',
  'rev-history': 'file.versions',
  revisionhistory: 'file.versions',
  undo: 'edit.undo',
  redo: 'edit.redo',
  searchdialog: 'edit.findReplace',
  insertgraphic: 'insert.image',
  insertremotegraphic: 'insert.remoteImage',
  inserttable: 'insert.table',
  link: 'insert.link',
  hyperlinkdialog: 'insert.link',
  insertannotation: 'insert.comment',
  insertcomment: 'insert.comment',
  insertpagebreak: 'insert.pageBreak',
  insertobjectchart: 'insert.chart',
  charmapcontrol: 'insert.specialCharacter',
  bold: 'format.bold',
  italic: 'format.italic',
  underline: 'format.underline',
  strikeout: 'format.strikethrough',
  fontnamecombobox: 'format.fontName',
  fontsizecombobox: 'format.fontSize',
  fontcolor: 'format.fontColor',
  backcolor: 'format.highlightColor',
  leftpara: 'format.alignLeft',
  centerpara: 'format.alignCenter',
  rightpara: 'format.alignRight',
  justifypara: 'format.justify',
  defaultbullet: 'format.bulletList',
  defaultnumbering: 'format.numberedList',
  styles: 'format.paragraphStyle',
  reset: 'format.clear',
  zoomin: 'view.zoomIn',
  zoomout: 'view.zoomOut',
  zoomreset: 'view.zoomReset',
  showruler: 'view.ruler',
  comment_wizard: 'view.comments',
  userlist: 'view.users',
  presentation: 'slide.startPresentation',
  insertpage: 'slide.new',
  duplicatepage: 'slide.duplicate',
  deletepage: 'slide.delete',
  sortascending: 'data.sortAscending',
  sortdescending: 'data.sortDescending',
  autofilter: 'data.autoFilter',
  insertfunction: 'insert.function',
};

/** The Ode command id (or id pattern ending in `.*`) a Hide_Button/Show_Button id names. */
export function commandIdOfButton(id: string): string {
  return BUTTON_ALIASES[id] ?? BUTTON_ALIASES[id.toLowerCase()] ?? id;
}
