/**
 * vitest global setup: the run folder of the suite's daemon logs, and at the end of the run the grep of every log
 * line for every secret the tests used (test/helpers/log-capture.ts; issue 17, item 10). A finding fails the run
 * with the file, the line number and the line (the secret masked); a clean run's folder is removed
 * (KEEP_TEST_DAEMON_LOGS=1 keeps it), a failing run's stays under test/artifacts/daemon-logs/ for a day.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { grepRunLogs, makeRunDir, removeOldRuns, RUN_LOG_DIR_ENV } from './helpers/log-capture.ts';

const ROOT = new URL('./artifacts/daemon-logs/', import.meta.url).pathname;

/** Makes the run folder, names it for the test workers (inherited environment), and returns the teardown. */
export default function setup(): (() => void) | undefined {
  // With vitest projects (vitest.config.ts) the root and each project run this file: the first one owns the folder.
  if (process.env[RUN_LOG_DIR_ENV]) return undefined;
  removeOldRuns(ROOT, 24 * 3600 * 1000);
  const dir = join(ROOT, `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
  makeRunDir(dir);
  process.env[RUN_LOG_DIR_ENV] = dir;
  return () => {
    const { findings, files, lines, secrets } = grepRunLogs(dir);
    if (findings.length > 0) {
      const shown = findings.slice(0, 30).map((f) => `  ${f.file}:${f.line}: ${f.what}: ${f.text}`);
      throw new Error(
        `A secret reached a daemon's log (issue 17: no token or user info in any log line). ${findings.length} line(s) in ${dir}:\n${shown.join('\n')}`,
      );
    }
    console.log(`log grep: ${lines} lines of ${files} daemon logs, ${secrets} secrets: none found`);
    if (process.env.KEEP_TEST_DAEMON_LOGS !== '1') rmSync(dir, { recursive: true, force: true });
  };
}
