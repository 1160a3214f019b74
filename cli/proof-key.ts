import { Command } from 'commander';

/** `ode proof-key show|rotate`. */
export function proofKeyCommand(): Command {
  return new Command('proof-key').description('show or rotate the WOPI proof key');
}
