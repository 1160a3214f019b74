/**
 * The Documents screen's recovery list (issue 17: the admin API and the dashboard list what is pending): the copies
 * of edits the host does not have yet, at 80x24 and 120x30, with file, host and why each waits; nothing is shown
 * when there are none.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RecoveryCopyInfo } from '../types.ts';
import { T0, fullState } from './fixtures.ts';
import { renderWithProviders, type Rendered } from './render.tsx';

let current: Rendered | undefined;
afterEach(() => {
  current?.unmount();
  current = undefined;
});

const copy = (i: number, state: RecoveryCopyInfo['state']): RecoveryCopyInfo => ({
  id: `000000000000-r${i}.docx`,
  fileName: `report-${i}.docx`,
  host: 'https://cloud.example.org',
  document: `https://cloud.example.org/wopi/files/r${i}`,
  bytes: 12_000 + i,
  createdAt: T0 - 3_600_000 + i * 60_000,
  source: 'journal',
  state,
});

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 30 },
])('recovery copies at $columns x $rows', ({ columns, rows }) => {
  it('lists the copies under the documents, at most three and a count', async () => {
    const recovery = [copy(1, 'conflict'), copy(2, 'token_expired'), copy(3, 'host_unavailable'), copy(4, 'failed')];
    const r = (current = renderWithProviders({ ...fullState(), recovery }, { columns, rows }));
    await r.press('2');
    const f = await r.waitFor((f) => f.includes('recovery copies waiting'));
    const lines = f.split('\n');
    expect(lines.length).toBeLessThanOrEqual(rows);
    for (const l of lines) expect([...l].length, l).toBeLessThanOrEqual(columns);
    expect(f).toContain('4 recovery copies waiting (edits the host does not have)');
    expect(lines.some((l) => /report-1\.docx.*cloud\.example\.org.*stored file changed/.test(l))).toBe(true);
    expect(lines.some((l) => /report-2\.docx.*token expired/.test(l))).toBe(true);
    expect(lines.some((l) => /report-3\.docx.*host down, retrying/.test(l))).toBe(true);
    expect(f).toContain('and 1 more');
    expect(f).not.toContain('report-4.docx');
    // The documents are still listed above it.
    expect(f).toContain('2 open documents');
  });

  it('shows nothing of it when no copy waits', async () => {
    const r = (current = renderWithProviders(fullState(), { columns, rows }));
    await r.press('2');
    const f = await r.waitFor((f) => f.includes('2 open documents'));
    expect(f).not.toContain('recovery cop');
  });
});
