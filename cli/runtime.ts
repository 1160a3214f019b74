import type { Command } from 'commander';
import { loadConfig, resolveConfigPath } from '../daemon/server/config/load.ts';
import { ConfigStore } from '../daemon/server/config/watch.ts';
import { createLogger, type Logger } from '../daemon/server/logger.ts';

/** The loaded configuration store and logger for a command, from the global --config option. */
export function loadRuntime(cmd: Command, logLevel?: string): { store: ConfigStore; log: Logger } {
  const opts = cmd.optsWithGlobals<{ config?: string }>();
  const file = resolveConfigPath(opts.config);
  const { config } = loadConfig(file);
  const log = createLogger(logLevel ?? config.log_level);
  return { store: new ConfigStore(config, file, log), log };
}
