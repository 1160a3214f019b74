/**
 * Pid files of the kits (issue 17, "kits die with their daemon"): one file per live kit under
 * `<state_dir>/kits/<pid>.json`, holding the kit's pid, its start time (field 22 of /proc/<pid>/stat, clock ticks
 * since boot, so a reused pid is never taken for the kit) and the daemon's pid. A starting daemon ends the kits
 * whose daemon is gone (SIGKILL to the kit's process group, then the kit), normally none: a kit dies with its
 * daemon through bubblewrap's `--die-with-parent` or the parent-death signal; this covers what slipped through
 * (a kit started by an older version, a kernel that lost the signal).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';

/** One pid file's content. */
interface KitPidRecord {
  pid: number;
  /** Start time of the kit's process (clock ticks since boot, /proc/<pid>/stat field 22). */
  startTime: string;
  daemonPid: number;
  daemonStartTime: string;
}

/** The start time of a live process (clock ticks since boot), or undefined when it is gone. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) may hold spaces and parentheses: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Keeps the pid files of one daemon's kits in `<stateDir>/kits/`. */
export class KitPidFiles {
  private readonly dir: string;
  private readonly log: Logger;
  private readonly daemonStartTime = processStartTime(process.pid) ?? '';

  constructor(stateDir: string, log: Logger) {
    this.dir = join(stateDir, 'kits');
    this.log = log;
  }

  /**
   * Ends the kits left by daemons that are gone and removes their pid files; returns the pids ended. Files of a
   * live daemon sharing the state directory are left alone.
   */
  endLeftovers(): number[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    const ended: number[] = [];
    for (const name of names) {
      const file = join(this.dir, name);
      let rec: KitPidRecord;
      try {
        rec = JSON.parse(readFileSync(file, 'utf8')) as KitPidRecord;
      } catch {
        rmSync(file, { force: true });
        continue;
      }
      const daemonAlive = rec.daemonPid !== process.pid && processStartTime(rec.daemonPid) === rec.daemonStartTime;
      if (daemonAlive) continue;
      if (processStartTime(rec.pid) === rec.startTime) {
        for (const target of [-rec.pid, rec.pid]) {
          try {
            process.kill(target, 'SIGKILL');
          } catch {
            // Already gone, or not a group leader.
          }
        }
        ended.push(rec.pid);
      }
      rmSync(file, { force: true });
    }
    if (ended.length) this.log.warn({ pids: ended }, 'ended kits a previous daemon left behind');
    return ended;
  }

  /** Records a kit just spawned (best effort: a state dir that cannot be written only loses this safety net). */
  add(pid: number): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      const rec: KitPidRecord = { pid, startTime: processStartTime(pid) ?? '', daemonPid: process.pid, daemonStartTime: this.daemonStartTime };
      writeFileSync(join(this.dir, `${pid}.json`), JSON.stringify(rec));
    } catch (e) {
      this.log.warn({ err: (e as Error).message }, 'no pid file for a kit');
    }
  }

  /** Forgets a kit that exited. */
  remove(pid: number): void {
    rmSync(join(this.dir, `${pid}.json`), { force: true });
  }
}
