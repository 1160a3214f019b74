import { basename, extname } from 'node:path';
import type { Logger } from 'pino';
import { StructureError } from '../../structure/errors.ts';
import type { StructureEngine } from './engine-pool.ts';
import { checkContainer } from '../convert/container-check.ts';
import { OdeError } from '../errors.ts';
import { OUTPUT_FORMATS, OUTPUT_MIME_TYPES, outputFormatsFor } from '../formats/tables.ts';
import { checkStructureInput, isEncryptedInput, structureError } from './input.ts';
import { NATIVE_FORMATS, nativeFormatFor, type StructureKit } from './structure-kit.ts';

/** One transformation request: the uploaded file and the spec's form fields. */
export interface TransformRequest {
  path: string;
  filename: string;
  fields: { transform?: string; format?: string; lang?: string; password?: string };
}

/** A finished transformation: the new document, its Content-Type and download name, and timings (ms). */
export interface TransformOutput {
  bytes: Uint8Array;
  mimeType: string;
  filename: string;
  timings: { engineMs: number; totalMs: number };
}

/**
 * The transformation endpoint's work (spec: Transformation). The recipe is checked before any kit is used. DOCX,
 * ODT, PPTX and ODP are transformed by the structure engine directly; other inputs are converted by a kit to the
 * matching OOXML or ODF first (structure-kit.ts). The result is written in `format`: by default the input's own
 * format when LibreOffice can write it (else the native format it went through), converted by a kit when it is
 * not the native format.
 */
export class TransformService {
  constructor(
    private readonly kit: StructureKit,
    private readonly log: Logger,
    private readonly engine: StructureEngine,
  ) {}

  /**
   * Transforms the uploaded document with the recipe in `fields.transform`.
   * @throws OdeError bad_recipe and the other recipe codes (with `path`), recipe_too_large, unknown_input_format,
   *   unsupported_format (with `formats`), bad_request, load_failed, package_too_large, xml_too_deep, too_complex,
   *   and the pool's errors.
   */
  async transform(req: TransformRequest): Promise<TransformOutput> {
    const started = performance.now();
    const { ext, kind, lang } = checkStructureInput(req.filename, req.fields.lang);
    const recipe = req.fields.transform;
    if (recipe === undefined || recipe.trim() === '')
      throw new OdeError('bad_recipe', 'The "transform" field is required: a JSON recipe such as {"Transforms": [{"DocumentProperties": {"Title": "New"}}]}.', {
        path: '',
      });
    const native = nativeFormatFor(ext, kind);
    const format = (req.fields.format?.trim().toLowerCase().replace(/^\./, '') ||
      ((OUTPUT_FORMATS[kind] as readonly string[]).includes(ext) ? ext : native)) as string;
    if (!outputFormatsFor(kind).includes(format)) {
      const formats = outputFormatsFor(kind);
      throw new OdeError(
        'unsupported_format',
        `A transformed ${kind} document cannot be written as "${format}"; it can be written as: ${formats.join(', ')}.`,
        { formats },
      );
    }
    try {
      await this.engine.checkRecipe(recipe);
    } catch (e) {
      if (e instanceof StructureError) throw structureError(e);
      throw e;
    }
    checkContainer(req.path, ext);
    await this.engine.check(req.path, ext);
    const input = NATIVE_FORMATS.has(ext)
      ? { path: req.path }
      : { bytes: new Uint8Array((await this.kit.inspect(req.path, ext, { convertTo: native, lang, password: req.fields.password })).bytes!) };
    const t0 = performance.now();
    let bytes: Uint8Array;
    try {
      bytes = await this.engine.transform(input, native, recipe);
    } catch (e) {
      if (isEncryptedInput(e, req.path, ext))
        throw new OdeError(
          'unsupported_format',
          'Ode does not transform encrypted documents: the result would be written without its encryption. Decrypt the document first.',
        );
      if (e instanceof StructureError) {
        this.log.info({ code: e.code, path: e.path }, 'transform recipe refused');
        throw structureError(e);
      }
      throw e;
    }
    const engineMs = performance.now() - t0;
    if (format !== native) bytes = await this.kit.convert(bytes, native, kind, format, lang);
    const totalMs = performance.now() - started;
    this.log.info(
      { from: ext, via: native, to: format, bytes: bytes.length, engineMs: Math.round(engineMs), ms: Math.round(totalMs) },
      'transformed document structure',
    );
    const stem = basename(req.filename, extname(req.filename)) || 'document';
    return { bytes, mimeType: OUTPUT_MIME_TYPES[format] ?? 'application/octet-stream', filename: `${stem}.${format}`, timings: { engineMs, totalMs } };
  }
}
