import { pathToFileURL } from 'node:url';
import type { InspectRequest, InspectResult } from '../protocol/kit.ts';
import { buildLoadOptions } from './convert-job.ts';
import type { OfficeHandle } from './office.ts';
import { readRedlinePages } from './redline-pages.ts';
import { LOK_DOCTYPE_TEXT } from '../protocol/lok-enums.ts';

/**
 * Runs one `inspect` job (kit.md): load `input`, count its parts (LOK getParts lays the document out: pages of
 * a text document, slides of a presentation), read the tracked changes' pages when asked (redline-pages.ts),
 * saveAs `output` in `format` when given, destroy the document. With `linkTargets` only LibreOffice's office-level
 * extractRequest runs (linkTargets below).
 * @throws Error with `code` load_failed / password_required / password_invalid / save_failed.
 */
export async function inspectJob(office: OfficeHandle, req: InspectRequest): Promise<InspectResult> {
  const t0 = performance.now();
  if (req.linkTargets) {
    const targets = await linkTargets(office, req.input);
    return { loadMs: performance.now() - t0, docType: 0, parts: 0, linkTargets: targets };
  }
  const doc = await office.office.documentLoad(pathToFileURL(req.input).href, { options: buildLoadOptions(req), password: req.password }).catch((e: Error) => {
    e.message = e.message.replace(/^documentLoad \S+( failed)?: /, '');
    throw e;
  });
  const loadMs = performance.now() - t0;
  try {
    const parts = doc.getParts();
    const docType = doc.getDocumentType();
    let redlines: Awaited<ReturnType<typeof readRedlinePages>> | undefined;
    if (req.redlines && docType === LOK_DOCTYPE_TEXT) {
      doc.initializeForRendering();
      redlines = await readRedlinePages(doc);
    }
    if (req.output && req.format) {
      await doc.saveAs(pathToFileURL(req.output).href, req.format).catch((e: Error & { code?: string }) => {
        if (!e.code || e.code === 'internal') e.code = 'save_failed';
        throw e;
      });
    }
    return { loadMs, docType, parts, redlines };
  } finally {
    doc.destroy();
  }
}

/**
 * LibreOffice's link targets of the file at `input` (lok::Office::extractRequest, which loads it hidden): the JSON
 * text `{"Targets": {...}}` Collabora's `/cool/extract-link-targets` answers. LibreOffice answers `{ }` for a file it
 * cannot read (no error): that is load_failed here.
 * @throws Error with `code` load_failed; `unsupported` on a LibreOffice without extractRequest.
 */
async function linkTargets(office: OfficeHandle, input: string): Promise<string> {
  const json = await office.office.extractRequest(pathToFileURL(input).href);
  if (!/"Targets"\s*:/.test(json)) throw Object.assign(new Error('LibreOffice could not read the document to list its link targets'), { code: 'load_failed' });
  return json;
}
