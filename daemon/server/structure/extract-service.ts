import { readFileSync, rmSync, copyFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Logger } from 'pino';
import { extractDocumentProperties, StructureError, type StructureFormat } from '../../structure/index.ts';
import type { OdeConfig } from '../config/schema.ts';
import { checkContainer } from '../convert/container-check.ts';
import { OdeError } from '../errors.ts';
import { kindOfExtension } from '../formats/tables.ts';
import type { KitPool } from '../pool/pool.ts';
import { parseStructureFilter, type StructureFilter } from './filter.ts';

/** Filters that work today; the others answer not_implemented. */
const BUILT: ReadonlySet<string> = new Set(['docprops']);
const NATIVE: ReadonlySet<string> = new Set(['docx', 'odt', 'pptx', 'odp']);

/** One extraction request: the uploaded file and the spec's form fields. */
export interface ExtractRequest {
  path: string;
  filename: string;
  fields: { filter?: string; lang?: string; password?: string };
}

/**
 * The extraction endpoint's work (spec: Extraction). DOCX, ODT, PPTX and ODP are read by the structure engine;
 * other text documents and presentations go through a kit first (to DOCX or PPTX). What needs LibreOffice's
 * layout (PageCount) comes from a kit too, in the same load.
 */
export class ExtractService {
  constructor(
    private readonly pool: KitPool,
    private readonly config: () => OdeConfig,
    private readonly log: Logger,
  ) {}

  /**
   * Extracts `{DocStructure: {...}}` for the requested filter.
   * @throws OdeError unknown_input_format, unsupported_format (spreadsheets and drawings), bad_request (filter),
   *   not_implemented (filters not built yet), load_failed, password_required, and the pool's errors.
   */
  async extract(req: ExtractRequest): Promise<{ DocStructure: Record<string, unknown> }> {
    const ext = extname(req.filename).slice(1).toLowerCase();
    const kind = kindOfExtension(ext);
    if (!kind) throw new OdeError('unknown_input_format', `Ode does not read ".${ext || '(no extension)'}" files.`);
    if (kind !== 'text' && kind !== 'presentation') throw new OdeError('unsupported_format', `The structure API reads text documents and presentations, not a ${kind}.`);
    const filter = parseStructureFilter(req.fields.filter);
    this.checkBuilt(filter);
    checkContainer(req.path, ext);
    const target = kind === 'text' ? 'docx' : 'pptx';
    const started = performance.now();
    const layout = await this.inspectInKit(req, ext, NATIVE.has(ext) ? undefined : target);
    const format = (NATIVE.has(ext) ? ext : target) as StructureFormat;
    const bytes = new Uint8Array(layout.bytes ?? readFileSync(req.path));
    const structure: Record<string, unknown> = {};
    try {
      structure.DocumentProperties = extractDocumentProperties(bytes, format, { pageCount: kind === 'text' ? layout.parts : undefined });
    } catch (e) {
      if (e instanceof StructureError) throw new OdeError('load_failed', `The document cannot be read: ${e.message}`);
      throw e;
    }
    this.log.info({ from: ext, filter: filter.name ?? 'all', ms: Math.round(performance.now() - started) }, 'extracted document structure');
    return { DocStructure: structure };
  }

  private checkBuilt(filter: StructureFilter): void {
    if (filter.name === undefined) throw new OdeError('not_implemented', `Extracting everything at once is not built yet: ask for filter=docprops (the filters built so far: ${[...BUILT].join(', ')}).`);
    if (!BUILT.has(filter.name)) throw new OdeError('not_implemented', `The ${filter.name} filter is not built yet; built so far: ${[...BUILT].join(', ')}.`);
  }

  /** Loads the document in a kit: its part count, and a DOCX/PPTX copy when `convertTo` is given. */
  private inspectInKit(req: ExtractRequest, ext: string, convertTo: string | undefined): Promise<{ parts: number; bytes?: Buffer }> {
    const limits = this.config().limits;
    return this.pool.withConversionKit(async (kit) => {
      const dir = kit.jobDir();
      try {
        const input = join(dir, `input.${ext}`);
        copyFileSync(req.path, input);
        const output = convertTo ? join(dir, `output.${convertTo}`) : undefined;
        const r = await kit.inspect({ input, output, format: convertTo, lang: req.fields.lang || undefined, password: req.fields.password || undefined }, { loadMs: limits.load_secs * 1000, convertMs: limits.convert_secs * 1000 });
        return { parts: r.parts ?? 0, bytes: output ? readFileSync(output) : undefined };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
}
