/**
 * The kit's command line inside bubblewrap (issue 18): which parts of the file system a kit sees, and how.
 * Builds arguments; reads only whether /etc's secrets exist (to cover those that do).
 *
 * What a sandboxed kit holds (docs/security.md):
 * - read-only: `/usr` (with the merged-/usr links `/lib`, `/lib64`, `/bin`, `/sbin`), `/etc` with its secrets
 *   covered (ETC_HIDDEN: password hashes, SSH and TLS private keys), the font
 *   cache, the Node binary, the program folders of the checkout (`daemon/`, `node_modules/`, `dist/`), and
 *   LibreOffice's program folder;
 * - writable: its own kit folder (profile, job and document files), and a private `/tmp` (tmpfs);
 * - the fetch proxy's unix socket, when external data is allowed for some hosts;
 * - nothing else: not the state directory (proof key, admin token, recovery copies, settings cache), not the
 *   upload folder, not other kits' folders. Secret paths that lie inside a bound tree are covered again (an empty
 *   tmpfs over a folder, /dev/null over a file).
 * Namespaces: user (where the kernel allows), pid, net (loopback only), ipc, uts, cgroup; `--new-session`,
 * `--die-with-parent`, no capabilities, and the seccomp filter of seccomp-filter.c on an inherited fd.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative } from 'node:path';

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** A program and its arguments, as given to child_process.spawn. */
export interface KitCommand {
  command: string;
  args: string[];
}

/**
 * Secrets of `/etc` covered inside the sandbox (`/etc` itself is bound read-only: LibreOffice opens documents
 * read-only, without a lock file, when it sees only a few of its entries, measured with 25.2): password hashes, SSH
 * host keys, TLS private keys (Debian's ssl/private, certbot's letsencrypt), sudo rules.
 */
export const ETC_HIDDEN: readonly string[] = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/ssh',
  '/etc/ssl/private',
  '/etc/letsencrypt',
  '/etc/sudoers',
  '/etc/sudoers.d',
  '/etc/ode',
];

/** Where the fetch proxy's socket appears inside the sandbox. */
export const PROXY_SOCKET_IN_SANDBOX = '/run/ode/fetch-proxy.sock';

/** Inputs of bwrapArgs: absolute host paths; each bound path appears at the same path inside. */
export interface SandboxPlan {
  /** The kit's own folder (profile, jobs, the editing document): the only writable host folder. */
  kitDir: string;
  /** Folders and files bound read-only (the Node binary, the checkout's program folders, LibreOffice's folder). */
  readOnly: string[];
  /** Paths never to show (state dir, proof key, TLS key, admin socket), covered when inside a bound tree. */
  hidden: Array<{ path: string; isDir: boolean }>;
  /** The host's merged-/usr links (`/lib` -> `usr/lib`, ...): recreated as links, others bound read-only. */
  rootLinks: Array<{ path: string; target: string | undefined }>;
  /** The fetch proxy's unix socket on the host, bound at PROXY_SOCKET_IN_SANDBOX; undefined: none. */
  proxySocket?: string;
  /** Secrets of /etc to cover (default ETC_HIDDEN); `exists`/`isDir` tell what they are on this machine. */
  etcHidden?: readonly string[];
  exists?: (path: string) => boolean;
  isDir?: (path: string) => boolean;
  /** The fd (in the spawned bwrap) carrying the compiled seccomp BPF program; undefined: no filter. */
  seccompFd?: number;
  /** The command run inside: the Node binary, its options and the kit's entry file. */
  inner: KitCommand;
}

/** True when `p` is `root` or lies below it. */
export function isWithin(p: string, root: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The `bwrap` command for one kit (bubblewrap 0.8 options; later mounts cover earlier ones, so the order is:
 * system, checkout, kit folder, then the covers of hidden paths).
 */
export function bwrapArgs(plan: SandboxPlan): KitCommand {
  const a: string[] = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  a.push('--ro-bind', '/usr', '/usr');
  for (const link of plan.rootLinks) {
    if (link.target) a.push('--symlink', link.target, link.path);
    else a.push('--ro-bind-try', link.path, link.path);
  }
  a.push('--ro-bind', '/etc', '/etc');
  a.push('--ro-bind-try', '/var/cache/fontconfig', '/var/cache/fontconfig');
  a.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  const bound = ['/usr', '/tmp'];
  for (const p of plan.readOnly) {
    if (bound.some((b) => isWithin(p, b) && b !== '/tmp')) continue;
    a.push('--ro-bind', p, p);
    bound.push(p);
  }
  a.push('--bind', plan.kitDir, plan.kitDir);
  for (const p of plan.etcHidden ?? ETC_HIDDEN) {
    if (!(plan.exists ?? existsSync)(p)) continue;
    if ((plan.isDir ?? isDirectory)(p)) a.push('--tmpfs', p);
    else a.push('--ro-bind', '/dev/null', p);
  }
  if (plan.proxySocket) a.push('--dir', dirname(PROXY_SOCKET_IN_SANDBOX), '--bind', plan.proxySocket, PROXY_SOCKET_IN_SANDBOX);
  for (const h of plan.hidden) {
    if (!bound.some((b) => b !== '/tmp' && isWithin(h.path, b)) && !isWithin(h.path, plan.kitDir)) continue;
    if (h.isDir) a.push('--tmpfs', h.path);
    else a.push('--ro-bind', '/dev/null', h.path);
  }
  a.push('--setenv', 'HOME', '/tmp', '--chdir', plan.kitDir);
  if (plan.seccompFd !== undefined) a.push('--seccomp', String(plan.seccompFd));
  a.push('--', plan.inner.command, ...plan.inner.args);
  return { command: 'bwrap', args: a };
}
