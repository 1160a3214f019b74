import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as IConfiguration;

/**
 * The house's import rules (../shared/STYLE.md "Who may import whom", written down in .dependency-cruiser.cjs):
 * dependency-cruiser reads every import of the product's sources (TypeScript, `import type` included) and reports
 * each one a rule forbids.
 */
describe('import rules (dependency-cruiser, .dependency-cruiser.cjs)', () => {
  let result: ICruiseResult;
  beforeAll(async () => {
    const cwd = process.cwd();
    process.chdir(ROOT);
    try {
      const out = await cruise(['daemon', 'admin-api', 'tui', 'cli', 'certs'], { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true });
      result = out.output as ICruiseResult;
    } finally {
      process.chdir(cwd);
    }
  }, 120_000);

  it('reads the whole tree, with the edges the rules are about', () => {
    expect(result.summary.totalCruised).toBeGreaterThan(300);
    const deps = (from: string) => result.modules.find((m) => m.source === from)?.dependencies.map((d) => d.resolved) ?? [];
    // Not vacuous: the kit's use of the addon and the daemon's use of the protocol are seen.
    expect(deps('daemon/kit/office.ts').some((d) => d.startsWith('daemon/native/'))).toBe(true);
    expect(deps('daemon/server/server.ts').length).toBeGreaterThan(5);
    // The command line's one way into the daemon (rule cli-through-server-entry).
    expect(deps('cli/serve.ts')).toContain('daemon/server/index.ts');
  });

  it('no import breaks a rule (LibreOffice only in kits, protocol imports nothing, structure pure, editor and dashboard through their contracts, no runtime cycles)', () => {
    const broken = result.summary.violations.map(
      (v) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(' -> ')})` : ''}`,
    );
    expect(broken).toEqual([]);
  });
});
