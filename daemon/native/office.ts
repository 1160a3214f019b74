/**
 * Office: the process's LibreOfficeKit instance (lok::Office of LibreOfficeKit 25.2), started with
 * lok_init_2(programDir, profileUrl). One per process, never restarted. See README.md for the
 * threading design and the safe shutdown order (destroy documents, then the office, then exit).
 * Calls LibreOffice added after 7.4 are "optional calls": found by the size of LibreOffice's class (the LOK
 * way), listed by optionalCalls(), and throwing LokError `unsupported` on a LibreOffice without them.
 */
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadAddon, type NativeDocument, type NativeOffice } from './addon.ts';
import { LokDocument, type LokCallback } from './document.ts';
import { isLokError, LokError } from './errors.ts';
import { checkFileUrl, checkFunction, checkInt, checkLoadUrl, checkOptionalString, checkString, reportThrows, withCallerStack } from './validate.ts';

/** Debian's LibreOffice program directory. */
export const DEFAULT_PROGRAM_DIR = '/usr/lib/libreoffice/program';

/** VCL's DialogCancelMode::LOKSilent: every dialog is cancelled as soon as it opens. */
const DIALOG_CANCEL_LOK_SILENT = 2;

/** `options` without its `Batch=...` item (LOK's comma-separated load options). */
function stripBatch(options: string): string | undefined {
  const rest = options.split(',').filter((item) => !/^Batch=/i.test(item));
  return rest.length ? rest.join(',') : undefined;
}

/** Options of Office.init. */
export interface OfficeInitOptions {
  /** LibreOffice's program directory (holds libmergedlo.so); default DEFAULT_PROGRAM_DIR. */
  programDir?: string;
  /** file:/// URL of a writable user-profile directory, one per process (created if missing). */
  profileUrl: string;
}

/** Options of documentLoad. */
export interface DocumentLoadOptions {
  /**
   * LOK's load options string. LOK takes out `Language=`, `DeviceFormFactor=`, `Batch=`,
   * `MacroSecurityLevel=`, `EnableMacrosExecution=` (and more in 25.2) and passes what is left as the import
   * filter's FilterOptions (README.md, "Load options"). Include `Batch=true` in a kit: without it, a load that
   * wants a dialog hangs for ever.
   */
  options?: string;
  /** Password for an encrypted document (also used once as password-to-modify). */
  password?: string;
}

/**
 * The lok::Office calls newer than LibreOffice 7.4 that the addon knows (header names). optionalCalls() says
 * which this LibreOffice has.
 */
export type OfficeOptionalCall = 'setOption' | 'extractRequest' | 'trimMemory' | 'extractDocumentStructureRequest';

/** getVersionInfo() answer (LOK's JSON). */
export interface LokVersionInfo {
  ProductName: string;
  ProductVersion: string;
  ProductExtension: string;
  BuildId: string;
  [key: string]: unknown;
}

function checkProfile(profileUrl: string): void {
  const dir = fileURLToPath(profileUrl);
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (err) {
    // Without a usable profile LibreOffice exits the whole process (code 77): refuse here instead.
    const reason = err instanceof Error ? err.message : String(err);
    throw new LokError(`profile directory ${dir} is not writable: ${reason}`, 'invalid_argument');
  }
}

function checkProgramDir(programDir: string): void {
  if (!existsSync(join(programDir, 'libmergedlo.so')) && !existsSync(join(programDir, 'libsofficeapp.so'))) {
    throw new LokError(
      `${programDir} holds no LibreOffice (libmergedlo.so): apt-get install libreoffice-core libreoffice-writer libreoffice-calc libreoffice-impress`,
      'init_failed',
    );
  }
}

/** The LibreOfficeKit instance of this process. */
export class Office {
  static #instance: Office | undefined;

  readonly #native: NativeOffice;
  readonly #listeners = new Set<LokCallback>();
  readonly #documents = new Set<LokDocument>();
  #destroyed = false;

  private constructor(programDir: string, profileUrl: string) {
    this.#native = new (loadAddon().Office)(programDir, profileUrl, (type, payload) => this.#dispatch(type, payload));
  }

  /**
   * Starts LibreOffice in this process (lok_init_2, blocking: about 0.1 s with an existing profile,
   * up to 1.6 s creating one), turns on the password features and the internal password handling, and
   * installs a process 'exit' listener that destroys what is still open and then ends the process with
   * _exit(code): exit() after LibreOffice ran can crash in its static destructors (README.md, "Shutting
   * down"). 'exit' listeners added after Office.init therefore do not run; prefer
   * office.exitProcess(code) to end a kit.
   * Throws LokError `already_initialized` (second call in a process), `init_failed`,
   * `invalid_argument` (profileUrl not a writable file:/// directory), `addon_missing`.
   */
  static init(opts: OfficeInitOptions): Office {
    const programDir = opts.programDir ?? DEFAULT_PROGRAM_DIR;
    const profileUrl = checkFileUrl('profileUrl', opts.profileUrl);
    if (Office.#instance) {
      throw new LokError('Office.init was already called in this process (one Office per process)', 'already_initialized');
    }
    checkProgramDir(programDir);
    checkProfile(profileUrl);
    const office = new Office(programDir, profileUrl);
    Office.#instance = office;
    process.once('exit', (code) => office.#exitHook(code));
    return office;
  }

  /** LibreOffice's last error text (getError), "" if none. */
  getError(): string {
    return this.#native.getError();
  }

  /** Parsed getVersionInfo JSON, e.g. { ProductName: 'LibreOffice', ProductVersion: '25.2', ... }. */
  getVersionInfo(): LokVersionInfo {
    return JSON.parse(this.#native.getVersionInfo()) as LokVersionInfo;
  }

  /** Parsed getFilterTypes JSON: filter type name -> { MediaType }. */
  getFilterTypes(): Record<string, { MediaType: string }> {
    return JSON.parse(this.#native.getFilterTypes()) as Record<string, { MediaType: string }>;
  }

  /** setOptionalFeatures (LOK_FEATURE_* bits). The two password features always stay on. */
  setOptionalFeatures(features: bigint): void {
    if (typeof features !== 'bigint' || features < 0n) {
      throw new LokError('features must be a non-negative bigint', 'invalid_argument');
    }
    this.#native.setOptionalFeatures(features);
  }

  /**
   * VCL's dialog cancel mode (Application::GetDialogCancelMode, found by symbol: LibreOfficeKit has no call for
   * it): 0 Off (dialogs show, through LOK_CALLBACK_WINDOW), 1 Silent, 2 LOKSilent (every dialog closes at once), 3
   * Fatal. A load with `Batch=true` sets LOKSilent for the whole process. null when the symbol is not found.
   */
  getDialogCancelMode(): number | null {
    return this.#native.getDialogCancelMode();
  }

  /**
   * Sets VCL's dialog cancel mode (see getDialogCancelMode): 0 lets dialogs show again after a `Batch=true` load.
   * Returns false when the symbol is not found (nothing changed). Call it when no load is in flight.
   */
  setDialogCancelMode(mode: 0 | 1 | 2 | 3): boolean {
    if (![0, 1, 2, 3].includes(mode)) throw new LokError('mode must be 0, 1, 2 or 3', 'invalid_argument');
    return this.#native.setDialogCancelMode(mode);
  }

  /**
   * Adds a listener for office callbacks (LOK_CALLBACK_DOCUMENT_PASSWORD*, LOK_CALLBACK_ERROR,
   * LOK_CALLBACK_STATUS_INDICATOR_*, LOK_CALLBACK_SIGNATURE_STATUS, ...). Password questions are
   * already answered in C++ by the time a listener sees them. A listener that throws surfaces as an
   * uncaught exception; the other listeners still run.
   */
  registerCallback(cb: LokCallback): void {
    this.#listeners.add(reportThrows(checkFunction('cb', cb)));
  }

  /**
   * Loads a document (documentLoadWithOptions) on a worker thread. `url` is a file:/// URL (or
   * `private:factory/<module>` for a new empty document); work on a
   * copy, as LibreOffice leaves a lock file next to it.
   * Rejects LokError `password_required`, `password_invalid`, `load_failed` (with getError() text),
   * `busy` (a load of the same URL is in flight), `destroyed`, `invalid_argument`.
   */
  documentLoad(url: string, opts: DocumentLoadOptions = {}): Promise<LokDocument> {
    const holder = {};
    Error.captureStackTrace(holder, this.documentLoad);
    return withCallerStack(holder, async () => {
      checkLoadUrl('url', url);
      const options = checkOptionalString('options', opts.options);
      const password = checkOptionalString('password', opts.password);
      const native = await this.#loadWithPasswordQuestions(url, options, password);
      const doc = LokDocument.create(native, (d) => this.#documents.delete(d));
      this.#documents.add(doc);
      return doc;
    });
  }

  /**
   * LibreOffice 25.2 asks no password question in a `Batch=true` load: an encrypted document just fails
   * ("loadComponentFromURL returned an empty reference"), with or without the right password. So a batch load that
   * fails is tried once more without `Batch=` but with VCL's dialog cancel mode at LOKSilent (every dialog closes as
   * it opens, as in batch mode), where the questions come and the password broker answers them. The retry's
   * password_* error (or its document) wins; when it fails for another reason the batch load's error is kept.
   */
  async #loadWithPasswordQuestions(url: string, options: string | undefined, password: string | undefined): Promise<NativeDocument> {
    try {
      return await this.#native.documentLoad(url, options, password);
    } catch (err) {
      const batch = options !== undefined && /(^|,)Batch=true(,|$)/i.test(options);
      const previous = batch && isLokError(err, 'load_failed') ? this.#native.getDialogCancelMode() : null;
      if (previous === null) throw err;
      this.#native.setDialogCancelMode(DIALOG_CANCEL_LOK_SILENT);
      try {
        return await this.#native.documentLoad(url, stripBatch(options!), password);
      } catch (retryErr) {
        throw isLokError(retryErr, 'password_required') || isLokError(retryErr, 'password_invalid') ? retryErr : err;
      } finally {
        this.#native.setDialogCancelMode(previous);
      }
    }
  }

  /**
   * lok::Office::extractRequest on a worker thread: LibreOffice loads the document hidden and answers the JSON
   * of its link targets, `{"Targets": {"Headings": {...}, "Bookmarks": {...}, "Tables": ..., ...}}` (each
   * group maps a name to the target string a link uses, e.g. `"Intro": "Intro|outline"`); `{ }` when the
   * document has none or cannot be read. `url` is a file:/// URL (work on a copy). Takes about a load's time.
   * Rejects LokError `unsupported` (no such call in this LibreOffice), `password_required`, `call_failed`,
   * `busy` (a load of the same URL is in flight), `destroyed`, `invalid_argument`.
   */
  extractRequest(url: string): Promise<string> {
    const holder = {};
    Error.captureStackTrace(holder, this.extractRequest);
    return withCallerStack(holder, async () => this.#native.extractRequest(checkFileUrl('url', url)));
  }

  /**
   * lok::Office::extractDocumentStructureRequest on a worker thread: LibreOffice loads the document hidden and
   * answers the JSON of its structure, as Collabora's `/cool/extract-document-structure` does: `filter` is
   * LibreOffice's (e.g. `contentcontrol`, `charts`, `docprops`, or "" for everything it knows; text documents
   * only in 25.2). Rejects like extractRequest.
   */
  extractDocumentStructureRequest(url: string, filter = ''): Promise<string> {
    const holder = {};
    Error.captureStackTrace(holder, this.extractDocumentStructureRequest);
    return withCallerStack(holder, async () => this.#native.extractDocumentStructureRequest(checkFileUrl('url', url), checkString('filter', filter)));
  }

  /**
   * lok::Office::trimMemory: LibreOffice drops caches it can rebuild (glyphs, bitmaps, ...). `target` is how
   * hard to try, as Collabora's kit passes it: below 1000 caches only, 1000 or more also returns freed heap to
   * the system (malloc_trim). Synchronous, a few ms. Throws `unsupported`, `invalid_argument`.
   */
  trimMemory(target: number): void {
    this.#native.trimMemory(checkInt('target', target, 0));
  }

  /**
   * lok::Office::setOption(option, value): LibreOffice's process-wide switches (e.g. `profilezonerecording`,
   * `sallogoverride`, `addfont`). Throws `unsupported`, `invalid_argument`.
   */
  setOption(option: string, value?: string): void {
    this.#native.setOption(checkString('option', option, true), checkOptionalString('value', value));
  }

  /** The optional lok::Office calls this LibreOffice has (found by its class size). */
  optionalCalls(): OfficeOptionalCall[] {
    return this.#native.optionalCalls() as OfficeOptionalCall[];
  }

  /**
   * Destroys every open document, then LibreOffice (about 10 ms). Idempotent. After it, every call on
   * the office or its documents throws `destroyed`, and the process may exit. Throws `busy` while a
   * documentLoad or a document's async call is in flight.
   */
  destroy(): void {
    this.#native.destroy();
    this.#documents.clear();
    this.#destroyed = true;
  }

  /**
   * Ends the process cleanly: destroys the documents and LibreOffice (unless an async call is in flight,
   * which _exit then simply abandons), then _exit(code), skipping atexit handlers and static destructors.
   * The safe way for a kit to stop. stdout/stderr writes already made are not lost (synchronous on Linux).
   */
  exitProcess(code = 0): never {
    this.#destroyQuietly();
    return loadAddon().exitNow(code);
  }

  /** True after destroy(). */
  get destroyed(): boolean {
    return this.#destroyed;
  }

  #dispatch(type: number, payload: string): void {
    for (const cb of this.#listeners) cb(type, payload);
  }

  #destroyQuietly(): void {
    if (this.#destroyed) return;
    try {
      this.destroy();
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      process.stderr.write(`ode-lok: LibreOffice not destroyed before exit (${reason})\n`);
    }
  }

  // exit() with LibreOffice alive crashes ("Unspecified Application Error"); exit() after lo_destroy
  // crashes about 1 time in 20 in LibreOffice's static destructors. _exit avoids both.
  #exitHook(code: number): void {
    this.exitProcess(code);
  }
}
