/**
 * One job in a conversion kit (kit.md, Conversion): a fresh job folder in the kit's temp root for the job's files,
 * removed when the job ends whatever happened, and the job's time limits from the config.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConvertRequest } from '../../protocol/kit.ts';
import type { OdeConfig } from '../config/schema.ts';
import { OdeError } from '../errors.ts';
import type { ConversionTarget } from '../formats/tables.ts';
import type { KitProcess, StageLimits } from '../pool/kit-process.ts';
import type { KitPool } from '../pool/pool.ts';

/** A kit request's time limits (ms) from the config's limits.load_secs and limits.convert_secs. */
export function stageLimits(limits: OdeConfig['limits']): StageLimits {
  return { loadMs: limits.load_secs * 1000, convertMs: limits.convert_secs * 1000 };
}

/**
 * Runs `job` with a leased conversion kit and a fresh job folder of it (`dir`), then removes the folder
 * (KitProcess.removeJobDir: a folder that cannot be removed is logged, never hides the job's own result or error).
 * @throws OdeError queue_full, no_kit (pool.ts withConversionKit), and whatever `job` throws.
 */
export function inKitJob<T>(pool: Pick<KitPool, 'withConversionKit'>, job: (kit: KitProcess, dir: string) => Promise<T>): Promise<T> {
  return pool.withConversionKit(async (kit) => {
    const dir = kit.jobDir();
    try {
      return await job(kit, dir);
    } finally {
      await kit.removeJobDir(dir);
    }
  });
}

/**
 * Converts a document in a conversion kit (kit.md, Conversion: `convert`): `write` puts the input at the path it is
 * given (`input.<ext>` in the job folder), LibreOffice writes `output.<target extension>` in `target`'s filter with
 * `options` (filter and load options, language, password), and its bytes are returned with the load and save times
 * (ms). Time limits: limits.load_secs and convert_secs.
 * @throws OdeError save_failed when LibreOffice wrote no output; the kit's errors (load_failed, password_required,
 *   timeout, kit_crashed, ...), and queue_full, no_kit.
 */
export function convertInKit(
  pool: Pick<KitPool, 'withConversionKit'>,
  limits: OdeConfig['limits'],
  input: { ext: string; write: (path: string) => void },
  target: ConversionTarget,
  options: Omit<ConvertRequest, 'type' | 'id' | 'input' | 'output' | 'format'> = {},
): Promise<{ bytes: Buffer; loadMs: number; saveMs: number }> {
  return inKitJob(pool, async (kit, dir) => {
    const inPath = join(dir, `input.${input.ext}`);
    const outPath = join(dir, `output.${target.extension}`);
    input.write(inPath);
    const r = await kit.convert({ input: inPath, output: outPath, format: target.lokFormat, ...options }, stageLimits(limits));
    let bytes: Buffer;
    try {
      bytes = readFileSync(outPath);
    } catch {
      throw new OdeError('save_failed', `LibreOffice wrote no ${target.extension} output for this document.`);
    }
    return { bytes, loadMs: r.loadMs, saveMs: r.saveMs };
  });
}
