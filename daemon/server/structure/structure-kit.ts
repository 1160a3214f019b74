import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { StructureFormat } from '../../structure/index.ts';
import type { RedlinePage } from '../../protocol/kit.ts';
import type { OdeConfig } from '../config/schema.ts';
import { OdeError } from '../errors.ts';
import { exportTargetFor, kindOfExtension, type DocumentKind } from '../formats/tables.ts';
import type { KitPool } from '../pool/pool.ts';
import { convertInKit, inKitJob, stageLimits } from '../convert/kit-job.ts';

/** Formats the structure engine reads and writes itself. */
export const NATIVE_FORMATS: ReadonlySet<string> = new Set(['docx', 'odt', 'pptx', 'odp']);

/** ODF-family inputs, taken to ODF (not OOXML) so that nothing ODF-specific is lost on the way. */
const ODF_FAMILY: ReadonlySet<string> = new Set(['odt', 'fodt', 'ott', 'odm', 'otm', 'oth', 'sxw', 'stw', 'sxg', 'odp', 'fodp', 'otp', 'sxi', 'sti']);

/**
 * The native format an input goes through (issue: "to the matching OOXML or ODF"): itself when native, ODF for
 * the ODF family (fodt, ott, sxw, fodp, otp, ...), OOXML for everything else (doc, rtf, dotx, ppt, pptm, ...).
 */
export function nativeFormatFor(ext: string, kind: 'text' | 'presentation'): StructureFormat {
  if (NATIVE_FORMATS.has(ext)) return ext as StructureFormat;
  if (ODF_FAMILY.has(ext)) return kind === 'text' ? 'odt' : 'odp';
  return kind === 'text' ? 'docx' : 'pptx';
}

/** What a kit measured: the page (or slide) count, the tracked changes' pages, and the native copy when asked. */
export interface KitInspection {
  parts: number;
  redlines?: RedlinePage[];
  bytes?: Buffer;
}

/**
 * The structure API's use of kits: loading a document for its layout facts (and a native copy of non-native
 * inputs, in the same load), and converting results to the requested format.
 */
export class StructureKit {
  constructor(
    private readonly pool: KitPool,
    private readonly config: () => OdeConfig,
  ) {}

  /**
   * Loads `path` (extension `ext`) in a kit: its parts (pages after layout), the tracked changes' pages when
   * `redlines`, and a copy in `convertTo` when given.
   * @throws OdeError load_failed (also when LibreOffice cannot write what it read as `convertTo`: the file is not
   *   the kind its extension says), password_required, password_invalid, timeout, kit_crashed, queue_full.
   */
  inspect(path: string, ext: string, opts: { convertTo?: StructureFormat; redlines?: boolean; lang?: string; password?: string }): Promise<KitInspection> {
    const limits = stageLimits(this.config().limits);
    return inKitJob(this.pool, async (kit, dir) => {
      try {
        const input = join(dir, `input.${ext}`);
        copyFileSync(path, input);
        const output = opts.convertTo ? join(dir, `output.${opts.convertTo}`) : undefined;
        const r = await kit.inspect(
          { input, output, format: opts.convertTo, lang: opts.lang || undefined, password: opts.password || undefined, redlines: opts.redlines || undefined },
          limits,
        );
        return { parts: r.parts, redlines: r.redlines, bytes: output ? readFileSync(output) : undefined };
      } catch (e) {
        // LibreOffice opened the bytes as something else (random bytes named .key become a text document), so it
        // cannot write them as the presentation or text document the name promised: the input is at fault.
        if (e instanceof OdeError && e.code === 'save_failed' && opts.convertTo)
          throw new OdeError('load_failed', `LibreOffice could not read the file as a .${ext} document (it is corrupt or of another type).`);
        throw e;
      }
    });
  }

  /**
   * Converts the file at `from` to the file `to`, the format taken from `to`'s extension, in a conversion kit (a
   * TemplateSource template becoming the document it creates).
   * @throws OdeError as convert().
   */
  async convertFile(from: string, to: string): Promise<void> {
    const fromExt = extname(from).slice(1).toLowerCase();
    const kind = kindOfExtension(fromExt);
    if (!kind) throw new OdeError('unknown_input_format', `Ode does not read ".${fromExt}" files.`);
    writeFileSync(to, await this.convert(readFileSync(from), fromExt, kind, extname(to).slice(1).toLowerCase()));
  }

  /**
   * Converts `bytes` (a `fromExt` document of `kind`) to `format` in a kit.
   * @throws OdeError unsupported_format when LibreOffice cannot write that format for the kind; the kit's errors.
   */
  async convert(bytes: Uint8Array, fromExt: string, kind: DocumentKind, format: string, lang?: string): Promise<Buffer> {
    const target = exportTargetFor(kind, format);
    if (!target) throw new OdeError('unsupported_format', `A ${kind} document cannot be written as "${format}".`);
    return (
      await convertInKit(this.pool, this.config().limits, { ext: fromExt, write: (path) => writeFileSync(path, bytes) }, target, { lang: lang || undefined })
    ).bytes;
  }
}
