/**
 * The dashboard in a real pseudo-terminal (tmux 100x30): `node bin/ode.js --config <file> tui` against a daemon
 * run as its own process (`node bin/ode.js --config <file> serve`, fixed free ports, temp state dir, the demo WOPI
 * host). An editor WebSocket client opens a document; the test selects it on the Documents screen, closes it
 * (c, y) and sees it gone and the client's socket closed. Then the daemon stops ("reconnecting") and starts again
 * (connected again, live data back, without touching the dashboard). q quits and leaves the alternate screen.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EditorClient } from '../../test/helpers/editor-client.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CORPUS = '/work/shared/corpus';
const TMUX = ['-L', `ode-test-${process.pid}`];
const SESSION = 'ode-tui';

/** Free TCP ports: bound to port 0 together (so they differ), then released. */
async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<ReturnType<typeof createServer>>((res) => {
          const s = createServer();
          s.listen(0, '127.0.0.1', () => res(s));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((res) => s.close(res))));
  return ports;
}

const tmux = (...args: string[]) => execFileSync('tmux', [...TMUX, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', SESSION);
const keys = (...k: string[]) => tmux('send-keys', '-t', SESSION, ...k);

/** Waits until the pane shows what `pred` wants; fails with the pane's text. */
async function waitScreen(pred: (s: string) => boolean, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let s = '';
  for (;;) {
    s = screen();
    if (pred(s)) return s;
    if (Date.now() > deadline) throw new Error(`the pane never matched; it shows:\n${s}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('ode tui in a real terminal (tmux) against a daemon process', () => {
  let dir: string;
  let cfg: string;
  let publicPort: number;
  let daemon: ChildProcess | undefined;
  const editors: EditorClient[] = [];

  /** Starts `ode serve` and resolves once it says it is running. */
  const startServe = () =>
    new Promise<ChildProcess>((res, rej) => {
      const p = spawn(process.execPath, ['bin/ode.js', '--config', cfg, 'serve'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      p.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.includes('Ode is running at')) res(p);
      });
      p.once('exit', (code) => rej(new Error(`ode serve exited (${code}): ${err}`)));
    });
  const stopServe = async () => {
    const p = daemon;
    daemon = undefined;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGTERM');
    await exited;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ode-tui-pty-'));
    copyFileSync(join(CORPUS, 'properties/documentProperties.docx'), join(dir, 'letter.docx'));
    const [pub, admin] = await freePorts(2);
    publicPort = pub;
    cfg = join(dir, 'ode.yaml');
    writeFileSync(
      cfg,
      stringify({
        state_dir: join(dir, 'state'),
        log_level: 'info',
        net: { port: pub },
        admin: { port: admin },
        demo_host: { folder: dir },
        kits: { prespawn: 1, max: 3 },
        documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 },
      }),
    );
    daemon = await startServe();
    tmux(
      'new-session',
      '-d',
      '-s',
      SESSION,
      '-x',
      '100',
      '-y',
      '30',
      '-c',
      ROOT,
      `${process.execPath} bin/ode.js --config ${cfg} tui --interval 500; echo $? > ${join(dir, 'tui-exit')}`,
    );
    tmux('set-option', '-t', SESSION, 'remain-on-exit', 'on');
  }, 120_000);

  afterAll(async () => {
    for (const e of editors) e.close();
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    await stopServe();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('selects the open document, closes it (c, y): it is gone and the editor was disconnected', async () => {
    await waitScreen((s) => s.includes('● connected') && s.includes('Health'));
    const url = `http://127.0.0.1:${publicPort}`;
    const page = await (await fetch(`${url}/?user=${encodeURIComponent('Grace Hopper')}`)).text();
    const token = /name="access_token" value="([^"]+)"/.exec(page)![1];
    const { client } = await EditorClient.open(url, `${url}/demo/wopi/files/${Buffer.from('letter.docx').toString('base64url')}`, { token });
    editors.push(client);
    keys('2');
    let s = await waitScreen((s) => s.includes('letter.docx') && s.includes('Grace Hopper'));
    expect(s).toContain('1 open document');
    expect(s).toMatch(/›.?letter\.docx/); // selected (the only one)
    keys('c');
    await waitScreen((s) => s.includes('Close letter.docx') && s.includes('(y/n)'));
    keys('y');
    // The 'closed' event and the mutation's answer race: wait for both.
    s = await waitScreen((s) => s.includes('No document is open.') && s.includes('closed letter.docx'));
    await expect.poll(() => client.closeCode, { timeout: 10_000 }).toBeDefined();
    expect(s).toContain('q quit'); // the legend is still there
  });

  it('says reconnecting while the daemon is down and recovers by itself when it is back', async () => {
    keys('1');
    await waitScreen((s) => s.includes('Health'));
    await stopServe();
    const down = await waitScreen((s) => s.includes('reconnecting since'));
    expect(down).not.toContain('● connected');
    daemon = await startServe();
    const back = await waitScreen((s) => s.includes('● connected'), 60_000);
    expect(back).toContain('Health ok');
    // Live data again: the uptime restarts with the new daemon (a fresh status.live subscription).
    await waitScreen((s) => /up \d+s\b/.test(s));
  });

  it('q quits: the process exits 0 and the alternate screen is left', async () => {
    keys('q');
    // The shell around the dashboard writes its exit code (tmux's own #{pane_dead_status} is sometimes left empty
    // when the pane's pty closes before tmux reaps the process).
    const exitCode = () => (existsSync(join(dir, 'tui-exit')) ? readFileSync(join(dir, 'tui-exit'), 'utf8').trim() : '');
    await expect.poll(exitCode, { timeout: 10_000 }).toBe('0');
    expect(screen()).not.toContain('Ode admin');
  });
});
