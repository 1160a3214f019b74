import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { AdminTokenStore } from '../certs/admin-token.ts';
import { loadRuntime } from './runtime.ts';
import { selfCommand } from './self-command.ts';

/** The address a client dials for a listener bound to `listen` (a wildcard address means this machine). */
export function adminUrl(listen: string, port: number): string {
  const host = listen === '0.0.0.0' ? '127.0.0.1' : listen === '::' ? '::1' : listen;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Prints `ode tui: <why>` and sets exit code 1 (not errors of the OdeError catalogue: nothing HTTP about them). */
function fail(why: string): void {
  process.stderr.write(`ode tui: ${why}\n`);
  process.exitCode = 1;
}

/** One `--node` value: `<admin url>` or `<admin url>=<token file>`. */
export interface NodeFlag {
  url: string;
  tokenFile?: string;
}

/**
 * Parses a `--node` value: the admin listener's URL (`http://10.0.0.11:9981`), optionally followed by `=` and the
 * file holding that node's admin token (its `<state_dir>/admin_token`, copied here). @throws Error when the URL is
 * not http(s).
 */
export function parseNodeFlag(value: string): NodeFlag {
  const at = value.indexOf('=');
  const url = (at < 0 ? value : value.slice(0, at)).replace(/\/$/, '');
  if (!/^https?:\/\/[^/]+$/.test(url)) throw new Error(`--node ${value}: expected http://host:port of a node's admin listener, optionally =<token file>`);
  return at < 0 ? { url } : { url, tokenFile: value.slice(at + 1) };
}

/**
 * `ode tui`: the terminal dashboard (docs/tui.md). With `--node` (repeated, two or more nodes of a cluster:
 * docs/deploy/cluster.md) it shows the cluster screen instead: per node its state, documents, views and kits;
 * each node's token is read from the `=<token file>` given with it, else this machine's own admin token is used
 * (nodes given the same admin_token file). It reads the admin listener's address from the configuration
 * (admin.listen / admin.port, or admin.socket) and the admin token from the OS keyring or `<state_dir>/admin_token`
 * (certs/admin-token.ts), then runs tui/ until q or Ctrl+C. No token yet: the daemon has never started with this
 * state_dir, so it says to start it first (exit 1). Not a terminal: refuses (the dashboard needs raw keys).
 */
export function tuiCommand(): Command {
  return new Command('tui')
    .description('terminal dashboard over the admin API (the daemon must be running)')
    .option('--interval <ms>', 'status refresh interval in ms (250-60000)', '2000')
    .option(
      '--node <url[=token file]>',
      'watch several nodes: the admin URL of each (repeat the option)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .action(async (opts: { interval: string; node: string[] }, cmd: Command) => {
      const { store } = loadRuntime(cmd, 'warn');
      const c = store.get();
      const tokens = new AdminTokenStore({ stateDir: c.state_dir });
      const first = tokens.read();
      if (opts.node.length > 0) return runCluster(opts.node, first?.token, Math.min(60_000, Math.max(250, Number(opts.interval) || 2000)));
      if (!first)
        return fail(
          `no admin token under ${c.state_dir} (OS keyring or ${tokens.path}): start the daemon first (\`${selfCommand('serve')}\` creates the token; \`${selfCommand('admin token')}\` prints it)`,
        );
      if (!process.stdin.isTTY) return fail('the dashboard needs an interactive terminal (stdin is not a TTY)');
      // Re-read at most once a second, so `ode admin token --rotate` applies without restarting the dashboard.
      let token = first.token;
      let readAt = Date.now();
      const current = () => {
        if (Date.now() - readAt > 1000) {
          readAt = Date.now();
          token = tokens.read()?.token ?? token;
        }
        return token;
      };
      const interval = Math.min(60_000, Math.max(250, Number(opts.interval) || 2000));
      // Ink draws only a last frame when CI or CONTINUOUS_INTEGRATION is set (is-in-ci, read when ink loads); in a
      // terminal the dashboard must draw, so those are dropped before it is loaded. Loading it here also keeps ink
      // and React out of the start-up of every other command.
      delete process.env.CI;
      delete process.env.CONTINUOUS_INTEGRATION;
      const { runDashboard } = await import('../tui/dashboard.tsx');
      await runDashboard({
        ...(c.admin.socket ? { socket: c.admin.socket } : { url: adminUrl(c.admin.listen, c.admin.port) }),
        token: current,
        statusIntervalMs: interval,
      });
      // Quitting ends the command: a socket still closing or a reconnect timer must not keep the process alive.
      process.exit(process.exitCode ?? 0);
    });
}

/** `ode tui --node ...`: the cluster dashboard until q. */
async function runCluster(values: string[], localToken: string | undefined, intervalMs: number): Promise<void> {
  let nodes: NodeFlag[];
  try {
    nodes = values.map(parseNodeFlag);
  } catch (e) {
    return fail((e as Error).message);
  }
  const endpoints: Array<{ url: string; token: () => string }> = [];
  for (const n of nodes) {
    if (n.tokenFile) {
      const file = n.tokenFile;
      let token: string;
      try {
        token = readFileSync(file, 'utf8').trim();
      } catch (e) {
        return fail(`cannot read the token file of ${n.url}: ${(e as Error).message}`);
      }
      endpoints.push({ url: n.url, token: () => token });
    } else {
      if (!localToken) return fail(`no token for ${n.url}: give its token file (--node ${n.url}=<file>) or start the daemon here once`);
      const token = localToken;
      endpoints.push({ url: n.url, token: () => token });
    }
  }
  if (!process.stdin.isTTY) return fail('the dashboard needs an interactive terminal (stdin is not a TTY)');
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  const { runClusterDashboard } = await import('../tui/cluster-dashboard.tsx');
  await runClusterDashboard({ endpoints, intervalMs });
  process.exit(process.exitCode ?? 0);
}
