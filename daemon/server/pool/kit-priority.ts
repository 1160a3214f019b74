/**
 * CPU priority of conversion kits (issue 17, bench:load): a kit that runs conversions runs at a lower priority
 * (`kits.convert_nice`) than the daemon and the editing kits, so a keystroke does not wait behind batch work.
 *
 * Two levers, both set, because which one the kernel honours depends on how the machine groups tasks:
 * - Linux niceness is per thread (setpriority(2) with PRIO_PROCESS and a thread id; sched(7)): every task of every
 *   process of the kit's tree (/proc/<pid>/task/*) is set, until a listing shows no new thread (a thread inherits
 *   its creator's nice value, so the tasks created later follow). This is what counts where the kits share a CPU
 *   cgroup (a systemd service with the cpu controller).
 * - With autogrouping (sched(7), "The autogroup feature"; /proc/sys/kernel/sched_autogroup_enabled) every session
 *   is its own scheduling group, and a kit starts one (`setsid`: the spawn's `detached`, bubblewrap's
 *   `--new-session`): per-thread nice values then only weigh against the kit's own threads. The group's weight is
 *   its autogroup nice value (/proc/<pid>/autogroup), set too. The kernel accepts one such write per 100 ms from an
 *   unprivileged process (EAGAIN otherwise; retried).
 *
 * Raising the nice value needs no privilege; lowering it again needs CAP_SYS_NICE (not held by the daemon, not
 * inside bubblewrap's `--cap-drop ALL`), so a kit's priority only goes down: a niced kit stays a conversion kit
 * (pool.ts). Failures are logged and never fail a conversion.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import type { Logger } from 'pino';
import { processTree } from './kit-limits.ts';

/** The kernel's minimum spacing of unprivileged autogroup writes (HZ / 10), plus a margin, ms. */
const AUTOGROUP_RETRY_MS = 110;
/** Listings of the kit's tasks before giving up on threads that keep appearing. */
const MAX_ROUNDS = 5;

/** Thread ids of every process in the tree under `pid` (the tasks alive now). */
function tasksOf(pid: number): number[] {
  const out: number[] = [];
  for (const p of processTree(pid)) {
    try {
      for (const tid of readdirSync(`/proc/${p}/task`)) out.push(Number(tid));
    } catch {
      // The process exited meanwhile.
    }
  }
  return out;
}

/** What setKitNice did: tasks set, tasks that refused (not counting those that exited), autogroups set. */
export interface ReniceReport {
  tasks: number;
  failed: number;
  autogroups: number;
}

/**
 * Sets nice value `nice` (1..19) on every task of the kit's process tree under `pid` and on each of the tree's
 * autogroups (see the module docstring). Only raises: a task already at `nice` or above is left alone. Never throws;
 * what could not be set is logged at warn.
 */
export async function setKitNice(pid: number, nice: number, log: Logger): Promise<ReniceReport> {
  const report: ReniceReport = { tasks: 0, failed: 0, autogroups: 0 };
  const seen = new Set<number>();
  let firstError: string | undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const fresh = tasksOf(pid).filter((tid) => !seen.has(tid));
    if (fresh.length === 0) break;
    for (const tid of fresh) {
      seen.add(tid);
      try {
        if (getPriority(tid) >= nice) continue;
        setPriority(tid, nice);
        report.tasks++;
      } catch (e) {
        // os.getPriority/setPriority throw a SystemError whose `info.code` is the errno name. ESRCH: the thread ended
        // between the listing and the call.
        if ((e as { info?: { code?: string } }).info?.code === 'ESRCH') continue;
        report.failed++;
        firstError ??= (e as Error).message;
      }
    }
  }
  // One write per autogroup (the kit's processes share one or two: the spawn's session and bubblewrap's).
  const groups = new Map<string, number>();
  for (const p of processTree(pid)) {
    try {
      const m = /^(\S+) nice (-?\d+)/.exec(readFileSync(`/proc/${p}/autogroup`, 'utf8'));
      if (m && Number(m[2]) < nice && !groups.has(m[1])) groups.set(m[1], p);
    } catch {
      // No autogroup support in this kernel, or the process exited.
    }
  }
  for (const p of groups.values()) {
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        writeFileSync(`/proc/${p}/autogroup`, String(nice));
        report.autogroups++;
        break;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') {
          await new Promise((r) => setTimeout(r, AUTOGROUP_RETRY_MS));
          continue;
        }
        if (code !== 'ENOENT' && code !== 'ESRCH') {
          report.failed++;
          firstError ??= (e as Error).message;
        }
        break;
      }
    }
  }
  if (report.failed) log.warn({ pid, nice, ...report, err: firstError }, 'a conversion kit could not be fully reniced (kits.convert_nice)');
  else log.debug({ pid, nice, ...report }, 'conversion kit reniced');
  return report;
}
