import { execFile } from 'node:child_process';
import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ode = new URL('../bin/ode.js', import.meta.url).pathname;
const corpus = new URL('../../shared/corpus/', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'ode-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs `ode args...` in the temp dir; resolves with the exit code and output instead of throwing. */
async function odeCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [ode, ...args], { cwd: work, env: { ...process.env, ODE_STATE_DIR: join(work, 'state'), ...env }, timeout: 120_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('the ode command', () => {
  it('--version prints the package version', async () => {
    const r = await odeCli(['--version']);
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('convert runs one conversion through a kit, no server', async () => {
    const out = join(work, 'out.pdf');
    const r = await odeCli(['convert', join(corpus, 'content-controls/ContentControls.docx'), '--to', 'pdf', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('convert reports a documented error code for a broken file', async () => {
    const r = await odeCli(['convert', join(corpus, 'broken/testODTnotaZipFile.odt'), '--to', 'pdf', '-o', join(work, 'x.pdf')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('load_failed');
  });

  it('a bad config value stops start-up naming the key, the value and what is allowed', async () => {
    const cfg = join(work, 'bad.yaml');
    writeFileSync(cfg, 'limits:\n  queue: lots\n');
    const r = await odeCli(['--config', cfg, 'serve']);
    expect(r.code).toBe(78);
    expect(r.stderr).toMatch(/limits\.queue: "lots": .*number/i);
  });

  it('proof-key show and rotate print fingerprints; rotate keeps the current key as old', async () => {
    const show = await odeCli(['proof-key', 'show']);
    expect(show.code, show.stderr).toBe(0);
    const current = /current: ([0-9A-F:]+)/.exec(show.stdout)![1];
    const rotated = await odeCli(['proof-key', 'rotate']);
    expect(/old:\s+([0-9A-F:]+)/.exec(rotated.stdout)![1]).toBe(current);
    expect(/current: ([0-9A-F:]+)/.exec(rotated.stdout)![1]).not.toBe(current);
  });

  it('proof-key create writes one key file that nodes share: each node (own state dir) shows the same fingerprint, and it never overwrites', async () => {
    const shared = join(work, 'shared', 'proof_key');
    const created = await odeCli(['proof-key', 'create', '--out', shared]);
    expect(created.code, created.stderr).toBe(0);
    expect(statSync(shared).mode & 0o777).toBe(0o600);
    // Independent of the CLI: SHA-256 of the public key's SPKI DER, as hex pairs.
    const spki = createPublicKey(createPrivateKey(readFileSync(shared, 'utf8'))).export({ type: 'spki', format: 'der' });
    const fingerprint = createHash('sha256').update(spki).digest('hex').toUpperCase().match(/../g)!.join(':');
    const cfg = join(work, 'node.yaml');
    writeFileSync(cfg, `proof_key: ${shared}\n`);
    for (const node of ['node-a', 'node-b']) {
      const show = await odeCli(['--config', cfg, 'proof-key', 'show'], { ODE_STATE_DIR: join(work, node) });
      expect(show.code, show.stderr).toBe(0);
      expect(/current: ([0-9A-F:]+)/.exec(show.stdout)![1]).toBe(fingerprint);
    }
    const again = await odeCli(['proof-key', 'create', '--out', shared]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists already');
  });
});
