/**
 * vitest reporter added beside the default one: at the end of the run it lists the browser tests that passed only
 * on their retry (see vitest.config.ts: `retry` in CI for test/editor and test/editor-tasks) and the ten slowest
 * test files, so a flaky test and the suite's time are visible in every CI log rather than hidden by the retry.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';

/** Collects retried tests during the run; prints them and the slowest files at its end. */
export default class RunReport implements Reporter {
  private readonly retried: string[] = [];

  /** Notes a test that needed a retry (passed on it: flaky; or failed every try). */
  onTestCaseResult(testCase: TestCase): void {
    const d = testCase.diagnostic();
    if (d && d.retryCount > 0)
      this.retried.push(
        `${testCase.module.moduleId.replace(`${process.cwd()}/`, '')} > ${testCase.fullName} (${d.flaky ? 'passed on retry' : 'failed'} after ${d.retryCount} retr${d.retryCount === 1 ? 'y' : 'ies'})`,
      );
  }

  /** Prints the retried tests and the ten slowest test files (wall time in s). */
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const slow = testModules
      .map((m) => ({ id: m.moduleId.replace(`${process.cwd()}/`, ''), ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    const lines = [
      '',
      `retried tests: ${this.retried.length}`,
      ...this.retried.map((r) => `  ${r}`),
      'slowest test files:',
      ...slow.map((s) => `  ${(s.ms / 1000).toFixed(1).padStart(6)} s  ${s.id}`),
    ];
    console.log(lines.join('\n'));
  }
}
