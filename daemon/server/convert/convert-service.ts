import { copyFileSync } from 'node:fs';
import { extname, basename } from 'node:path';
import type { Logger } from 'pino';
import type { OdeConfig } from '../config/schema.ts';
import { OdeError } from '../errors.ts';
import { exportTargetFor, kindOfExtension, outputFormatsFor, UNAVAILABLE_OUTPUTS, type ConversionTarget } from '../formats/tables.ts';
import type { KitPool } from '../pool/pool.ts';
import { checkContainer, isEncryptedPackage } from './container-check.ts';
import { convertInKit } from './kit-job.ts';
import { buildExportOptions, type ConvertFields, type ExportOptions } from './options.ts';

/** One conversion request: the uploaded file on disk and the spec's form fields. */
export interface ConvertRequestInput {
  /** Path of the uploaded bytes (left in place; the caller removes it). */
  path: string;
  /** The client's file name (its extension decides the input kind). */
  filename: string;
  fields: ConvertFields & { lang?: string; password?: string };
  /**
   * Checks the upload before a kit sees it (the package checks of issue 17); what it throws fails the conversion
   * like any other error, so it is counted and reported as a failed conversion.
   */
  precheck?: () => Promise<void>;
}

/** A finished conversion: the output bytes, its Content-Type and a download file name. */
export interface ConvertOutput {
  bytes: Buffer;
  mimeType: string;
  filename: string;
  /** Times in ms: in the kit (load, save) and end to end (including the wait for a kit). */
  timings: { loadMs: number; saveMs: number; totalMs: number };
}

const LANG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** How one conversion ended (for the admin status and metrics): `ms` end to end, `code` the OdeError code of a failure. */
export interface ConversionResult {
  ok: boolean;
  ms: number;
  code?: string;
}

/**
 * Converts uploaded documents through the kit pool (spec: Conversion). Validation happens before a kit is
 * taken, so bad requests never cost a LibreOffice load.
 */
export class ConvertService {
  constructor(
    private readonly pool: KitPool,
    private readonly config: () => OdeConfig,
    private readonly log: Logger,
  ) {}

  private readonly resultListeners = new Set<(r: ConversionResult) => void>();

  /** Calls `fn` after every conversion, ok or failed (any error convert() throws); returns the unsubscribe function. */
  onResult(fn: (r: ConversionResult) => void): () => void {
    this.resultListeners.add(fn);
    return () => this.resultListeners.delete(fn);
  }

  /**
   * Validates the request, runs it in a leased kit (copy in, load, saveAs, copy out) and returns the result.
   * The kit's job directory is removed whatever happens.
   * @throws OdeError unknown_input_format, unsupported_format (with `formats`), bad_options, queue_full,
   *   password_required, password_invalid, load_failed, save_failed, timeout, kit_crashed, no_kit
   */
  async convert(input: ConvertRequestInput): Promise<ConvertOutput> {
    const started = performance.now();
    const report = (r: ConversionResult) => {
      for (const fn of this.resultListeners) fn(r);
    };
    try {
      await input.precheck?.();
      const out = await this.convertChecked(input, started);
      report({ ok: true, ms: performance.now() - started });
      return out;
    } catch (e) {
      report({ ok: false, ms: performance.now() - started, code: e instanceof OdeError ? e.code : 'internal' });
      throw e;
    }
  }

  private async convertChecked(input: ConvertRequestInput, started: number): Promise<ConvertOutput> {
    const ext = extname(input.filename).slice(1).toLowerCase();
    const kind = kindOfExtension(ext);
    if (!kind) throw new OdeError('unknown_input_format', `Ode does not convert ".${ext || '(no extension)'}" files; name the file with its real extension.`);
    const format = input.fields.format.toLowerCase().replace(/^\./, '');
    const target = exportTargetFor(kind, format);
    if (!target) {
      const formats = outputFormatsFor(kind);
      const why = UNAVAILABLE_OUTPUTS[format] ? ` (${UNAVAILABLE_OUTPUTS[format]})` : '';
      throw new OdeError('unsupported_format', `A ${kind} document cannot be converted to "${format}"${why}; it can be converted to: ${formats.join(', ')}.`, {
        formats,
      });
    }
    const lang = input.fields.lang?.trim();
    if (lang && !LANG.test(lang)) throw new OdeError('bad_request', `lang: "${lang}" is not a BCP 47 language tag such as en-US`);
    const exportOptions = buildExportOptions({ ...input.fields, format }, kind);
    checkContainer(input.path, ext);

    const result = await this.runInKit(input, ext, target, exportOptions, lang).catch((e: unknown) => {
      throw this.explainLoadFailure(e, input, ext);
    });
    return this.finish(input, kind, ext, format, target, exportOptions, result, started);
  }

  /**
   * LibreOffice (7.4 and 25.2: daemon/native/passwords.test.ts) gives up on OOXML encrypted with schemes it cannot decrypt (e.g. AES-256 with SHA-1 agile
   * encryption) without asking for a password, so its failure is plain load_failed. The package is encrypted
   * all the same: say so.
   */
  private explainLoadFailure(e: unknown, input: ConvertRequestInput, ext: string): unknown {
    if (!(e instanceof OdeError) || e.code !== 'load_failed' || !isEncryptedPackage(input.path, ext)) return e;
    if (!input.fields.password) return new OdeError('password_required', `The .${ext} document is encrypted: send its password in the "password" field.`);
    return new OdeError(
      'load_failed',
      `The .${ext} document is encrypted, and LibreOffice could not decrypt it with that password (wrong, or an encryption scheme it does not support).`,
    );
  }

  private runInKit(input: ConvertRequestInput, ext: string, target: ConversionTarget, exportOptions: ExportOptions, lang: string | undefined) {
    return convertInKit(this.pool, this.config().limits, { ext, write: (path) => copyFileSync(input.path, path) }, target, {
      filterOptions: exportOptions.filterOptions,
      loadOptions: exportOptions.loadOptions,
      lang: lang || undefined,
      password: input.fields.password || undefined,
    });
  }

  /** Signs when asked, names the download, logs the conversion. */
  private async finish(
    input: ConvertRequestInput,
    kind: string,
    ext: string,
    format: string,
    target: ConversionTarget,
    exportOptions: ExportOptions,
    result: { bytes: Buffer; loadMs: number; saveMs: number },
    started: number,
  ): Promise<ConvertOutput> {
    let bytes = result.bytes;
    if (exportOptions.pdf?.SignPDF?.value === 'true') {
      // Loaded on first use: node-forge and @signpdf cost the daemon some 10 MB it should not carry when idle.
      const { signPdf } = await import('./sign-pdf.ts');
      bytes = await signPdf(bytes, exportOptions.pdf);
    }
    const stem = basename(input.filename, extname(input.filename)) || 'document';
    const totalMs = performance.now() - started;
    this.log.info({ kind, from: ext, to: format, bytes: bytes.length, ms: Math.round(totalMs) }, 'converted');
    return {
      bytes,
      mimeType: target.mimeType,
      filename: `${stem}.${target.extension}`,
      timings: { loadMs: result.loadMs, saveMs: result.saveMs, totalMs },
    };
  }
}
