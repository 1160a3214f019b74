import { statSync } from 'node:fs';
import { watch, type FSWatcher } from 'chokidar';
import type { Logger } from 'pino';
import { loadConfig } from './load.ts';
import type { OdeConfig } from './schema.ts';

/**
 * Holds the current configuration and re-reads the file when it changes (chokidar). The live keys
 * (`net.post_allow`, `net.lok_allow`, `security.external_data`, `net.content_security_policy`, `net.post_message_origin_required`, `limits`, `kits`, `storage.wopi.hosts`, `documents`,
 * `demo_host`, `log_level`) take effect at once (`documents` for documents opened after the change); a bad edit keeps the last good configuration and logs why. Keys that need a restart are logged when
 * they change, not applied.
 */
export class ConfigStore {
  private current: OdeConfig;
  private watcher: FSWatcher | undefined;
  private readonly listeners = new Set<(next: OdeConfig, prev: OdeConfig) => void>();

  constructor(
    initial: OdeConfig,
    readonly file: string | undefined,
    private readonly log: Logger,
  ) {
    this.current = initial;
  }

  /** The configuration in force now. */
  get(): OdeConfig {
    return this.current;
  }

  /** Calls `fn(next, prev)` after each successful reload. Returns an unsubscribe function. */
  onChange(fn: (next: OdeConfig, prev: OdeConfig) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Starts watching the file (no-op without a file). Resolves when the watcher is ready. */
  async watch(): Promise<void> {
    if (!this.file || this.watcher) return;
    // Only a regular file can be edited and watched: /dev/null or a pipe would "change" without end.
    if (!statSync(this.file, { throwIfNoEntry: false })?.isFile()) return;
    this.watcher = watch(this.file, { ignoreInitial: true, awaitWriteFinish: { stabilityThreshold: 100, pollInterval: 25 } });
    this.watcher.on('change', () => this.reload());
    this.watcher.on('add', () => this.reload());
    await new Promise<void>((resolve) => this.watcher!.once('ready', () => resolve()));
  }

  /**
   * Re-reads the file now. Returns true when the new configuration was applied, false when it was refused
   * (the reason is logged and the last good configuration stays).
   */
  reload(): boolean {
    let next: OdeConfig;
    try {
      next = loadConfig(this.file).config;
    } catch (e) {
      this.log.error({ file: this.file, err: (e as Error).message }, 'configuration change refused; keeping the last good configuration');
      return false;
    }
    const prev = this.current;
    const restartKeys = [
      'state_dir',
      'lo_path',
      'proof_key',
      'net.listen',
      'net.port',
      'admin.listen',
      'admin.port',
      'admin.socket',
      'ssl.enable',
      'ssl.termination',
      'ssl.cert_file',
      'ssl.key_file',
      'ssl.ca_file',
      'security.sandbox',
    ] as const;
    for (const key of restartKeys) {
      const [a, b] = key.split('.') as [keyof OdeConfig, string | undefined];
      const before = b ? (prev[a] as Record<string, unknown>)[b] : prev[a];
      const after = b ? (next[a] as Record<string, unknown>)[b] : next[a];
      if (before !== after) this.log.warn({ key, before, after }, 'configuration key changed; it takes effect after a restart');
    }
    // Apply only the live keys; restart-only keys keep their running values.
    this.current = {
      ...prev,
      log_level: next.log_level,
      net: {
        ...prev.net,
        post_allow: next.net.post_allow,
        content_security_policy: next.net.content_security_policy,
        post_message_origin_required: next.net.post_message_origin_required,
        proxy_addresses: next.net.proxy_addresses,
        lok_allow: next.net.lok_allow,
      },
      // security.sandbox is decided when kits are first spawned: only the fetch limits apply at once.
      security: { ...prev.security, external_data: next.security.external_data },
      kits: { ...next.kits },
      limits: next.limits,
      storage: next.storage,
      updates: next.updates,
      hosting: next.hosting,
      documents: next.documents,
      demo_host: next.demo_host,
    };
    this.log.info({ file: this.file }, 'configuration reloaded');
    for (const fn of this.listeners) fn(this.current, prev);
    return true;
  }

  /** Stops watching. */
  async close(): Promise<void> {
    await this.watcher?.close();
    this.watcher = undefined;
  }
}
