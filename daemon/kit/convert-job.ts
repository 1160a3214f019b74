import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ConvertRequest, ConvertResult } from '../protocol/kit.ts';
import type { OfficeHandle } from './office.ts';

/** The language of a conversion without `lang` (spec: Conversion, "default English (USA)"). */
export const DEFAULT_LANGUAGE = 'en-US';

/**
 * The CSV import tokens (separator, text delimiter, character set 76 = UTF-8, first line) of a delimited-text
 * input given without `infilterOptions`: comma for .csv, tab for .tsv (spec: Conversion, "import filter options
 * for CSV"). Other inputs get none.
 */
export const DELIMITED_TEXT_DEFAULTS: Readonly<Record<string, string>> = { csv: '44,34,76,1', tsv: '9,34,76,1' };

/**
 * Builds LOK's documentLoadWithOptions string: the import filter options (e.g. CSV `59,34,76,1`) first, then
 * `Language=` and `Batch=true` (no interaction: LibreOffice must never wait for a dialog answer in a kit).
 * LOK extracts the named parameters and passes the rest on as FilterOptions (daemon/native/README.md); a CSV or
 * TSV input loads through LOK like any other (LibreOffice 25.2; 7.4 needed a headless soffice for them).
 * `input`: the file's path, to give a .csv/.tsv without options {@link DELIMITED_TEXT_DEFAULTS}.
 * `Language=` is always given: it sets the locale of the whole kit process, so a job without `lang` after one
 * with `lang=de-DE` would otherwise be formatted in German.
 */
export function buildLoadOptions(req: Pick<ConvertRequest, 'loadOptions' | 'lang'> & { input?: string }): string {
  const parts: string[] = [];
  const defaults = req.input === undefined ? undefined : DELIMITED_TEXT_DEFAULTS[extname(req.input).slice(1).toLowerCase()];
  if (req.loadOptions) parts.push(req.loadOptions);
  else if (defaults) parts.push(defaults);
  parts.push(`Language=${req.lang || DEFAULT_LANGUAGE}`);
  parts.push('Batch=true');
  return parts.join(',');
}

/** A finished conversion: its timings, and `dispose` to destroy the document once the answer is sent. */
export interface ConvertJobOutcome {
  result: ConvertResult;
  dispose: () => void;
}

/**
 * Runs one `convert` job (kit.md): load `input` (CSV/TSV too, with their import options), call `onLoaded`,
 * saveAs `output`. The document is destroyed by `dispose`, which the caller runs after
 * sending the result: destroying takes 5-30 ms that the client need not wait for (the kit's job queue makes the
 * next job wait instead). On failure the document is destroyed before the error is thrown.
 * @throws Error with `code` load_failed / password_required / password_invalid / save_failed.
 */
export async function convertJob(office: OfficeHandle, req: ConvertRequest, onLoaded: () => void): Promise<ConvertJobOutcome> {
  const t0 = performance.now();
  const loadOptions = buildLoadOptions(req);
  const doc = await office.office.documentLoad(pathToFileURL(req.input).href, { options: loadOptions, password: req.password }).catch((e: Error) => {
    // The addon names the kit's temp file; callers should see LibreOffice's reason only.
    e.message = e.message.replace(/^documentLoad \S+( failed)?: /, '');
    throw e;
  });
  const t1 = performance.now();
  onLoaded();
  try {
    const docType = doc.getDocumentType();
    await doc.saveAs(pathToFileURL(req.output).href, req.format, req.filterOptions);
    return { result: { loadMs: t1 - t0, saveMs: performance.now() - t1, docType }, dispose: () => doc.destroy() };
  } catch (e) {
    doc.destroy();
    const err = e as Error & { code?: string };
    if (!err.code || err.code === 'internal') err.code = 'save_failed';
    throw err;
  }
}
