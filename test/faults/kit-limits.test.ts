import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { treeUsage } from '../../daemon/server/pool/kit-limits.ts';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';

/**
 * A heavy document for Calc: `rows` x 10 cells of distinct strings (each unique string is kept in LibreOffice's
 * string pool, so memory and CPU time grow with the file), as CSV.
 */
function heavyCsv(rows: number): Buffer {
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    const cells: string[] = [];
    for (let c = 0; c < 10; c++) cells.push(`r${r}c${c}x${((r * 31 + c * 17) % 9973).toString(36)}`);
    lines.push(cells.join(','));
  }
  return Buffer.from(lines.join('\n'));
}

/**
 * Issue 17, "Limits before LibreOffice": each kit under a memory limit (limits.kit_memory_mb, resident memory of its
 * process tree) and a CPU-time limit per job (limits.kit_cpu_secs). A heavy CSV through a kit with a small limit is
 * answered 422 with the stable code (kit_memory_limit, kit_cpu_limit) within seconds, the kit is replaced (another
 * pid), and the next conversion works. The limits are set live (reconfigure), as an administrator would.
 */
describe('fault: per-kit memory and CPU-time limits', () => {
  let daemon: TestDaemon;
  const csv = heavyCsv(Number(process.env.KIT_LIMITS_ROWS ?? 150_000));
  const docx = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
  const kitPids = () =>
    daemon.server.pool
      .kitsInfo()
      .filter((k) => k.state === 'ready')
      .map((k) => k.pid);

  /** When the daemon logged the kit crossing its limit (ms since the epoch), and the usage it logged. */
  const crossed = (code: string) => {
    const line = daemon.logBuffer.recent(500, 'error').findLast((l) => l.msg === 'kit crossed its resource limit; killing it' && l.fields.code === code);
    return line ? { time: line.time, rssMb: line.fields.rssMb, jobCpuSecs: line.fields.jobCpuSecs } : undefined;
  };

  beforeAll(async () => {
    daemon = await startDaemon({ kits: { prespawn: 1, max: 2, convert_concurrency: 1 }, limits: { kit_memory_mb: 0, kit_cpu_secs: 0, max_upload_mb: 200 } }, 1);
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  it('a kit past limits.kit_memory_mb answers 422 kit_memory_limit within seconds and is replaced', { timeout: 300_000 }, async () => {
    const before = kitPids();
    const idleMb = Math.max(...before.map((p) => treeUsage(p).rss / 1048576));
    const limit = Math.round(idleMb + 150);
    daemon.reconfigure({ limits: { kit_memory_mb: limit, kit_cpu_secs: 0, max_upload_mb: 200 } });
    const started = Date.now();
    const r = await postConvert(daemon.url, '/ode/convert-to/xlsx', { bytes: csv, filename: 'heavy.csv' });
    const answered = Date.now();
    const at = crossed('kit_memory_limit');
    console.log(
      `memory limit ${limit} MB (idle kit ${Math.round(idleMb)} MB, csv ${(csv.length / 1048576).toFixed(1)} MB): ${r.status} ${r.error?.code} after ${answered - started} ms, ${at ? answered - at.time : '?'} ms after the limit was crossed (${JSON.stringify(at)}); load average ${loadavg()[0]!.toFixed(1)}`,
    );
    expect(r.status, r.body.toString().slice(0, 500)).toBe(422);
    expect(r.error?.code).toBe('kit_memory_limit');
    // Within seconds of crossing the limit (how soon it is crossed depends on the CPU the kit gets on a loaded machine).
    expect(answered - at!.time).toBeLessThan(15_000);
    daemon.reconfigure({ limits: { kit_memory_mb: 0, kit_cpu_secs: 0, max_upload_mb: 200 } });
    const next = await postConvert(daemon.url, '/ode/convert-to/pdf', { bytes: docx, filename: 'a.docx' });
    expect(next.status).toBe(200);
    expect(next.body.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('a job past limits.kit_cpu_secs answers 422 kit_cpu_limit within seconds and the next conversion works', { timeout: 300_000 }, async () => {
    daemon.reconfigure({ limits: { kit_memory_mb: 0, kit_cpu_secs: 2, max_upload_mb: 200 } });
    await daemon.server.pool.waitReady(1, 60_000);
    const started = Date.now();
    const r = await postConvert(daemon.url, '/ode/convert-to/xlsx', { bytes: csv, filename: 'heavy.csv' });
    const answered = Date.now();
    const at = crossed('kit_cpu_limit');
    console.log(
      `cpu limit 2 s: ${r.status} ${r.error?.code} after ${answered - started} ms, ${at ? answered - at.time : '?'} ms after the limit was crossed (${JSON.stringify(at)}); load average ${loadavg()[0]!.toFixed(1)}`,
    );
    expect(r.status, r.body.toString().slice(0, 500)).toBe(422);
    expect(r.error?.code).toBe('kit_cpu_limit');
    expect(answered - at!.time).toBeLessThan(15_000);
    expect(Number(at!.jobCpuSecs)).toBeLessThan(2 + 1.5);
    const next = await postConvert(daemon.url, '/ode/convert-to/pdf', { bytes: docx, filename: 'a.docx' });
    expect(next.status).toBe(200);
    expect(next.body.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
