import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { extname, join, basename } from 'node:path';
import type { Logger } from 'pino';
import type { OdeConfig } from '../config/schema.ts';
import { OdeError } from '../errors.ts';
import { kindOfExtension, outputFormatsFor, exportTargetFor, mimeTypeFor } from '../formats/index.ts';
import type { KitPool } from '../pool/pool.ts';
import { checkContainer } from './container-check.ts';
import { buildExportOptions, type ConvertFields } from './options.ts';
import { signPdf } from './sign-pdf.ts';

/** One conversion request: the uploaded file on disk and the spec's form fields. */
export interface ConvertRequestInput {
  /** Path of the uploaded bytes (left in place; the caller removes it). */
  path: string;
  /** The client's file name (its extension decides the input kind). */
  filename: string;
  fields: ConvertFields & { lang?: string; password?: string };
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

  /**
   * Validates the request, runs it in a leased kit (copy in, load, saveAs, copy out) and returns the result.
   * The kit's job directory is removed whatever happens.
   * @throws OdeError unknown_input_format, unsupported_format (with `formats`), bad_options, queue_full,
   *   password_required, password_invalid, load_failed, save_failed, timeout, kit_crashed, no_kit
   */
  async convert(input: ConvertRequestInput): Promise<ConvertOutput> {
    const started = performance.now();
    const ext = extname(input.filename).slice(1).toLowerCase();
    const kind = kindOfExtension(ext);
    if (!kind) throw new OdeError('unknown_input_format', `Ode does not convert ".${ext || '(no extension)'}" files; name the file with its real extension.`);
    const format = input.fields.format.toLowerCase().replace(/^\./, '');
    const target = exportTargetFor(kind, format);
    if (!target) {
      const formats = outputFormatsFor(kind);
      throw new OdeError('unsupported_format', `A ${kind} document cannot be converted to "${format}"; it can be converted to: ${formats.join(', ')}.`, { formats });
    }
    const lang = input.fields.lang?.trim();
    if (lang && !LANG.test(lang)) throw new OdeError('bad_request', `lang: "${lang}" is not a BCP 47 language tag such as en-US`);
    const exportOptions = buildExportOptions({ ...input.fields, format }, kind);
    checkContainer(input.path, ext);
    const limits = this.config().limits;

    const result = await this.pool.withConversionKit(async (kit) => {
      const dir = kit.jobDir();
      try {
        const inPath = join(dir, `input.${ext}`);
        const outPath = join(dir, `output.${target.extension}`);
        copyFileSync(input.path, inPath);
        const r = await kit.convert(
          {
            input: inPath,
            output: outPath,
            format: target.lokFormat,
            filterOptions: exportOptions.filterOptions,
            loadOptions: exportOptions.loadOptions,
            lang: lang || undefined,
            password: input.fields.password || undefined,
          },
          { loadMs: limits.load_secs * 1000, convertMs: limits.convert_secs * 1000 },
        );
        let bytes: Buffer;
        try {
          bytes = readFileSync(outPath);
        } catch {
          throw new OdeError('save_failed', `LibreOffice wrote no ${format} output for this document.`);
        }
        return { bytes, loadMs: r.loadMs ?? 0, saveMs: r.saveMs ?? 0 };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    let bytes = result.bytes;
    if (exportOptions.pdf?.SignPDF?.value === 'true') bytes = await signPdf(bytes, exportOptions.pdf);
    const stem = basename(input.filename, extname(input.filename)) || 'document';
    const totalMs = performance.now() - started;
    this.log.info({ kind, from: ext, to: format, bytes: bytes.length, ms: Math.round(totalMs) }, 'converted');
    return {
      bytes,
      mimeType: target.mimeType ?? mimeTypeFor(target.extension) ?? 'application/octet-stream',
      filename: `${stem}.${target.extension}`,
      timings: { loadMs: result.loadMs, saveMs: result.saveMs, totalMs },
    };
  }
}
