import { Command } from 'commander';
import { AdminTokenStore } from '../certs/admin-token.ts';
import { createAdminClient } from '../tui/client.ts';
import { loadRuntime } from './runtime.ts';
import { adminUrl } from './tui.ts';

/**
 * `ode drain`: takes the local daemon out of service for a rolling restart (docs/deploy/cluster.md). Through the
 * admin API (`node.drain`, the listener and token of the configuration, like `ode tui`): /health answers 503 so the
 * load balancer stops sending it documents, new documents are refused (503 `draining`), every open document is
 * saved and uploaded and its users reconnect through the balancer to another node; then the daemon exits 0
 * (systemd's Restart=on-failure leaves it stopped for the upgrade). `--stay`: the daemon stays up, drained, until
 * it is stopped. Prints what moved and how long it took; exit 1 when the admin API cannot be reached.
 */
export function drainCommand(): Command {
  return new Command('drain')
    .description('take this node out of service: refuse new documents, save and move the open ones, then exit')
    .option('--stay', 'keep the daemon running (drained, /health 503) instead of stopping it')
    .action(async (opts: { stay?: boolean }, cmd: Command) => {
      const { store } = loadRuntime(cmd, 'warn');
      const c = store.get();
      const token = new AdminTokenStore({ stateDir: c.state_dir }).read()?.token;
      if (!token) {
        process.stderr.write(`ode drain: no admin token under ${c.state_dir}: is the daemon running with this configuration?\n`);
        process.exitCode = 1;
        return;
      }
      const client = createAdminClient({
        ...(c.admin.socket ? { socket: c.admin.socket } : { url: adminUrl(c.admin.listen, c.admin.port) }),
        token: () => token,
      });
      try {
        process.stderr.write('draining: new documents are refused; saving and moving the open ones...\n');
        const r = await client.trpc.node.drain.mutate({ exit: !opts.stay });
        process.stdout.write(
          `${r.state}: ${r.documents} document(s), ${r.views} view(s) moved in ${(r.ms / 1000).toFixed(1)} s${r.exiting ? '; the daemon is stopping' : '; the daemon stays up (drained)'}\n`,
        );
      } catch (e) {
        process.stderr.write(`ode drain: ${(e as Error).message}\n`);
        process.exitCode = 1;
      } finally {
        await client.close();
      }
      process.exit(process.exitCode ?? 0);
    });
}
