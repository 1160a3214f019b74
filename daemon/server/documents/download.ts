import { mkdirSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { FileInfo } from '../wopi/check-file-info.ts';
import type { WopiClient } from '../wopi/wopi-client.ts';
import type { WopiSrc } from '../wopi/wopi-src.ts';

/** The downloaded document in the kit's folder, and the template it was made from (TemplateSource), if any. */
export interface Downloaded {
  /** Where the document will live while it is edited (the kit saves back to it). */
  path: string;
  /** With TemplateSource: the template's bytes, written here; the document must be created from it and uploaded. */
  templatePath?: string;
}

/** A safe local name with the document's extension (LibreOffice detects the type from it). */
export function localName(info: Pick<FileInfo, 'BaseFileName'>): string {
  const ext = extname(info.BaseFileName)
    .toLowerCase()
    .replace(/[^.a-z0-9]/g, '');
  return `document${ext}`;
}

/**
 * Fetches the document into `dir` (issue 4, WOPI client): GetFile (FileUrl first), or, when CheckFileInfo names a
 * TemplateSource, the template, which the caller turns into the document and saves with PutFile at once.
 * @throws WopiError from the host.
 */
export async function downloadDocument(client: WopiClient, src: WopiSrc, token: string, info: FileInfo, dir: string): Promise<Downloaded> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, localName(info));
  if (info.TemplateSource) {
    const bytes = await client.getTemplate(info.TemplateSource, src, token);
    const templatePath = join(dir, `template${extname(new URL(info.TemplateSource).pathname).toLowerCase() || extname(path)}`);
    writeFileSync(templatePath, bytes);
    return { path, templatePath };
  }
  writeFileSync(path, await client.getFile(src, token, info));
  return { path };
}
