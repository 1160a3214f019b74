/**
 * The house's import rules (../shared/STYLE.md, "Who may import whom"), checked by test/codebase/import-rules.test.ts
 * in `npm test` (dependency-cruiser). Tests (`test/`, `*.test.ts`) may reach anything they test and are left out.
 *
 * - protocol/ imports nothing of ours: it is the contract every process shares.
 * - native/ (the LibreOfficeKit addon) is loaded by kit/ only: a LibreOffice crash can only take down a kit.
 * - structure/ is pure: protocol/ only (it runs in the daemon's worker threads and in kits).
 * - editor/ (the browser) imports protocol/ only; tui/ only admin-api/ types.
 * - admin-api/ is mounted by server/ and read by tui/ (types) and cli/.
 * - cli/ reaches the daemon through its public entry daemon/server/index.ts (and protocol/) only.
 */
const TESTS = '(^test/|\\.test\\.tsx?$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'protocol-imports-nothing',
      comment: 'daemon/protocol/ is the shared wire contract: it imports no other part of Ode.',
      severity: 'error',
      from: { path: '^daemon/protocol/', pathNot: TESTS },
      to: { path: '^(daemon/(?!protocol/)|admin-api/|tui/|cli/|certs/|scripts/|bin/)' },
    },
    {
      name: 'native-only-in-kits',
      comment: 'The LibreOfficeKit addon is loaded in kit processes only (never the daemon, the CLI or the dashboard).',
      severity: 'error',
      from: { path: '^', pathNot: `(^daemon/(kit|native)/|${TESTS})` },
      to: { path: '^daemon/native/' },
    },
    {
      name: 'structure-is-pure',
      comment: 'The structure engine reads and writes packages only: no server, kit, LibreOffice, editor or CLI.',
      severity: 'error',
      from: { path: '^daemon/structure/', pathNot: TESTS },
      to: { path: '^(daemon/(?!structure/|protocol/)|admin-api/|tui/|cli/|certs/)' },
    },
    {
      name: 'editor-only-protocol',
      comment: 'The browser editor talks to the daemon only through daemon/protocol/.',
      severity: 'error',
      from: { path: '^daemon/editor/', pathNot: TESTS },
      to: { path: '^(daemon/(?!editor/|protocol/)|admin-api/|tui/|cli/|certs/)' },
    },
    {
      name: 'tui-only-admin-api-types',
      comment: 'The dashboard knows the daemon only as the admin API router type (and @trpc/client).',
      severity: 'error',
      from: { path: '^tui/', pathNot: TESTS },
      to: { path: '^(daemon/|cli/|certs/)' },
    },
    {
      name: 'tui-admin-api-types-only',
      comment: 'The dashboard imports admin-api/ for types only (import type), never its runtime.',
      severity: 'error',
      from: { path: '^tui/', pathNot: TESTS },
      to: { path: '^admin-api/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'admin-api-users',
      comment: 'admin-api/ is mounted by the daemon and used by the dashboard and the CLI only.',
      severity: 'error',
      from: { path: '^', pathNot: `(^(admin-api|daemon/server|tui|cli)/|${TESTS})` },
      to: { path: '^admin-api/' },
    },
    {
      name: 'cli-through-server-entry',
      comment: 'The command line uses the daemon through its public entry, daemon/server/index.ts, and the shared protocol/ only.',
      severity: 'error',
      from: { path: '^cli/', pathNot: TESTS },
      to: { path: '^daemon/', pathNot: '^daemon/(server/index\\.ts$|protocol/)' },
    },
    {
      name: 'kit-not-server',
      comment: "A kit is its own process: it shares contracts (protocol/) and the structure engine, not the daemon's code.",
      severity: 'error',
      from: { path: '^daemon/kit/', pathNot: TESTS },
      to: { path: '^(daemon/(server|editor)/|admin-api/|tui/|cli/)' },
    },
    {
      name: 'no-circular',
      comment: 'Imports flow one way: no cycle of runtime imports (a cycle through `import type` only is erased at build).',
      severity: 'error',
      from: { pathNot: TESTS },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|build)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
