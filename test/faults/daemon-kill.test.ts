import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { docxText } from '../helpers/docx.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';
import { startServe, writeServeConfig } from '../helpers/serve-process.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every descendant pid of `pid` (the daemon's kits and their LibreOffice), read from ps. */
function descendants(pid: number): number[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  const children = new Map<number, number[]>();
  for (const line of out.trim().split('\n')) {
    const [p, pp] = line.trim().split(/\s+/).map(Number) as [number, number];
    children.set(pp, [...(children.get(pp) ?? []), p]);
  }
  const all: number[] = [];
  const walk = (p: number) => (children.get(p) ?? []).forEach((c) => (all.push(c), walk(c)));
  walk(pid);
  return all;
}

/**
 * Issue 17, item 6: the daemon SIGKILLed while users type, then started again. Nothing was saved before the kill
 * (idle save and autosave an hour away); the new daemon finds the edit journals, rebuilds each document in a kit and
 * uploads it with PutFile and X-ODE-WOPI-Timestamp = the LastModifiedTime the journal started from. A document
 * whose stored file changed meanwhile is not overwritten: its copy is kept in recovery/pending (spec: external
 * change detection rule 1) and the host's file stays theirs.
 */
describe('fault: daemon SIGKILL while typing, then restart (edit journal)', () => {
  let child: ChildProcess | undefined;
  let host: FakeWopiHost | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'ode-daemon-kill-'));
  const stateDir = join(dir, 'state');
  const leftovers: number[] = [];
  afterAll(async () => {
    child?.kill('SIGKILL');
    for (const p of leftovers) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        // gone
      }
    }
    await host?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const serve = async (config: string): Promise<ChildProcess> => (await startServe(config, { fromSources: true, timeoutMs: 90_000 })).child;

  it('uploads every typed key after the restart; a document changed elsewhere keeps its copy for the users', { timeout: 300_000 }, async () => {
    host = await FakeWopiHost.start();
    const { config, url } = await writeServeConfig(dir, {
      state_dir: stateDir,
      kits: { prespawn: 2, max: 3 },
      documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600, journal_snapshot_secs: 1 },
    });
    child = await serve(config);
    const typed: Record<string, string> = { dk1: '', dk2: '' };
    const clients: Record<string, EditorClient> = {};
    for (const id of Object.keys(typed)) clients[id] = (await EditorClient.open(url, host.addFile(id, `${id}.docx`, DOCX), { token: host.token })).client;
    const original = { dk1: host.files.get('dk1')!.lastModifiedTime, dk2: host.files.get('dk2')!.lastModifiedTime };
    const typeBoth = async (n: number) => {
      for (let i = 0; i < n; i++) {
        for (const id of Object.keys(typed)) {
          const ch = String.fromCharCode(97 + ((typed[id]!.length + (id === 'dk2' ? 13 : 0)) % 26));
          clients[id]!.type(ch);
          typed[id] += ch;
        }
        await sleep(30);
      }
    };
    // Typed, then a snapshot (journal_snapshot_secs 1), then more keys up to the kill.
    await typeBoth(25);
    await sleep(1800);
    await typeBoth(40);
    await sleep(80);
    leftovers.push(...descendants(child.pid!));
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    for (const p of leftovers) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        // gone with the daemon
      }
    }
    expect(host.of('PutFile')).toHaveLength(0);
    expect(readdirSync(join(stateDir, 'journal'))).toHaveLength(2);
    // Meanwhile someone else saves dk2.
    host.touch('dk2', DOCX);
    const theirs = host.files.get('dk2')!.lastModifiedTime;

    child = await serve(config);
    const deadline = Date.now() + 120_000;
    while (host.of('PutFile').length < 2 && Date.now() < deadline) await sleep(200);
    const puts = host.of('PutFile');
    expect(puts.map((p) => p.path).sort()).toEqual(['/wopi/files/dk1/contents', '/wopi/files/dk2/contents']);
    expect(puts.find((p) => p.path.includes('dk1'))!.headers['x-ode-wopi-timestamp']).toBe(original.dk1);
    expect(puts.find((p) => p.path.includes('dk2'))!.headers['x-ode-wopi-timestamp']).toBe(original.dk2);
    // dk1: every key typed before the kill is in the stored file, in order.
    expect(docxText(host.files.get('dk1')!.bytes)).toContain(typed.dk1);
    // dk2: the host refused (409): its file is theirs, our copy waits in recovery/pending with the keys.
    expect(host.files.get('dk2')!.lastModifiedTime).toBe(theirs);
    expect(docxText(host.files.get('dk2')!.bytes)).not.toContain(typed.dk2);
    await sleep(300);
    const pending = readdirSync(join(stateDir, 'recovery', 'pending')).filter((n) => !n.endsWith('.json'));
    expect(pending).toHaveLength(1);
    expect(docxText(readFileSync(join(stateDir, 'recovery', 'pending', pending[0]!)))).toContain(typed.dk2);
    expect(existsSync(join(stateDir, 'journal')) ? readdirSync(join(stateDir, 'journal')) : []).toHaveLength(0);
  });
});
