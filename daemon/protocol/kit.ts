/**
 * Daemon <-> kit IPC messages, as written down in `kit.md` beside this file (the source of truth).
 * Imports nothing: every process shares these shapes.
 */

/** A stable error carried across the IPC boundary: `code` from the list in kit.md. */
export interface KitErrorPayload {
  code: string;
  message: string;
}

/** Sent once by a kit when LibreOffice is initialised and warm. `initMs`: lok_init_2 time; `warmMs`: warm-up time (ms). */
export interface KitReady {
  type: 'ready';
  pid: number;
  version: string;
  initMs: number;
  warmMs: number;
}

/** Sent by a kit whose start-up failed, just before it exits. */
export interface KitFatal {
  type: 'fatal';
  message: string;
}

/** Fields of a successful `convert` result: times in ms, `docType` a LOK_DOCTYPE_* number. */
export interface ConvertResult {
  loadMs: number;
  saveMs: number;
  docType: number;
}

/** One tracked change of LibreOffice's redline table and the 1-based page on which it starts (after layout). */
export interface RedlinePage {
  type: string;
  author: string;
  dateTime: string;
  /** LibreOffice's generated description, e.g. `Delete “text”` (long texts shortened with "..."). */
  description: string;
  page: number;
}

/**
 * Fields of a successful `inspect` result: `parts` is LOK getParts (pages of a text document, slides);
 * `redlines` (when asked for) the tracked changes in document order with their start pages.
 */
export interface InspectResult {
  loadMs: number;
  docType: number;
  parts: number;
  redlines?: RedlinePage[];
}

/** The answer to one request (`id` echoes the request's). */
export type KitResult =
  | ({ type: 'result'; id: number; ok: true; ms: number } & Partial<ConvertResult> & Partial<InspectResult>)
  | { type: 'result'; id: number; ok: false; error: KitErrorPayload };

/** Sent while a job runs, when its document has loaded (the daemon switches time limits). */
export interface KitProgress {
  type: 'progress';
  id: number;
  stage: 'loaded';
}

/** Every message a kit sends. */
export type KitToDaemon = KitReady | KitFatal | KitProgress | KitResult;

/**
 * Convert one file inside the kit: load `input`, saveAs `output` with `format` (a LOK saveAs format such as
 * `pdf` or `docx`) and `filterOptions`, then destroy the document. Paths are absolute and inside the kit's temp
 * directory. `loadOptions` is passed to documentLoadWithOptions (CSV import options), `lang` becomes
 * `Language=`.
 */
export interface ConvertRequest {
  type: 'convert';
  id: number;
  input: string;
  output: string;
  format: string;
  filterOptions?: string;
  loadOptions?: string;
  lang?: string;
  password?: string;
}

/**
 * Inspect one file inside the kit: load `input`, count its parts, read the tracked changes' pages when
 * `redlines` is true (text documents), saveAs `output` in `format` when both are given, destroy the document.
 * Paths as for ConvertRequest.
 */
export interface InspectRequest {
  type: 'inspect';
  id: number;
  input: string;
  output?: string;
  format?: string;
  lang?: string;
  password?: string;
  redlines?: boolean;
}

/** Ask the kit to destroy its document and LibreOffice, then exit 0. */
export interface ShutdownRequest {
  type: 'shutdown';
}

/** Every message the daemon sends. */
export type DaemonToKit = ConvertRequest | InspectRequest | ShutdownRequest;

/** Type guard for messages arriving from a kit (the IPC channel carries untyped values). */
export function isKitToDaemon(value: unknown): value is KitToDaemon {
  if (typeof value !== 'object' || value === null) return false;
  const t = (value as { type?: unknown }).type;
  return t === 'ready' || t === 'fatal' || t === 'progress' || t === 'result';
}

/** Type guard for messages arriving from the daemon. */
export function isDaemonToKit(value: unknown): value is DaemonToKit {
  if (typeof value !== 'object' || value === null) return false;
  const t = (value as { type?: unknown }).type;
  return t === 'convert' || t === 'inspect' || t === 'shutdown';
}
