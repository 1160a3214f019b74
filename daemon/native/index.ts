/**
 * The native LibreOfficeKit addon's facade: the only entry point of daemon/native. Imported by
 * daemon/kit only (a LibreOffice crash then takes down one kit). Importing it does not load the addon
 * or start LibreOffice; Office.init does.
 */
export {
  Office,
  DEFAULT_PROGRAM_DIR,
  type OfficeInitOptions,
  type DocumentLoadOptions,
  type LokVersionInfo,
  type OfficeOptionalCall,
} from './office.ts';
export {
  LokDocument,
  type LokCallback,
  type TileRequest,
  type PartTileRequest,
  type ClipboardItem,
  type DocumentOptionalCall,
  type SlideLayer,
} from './document.ts';
export { LokError, LOK_ERROR_CODES, isLokError, type LokErrorCode } from './errors.ts';
export { ADDON_PATH } from './addon.ts';
export * from './lok-enums.ts';
