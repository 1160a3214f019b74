/**
 * The `ode` command line (bin/ode.js runs this): `ode serve`, `ode open`, `ode convert`, `ode proof-key`, `ode --version`.
 * It sits above daemon/, certs/ and (later) tui/, so that the daemon never imports the dashboard.
 */
import { Command, CommanderError } from 'commander';
import { ODE_VERSION, ConfigError, OdeError } from '../daemon/server/index.ts';
import { serveCommand } from './serve.ts';
import { convertCommand } from './convert.ts';
import { proofKeyCommand } from './proof-key.ts';
import { openCommand } from './open.ts';
import { adminCommand } from './admin.ts';
import { certsCommand } from './certs.ts';
import { tuiCommand } from './tui.ts';
import { drainCommand } from './drain.ts';
import { doctorCommand } from './doctor.ts';

/** Builds the command tree (exported for tests). */
export function buildProgram(): Command {
  const program = new Command('ode')
    .description('Ode: a self-hosted online office server (WOPI editing, conversion and document structure over HTTP)')
    .version(ODE_VERSION, '-v, --version')
    .option('-c, --config <file>', 'configuration file (default: $ODE_CONFIG, else ./ode.yaml when present)');
  program.addCommand(serveCommand());
  program.addCommand(openCommand());
  program.addCommand(convertCommand());
  program.addCommand(proofKeyCommand());
  program.addCommand(adminCommand());
  program.addCommand(certsCommand());
  program.addCommand(tuiCommand());
  program.addCommand(drainCommand());
  program.addCommand(doctorCommand());
  return program;
}

/** Runs the CLI with `argv` (process.argv form); exits non-zero with a one-line reason on failure. */
export async function main(argv: string[]): Promise<void> {
  const program = buildProgram().exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) process.exit(e.exitCode);
    if (e instanceof ConfigError) {
      process.stderr.write(`ode: ${e.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    if (e instanceof OdeError) {
      process.stderr.write(`ode: ${e.code}: ${e.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`ode: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  }
}
