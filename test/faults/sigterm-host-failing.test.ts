import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { docxText } from '../helpers/docx.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';
import { startServe, writeServeConfig, type ServeProcess } from '../helpers/serve-process.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Runs per case: one in CI (a run is 1-2 min on a loaded machine); FAULT_RUNS=3 for several (each a fresh daemon, document and state folder). */
const RUNS = Number(process.env.FAULT_RUNS ?? 1);

/** Every PutFile answered 500 until `heal()` (the scripted answers are dropped). */
function failPutFile(host: FakeWopiHost): () => void {
  host.answer('PutFile', ...Array.from({ length: 100_000 }, () => ({ status: 500, body: 'storage down' })));
  return () => host.script.delete('PutFile');
}

/**
 * Issue 17, item 7: SIGTERM while the host fails uploads. Users type; an idle save's PutFile is answered 500 and
 * retried; more keys; SIGTERM. The daemon must make an exit save of the latest state (not wait behind the retried
 * upload), exit within `documents.exit_save_secs` (plus the kits' stop), and keep what the host did not take in
 * `<state_dir>/recovery`; the next start, with the host healthy, stores it. Second case: the host is back 10 s after
 * the SIGTERM, within the exit time: the exit save itself reaches it. The oracle is the stored file read back (and
 * the bytes of the refused exit save as the host received them). Exit times are printed with the load average.
 */
describe('fault: SIGTERM while the host answers 500 to PutFile', () => {
  let child: ChildProcess | undefined;
  let host: FakeWopiHost | undefined;
  const dirs: string[] = [];
  afterAll(async () => {
    child?.kill('SIGKILL');
    await host?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  let serving: ServeProcess | undefined;
  const serve = async (config: string): Promise<ChildProcess> => {
    // A daemon a failed run left is ended first.
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    serving = await startServe(config, { fromSources: true, timeoutMs: 90_000 });
    return serving.child;
  };
  /** The running daemon's output so far (its stderr). */
  const stderr = () => serving?.output ?? '';

  /** Starts a daemon with `exitSecs`, opens a new document, types in two bursts (an idle save between, refused and retried), and returns what was typed. */
  const typeWhileHostFails = async (id: string, exitSecs: number): Promise<{ typed: string; stateDir: string; config: string }> => {
    const dir = mkdtempSync(join(tmpdir(), 'ode-sigterm-fail-'));
    dirs.push(dir);
    const stateDir = join(dir, 'state');
    const { config, url } = await writeServeConfig(dir, {
      admin: { port: 0 },
      state_dir: stateDir,
      kits: { prespawn: 1, max: 2 },
      documents: { check_secs: 0, idle_save_secs: 1, autosave_secs: 3600, upload_retry_max_secs: 5, journal_snapshot_secs: 1, exit_save_secs: exitSecs },
    });
    child = await serve(config);
    const { client } = await EditorClient.open(url, host!.addFile(id, `${id}.docx`, DOCX), { token: host!.token });
    let typed = '';
    const burst = async (n: number, offset: number) => {
      for (let i = 0; i < n; i++) {
        const ch = String.fromCharCode(97 + ((typed.length + offset) % 26));
        client.type(ch);
        typed += ch;
        await sleep(60);
      }
    };
    await burst(15, 0);
    // The idle save (1 s) is refused and retried: its upload holds the save queue.
    const deadline = Date.now() + 20_000;
    while (host!.of('PutFile').filter((p) => p.path.includes(id)).length === 0 && Date.now() < deadline) await sleep(100);
    expect(host!.of('PutFile').filter((p) => p.path.includes(id)).length).toBeGreaterThan(0);
    await burst(20, 5);
    // Let the daemon read the last keys from its socket (keys still in the network at SIGTERM are not promised).
    await sleep(300);
    return { typed, stateDir, config };
  };

  const sigterm = async (): Promise<{ code: number | null; ms: number }> => {
    const started = Date.now();
    const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
    child!.kill('SIGTERM');
    const code = await exited;
    return { code, ms: Date.now() - started };
  };

  const copiesIn = (d: string) => (existsSync(d) ? readdirSync(d).filter((n) => !n.endsWith('.json') && n !== 'pending') : []);

  it('host down throughout: the exit save holds the latest keys, the daemon exits within exit_save_secs, the next start stores every key', {
    timeout: 240_000 * RUNS,
  }, async () => {
    host = await FakeWopiHost.start();
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const id = `down${run}`;
      const heal = failPutFile(host);
      const { typed, stateDir, config } = await typeWhileHostFails(id, 5);
      const { code, ms } = await sigterm();
      times.push(ms);
      console.log(`run ${run}: SIGTERM to exit ${ms} ms (host down)`);
      expect(code, stderr().slice(-3000)).toBe(0);
      // Bound: exit_save_secs (5 s) for the uploads, then the kits' stop (SIGKILL after 5 s at worst).
      expect(ms).toBeLessThan(5000 + 8000);
      // The exit save was attempted, with the latest state: the last PutFile's body holds every key.
      const puts = host.of('PutFile').filter((p) => p.path.includes(id));
      const exitPuts = puts.filter((p) => p.headers['x-ode-wopi-isexitsave'] === 'true');
      expect(exitPuts.length).toBeGreaterThan(0);
      expect(docxText(exitPuts.at(-1)!.body)).toContain(typed);
      expect(docxText(host.files.get(id)!.bytes)).not.toContain(typed.slice(0, 5));
      // Kept in recovery: one copy (with its sidecar) holding every key; the journal is not kept beside it.
      const recovery = join(stateDir, 'recovery');
      expect(copiesIn(recovery)).toHaveLength(1);
      expect(docxText(readFileSync(join(recovery, copiesIn(recovery)[0]!)))).toContain(typed);
      expect(existsSync(`${join(recovery, copiesIn(recovery)[0]!)}.json`)).toBe(true);
      expect(existsSync(join(stateDir, 'journal')) ? readdirSync(join(stateDir, 'journal')) : []).toHaveLength(0);

      // The host is healthy again; the next start uploads the copy.
      heal();
      const before = host.of('PutFile').length;
      child = await serve(config);
      const until = Date.now() + 60_000;
      while (!docxText(host.files.get(id)!.bytes).includes(typed) && Date.now() < until) await sleep(200);
      expect(docxText(host.files.get(id)!.bytes)).toContain(typed);
      expect(host.of('PutFile').length - before).toBe(1);
      // The copy is deleted once the daemon has the host's answer (the host stored the bytes before answering).
      const gone = Date.now() + 15_000;
      while (copiesIn(join(recovery, 'pending')).length > 0 && Date.now() < gone) await sleep(100);
      expect(copiesIn(join(recovery, 'pending'))).toHaveLength(0);
      expect((await sigterm()).code).toBe(0);
    }
    console.log(
      `SIGTERM with the host down (exit_save_secs 5): exit after ${times.join(', ')} ms; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  });

  it('host back 10 s after SIGTERM: the exit save of the latest state reaches it before the daemon exits', { timeout: 180_000 * RUNS }, async () => {
    host ??= await FakeWopiHost.start();
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const id = `back${run}`;
      const heal = failPutFile(host);
      const { typed, stateDir } = await typeWhileHostFails(id, 20);
      const healer = setTimeout(heal, 10_000);
      const { code, ms } = await sigterm();
      clearTimeout(healer);
      heal();
      times.push(ms);
      expect(code, stderr().slice(-3000)).toBe(0);
      expect(ms).toBeGreaterThanOrEqual(10_000);
      expect(ms).toBeLessThan(20_000 + 8000);
      // Stored before the exit, by the exit save, with every key; nothing left in recovery or the journal.
      const stored = host.of('PutFile').filter((p) => p.path.includes(id) && p.headers['x-ode-wopi-isexitsave'] === 'true');
      expect(stored.length).toBeGreaterThan(0);
      expect(docxText(host.files.get(id)!.bytes)).toContain(typed);
      expect(copiesIn(join(stateDir, 'recovery'))).toHaveLength(0);
      expect(existsSync(join(stateDir, 'journal')) ? readdirSync(join(stateDir, 'journal')) : []).toHaveLength(0);
    }
    console.log(
      `SIGTERM with the host back after 10 s (exit_save_secs 20): exit after ${times.join(', ')} ms; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  });
});
