import { Command } from 'commander';
import { AdminTokenStore, type AdminToken } from '../certs/admin-token.ts';
import { loadRuntime } from './runtime.ts';

/** Where the token lives, for people: the keyring entry or the file. */
function describe(t: AdminToken, stateDir: string): string {
  return t.where === 'keyring' ? `OS keyring (service "ode", account "admin-token:${stateDir}")` : `file ${t.path} (mode 0600)`;
}

/**
 * `ode admin token` prints the admin API's token (stdout, alone on its line, so `$(ode admin token)` works) and
 * where it lives (stderr): the OS keyring, else `<state_dir>/admin_token`. It creates the token when there is none
 * yet. `--rotate` replaces it where it lives; a running daemon accepts the new token on the next request and
 * refuses the old one (docs/admin-api.md, "Token").
 */
export function adminCommand(): Command {
  const cmd = new Command('admin').description('the admin API (docs/admin-api.md)');
  cmd
    .command('token')
    .description('print the admin API token and where it is stored; --rotate replaces it')
    .option('--rotate', 'replace the token with a new one (the old one stops working at once)')
    .action((opts: { rotate?: boolean }, c: Command) => {
      const { store: cfg } = loadRuntime(c, 'warn');
      const stateDir = cfg.get().state_dir;
      const tokens = new AdminTokenStore({ stateDir });
      const t = opts.rotate ? tokens.rotate() : tokens.getOrCreate();
      process.stdout.write(`${t.token}\n`);
      process.stderr.write(`${opts.rotate ? 'rotated; ' : ''}stored in the ${describe(t, stateDir)}\n`);
    });
  return cmd;
}
