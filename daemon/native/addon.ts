/**
 * Loads the compiled addon (build/Release/ode_lok.node) and describes its raw shape. Only the facade
 * (office.ts, document.ts) talks to these objects; everyone else uses the classes exported by index.ts.
 * Loading the .node file does not start LibreOffice; `new NativeOffice(...)` does.
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { LokError } from './errors.ts';

/** Raw callback signature: LibreOfficeKit callback type number and payload string. */
export type NativeCallback = (type: number, payload: string) => void;

/** The native LibreOfficeKit instance (src/office.cc). */
export interface NativeOffice {
  getError(): string;
  getVersionInfo(): string;
  getFilterTypes(): string;
  setOptionalFeatures(features: bigint): void;
  getDialogCancelMode(): number | null;
  setDialogCancelMode(mode: number): boolean;
  documentLoad(url: string, options: string | undefined, password: string | undefined): Promise<NativeDocument>;
  extractRequest(url: string): Promise<string>;
  extractDocumentStructureRequest(url: string, filter: string): Promise<string>;
  trimMemory(target: number): void;
  setOption(option: string, value: string | undefined): void;
  optionalCalls(): string[];
  destroy(): void;
}

/** A native document (src/document*.cc). Coordinates in twips, buffer sizes in px. */
export interface NativeDocument {
  destroy(): void;
  getDocumentType(): number;
  getParts(): number;
  getPart(): number;
  setPart(part: number): void;
  getPartName(part: number): string;
  getPartInfo(part: number): string;
  getPartPageRectangles(): string;
  getDocumentSize(): { width: number; height: number };
  initializeForRendering(args: string | undefined): void;
  registerCallback(cb: NativeCallback): void;
  getCommandValues(command: string): string | null;
  getEditMode(): number;
  optionalCalls(): string[];
  sendContentControlEvent(args: string): void;
  setViewReadOnly(viewId: number, readOnly: boolean): void;
  setAllowChangeComments(viewId: number, allow: boolean): void;
  setViewTimezone(viewId: number, timezone: string): void;
  setViewOption(option: string, value: string): void;
  getPresentationInfo(): string;
  createSlideRenderer(slide: number, width: number, height: number, renderBackground: boolean, renderMasterPage: boolean): { width: number; height: number };
  renderNextSlideLayer(): { done: boolean; isBitmapLayer: boolean; message: string | null; pixels: Buffer | null };
  postSlideshowCleanup(): void;
  paintTile(cw: number, ch: number, x: number, y: number, w: number, h: number): Promise<Buffer>;
  paintPartTile(part: number, mode: number, editMode: number, cw: number, ch: number, x: number, y: number, w: number, h: number): Promise<Buffer>;
  paintWindow(windowId: number, x: number, y: number, width: number, height: number): Buffer;
  renderFont(fontName: string, text: string, width: number, height: number, orientation: number): { width: number; height: number; data: Buffer };
  postWindow(windowId: number, action: number): void;
  saveAs(url: string, format: string, filterOptions: string | undefined): Promise<void>;
  postKeyEvent(type: number, charCode: number, keyCode: number): void;
  postMouseEvent(type: number, x: number, y: number, count: number, buttons: number, modifier: number): void;
  postUnoCommand(command: string, args: string | undefined, notifyWhenFinished: boolean): void;
  setTextSelection(type: number, x: number, y: number): void;
  getTextSelection(mimeType: string): { text: string; usedMimeType: string };
  resetSelection(): void;
  postWindowKeyEvent(windowId: number, type: number, charCode: number, keyCode: number): void;
  sendDialogEvent(windowId: number, args: string): void;
  postWindowExtTextInputEvent(windowId: number, type: number, text: string): void;
  postInputFence(done: () => void, hops: number): boolean;
  postWindowMouseEvent(windowId: number, type: number, x: number, y: number, count: number, buttons: number, modifier: number): void;
  createView(options: string | undefined): number;
  destroyView(id: number): void;
  setView(id: number): void;
  getView(): number;
  getViewsCount(): number;
  setClientVisibleArea(x: number, y: number, width: number, height: number): void;
  setClientZoom(tilePixelWidth: number, tilePixelHeight: number, tileTwipWidth: number, tileTwipHeight: number): void;
  getClipboard(mimeTypes: string[] | undefined): Array<{ mimeType: string; data: Buffer }>;
  setClipboard(items: Array<{ mimeType: string; data: Buffer }>): void;
  paste(mimeType: string, data: Buffer): boolean;
  insertCertificate(certificate: Buffer, privateKey: Buffer): boolean;
  addCertificate(certificate: Buffer): boolean;
  getSignatureState(): number;
}

/** The module object of ode_lok.node (src/addon.cc). */
export interface NativeAddon {
  Office: new (programDir: string, profileUrl: string, dispatch: NativeCallback) => NativeOffice;
  setErrorClass(ctor: typeof LokError): void;
  /** _exit(code): ends the process without atexit handlers or static destructors. */
  exitNow(code: number): never;
}

/** Defined as `true` by esbuild in the production bundle (scripts/build-dist.mjs); undeclared when run from sources. */
declare const ODE_COMPILED: boolean | undefined;

/**
 * Absolute path of the compiled addon. From sources it sits beside this file; in the production bundle
 * (`dist/kit.js`, one level under the checkout's root) it is found from the root.
 */
export const ADDON_PATH = fileURLToPath(
  typeof ODE_COMPILED !== 'undefined' && ODE_COMPILED === true
    ? new URL('../daemon/native/build/Release/ode_lok.node', import.meta.url)
    : new URL('./build/Release/ode_lok.node', import.meta.url),
);

let loaded: NativeAddon | undefined;

/**
 * Returns the addon, loading it on first use and handing it the LokError class.
 * Throws LokError `addon_missing` (with the fix) when the file is missing or does not load.
 */
export function loadAddon(): NativeAddon {
  if (loaded) return loaded;
  if (!existsSync(ADDON_PATH)) {
    throw new LokError(`${ADDON_PATH} is not built: run \`node daemon/native/build.mjs\` (needs libreofficekit-dev, g++, make, python3)`, 'addon_missing');
  }
  const require = createRequire(import.meta.url);
  let addon: NativeAddon;
  try {
    addon = require(ADDON_PATH) as NativeAddon;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new LokError(
      `cannot load ${ADDON_PATH}: ${reason}. Rebuild it for this Node: rm -rf daemon/native/build && node daemon/native/build.mjs`,
      'addon_missing',
    );
  }
  addon.setErrorClass(LokError);
  loaded = addon;
  return addon;
}
