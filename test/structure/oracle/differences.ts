import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** docs/structure/oracle-differences.md: where the engine and LibreOffice 25.2 differ on the corpus, and why. */
export const DIFFERENCES = join(import.meta.dirname, '../../../docs/structure/oracle-differences.md');

/** A listed difference: `pattern` matches keys `<file> <filter> <item path>` (`*` in the row matches anything). */
export interface ListedDifference {
  pattern: RegExp;
  reason: string;
}

/**
 * The differences listed in docs/structure/oracle-differences.md: its table rows `| \`<file> <filter> <item path
 * glob>\` | reason |`, in file order (a test marks the ones it used by index, so that a stale row is found).
 */
export function listedDifferences(): ListedDifference[] {
  const rows = readFileSync(DIFFERENCES, 'utf8')
    .split('\n')
    .filter((l) => /^\|\s*`/.test(l));
  return rows.map((row) => {
    const [, glob, reason] = /^\|\s*`([^`]+)`\s*\|\s*(.*?)\s*\|\s*$/.exec(row) ?? [];
    return {
      pattern: new RegExp(
        `^${glob!
          .split('*')
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      ),
      reason: reason ?? '',
    };
  });
}
