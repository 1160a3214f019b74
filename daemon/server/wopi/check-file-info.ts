import { WopiError } from './wopi-error.ts';

/** UserExtraInfo: shared with every view of the document (spec: CheckFileInfo, UserExtraInfo). */
export interface UserExtraInfo {
  avatar?: string;
  mail?: string;
  [key: string]: unknown;
}

/** UserPrivateInfo: this user's secrets, never shared with other views. */
export interface UserPrivateInfo {
  CitationAPIKey?: string;
  /** Collabora's older name of CitationAPIKey, which richdocuments sends. */
  ZoteroAPIKey?: string;
  SignatureCert?: string;
  SignatureKey?: string;
  SignatureCa?: string;
}

/** ServerPrivateInfo: the host's server-wide credentials (since 24.04.11). */
export interface ServerPrivateInfo {
  ESignatureBaseUrl?: string;
  ESignatureClientId?: string;
  ESignatureSecret?: string;
}

/**
 * UserSettings / SharedSettings: where the settings JSON is and its stamp. The spec names the address `url`;
 * Collabora, its SDK and richdocuments send `uri`: both are read (`uri` when both are there, as Collabora reads it).
 */
export interface SettingsRef {
  url: string;
  stamp: string;
}

/**
 * A validated CheckFileInfo answer (spec: "CheckFileInfo response properties"), every property of the spec's
 * tables with its default applied. Unknown properties are ignored; a property of the wrong type is treated as
 * absent (and named in `ignored`).
 */
export interface FileInfo {
  BaseFileName: string;
  OwnerId: string;
  /** Bytes. */
  Size: number;
  UserId: string;
  /** `UnknownUser_<UserId>` when the host sent none. */
  UserFriendlyName: string;
  UserCanWrite: boolean;
  UserCanNotWriteRelative: boolean;
  PostMessageOrigin?: string;
  HidePrintOption: boolean;
  DisablePrint: boolean;
  HideSaveOption: boolean;
  HideExportOption: boolean;
  HideRepairOption: boolean;
  DisableExport: boolean;
  DisableCopy: boolean;
  EnableOwnerTermination: boolean;
  /** ISO 8601 round-trip time, as the host wrote it (compared as given in X-ODE-WOPI-Timestamp). */
  LastModifiedTime?: string;
  /** Type not given by the spec: a boolean, or a list of feature names. */
  IsUserLocked: boolean | string[];
  IsUserRestricted: boolean | string[];
  SupportsRename: boolean;
  UserCanRename: boolean;
  SupportsLocks: boolean;
  TemplateSource?: string;
  /** IsAdminUser, or the deprecated is_admin. */
  IsAdminUser: boolean;
  /** IsAnonymousUser, or the deprecated is_guest. */
  IsAnonymousUser: boolean;
  EnableInsertRemoteImage: boolean;
  EnableRemoteLinkPicker: boolean;
  EnableInsertRemoteFile: boolean;
  EnableRemoteAIContent: boolean;
  DisableInsertLocalImage: boolean;
  DisableInactiveMessages: boolean;
  DownloadAsPostMessage: boolean;
  SaveAsPostmessage: boolean;
  WatermarkText: string;
  /** GetFile's alternative URL (MS-WOPI FileUrl), tried first when given. */
  FileUrl?: string;
  UserExtraInfo: UserExtraInfo;
  UserPrivateInfo: UserPrivateInfo;
  ServerPrivateInfo: ServerPrivateInfo;
  UserSettings?: SettingsRef;
  SharedSettings?: SettingsRef;
  /** Properties present with a type the spec does not allow, which were treated as absent. */
  ignored: string[];
}

const BOOLEANS = [
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
  'SupportsLocks',
  'EnableInsertRemoteImage',
  'EnableRemoteLinkPicker',
  'EnableInsertRemoteFile',
  'EnableRemoteAIContent',
  'DisableInsertLocalImage',
  'DisableInactiveMessages',
  'DownloadAsPostMessage',
  'SaveAsPostmessage',
] as const;

type Json = Record<string, unknown>;

/**
 * Parses a CheckFileInfo JSON answer and applies the spec's defaults: UserCanWrite false, UserCanNotWriteRelative
 * true, SupportsRename and UserCanRename false, UserFriendlyName `UnknownUser_<UserId>`; DisablePrint implies
 * HidePrintOption and DisableExport implies HideExportOption. `override` is the form field
 * `checkfileinfo_override` (`DownloadAsPostMessage=true|false`), applied last.
 * @throws WopiError bad_answer when the body is not a JSON object or lacks BaseFileName (the one property no
 *   document can open without); OwnerId, UserId and Size default to "" / "" / -1 (unknown) with a note in `ignored`.
 */
export function parseCheckFileInfo(body: unknown, override?: string): FileInfo {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new WopiError('bad_answer', 'CheckFileInfo did not answer a JSON object');
  const j = body as Json;
  const ignored: string[] = [];
  const str = (k: string): string | undefined => {
    const v = j[k];
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string') return v;
    if (typeof v === 'number') return String(v);
    ignored.push(k);
    return undefined;
  };
  const bool = (k: string, dflt: boolean): boolean => {
    const v = j[k];
    if (v === undefined || v === null) return dflt;
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === 'false') return v === 'true';
    ignored.push(k);
    return dflt;
  };
  const obj = (k: string): Json => {
    const v = j[k];
    if (v === undefined || v === null) return {};
    if (typeof v === 'object' && !Array.isArray(v)) return v as Json;
    ignored.push(k);
    return {};
  };
  const flag = (k: string): boolean | string[] =>
    Array.isArray(j[k]) ? (j[k] as unknown[]).filter((x): x is string => typeof x === 'string') : bool(k, false);
  const settings = (k: string): SettingsRef | undefined => {
    const o = obj(k);
    const address = typeof o.uri === 'string' && o.uri ? o.uri : typeof o.url === 'string' && o.url ? o.url : undefined;
    return address ? { url: address, stamp: typeof o.stamp === 'string' ? o.stamp : typeof o.stamp === 'number' ? String(o.stamp) : '' } : undefined;
  };
  const picked = <T extends string>(o: Json, keys: readonly T[]): Partial<Record<T, string>> =>
    Object.fromEntries(keys.filter((key) => typeof o[key] === 'string').map((key) => [key, o[key] as string])) as Partial<Record<T, string>>;

  const BaseFileName = str('BaseFileName');
  if (!BaseFileName)
    throw new WopiError('bad_answer', 'CheckFileInfo answered without BaseFileName: the host must name the file (it decides the document type)');
  const UserId = str('UserId') ?? '';
  const sizeRaw = j.Size;
  const Size = typeof sizeRaw === 'number' && Number.isInteger(sizeRaw) ? sizeRaw : typeof sizeRaw === 'string' && /^\d+$/.test(sizeRaw) ? Number(sizeRaw) : -1;
  if (Size < 0) ignored.push('Size');
  const info: FileInfo = {
    BaseFileName: BaseFileName.replace(/^.*[\\/]/, ''),
    OwnerId: str('OwnerId') ?? '',
    Size,
    UserId,
    UserFriendlyName: str('UserFriendlyName') || `UnknownUser_${UserId}`,
    UserCanWrite: bool('UserCanWrite', false),
    UserCanNotWriteRelative: bool('UserCanNotWriteRelative', true),
    PostMessageOrigin: str('PostMessageOrigin'),
    LastModifiedTime: str('LastModifiedTime'),
    IsUserLocked: flag('IsUserLocked'),
    IsUserRestricted: flag('IsUserRestricted'),
    TemplateSource: str('TemplateSource'),
    IsAdminUser: j.IsAdminUser !== undefined ? bool('IsAdminUser', false) : bool('is_admin', false),
    IsAnonymousUser: j.IsAnonymousUser !== undefined ? bool('IsAnonymousUser', false) : bool('is_guest', false),
    WatermarkText: str('WatermarkText') ?? '',
    FileUrl: str('FileUrl'),
    UserExtraInfo: obj('UserExtraInfo'),
    UserPrivateInfo: picked(obj('UserPrivateInfo'), ['CitationAPIKey', 'ZoteroAPIKey', 'SignatureCert', 'SignatureKey', 'SignatureCa']),
    ServerPrivateInfo: picked(obj('ServerPrivateInfo'), ['ESignatureBaseUrl', 'ESignatureClientId', 'ESignatureSecret']),
    UserSettings: settings('UserSettings'),
    SharedSettings: settings('SharedSettings'),
    ignored,
    ...(Object.fromEntries(BOOLEANS.map((k) => [k, bool(k, false)])) as Record<(typeof BOOLEANS)[number], boolean>),
  };
  if (info.DisablePrint) info.HidePrintOption = true;
  if (info.DisableExport) info.HideExportOption = true;
  const m = /^DownloadAsPostMessage=(true|false)$/.exec(override?.trim() ?? '');
  if (m) info.DownloadAsPostMessage = m[1] === 'true';
  return info;
}
