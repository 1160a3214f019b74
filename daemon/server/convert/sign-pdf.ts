import { OdeError } from '../errors.ts';
import type { FilterDataEntry } from './options.ts';

/**
 * Signs an exported PDF with the PEM certificate, key and CA of the spec's Digital signature options.
 * LibreOffice 7.4's PDF export cannot sign from PEM material, so Ode signs after the export.
 * @throws OdeError bad_options when the PEM material cannot be used.
 */
export async function signPdf(_pdf: Buffer, _options: Record<string, FilterDataEntry>): Promise<Buffer> {
  throw new OdeError('bad_options', 'options.SignPDF: signing is not available yet');
}
