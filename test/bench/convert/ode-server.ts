/**
 * test/bench/convert: what bench:convert's scripts share: the documents and an in-process `ode` server with `kits`
 * warm kits and as many conversions at a time (run.ts, cpu-split.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../../daemon/server/config/load.ts';
import { ConfigStore } from '../../../daemon/server/config/watch.ts';
import { createOdeServer } from '../../../daemon/server/server.ts';

/** The corpus folder (../shared/corpus). */
export const CORPUS = new URL('../../../../shared/corpus/', import.meta.url).pathname;
/** The documents of the latency table (paths under CORPUS). */
export const DOCS = [
  'content-controls/ContentControls.docx',
  'properties/documentProperties.docx',
  'charts/chart.odt',
  'spreadsheets/SampleSS.xlsx',
  'spreadsheets/test-columnar.csv',
  'presentations/layouts.pptx',
];
/** The throughput rotation: the five documents of the 7.4 runs (the CSV row came with LibreOffice 25.2's in-kit import). */
export const THROUGHPUT_DOCS = DOCS.filter((d) => !d.endsWith('.csv'));

const log = pino({ level: 'silent' });

/** Starts a daemon in this process with `kits` warm kits, as many conversions at a time and a 64-deep queue; its URL, its kits' pids and stop(). */
export async function startOde(kits: number): Promise<{ url: string; kitPids: () => number[]; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'ode-bench-'));
  const { config } = loadConfig(undefined, {
    ODE_STATE_DIR: join(dir, 'state'),
    ODE_KITS__PRESPAWN: String(kits),
    ODE_KITS__CONVERT_CONCURRENCY: String(kits),
    ODE_KITS__MAX: String(kits),
    ODE_LIMITS__QUEUE: '64',
  });
  const server = createOdeServer({ config: new ConfigStore(config, undefined, log), log, port: 0, adminPort: 0 });
  const { url } = await server.start();
  await server.pool.waitReady(kits, 90_000);
  return { url, kitPids: () => server.pool.kitPids(), stop: async () => (await server.stop(), rmSync(dir, { recursive: true, force: true })) };
}
