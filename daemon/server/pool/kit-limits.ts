/**
 * Per-kit resource limits (issue 17, "Limits before LibreOffice"): a kit's resident memory (the kit and every process
 * under it, read from /proc) may not pass `limits.kit_memory_mb`, and one job (a conversion, an inspection, the load
 * of a document for editing) may not use more than `limits.kit_cpu_secs` of CPU time. A watch polls /proc every
 * 250 ms during a job and every second between jobs; past a limit the kit is killed and replaced, and its pending
 * requests fail with `kit_memory_limit` or `kit_cpu_limit` (docs/errors.md).
 *
 * Why polling and not setrlimit: LibreOffice runs inside the kit's Node process, whose V8 reserves far more address
 * space than it uses (RLIMIT_AS would stop it starting), an allocation failing under RLIMIT_DATA ends LibreOffice
 * with an abort that cannot be told from a crash, and RLIMIT_CPU counts the kit's whole life, not one job. A poll
 * overshoots by what a kit allocates in 250 ms; cgroups (memory.max) would not, where the daemon may create them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { OdeError } from '../errors.ts';

/** The limits of one kit; 0 turns one off. */
export interface KitLimits {
  /** Resident memory of the kit's process tree, MB. */
  memoryMb: number;
  /** CPU time (user + system) of the kit's process tree during one job, seconds. */
  cpuSecs: number;
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on every Linux Ode runs on). */
const TICKS = 100;
const PAGE = 4096;
const POLL_MS = 250;

/** Resident bytes and CPU time (ms) of one process, or undefined when it is gone. */
function readProc(pid: number): { rss: number; cpuMs: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): state is field 3.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(f[11]);
    const stime = Number(f[12]);
    const rssPages = Number(f[21]);
    return { rss: rssPages * PAGE, cpuMs: ((utime + stime) * 1000) / TICKS };
  } catch {
    return undefined;
  }
}

/** `pid` and every process under it (through /proc/<pid>/task/<tid>/children). */
function tree(pid: number, out: number[] = []): number[] {
  out.push(pid);
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const c of children.split(' ')) if (c.trim()) tree(Number(c), out);
  }
  return out;
}

/** `pid` and every process under it, alive now (children through /proc/<pid>/task/<tid>/children). */
export function processTree(pid: number): number[] {
  return tree(pid);
}

/** Resident bytes and CPU time (ms) of the process tree under `pid` (the processes alive now). */
export function treeUsage(pid: number): { rss: number; cpuMs: number } {
  let rss = 0;
  let cpuMs = 0;
  for (const p of tree(pid)) {
    const u = readProc(p);
    if (!u) continue;
    rss += u.rss;
    cpuMs += u.cpuMs;
  }
  return { rss, cpuMs };
}

/**
 * Watches one kit's process tree. `onExceeded` is called once with the error to fail its requests with; the caller
 * kills the kit. `jobStarted`/`jobEnded` bracket the jobs whose CPU time is limited.
 */
export class KitWatch {
  private timer: NodeJS.Timeout | undefined;
  private jobCpuStart: number | undefined;
  private fired = false;
  private ticks = 0;

  constructor(
    private readonly pid: number,
    private readonly limits: () => KitLimits,
    private readonly onExceeded: (error: OdeError, usage: { rssMb: number; jobCpuSecs: number }) => void,
  ) {
    this.timer = setInterval(() => this.check(), POLL_MS);
    this.timer.unref();
  }

  /** A job starts: its CPU time is counted from now. */
  jobStarted(): void {
    this.jobCpuStart = treeUsage(this.pid).cpuMs;
  }

  /** The job ended (answered, failed or timed out). */
  jobEnded(): void {
    this.jobCpuStart = undefined;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private check(): void {
    if (this.fired) return;
    // Between jobs (an idle or editing kit) memory is read once a second; during a job every poll.
    if (this.jobCpuStart === undefined && this.ticks++ % 4 !== 0) return;
    const { memoryMb, cpuSecs } = this.limits();
    if (!memoryMb && !(cpuSecs && this.jobCpuStart !== undefined)) return;
    const u = treeUsage(this.pid);
    const rssMb = u.rss / 1048576;
    const jobCpuSecs = this.jobCpuStart === undefined ? 0 : (u.cpuMs - this.jobCpuStart) / 1000;
    let error: OdeError | undefined;
    if (memoryMb && rssMb > memoryMb) {
      error = new OdeError(
        'kit_memory_limit',
        `LibreOffice used ${Math.round(rssMb)} MB on this document, more than limits.kit_memory_mb (${memoryMb} MB): its process was ended and replaced.`,
      );
    } else if (cpuSecs && jobCpuSecs > cpuSecs) {
      error = new OdeError(
        'kit_cpu_limit',
        `LibreOffice used ${jobCpuSecs.toFixed(1)} s of CPU time on this document, more than limits.kit_cpu_secs (${cpuSecs} s): its process was ended and replaced.`,
      );
    }
    if (!error) return;
    this.fired = true;
    this.stop();
    this.onExceeded(error, { rssMb: Math.round(rssMb), jobCpuSecs: Math.round(jobCpuSecs * 10) / 10 });
  }
}
