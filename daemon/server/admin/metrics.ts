/**
 * Prometheus metrics of the daemon, served at `/metrics` on the admin listener (docs/admin-api.md, "Metrics").
 * Its own prom-client Registry (never the global one: several daemons may live in one test process).
 *
 * | metric                             | type      | labels            | from                                    |
 * |------------------------------------|-----------|-------------------|-----------------------------------------|
 * | ode_kits                           | gauge     | state             | the kit pool, at scrape time            |
 * | ode_documents, ode_views           | gauge     |                   | the documents registry, at scrape time  |
 * | ode_conversions_total              | counter   | result (ok/failed)| ConvertService results                  |
 * | ode_conversion_duration_seconds    | histogram | result            | ConvertService results (end to end)     |
 * | ode_saves_total                    | counter   | result            | document `saved` events                 |
 * | ode_uploads_total                  | counter   | result            | document `uploaded` events              |
 * | ode_upload_duration_seconds        | histogram | result            | document `uploaded` events (PutFile)    |
 * | process_*, nodejs_*                | various   |                   | prom-client default metrics (the daemon)|
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AdminParts } from './parts.ts';

const KIT_STATES = ['starting', 'ready', 'busy', 'editing', 'stopping'] as const;

/** The daemon's metrics: `text()` renders the Prometheus text format, `contentType` its Content-Type. */
export interface AdminMetrics {
  readonly registry: Registry;
  readonly contentType: string;
  /** The exposition text of every metric now. */
  text(): Promise<string>;
}

/** Creates the registry and its metrics, and starts counting conversion, save and upload results. */
export function createAdminMetrics(parts: Pick<AdminParts, 'pool' | 'documents' | 'context'>): AdminMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  new Gauge({
    name: 'ode_kits',
    help: 'Kit (LibreOffice) processes by state.',
    labelNames: ['state'],
    registers,
    collect() {
      const counts = new Map<string, number>(KIT_STATES.map((s) => [s, 0]));
      for (const k of parts.pool.kitsInfo()) counts.set(k.state, (counts.get(k.state) ?? 0) + 1);
      for (const [state, n] of counts) this.set({ state }, n);
    },
  });
  new Gauge({
    name: 'ode_documents',
    help: 'Documents open for editing.',
    registers,
    collect() {
      this.set(parts.documents.list().length);
    },
  });
  new Gauge({
    name: 'ode_views',
    help: 'Views (editor sessions) of the open documents.',
    registers,
    collect() {
      this.set(parts.documents.list().reduce((n, d) => n + d.views.size, 0));
    },
  });
  const conversions = new Counter({ name: 'ode_conversions_total', help: 'Conversions finished, by result.', labelNames: ['result'], registers });
  const conversionSeconds = new Histogram({
    name: 'ode_conversion_duration_seconds',
    help: 'Conversion time end to end (including the wait for a kit), by result.',
    labelNames: ['result'],
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
    registers,
  });
  const saves = new Counter({ name: 'ode_saves_total', help: 'Document saves in the kit, by result.', labelNames: ['result'], registers });
  const uploads = new Counter({ name: 'ode_uploads_total', help: 'Uploads to the WOPI host (PutFile), by result.', labelNames: ['result'], registers });
  const uploadSeconds = new Histogram({
    name: 'ode_upload_duration_seconds',
    help: 'Upload time (PutFile, retries included), by result.',
    labelNames: ['result'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers,
  });
  // Both results exist from the start, so a rate() over a fresh daemon reads 0 rather than no data.
  for (const result of ['ok', 'failed']) {
    conversions.inc({ result }, 0);
    saves.inc({ result }, 0);
    uploads.inc({ result }, 0);
  }

  parts.context.converter.onResult((r) => {
    const result = r.ok ? 'ok' : 'failed';
    conversions.inc({ result });
    conversionSeconds.observe({ result }, r.ms / 1000);
  });
  parts.documents.onEvent((e) => {
    if (e.type === 'saved') saves.inc({ result: e.ok ? 'ok' : 'failed' });
    if (e.type === 'uploaded') {
      const result = e.ok ? 'ok' : 'failed';
      uploads.inc({ result });
      uploadSeconds.observe({ result }, e.ms / 1000);
    }
  });

  return { registry, contentType: registry.contentType, text: () => registry.metrics() };
}
