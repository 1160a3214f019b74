/**
 * Whether and how kits run in a sandbox (issue 18, `security.sandbox`): `required` refuses to start when
 * bubblewrap cannot run, `auto` uses it when it can and says so loudly when it cannot, `off` (the default for now: typing in a sandboxed editing kit does not work yet, docs/security.md) never
 * uses it. Decided once at the pool's start (a restart applies a change). The sandbox itself is described in
 * command.ts; the probe runs the very command kits get, with `true` inside, so "works" means "kits will start".
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, lstatSync, openSync, readlinkSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { OdeConfig } from '../config/schema.ts';
import { COMPILED, ROOT } from '../install-paths.ts';
import { bwrapArgs, type KitCommand, type SandboxPlan } from './command.ts';
import { seccompFilterFile } from './seccomp.ts';

/** The fd number at which a sandboxed kit's bwrap finds the seccomp filter (stdio index 4, after the IPC at 3). */
export const SECCOMP_FD = 4;

/** The outcome of probing bubblewrap on this machine. */
export interface SandboxProbe {
  ok: boolean;
  /** What was seen: bwrap's version and the filter, or why it cannot run (with the fix). */
  detail: string;
  /** The compiled seccomp filter (when it could be built). */
  seccompFile?: string;
}

/** How one kit is started: the command, the extra fds to hand it (stdio index 4 on), and what to close after spawn. */
export interface KitLaunch {
  command: KitCommand;
  extraFds: number[];
}

/** The environment variables a sandboxed kit keeps from the daemon's (the rest may hold secrets). */
const ENV_KEPT = /^(PATH|LANG|LANGUAGE|LC_[A-Z_]+|TZ|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|TSX_[A-Z_]+)$/;

/** Keeps only the variables of ENV_KEPT from `env`. */
export function sandboxEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => ENV_KEPT.test(k)));
}

function rootLinks(): SandboxPlan['rootLinks'] {
  const out: SandboxPlan['rootLinks'] = [];
  for (const path of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    try {
      const st = lstatSync(path);
      out.push({ path, target: st.isSymbolicLink() ? readlinkSync(path) : undefined });
    } catch {
      // Not on this machine.
    }
  }
  return out;
}

/** The read-only folders and files a kit needs besides /usr and /etc: Node, the checkout's program parts, LibreOffice. */
function readOnlyPaths(loPath: string): string[] {
  const paths = [process.execPath];
  for (const p of ['daemon', 'node_modules', 'dist', 'package.json', 'tsconfig.json']) if (existsSync(join(ROOT, p))) paths.push(join(ROOT, p));
  // tsx's transform cache, read-only: a kit reuses what the daemon compiled and cannot alter what others run.
  const tsxCache = join(tmpdir(), `tsx-${process.getuid?.() ?? 0}`);
  if (!COMPILED && existsSync(tsxCache)) paths.push(tsxCache);
  // LibreOffice's install folder (program/ and its siblings share/, presets/).
  paths.push(dirname(loPath.replace(/\/+$/, '')));
  return paths;
}

/** The paths of the configuration a kit must never read: state, keys, the admin socket. */
export function hiddenPaths(cfg: OdeConfig): SandboxPlan['hidden'] {
  const out: SandboxPlan['hidden'] = [];
  for (const p of [cfg.state_dir, cfg.proof_key, cfg.ssl.key_file, cfg.admin.socket, cfg.demo_host.folder]) {
    if (!p) continue;
    let isDir = p === cfg.state_dir || p === cfg.demo_host.folder;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      // Not created yet: covered according to what it will be.
    }
    out.push({ path: p, isDir });
  }
  return out;
}

/** Starts kits in bubblewrap (see command.ts); one per pool. */
export class KitSandbox {
  constructor(
    private readonly seccompFile: string,
    private readonly config: () => OdeConfig,
  ) {}

  /**
   * The launch of one kit: `inner` (node, its options, the entry) inside bwrap with `kitDir` writable and
   * `proxySocket` (if any) bound. The returned fds are fresh (bwrap reads the filter from its fd's offset) and
   * must be closed by the caller after spawn.
   */
  launch(opts: { kitDir: string; inner: KitCommand; proxySocket?: string }): KitLaunch {
    const cfg = this.config();
    const fd = openSync(this.seccompFile, 'r');
    const command = bwrapArgs({
      kitDir: opts.kitDir,
      readOnly: readOnlyPaths(cfg.lo_path),
      hidden: hiddenPaths(cfg),
      rootLinks: rootLinks(),
      exists: (p) => existsSync(p),
      isDir: (p) => {
        try {
          return statSync(p).isDirectory();
        } catch {
          return false;
        }
      },
      proxySocket: opts.proxySocket,
      seccompFd: SECCOMP_FD,
      inner: opts.inner,
    });
    return { command, extraFds: [fd] };
  }
}

/**
 * Checks that bubblewrap runs here with the kits' options and filter (about 20 ms, plus 0.3 s the first time the
 * filter is compiled). `scratch`: a folder for the filter when the checkout cannot hold it.
 */
export function probeSandbox(scratch: string): SandboxProbe {
  const version = spawnSync('bwrap', ['--version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) {
    return { ok: false, detail: `bubblewrap is not installed (${version.error?.message ?? version.stderr.trim()})` };
  }
  let seccompFile: string;
  try {
    seccompFile = seccompFilterFile(scratch);
  } catch (e) {
    return { ok: false, detail: (e as Error).message };
  }
  const fd = openSync(seccompFile, 'r');
  try {
    const dir = existsSync(scratch) ? scratch : tmpdir();
    const { command, args } = bwrapArgs({
      kitDir: dir,
      readOnly: [process.execPath],
      hidden: [],
      rootLinks: rootLinks(),
      seccompFd: SECCOMP_FD,
      inner: { command: process.execPath, args: ['-e', 'process.exit(7)'] },
    });
    const r = spawnSync(command, args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe', 'ignore', fd],
      timeout: 10_000,
      env: sandboxEnvironment(process.env),
    });
    if (r.status !== 7) {
      const why = (r.stderr || r.error?.message || `exit ${r.status ?? r.signal}`).trim().split('\n')[0];
      return { ok: false, detail: `bubblewrap cannot make a sandbox here: ${why}`, seccompFile };
    }
  } finally {
    closeSync(fd);
  }
  return { ok: true, detail: `${version.stdout.trim()}, seccomp filter ${seccompFile}`, seccompFile };
}

/** The fix to print when bubblewrap cannot run. */
export const SANDBOX_FIX =
  'apt-get install bubblewrap libseccomp-dev gcc; in a container allow user namespaces (e.g. docker --security-opt seccomp=unconfined, or run as root); or set security.sandbox: off to run kits unconfined';

/** Decides `security.sandbox`: the sandbox to use, or undefined (with the reason) when kits run without. */
export function resolveSandbox(
  config: () => OdeConfig,
  scratch: string,
): { sandbox: KitSandbox | undefined; probe: SandboxProbe | undefined; mode: OdeConfig['security']['sandbox'] } {
  const mode = config().security.sandbox;
  if (mode === 'off') return { sandbox: undefined, probe: undefined, mode };
  const probe = probeSandbox(scratch);
  return { sandbox: probe.ok && probe.seccompFile ? new KitSandbox(probe.seccompFile, config) : undefined, probe, mode };
}
