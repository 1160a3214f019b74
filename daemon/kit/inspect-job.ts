import { pathToFileURL } from 'node:url';
import type { InspectRequest, InspectResult } from '../protocol/kit.ts';
import { buildLoadOptions } from './convert-job.ts';
import type { OfficeHandle } from './office.ts';

/**
 * Runs one `inspect` job (kit.md): load `input`, count its parts (LOK getParts lays the document out: pages of
 * a text document, slides of a presentation), saveAs `output` in `format` when given, destroy the document.
 * @throws Error with `code` load_failed / password_required / password_invalid / save_failed.
 */
export async function inspectJob(office: OfficeHandle, req: InspectRequest): Promise<InspectResult> {
  const t0 = performance.now();
  const doc = await office.office.documentLoad(pathToFileURL(req.input).href, { options: buildLoadOptions(req), password: req.password }).catch((e: Error) => {
    e.message = e.message.replace(/^documentLoad \S+( failed)?: /, '');
    throw e;
  });
  const loadMs = performance.now() - t0;
  try {
    const parts = doc.getParts();
    if (req.output && req.format) {
      await doc.saveAs(pathToFileURL(req.output).href, req.format).catch((e: Error & { code?: string }) => {
        if (!e.code || e.code === 'internal') e.code = 'save_failed';
        throw e;
      });
    }
    return { loadMs, docType: doc.getDocumentType(), parts };
  } finally {
    doc.destroy();
  }
}
