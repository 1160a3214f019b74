import { defineConfig } from 'vitest/config';

/** Tests that drive the editor in Chromium: timing of a browser under load, retried once in CI (see below). */
const BROWSER = ['test/editor/**/*.test.ts', 'test/editor-tasks/**/*.test.ts'];

/**
 * Tests whose promise is a time measured on the daemon (bad input answered within 5 s, /health within 100 ms): they
 * run after all the others, alone (project `alone`, sequence.groupOrder 1), so that they measure Ode and not the
 * other test files' browsers and kits (at CI load 20 a garbage document's text import took 11-13 s; alone, 1-3 s).
 */
const ALONE = ['test/bad-input/bad-input.test.ts'];

/**
 * Test runner configuration. Suites spawn real kits (LibreOffice processes), so files run in forked
 * workers with a bounded parallelism suited to the 2-core machines, and timeouts allow for LibreOffice
 * start-up (about 1 s per kit).
 *
 * In CI the browser tests get one retry: on the 2-core machines at load 10-20 a browser step can miss its wait
 * (three CI runs failed on three different browser waits that pass alone). Only the browser tests: the kit,
 * fault and bad-input suites (lost keystrokes, memory, 4xx codes) get no retry, a failure there is a failure.
 * Every retried test is listed at the end of the run (test/run-report.reporter.ts).
 */
export default defineConfig({
  test: {
    exclude: ['node_modules/**', 'test/bench/**'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/run-report.reporter.ts'],
    // The suite's daemon logs in one folder, grepped for every secret the tests used at the end (issue 17, item 10).
    globalSetup: ['test/log-grep.setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'ode',
          include: ['daemon/**/*.test.ts', 'certs/**/*.test.ts', 'cli/**/*.test.ts', 'admin-api/**/*.test.ts', 'tui/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
          exclude: ['node_modules/**', 'test/bench/**', ...BROWSER, ...ALONE],
          sequence: { groupOrder: 0 },
        },
      },
      // 180 s by default: a browser test with several LibreOffice round trips took over 60 s at load 30-45 (chrome.test's
      // rename: 13 s alone), which is the machine, not a hang; tests that set their own limit keep it.
      { extends: true, test: { name: 'browser', include: BROWSER, retry: process.env.CI ? 1 : 0, testTimeout: 180_000, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'alone', include: ALONE, sequence: { groupOrder: 1 } } },
    ],
  },
});
