/**
 * config(), editConfig(): the effective configuration, and the admin's edits of the four live lists an operator
 * most often changes (admin-api/backend.ts EditableConfig): the CSP (or just its frame-ancestors), the
 * convert-to allow-list `net.post_allow.host`, and the WOPI hosts `storage.wopi.hosts`.
 *
 * An edit goes: validate the value (csp-sources.ts, regular expressions) -> write it into the YAML text keeping
 * comments (config-file.ts) -> validate the whole new file with the schema, environment overrides applied ->
 * replace the file atomically -> ConfigStore.reload(). A refused edit throws AdminError invalid_config with one
 * problem per line (`key: value: what is allowed`), logs it, and leaves the file byte-identical. The file
 * watcher fires for our own write too: reload() only re-reads the same file, so the second reload is harmless.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { AdminError, type AdminBackend, type ConfigEdit, type EditableConfig, type EffectiveConfig } from '../../../admin-api/backend.ts';
import { applyEnvOverrides, ConfigError, validateConfig } from '../config/load.ts';
import type { OdeConfig } from '../config/schema.ts';
import { setYamlValue, writeFileAtomic } from './config-file.ts';
import { frameAncestorsOf, policyProblems, sourceListProblems, withFrameAncestors } from './csp-sources.ts';
import type { AdminParts } from './parts.ts';

/** Where each editable key lives in the file. */
const PATHS = {
  contentSecurityPolicy: ['net', 'content_security_policy'],
  frameAncestors: ['net', 'content_security_policy'],
  postAllowHosts: ['net', 'post_allow', 'host'],
  wopiHosts: ['storage', 'wopi', 'hosts'],
} as const satisfies Record<ConfigEdit['key'], readonly string[]>;

/** The editable values of a configuration. */
export function editableOf(cfg: OdeConfig): EditableConfig {
  const csp = cfg.net.content_security_policy;
  return {
    contentSecurityPolicy: csp,
    frameAncestors: frameAncestorsOf(csp),
    postAllowHosts: [...cfg.net.post_allow.host],
    wopiHosts: [...cfg.storage.wopi.hosts],
  };
}

/** Problems of a list of regular expressions (`key` as in the file): non-empty, no outer spaces, compiles, once each. */
export function regexListProblems(key: string, patterns: readonly string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  patterns.forEach((p, i) => {
    const at = `${key}[${i}]: ${JSON.stringify(p)}`;
    if (p.trim() === '') problems.push(`${at}: an empty pattern; give a regular expression matching whole names, e.g. cloud\\.example\\.org`);
    else if (p !== p.trim()) problems.push(`${at}: spaces around the pattern would have to match literally; remove them`);
    else {
      try {
        // Matched as the whole name, case insensitive, as wopi-src.ts and post-allow.ts use them.
        new RegExp(`^(?:${p})$`, 'i');
      } catch (e) {
        problems.push(`${at}: not a valid regular expression (${(e as Error).message.replace(/^Invalid regular expression: /, '')})`);
      }
    }
    if (seen.has(p)) problems.push(`${at}: listed twice; each pattern once`);
    seen.add(p);
  });
  return problems;
}

/** The new file value of an edit, and the problems of its value. */
function planEdit(edit: ConfigEdit, cfg: OdeConfig): { path: readonly string[]; value: string | string[]; problems: string[] } {
  switch (edit.key) {
    case 'contentSecurityPolicy': {
      const value = edit.value
        .trim()
        .replace(/\s*;\s*/g, '; ')
        .replace(/;\s*$/, '');
      return { path: PATHS.contentSecurityPolicy, value, problems: policyProblems('net.content_security_policy', value) };
    }
    case 'frameAncestors': {
      const sources = edit.value.map((s) => s.trim());
      return {
        path: PATHS.frameAncestors,
        value: withFrameAncestors(cfg.net.content_security_policy, sources),
        problems: sourceListProblems('net.content_security_policy frame-ancestors', 'frame-ancestors', sources),
      };
    }
    case 'postAllowHosts':
      return { path: PATHS.postAllowHosts, value: [...edit.value], problems: regexListProblems('net.post_allow.host', edit.value) };
    case 'wopiHosts':
      return { path: PATHS.wopiHosts, value: [...edit.value], problems: regexListProblems('storage.wopi.hosts', edit.value) };
  }
}

/** The value at `path` of a configuration object. */
function valueAt(cfg: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, k) => (node as Record<string, unknown> | undefined)?.[k], cfg);
}

/** Builds the config part over the live ConfigStore. */
export function configPart(parts: AdminParts): Pick<AdminBackend, 'config' | 'editConfig'> {
  const { log } = parts;
  const config = (): EffectiveConfig => {
    const cfg = parts.config.get();
    return {
      ...(parts.config.file !== undefined && { file: parts.config.file }),
      values: JSON.parse(JSON.stringify(cfg)) as Record<string, unknown>,
      editable: editableOf(cfg),
    };
  };

  const refuse = (edit: ConfigEdit, problems: string[]): AdminError => {
    log.warn({ key: edit.key, problems }, 'admin: configuration edit refused; the file is unchanged');
    return new AdminError(
      'invalid_config',
      `The ${edit.key} edit was refused: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`,
      problems,
    );
  };

  return {
    config,

    // Synchronous inside (no await between read and rename), so two edits cannot interleave.
    async editConfig(edit) {
      const file = parts.config.file;
      if (!file)
        throw new AdminError(
          'no_config_file',
          'Ode runs without a configuration file (defaults and environment only), so an edit could not be kept: start it with --config <file> or ODE_CONFIG.',
        );
      const plan = planEdit(edit, parts.config.get());
      if (plan.problems.length) throw refuse(edit, plan.problems);

      let before: string;
      try {
        before = readFileSync(file, 'utf8');
      } catch (e) {
        throw new AdminError('config_write_failed', `The configuration file ${file} could not be read: ${(e as Error).message}`);
      }
      let after: string;
      try {
        after = setYamlValue(before, plan.path, plan.value);
      } catch (e) {
        throw refuse(edit, [`${file}: ${(e as Error).message}`]);
      }
      // The whole new file must pass the schema, as the daemon will read it (environment overrides included).
      let next: OdeConfig;
      try {
        next = validateConfig(applyEnvOverrides((parseYaml(after) as Record<string, unknown> | null) ?? {}), file);
      } catch (e) {
        throw refuse(edit, e instanceof ConfigError ? e.problems : [(e as Error).message]);
      }
      if (JSON.stringify(valueAt(next, plan.path)) !== JSON.stringify(plan.value)) {
        const env = `ODE_${plan.path.map((k) => k.toUpperCase()).join('__')}`;
        throw refuse(edit, [
          `${plan.path.join('.')}: ${JSON.stringify(plan.value)}: the environment variable ${env} overrides this key, so a file edit would not take effect; change or unset ${env}`,
        ]);
      }

      if (after !== before) {
        try {
          writeFileAtomic(file, after);
        } catch (e) {
          log.error({ file, key: edit.key, err: (e as Error).message }, 'admin: the configuration file could not be written; it is unchanged');
          throw new AdminError('config_write_failed', `The configuration file ${file} could not be written (it is unchanged): ${(e as Error).message}`);
        }
      }
      if (!parts.config.reload())
        throw new AdminError('config_write_failed', `${file} was written but the daemon refused to reload it (see the log); it changed meanwhile?`);
      log.info({ file, key: edit.key, value: plan.value }, 'admin: configuration edited and applied');
      return config();
    },
  };
}
