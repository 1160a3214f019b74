import { Command } from 'commander';
import { ProofKeyStore } from '../daemon/server/routes/proof-key-store.ts';
import { loadRuntime } from './runtime.ts';

function store(cmd: Command): ProofKeyStore {
  const { store: cfg, log } = loadRuntime(cmd, 'warn');
  const c = cfg.get();
  return new ProofKeyStore(c.state_dir, c.proof_key || undefined, log);
}

function print(keys: ProofKeyStore): void {
  const d = keys.describe();
  process.stdout.write(`current: ${d.fingerprint} (created ${d.created.toISOString()})\nold:     ${d.oldFingerprint} (created ${d.oldCreated.toISOString()})\n`);
}

/**
 * `ode proof-key show` prints the SHA-256 fingerprints and created dates of the current and old proof key;
 * `ode proof-key rotate` keeps the current key as the old one and generates a new one. A running daemon reads
 * the files on start: restart it (or rotate through the admin API) to publish the new key in discovery.
 */
export function proofKeyCommand(): Command {
  const cmd = new Command('proof-key').description('show or rotate the WOPI proof key');
  cmd.command('show').description('print the current and old proof-key fingerprints').action((_o, c: Command) => print(store(c)));
  cmd
    .command('rotate')
    .description('keep the current proof key as the old one and generate a new one')
    .action((_o, c: Command) => {
      const keys = store(c);
      keys.rotate();
      print(keys);
    });
  return cmd;
}
