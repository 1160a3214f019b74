/**
 * `runDashboard`: the terminal dashboard's entry point (cli/tui.ts calls it with the admin listener's address and
 * token). It renders full-screen on the alternate screen of a TTY, follows the admin API live, and resolves when
 * the user quits (q or Ctrl+C), with the terminal restored and the connection closed. docs/tui.md.
 */
import { render } from 'ink';
import { startDataFlow } from './data.ts';
import { Root } from './root.tsx';
import { createDashboardStore } from './state/external-store.ts';

/** Where to connect and where to draw. */
export interface DashboardOptions {
  /** `http://host:port` of the admin listener. */
  url?: string;
  /** The admin listener's unix socket, instead of `url`. */
  socket?: string;
  /** The admin token, called per request/connection (a rotated token is picked up without restarting). */
  token: () => string;
  /** status.live interval, ms (default 2000). */
  statusIntervalMs?: number;
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
}

const ALT_SCREEN_ON = '\x1b[?1049h';
const ALT_SCREEN_OFF = '\x1b[?1049l';

/** Runs the dashboard until the user quits. */
export async function runDashboard(opts: DashboardOptions): Promise<void> {
  const stdout = opts.stdout ?? process.stdout;
  const stdin = opts.stdin ?? process.stdin;
  const store = createDashboardStore(opts.socket ?? (opts.url ?? '').replace(/^https?:\/\//, ''));
  const flow = startDataFlow({ url: opts.url, socket: opts.socket, token: opts.token, statusIntervalMs: opts.statusIntervalMs, dispatch: store.dispatch });
  const tty = Boolean(stdout.isTTY);
  // The alternate screen keeps the shell's scrollback clean; leaving it must happen however we exit.
  const restore = () => tty && stdout.write(ALT_SCREEN_OFF);
  if (tty) stdout.write(ALT_SCREEN_ON);
  process.once('exit', restore);
  try {
    const ink = render(<Root store={store} run={(op) => void flow.run(op)} />, { stdout, stdin, exitOnCtrlC: false, patchConsole: true });
    await ink.waitUntilExit();
  } finally {
    await flow.stop();
    restore();
    process.off('exit', restore);
  }
}
