import type { Logger } from 'pino';
import { StructureError } from '../../structure/errors.ts';
import { checkContainer } from '../convert/container-check.ts';
import type { StructureEngine } from './engine-pool.ts';
import { parseStructureFilter } from './filter.ts';
import { OdeError } from '../errors.ts';
import { checkStructureInput, isEncryptedInput, structureError } from './input.ts';
import { NATIVE_FORMATS, nativeFormatFor, type StructureKit } from './structure-kit.ts';

/** One extraction request: the uploaded file and the spec's form fields. */
export interface ExtractRequest {
  path: string;
  filename: string;
  fields: { filter?: string; lang?: string; password?: string };
}

/**
 * The extraction endpoint's work (spec: Extraction). DOCX, ODT, PPTX and ODP are read by the structure engine
 * straight from the upload; other text documents and presentations are converted by a kit first (structure-kit.ts).
 * A kit is also asked for what needs LibreOffice's layout: PageCount of text documents (docprops, or no filter)
 * and the page of each tracked change (`trackchanges,startPageNumber:true`), in the same load.
 */
export class ExtractService {
  constructor(
    private readonly kit: StructureKit,
    private readonly log: Logger,
    private readonly engine: StructureEngine,
  ) {}

  /**
   * Extracts `{DocStructure: {...}}` for the requested filter (all that apply to the kind when none).
   * @throws OdeError unknown_input_format, unsupported_format (spreadsheets and drawings), bad_request (filter,
   *   lang), load_failed (unreadable package), password_required, package_too_large, xml_too_deep (checked before
   *   a kit or the engine reads the file), too_complex (the engine's worker past its limits), and the pool's errors.
   */
  async extract(req: ExtractRequest): Promise<{ DocStructure: Record<string, unknown> }> {
    const started = performance.now();
    const { ext, kind, lang } = checkStructureInput(req.filename, req.fields.lang);
    const filter = parseStructureFilter(req.fields.filter);
    checkContainer(req.path, ext);
    await this.engine.check(req.path, ext);
    const native = nativeFormatFor(ext, kind);
    const wantsPages = kind === 'text' && (filter.name === undefined || filter.name === 'docprops');
    const wantsRedlines = kind === 'text' && filter.name === 'trackchanges' && filter.startPageNumber === true;
    let input: { path: string } | { bytes: Uint8Array };
    let layout: { pageCount?: number; redlines?: Array<{ type: string; author: string; dateTime: string; page: number }> } = {};
    if (NATIVE_FORMATS.has(ext) && !wantsPages && !wantsRedlines) {
      input = { path: req.path };
    } else {
      const seen = await this.kit.inspect(req.path, ext, {
        convertTo: NATIVE_FORMATS.has(ext) ? undefined : native,
        redlines: wantsRedlines,
        lang,
        password: req.fields.password,
      });
      input = seen.bytes ? { bytes: new Uint8Array(seen.bytes) } : { path: req.path };
      layout = { pageCount: wantsPages ? seen.parts : undefined, redlines: seen.redlines };
    }
    const opts = { filter: filter.name, contextLen: filter.contextLen, startPageNumber: filter.startPageNumber };
    let structure: Record<string, unknown>;
    try {
      structure = await this.engine.extract(input, native, { ...opts, layout });
    } catch (e) {
      if (!isEncryptedInput(e, req.path, ext)) throw e instanceof StructureError ? structureError(e) : e;
      if (!req.fields.password) throw new OdeError('password_required', 'The document is encrypted: send its password in the "password" field.');
      // LibreOffice opens it with the password and writes a plain copy for the engine, in the same load as the layout.
      const seen = await this.kit.inspect(req.path, ext, { convertTo: native, redlines: wantsRedlines, lang, password: req.fields.password });
      try {
        structure = await this.engine.extract({ bytes: new Uint8Array(seen.bytes!) }, native, {
          ...opts,
          layout: { pageCount: wantsPages ? seen.parts : undefined, redlines: seen.redlines },
        });
      } catch (e2) {
        throw e2 instanceof StructureError ? structureError(e2) : e2;
      }
    }
    this.log.info({ from: ext, via: native, filter: filter.name ?? 'all', ms: Math.round(performance.now() - started) }, 'extracted document structure');
    return { DocStructure: structure };
  }
}
