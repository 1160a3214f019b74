import { Command } from 'commander';
import { resolve } from 'node:path';
import { createProofKeyFile } from '../certs/proof-key.ts';
import { ProofKeyStore } from '../daemon/server/index.ts';
import { loadRuntime } from './runtime.ts';

function store(cmd: Command): ProofKeyStore {
  const { store: cfg, log } = loadRuntime(cmd, 'warn');
  const c = cfg.get();
  return new ProofKeyStore(c.state_dir, c.proof_key || undefined, log);
}

function print(keys: ProofKeyStore): void {
  const d = keys.describe();
  process.stdout.write(
    `current: ${d.fingerprint} (created ${d.created.toISOString()})\nold:     ${d.oldFingerprint} (created ${d.oldCreated.toISOString()})\n`,
  );
}

/**
 * `ode proof-key show` prints the SHA-256 fingerprints and created dates of the current and old proof key;
 * `ode proof-key rotate` keeps the current key as the old one and generates a new one. A running daemon reads
 * the files on start: restart it (or rotate through the admin API) to publish the new key in discovery.
 * `ode proof-key create [--out <file>]` writes a new key file (default: the configured `proof_key`) for several
 * nodes to share: every node's configuration names that file (docs/deploy/cluster.md); it never overwrites one.
 */
export function proofKeyCommand(): Command {
  const cmd = new Command('proof-key').description('show or rotate the WOPI proof key');
  cmd
    .command('create')
    .description('write a new proof key file for nodes that share one (config proof_key; never overwrites)')
    .option('--out <file>', 'where to write it (default: the configured proof_key)')
    .action((opts: { out?: string }, c: Command) => {
      const { store: cfg } = loadRuntime(c, 'warn');
      const path = opts.out ? resolve(opts.out) : cfg.get().proof_key;
      if (!path) {
        process.stderr.write('ode proof-key create: give --out <file> or set proof_key in the configuration\n');
        process.exitCode = 1;
        return;
      }
      try {
        createProofKeyFile(path);
      } catch (e) {
        process.stderr.write(`ode proof-key create: ${(e as Error).message}\n`);
        process.exitCode = 1;
        return;
      }
      const keys = new ProofKeyStore(cfg.get().state_dir, path, loadRuntime(c, 'warn').log);
      process.stdout.write(`created ${path}\n`);
      print(keys);
    });
  cmd
    .command('show')
    .description('print the current and old proof-key fingerprints')
    .action((_o, c: Command) => print(store(c)));
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
