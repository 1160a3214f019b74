/**
 * The dashboard's screens at 80x24 and 120x30: pure components fed a state (no daemon), keys typed into Ink's
 * stdin, assertions on the visible text. The data flow against a real daemon is in live.test.tsx and pty.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DOC_A, DOC_B, FINGERPRINT, LONG_NAME, OLD_FINGERPRINT, T0, fullState } from './fixtures.ts';
import { KEYS, renderWithProviders, type Rendered } from './render.tsx';
import { initialState } from '../state/store.ts';

let current: Rendered | undefined;
afterEach(() => {
  current?.unmount();
  current = undefined;
});

const SIZES = [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 30 },
];

/** Every line of `frame` fits `columns`, and the frame fits `rows`. */
function expectFits(frame: string, columns: number, rows: number) {
  const lines = frame.split('\n');
  expect(lines.length).toBeLessThanOrEqual(rows);
  for (const l of lines) expect([...l].length, l).toBeLessThanOrEqual(columns);
}

describe.each(SIZES)('the dashboard at $columns x $rows', ({ columns, rows }) => {
  const open = (state = fullState()) => (current = renderWithProviders(state, { columns, rows }));

  it('Overview: health, version, uptime, kits by state, memory/CPU with sparklines, queue, failures; the key legend', async () => {
    const r = open();
    const f = await r.waitFor((f) => f.includes('Health'));
    expectFits(f, columns, rows);
    expect(f).toContain('Ode admin · 127.0.0.1:9981');
    expect(f).toContain('● connected');
    expect(f).toMatch(/Health ok/); // the upload failure is an hour old
    expect(f).toContain('version 0.1.0 (abcdef01)');
    expect(f).toContain('up 1h 02m');
    expect(f).toContain('1 ready, 0 busy, 2 editing');
    expect(f).toContain('Queue 2/100');
    expect(f).toContain('uploads 1');
    expect(f).toContain('last upload failure');
    expect(f).toContain('PutFile: 500');
    // Daemon memory is the last sample (120 + 4*10 MiB), kits summed (380 + 250 + 90).
    expect(f).toMatch(/Daemon\s+mem 160\.0 MiB/);
    expect(f).toMatch(/Kits\s+mem 720\.0 MiB/);
    // Five rising samples: the daemon's memory sparkline ends in the full block.
    const daemonLine = f.split('\n').find((l) => l.startsWith('Daemon'))!;
    expect(daemonLine).toMatch(/[▁-▇]+█/);
    expect(f).toMatch(/201\s+editing/);
    expect(f).toMatch(/203\s+ready/);
    expect(f.split('\n').at(-1)).toContain('q quit');
    expect(f).toContain('? help');
  });

  it("Documents: the list, the selected one's details; arrows select; long names end in an ellipsis", async () => {
    const r = open();
    await r.press('2');
    let f = await r.waitFor((f) => f.includes('2 open documents'));
    expectFits(f, columns, rows);
    expect(f).toContain('letter.docx');
    expect(f).toContain('…'); // the long file name is cut
    expect(f).not.toContain(LONG_NAME);
    // Oldest first: letter.docx is selected and detailed.
    expect(f).toContain('Ada Lovelace (u-ada)');
    expect(f).toContain('Grace Hopper (u-grace) read-only');
    expect(f).toContain('modified (unsaved changes)');
    expect(f).toContain('pid 201, 300.0 MiB');
    expect(f).toContain('↑↓ select');
    await r.press(KEYS.down);
    f = await r.waitFor((f) => f.includes('Linus Pauling'));
    expect(f).toContain('upload error');
    expect(f).toContain('pid 202');
    expect(f).not.toContain('Ada Lovelace');
    // At 120 columns the list and the details sit side by side: the selected row shares its line with a details row.
    const sideBySide = f.split('\n').some((l) => /files\.example\.com.*state\s+live, not modified/.test(l));
    expect(sideBySide, f).toBe(columns >= 120);
    if (columns < 120) expect(f.split('\n').some((l) => /^file\s+Quarterly/.test(l))).toBe(true);
  });

  it('Documents: c asks y/n and closes the selected document on y; k asks and kills its kit; n cancels', async () => {
    const r = open();
    await r.press('2', 'c');
    let f = await r.waitFor((f) => f.includes('(y/n)'));
    expect(f).toContain('Close letter.docx (saved first when modified)? (y/n)');
    expect(f).toContain('y confirm');
    await r.press('n');
    f = await r.waitFor((f) => f.includes('cancelled'));
    expect(r.ops).toEqual([]);
    await r.press('c', 'y');
    expect(r.ops).toEqual([{ type: 'close', id: DOC_A.id, name: 'letter.docx' }]);
    await r.press(KEYS.down, 'k');
    f = await r.waitFor((f) => f.includes('Kill kit 202'));
    await r.press('y');
    expect(r.ops[1]).toEqual({ type: 'kill', pid: 202, name: DOC_B.fileName });
    await r.press('s');
    expect(r.ops[2]).toEqual({ type: 'save', id: DOC_B.id, name: DOC_B.fileName });
  });

  it("Config: the CSP and the three lists; a adds through the text input; a refusal shows the server's problems and the list stays", async () => {
    const r = open();
    await r.press('3');
    let f = await r.waitFor((f) => f.includes('frame-ancestors (CSP) (2)'));
    expectFits(f, columns, rows);
    expect(f).toContain('/etc/ode/ode.yaml');
    expect(f).toContain("CSP frame-ancestors 'self' https://cloud.example.org;");
    expect(f).toContain('https://cloud.example.org');
    await r.press(KEYS.right);
    f = await r.waitFor((f) => f.includes('127\\.0\\.0\\.1'));
    await r.press('a');
    await r.waitFor((f) => f.includes('Enter save'));
    await r.press('(', 'b', 'a', 'd');
    await r.waitFor((f) => f.includes('+ (bad'));
    await r.press(KEYS.enter);
    expect(r.ops).toEqual([{ type: 'editConfig', key: 'postAllowHosts', value: ['192\\.168\\.[0-9]+\\.[0-9]+', '127\\.0\\.0\\.1', '(bad'] }]);
    // What the data flow does with a refusal: an error notice with the problems; the config is not replaced.
    r.store.dispatch({
      type: 'notice',
      notice: {
        screen: 'config',
        kind: 'error',
        text: 'refused: invalid_config: the edit does not validate',
        problems: ['net.post_allow.host: (bad: not a regular expression'],
      },
    });
    f = await r.waitFor((f) => f.includes('refused'));
    expect(f).toContain('• net.post_allow.host: (bad: not a regular expression');
    expect(f).toContain('post_allow hosts (2)');
    expect(f).toContain('+ (bad'); // the input stays open with what was typed
    await r.press(KEYS.escape);
    f = await r.waitFor((f) => !f.includes('+ (bad'));
    // Edit the first WOPI host, and remove it after a y/n.
    await r.press(KEYS.right, 'e');
    await r.waitFor((f) => f.includes('Enter save'));
    await r.press('x', KEYS.enter);
    expect(r.ops[1]).toEqual({ type: 'editConfig', key: 'wopiHosts', value: ['cloud\\.example\\.orgx'] });
    r.store.dispatch({ type: 'editing', editing: undefined });
    await r.waitFor((f) => !f.includes('Enter save'));
    await r.press('d');
    await r.waitFor((f) => f.includes('Remove cloud\\.example\\.org from WOPI hosts? (y/n)'));
    await r.press('y');
    expect(r.ops[2]).toEqual({ type: 'editConfig', key: 'wopiHosts', value: [] });
  });

  it('Proof key: both fingerprints in full (wrapped, never cut) with dates; r rotates after y', async () => {
    const r = open();
    await r.press('4');
    const f = await r.waitFor((f) => f.includes('Current key'));
    expectFits(f, columns, rows);
    const joined = f.replace(/\s+/g, '');
    expect(joined).toContain(FINGERPRINT);
    expect(joined).toContain(OLD_FINGERPRINT);
    expect(f).toContain('2025-05-06 10:00:00');
    await r.press('r');
    await r.waitFor((f) => f.includes('Rotate the proof key?'));
    await r.press('y');
    expect(r.ops).toEqual([{ type: 'rotate' }]);
  });

  it('Updates: current vs available, the URL, the last check; r refreshes; not configured says so', async () => {
    const r = open();
    await r.press('5');
    const f = await r.waitFor((f) => f.includes('available'));
    expect(f).toMatch(/current\s+0\.1\.0/);
    expect(f).toContain('0.2.0  (newer: an update is available)');
    expect(f).toContain('https://updates.example.org');
    await r.press('r');
    expect(r.ops).toEqual([{ type: 'refreshUpdates' }]);
    r.store.dispatch({ type: 'updates', updates: { configured: false, product: 'Ode', current: '0.1.0', newer: false } });
    await r.waitFor((f) => f.includes('not configured: set updates.url'));
  });

  it('Logs: lines at or above the level; - and + change it; p pauses (new lines counted, not shown) and resumes', async () => {
    const r = open();
    await r.press('6');
    let f = await r.waitFor((f) => f.includes('level ≥ info'));
    expect(f).toContain('Ode is running port=9980');
    expect(f).toContain('upload failed doc=doc-b err=PutFile: 500');
    expect(f).not.toContain('kit spawned');
    await r.press('-');
    f = await r.waitFor((f) => f.includes('level ≥ debug'));
    expect(f).toContain('kit spawned kit=203');
    await r.press('+', '+');
    f = await r.waitFor((f) => f.includes('level ≥ warn'));
    expect(f).not.toContain('Ode is running');
    await r.press('p');
    await r.waitFor((f) => f.includes('paused'));
    r.store.dispatch({ type: 'log', line: { seq: 4, time: T0 + 4000, level: 'error', msg: 'save failed', fields: {} } });
    f = await r.waitFor((f) => f.includes('1 newer line'));
    expect(f).not.toContain('save failed');
    await r.press('p');
    f = await r.waitFor((f) => f.includes('following'));
    expect(f).toContain('save failed');
  });

  it('? shows the help, any key closes it; q quits; Ctrl+C quits', async () => {
    const r = open();
    await r.press('?');
    let f = await r.waitFor((f) => f.includes('Keys'));
    expectFits(f, columns, rows);
    expect(f).toContain('switch screens');
    await r.press('x');
    f = await r.waitFor((f) => !f.includes('switch screens'));
    await r.press('q');
    expect(r.quits).toBe(1);
    r.unmount();
    const again = (current = renderWithProviders(fullState(), { columns, rows }));
    await again.waitFor((f) => f.includes('Health'));
    await again.press(KEYS.ctrlC);
    expect(again.quits).toBe(1);
  });
});

describe('the dashboard before and between connections', () => {
  it('says connecting, then reconnecting with the time, then unauthorized', async () => {
    const r = (current = renderWithProviders(initialState('127.0.0.1:9981', T0), { columns: 80, rows: 24 }));
    await r.waitFor((f) => f.includes('connecting…') && f.includes('waiting for the first status'));
    r.store.dispatch({ type: 'connection', connection: { kind: 'reconnecting', since: T0, reason: 'daemon unreachable' } });
    await r.waitFor((f) => f.includes('reconnecting since 10:00:00… (daemon unreachable)'));
    r.store.dispatch({ type: 'connection', connection: { kind: 'unauthorized', since: T0 } });
    await r.waitFor((f) => f.includes('unauthorized'));
  });

  it('follows a resize from 80 to 120 columns: the documents list and details go side by side', async () => {
    const r = (current = renderWithProviders(fullState(), { columns: 80, rows: 24 }));
    await r.press('2');
    let f = await r.waitFor((f) => f.includes('Ada Lovelace'));
    expect(f.split('\n').some((l) => /letter\.docx.*host\s+https:\/\/cloud/.test(l))).toBe(false);
    r.resize(120, 30);
    f = await r.waitFor((f) => f.split('\n').some((l) => /letter\.docx.*host\s+https:\/\/cloud/.test(l)));
    expectFits(f, 120, 30);
  });
});
