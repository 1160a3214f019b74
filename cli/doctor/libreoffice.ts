import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { ConvertService, KitPool } from '../../daemon/server/index.ts';
import { ENGINE_UPGRADE_FIX, engineTooOld, MIN_ENGINE_VERSION } from '../../daemon/protocol/engine-version.ts';
import type { CheckResult, DoctorContext } from './check.ts';
import { describeEngine, inspectEngine } from './engine.ts';

const PACKAGES = 'apt-get install libreoffice-core libreoffice-writer libreoffice-calc libreoffice-impress libreoffice-draw';

/**
 * LibreOffice is present at `lo_path`, is 25.2 or later, and loads: a one-line text file is converted to PDF by one
 * kit, as `ode convert` does (the daemon's own kits are left alone). The detail names the engine's version and its
 * source (the Debian package, its version and apt origin, engine.ts). FAIL names lo_path and the fix.
 */
export async function checkLibreOffice(ctx: DoctorContext, log: Logger): Promise<CheckResult> {
  const cfg = ctx.config;
  const lib = join(cfg.lo_path, 'libmergedlo.so');
  if (!existsSync(lib)) {
    return {
      name: 'libreoffice',
      status: 'FAIL',
      detail: `no LibreOffice at lo_path ${cfg.lo_path} (${lib} is missing)`,
      fix: `${PACKAGES}, or set lo_path to LibreOffice's program directory`,
    };
  }
  const report = await inspectEngine(cfg.lo_path);
  const engine = describeEngine(report);
  if (report.engine && engineTooOld(report.engine)) {
    return {
      name: 'libreoffice',
      status: 'FAIL',
      detail: `LibreOffice ${report.engine.major}.${report.engine.minor} at ${cfg.lo_path} is older than ${MIN_ENGINE_VERSION}, which Ode needs: ${engine}`,
      fix: ENGINE_UPGRADE_FIX,
    };
  }
  const work = mkdtempSync(join(tmpdir(), 'ode-doctor-'));
  // prespawn 0: the one conversion spawns the one kit it needs, and no spare.
  const pool = new KitPool({ config: () => ({ ...cfg, kits: { ...cfg.kits, prespawn: 0 } }), log });
  const started = Date.now();
  try {
    const input = join(work, 'doctor.txt');
    writeFileSync(input, 'ode doctor\n');
    pool.start();
    const out = await new ConvertService(pool, () => cfg, log).convert({ path: input, filename: 'doctor.txt', fields: { format: 'pdf' } });
    if (out.bytes.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error('the conversion answered something that is not a PDF');
    return { name: 'libreoffice', status: 'ok', detail: `${engine} at ${cfg.lo_path} loads and converts (${((Date.now() - started) / 1000).toFixed(1)} s)` };
  } catch (e) {
    return {
      name: 'libreoffice',
      status: 'FAIL',
      detail: `${engine} at ${cfg.lo_path} did not convert a one-line text file: ${(e as Error).message}`,
      fix: `check \`ode convert\` on a small file and the log (journalctl -u ode); reinstall with ${PACKAGES}`,
    };
  } finally {
    await pool.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
