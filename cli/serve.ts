import { Command } from 'commander';
import { createOdeServer } from '../daemon/server/index.ts';
import { loadRuntime, stopOnSignals } from './runtime.ts';
import { selfCommand } from './self-command.ts';

/** `ode serve`: runs the daemon until SIGTERM/SIGINT, then stops the kits cleanly. */
export function serveCommand(): Command {
  return new Command('serve').description('run the Ode daemon (public listener, kit pool)').action(async (_opts, cmd: Command) => {
    const { store, log, logBuffer } = loadRuntime(cmd);
    await store.watch();
    const server = createOdeServer({ config: store, log, logBuffer });
    store.onChange((next) => {
      log.level = next.log_level;
    });
    const { url, adminUrl, adminSocket } = await server.start();
    // The token command as the user can type it: `ode` is on PATH only when installed globally (self-command.ts).
    process.stderr.write(`Ode is running at ${url}\nAdmin API at ${adminUrl ?? adminSocket} (token: \`${selfCommand('admin token')}\`)\n`);
    stopOnSignals(server, log);
    // `ode drain` (admin API node.drain with exit): once every document moved, stop and exit 0 (docs/deploy/cluster.md).
    server.node.onDrained((_r, exit) => {
      if (exit) process.kill(process.pid, 'SIGTERM');
    });
  });
}
