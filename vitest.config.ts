import { defineConfig } from 'vitest/config';

/**
 * Test runner configuration. Suites spawn real kits (LibreOffice processes), so files run in forked
 * workers with a bounded parallelism suited to the 2-core machines, and timeouts allow for LibreOffice
 * start-up (about 1 s per kit).
 */
export default defineConfig({
  test: {
    include: ['daemon/**/*.test.ts', 'certs/**/*.test.ts', 'cli/**/*.test.ts', 'admin-api/**/*.test.ts', 'tui/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    exclude: ['node_modules/**', 'test/bench/**'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    // The suite's daemon logs in one folder, grepped for every secret the tests used at the end (issue 17, item 10).
    globalSetup: ['test/log-grep.setup.ts'],
  },
});
