import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OfficeHandle } from './office.ts';

/** LibreOffice's new-document URLs for the modules a kit serves, with the OOXML format each round-trips. */
const MODULES = [
  { name: 'writer', factory: 'private:factory/swriter', ext: 'docx' },
  { name: 'calc', factory: 'private:factory/scalc', ext: 'xlsx' },
  { name: 'impress', factory: 'private:factory/simpress', ext: 'pptx' },
] as const;

/** A module the warm-up can load: writer, calc, impress. */
export type WarmModule = (typeof MODULES)[number]['name'];

/**
 * The modules to warm from ODE_KIT_WARM_MODULES (a comma list of writer, calc, impress; empty: none; unset: all
 * three). Unknown names are ignored.
 */
export function warmModules(env: NodeJS.ProcessEnv): WarmModule[] {
  const all = MODULES.map((m) => m.name);
  const value = env.ODE_KIT_WARM_MODULES;
  if (value === undefined) return all;
  const asked = new Set(value.split(',').map((s) => s.trim().toLowerCase()));
  return all.filter((m) => asked.has(m));
}

/**
 * Makes a kit warm for real: for each module, creates an empty document, saves it as OOXML, loads that file
 * back and exports it to PDF, so the first real job does not pay for loading the Writer/Calc/Impress modules,
 * the OOXML import and export filters and the PDF export (measured here: a first docx load of about 500 ms
 * falls to the warm 60 ms). Runs before the kit reports `ready`; a failure only costs the warm-up, never the
 * kit. `modules`: which of the three (default: ODE_KIT_WARM_MODULES, see warmModules). Returns the time spent in ms.
 */
export async function warmUp(office: OfficeHandle, dir: string, modules: readonly WarmModule[] = warmModules(process.env)): Promise<number> {
  const started = performance.now();
  const pdf = pathToFileURL(join(dir, 'warm-up.pdf')).href;
  for (const { factory, ext } of MODULES.filter((m) => modules.includes(m.name))) {
    const file = join(dir, `warm-up.${ext}`);
    try {
      const created = await office.office.documentLoad(factory, { options: 'Batch=true' });
      try {
        await created.saveAs(pathToFileURL(file).href, ext);
      } finally {
        created.destroy();
      }
      const loaded = await office.office.documentLoad(pathToFileURL(file).href, { options: 'Batch=true' });
      try {
        await loaded.saveAs(pdf, 'pdf');
      } finally {
        loaded.destroy();
      }
    } catch {
      // A module that cannot warm up will load on first use instead.
    } finally {
      rmSync(file, { force: true });
    }
  }
  rmSync(join(dir, 'warm-up.pdf'), { force: true });
  return performance.now() - started;
}
