import { readFileSync, existsSync } from 'node:fs';
import { dirname, resolve, isAbsolute } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { configSchema, type OdeConfig } from './schema.ts';

/** A configuration that could not be read or validated; `problems` lists `key: value: what is allowed`. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(source: string, problems: string[]) {
    super(`invalid configuration in ${source}:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** A loaded configuration and where it came from (`file` is undefined when only defaults and env apply). */
export interface LoadedConfig {
  config: OdeConfig;
  file: string | undefined;
}

/**
 * The config file to read: `explicit` (from --config), else $ODE_CONFIG, else `./ode.yaml` when it exists.
 * Returns undefined when none applies (defaults only).
 */
export function resolveConfigPath(explicit?: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = explicit ?? env.ODE_CONFIG;
  if (chosen) return resolve(chosen);
  const local = resolve('ode.yaml');
  return existsSync(local) ? local : undefined;
}

/** ODE_ variables that are not configuration keys: the file to read, bin/ode.js' choice of sources over dist/, the test suite's switches. */
const NOT_CONFIG_KEYS = new Set(['ODE_CONFIG', 'ODE_FROM_SOURCES', 'ODE_TEST_LOG', 'ODE_CORPUS', 'ODE_PRINT_DIFFERENCES']);
/** Variables of a kit's own environment (set by the daemon for its kits: ODE_KIT_DIR, ODE_KIT_SETTINGS, ...), never config. */
const KIT_ENV_PREFIX = 'ODE_KIT_';

/**
 * Applies environment overrides: `ODE_<SECTION>__<KEY>=value` (double underscore between levels, case
 * insensitive), e.g. `ODE_NET__PORT=8080`, `ODE_LOG_LEVEL=debug`, `ODE_NET__POST_ALLOW__HOST='["10\\..*"]'`.
 * Values are parsed as YAML scalars/flow collections so numbers, booleans and lists work.
 */
export function applyEnvOverrides(raw: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const out = structuredClone(raw);
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('ODE_') || NOT_CONFIG_KEYS.has(name) || name.startsWith(KIT_ENV_PREFIX) || value === undefined) continue;
    const path = name.slice(4).toLowerCase().split('__');
    let node: Record<string, unknown> = out;
    for (const key of path.slice(0, -1)) {
      const next = node[key];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    node[path[path.length - 1]] = parseYaml(value) ?? value;
  }
  return out;
}

/**
 * Validates a raw configuration object against the schema.
 * @throws ConfigError naming each bad key, the value found and what is allowed.
 */
export function validateConfig(raw: unknown, source: string): OdeConfig {
  const result = configSchema.safeParse(raw ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const key = issue.path.join('.') || '(top level)';
    let value: unknown = raw;
    for (const p of issue.path) value = (value as Record<PropertyKey, unknown> | undefined)?.[p as PropertyKey];
    const shown = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : JSON.stringify(value);
    return `${key}: ${shown}: ${issue.message}`;
  });
  throw new ConfigError(source, problems);
}

/**
 * Reads, overrides from the environment, and validates the configuration; relative `state_dir` and
 * `demo_host.folder` are made absolute against the config file's folder (or the working directory).
 * @throws ConfigError when the file cannot be parsed or a value is out of range.
 */
export function loadConfig(file: string | undefined, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  let raw: Record<string, unknown> = {};
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new ConfigError(file, [`cannot read the file: ${(e as Error).message}`]);
    }
    try {
      raw = (parseYaml(text) as Record<string, unknown> | null) ?? {};
    } catch (e) {
      throw new ConfigError(file, [`not valid YAML: ${(e as Error).message}`]);
    }
    if (typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError(file, ['(top level): must be a mapping of keys']);
  }
  const config = validateConfig(applyEnvOverrides(raw, env), file ?? 'defaults and environment');
  const base = file ? dirname(file) : process.cwd();
  if (!isAbsolute(config.state_dir)) config.state_dir = resolve(base, config.state_dir);
  if (!isAbsolute(config.demo_host.folder)) config.demo_host.folder = resolve(base, config.demo_host.folder);
  return { config, file };
}
