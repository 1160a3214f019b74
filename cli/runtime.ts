import type { Command } from 'commander';
import { loadConfig, resolveConfigPath, ConfigStore, createLogger, type Logger, LogBuffer } from '../daemon/server/index.ts';

/**
 * The loaded configuration store and logger for a command, from the global --config option. The logger also
 * writes to `logBuffer`, which the admin API's `logs` procedures read (pass it to createOdeServer).
 */
export function loadRuntime(cmd: Command, logLevel?: string): { store: ConfigStore; log: Logger; logBuffer: LogBuffer } {
  const opts = cmd.optsWithGlobals<{ config?: string }>();
  const file = resolveConfigPath(opts.config);
  const { config } = loadConfig(file);
  const logBuffer = new LogBuffer();
  const log = createLogger(logLevel ?? config.log_level, 'ode', logBuffer);
  return { store: new ConfigStore(config, file, log), log, logBuffer };
}

/**
 * Stops `server` cleanly on SIGTERM or SIGINT (exit saves of open documents first, then the kits) and exits 0, or
 * 1 when stopping fails. Used by `ode serve` and `ode open`.
 */
export function stopOnSignals(server: { stop(): Promise<void> }, log: Logger): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    server.stop().then(
      () => process.exit(0),
      (e: Error) => {
        log.error({ err: e.message }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
