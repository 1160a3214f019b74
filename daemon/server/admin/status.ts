/**
 * status(): the daemon at a glance (admin API `status.get` and `status.live`): version, uptime, memory and CPU of
 * the daemon and of each kit (pidusage, one call for all pids; CPU is the share since the previous sample),
 * what each kit does, the conversion queue, open documents and views, and the failures since start.
 * Save and upload results come from the documents registry's events, conversion results from ConvertService.
 */
import pidusage from 'pidusage';
import type { AdminBackend, FailureCounts, KitStatus, ProcessUsage, ServerStatus } from '../../../admin-api/backend.ts';
import type { EditDocument } from '../documents/edit-document.ts';
import { COMPILED } from '../install-paths.ts';
import type { AdminParts } from './parts.ts';

/** Usage of `pids`, by pid; a pid that vanished meanwhile (a kit exited) reads as zero rather than failing all. */
async function sample(pids: number[]): Promise<Map<number, { rss: number; cpu: number }>> {
  const out = new Map<number, { rss: number; cpu: number }>();
  try {
    const stats = await pidusage(pids);
    for (const pid of pids) {
      const s = stats[pid];
      if (s) out.set(pid, { rss: s.memory, cpu: s.cpu });
    }
  } catch {
    // One missing pid fails the whole batch: fall back to one call per pid.
    await Promise.all(
      pids.map((pid) =>
        pidusage(pid).then(
          (s) => void out.set(pid, { rss: s.memory, cpu: s.cpu }),
          () => undefined,
        ),
      ),
    );
  }
  return out;
}

/** The admin API id of an open document (the same id `documents.list` gives it). */
function documentIdOf(doc: EditDocument): string {
  return doc.id;
}

/** Builds the status part; it starts counting save, upload and conversion results at once. */
export function statusPart(parts: AdminParts): Pick<AdminBackend, 'status'> {
  const failures: FailureCounts = { saves: 0, uploads: 0, conversions: 0 };
  const conversions = { ok: 0, failed: 0 };
  parts.context.converter.onResult((r) => {
    if (r.ok) conversions.ok++;
    else {
      conversions.failed++;
      failures.conversions++;
    }
  });
  parts.documents.onEvent((e) => {
    if (e.type === 'saved' && !e.ok) {
      failures.saves++;
      failures.lastSave = { at: Date.now(), documentId: documentIdOf(e.doc), message: e.error ?? 'the save failed' };
    } else if (e.type === 'uploaded' && !e.ok) {
      failures.uploads++;
      failures.lastUpload = { at: Date.now(), documentId: documentIdOf(e.doc), message: e.error ?? 'the upload failed' };
    }
  });

  return {
    async status(): Promise<ServerStatus> {
      const cfg = parts.config.get();
      const ctx = parts.context;
      const kits = parts.pool.kitsInfo();
      const docs = parts.documents.list();
      const docByPid = new Map<number, EditDocument>();
      for (const d of docs) if (d.kitPid) docByPid.set(d.kitPid, d);
      const usage = await sample([process.pid, ...kits.map((k) => k.pid)]);
      const use = (pid: number): ProcessUsage => ({ pid, rssBytes: usage.get(pid)?.rss ?? 0, cpuPercent: usage.get(pid)?.cpu ?? 0 });
      const kitStatus = kits.map((k): KitStatus => {
        const doc = docByPid.get(k.pid);
        return {
          ...use(k.pid),
          state: k.state,
          startedAt: k.startedAt,
          jobs: k.jobs,
          ...(doc && k.state === 'editing' ? { documentId: documentIdOf(doc) } : {}),
        };
      });
      const now = Date.now();
      return {
        version: ctx.version,
        versionHash: ctx.versionHash,
        runtime: COMPILED ? 'compiled' : 'sources',
        serverId: ctx.serverId,
        node: ctx.node.state,
        startedAt: ctx.startedAt,
        uptimeMs: now - ctx.startedAt,
        daemon: use(process.pid),
        kits: kitStatus,
        maxKits: cfg.kits.max,
        queue: { length: parts.pool.status().queue, max: cfg.limits.queue },
        documents: docs.length,
        views: docs.reduce((n, d) => n + d.views.size, 0),
        failures: { ...failures },
        conversions: { ...conversions },
        ...(ctx.publicTls?.status() ? { certificate: ctx.publicTls.status() } : {}),
        insecureHostTls: !cfg.storage.ssl.verify,
      };
    },
  };
}
