/**
 * `renderWithProviders`: renders the dashboard (Root: the real App, contexts, reducer and keys) at a fixed
 * terminal size for tests. ink-testing-library's stdout is fixed at 100 columns with no option, so this is its
 * helper with a stdout of the given `columns` x `rows` (and a resize()).
 */
import { EventEmitter } from 'node:events';
import type { ReactElement } from 'react';
import { render } from 'ink';
import { Root } from '../root.tsx';
import { createDashboardStore, type DashboardStore } from '../state/external-store.ts';
import type { DashboardState, Operation } from '../state/store.ts';

/** A stdout of a chosen size that records frames. */
class TestStdout extends EventEmitter {
  readonly frames: string[] = [];
  isTTY = false;
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (frame: string) => {
    this.frames.push(frame);
    return true;
  };
  lastFrame = () => this.frames[this.frames.length - 1] ?? '';
}

/** A stdin Ink accepts: `write` delivers key sequences. */
class TestStdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write = (data: string) => {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  };
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

/** Key sequences as a terminal sends them. */
export const KEYS = { up: '\u001B[A', down: '\u001B[B', right: '\u001B[C', left: '\u001B[D', tab: '\t', enter: '\r', escape: '\u001B', ctrlC: '\u0003' };

/** A rendered dashboard. */
export interface Rendered {
  store: DashboardStore;
  /** The operations the keys asked to run, in order. */
  ops: Operation[];
  quits: number;
  frame(): string;
  /** Types `keys` and waits a little for Ink to render. */
  press(...keys: string[]): Promise<void>;
  /** Waits until the frame satisfies `pred` (throws with the last frame after `timeoutMs`). */
  waitFor(pred: (frame: string) => boolean, timeoutMs?: number): Promise<string>;
  resize(columns: number, rows: number): void;
  unmount(): void;
}

/** Strips ANSI styles. */
export const plain = (s: string) => s.replace(/\u001B\[[0-9;?]*[A-Za-z]/g, '');

/** Keys typed into `stdin` (20 ms apart, then 50 ms for Ink to render) and waiting until `frame()` matches (polled every 25 ms). */
function driver(stdin: TestStdin, frame: () => string): Pick<Rendered, 'press' | 'waitFor'> {
  return {
    async press(...keys) {
      for (const k of keys) {
        stdin.write(k);
        await new Promise((res) => setTimeout(res, 20));
      }
      await new Promise((res) => setTimeout(res, 50));
    },
    async waitFor(pred, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pred(frame())) {
        if (Date.now() > deadline) throw new Error(`frame never matched; last frame:\n${frame()}`);
        await new Promise((res) => setTimeout(res, 25));
      }
      return frame();
    },
  };
}

/**
 * Renders the dashboard for `state` at `columns` x `rows`. `run` receives the operations (default: recorded only);
 * a real data flow can be passed instead (see the live tests).
 */
export function renderWithProviders(
  state: DashboardState,
  opts: { columns: number; rows: number; run?: (op: Operation) => void; store?: DashboardStore },
): Rendered {
  const stdout = new TestStdout(opts.columns, opts.rows);
  const stdin = new TestStdin();
  const store = opts.store ?? createDashboardStore(state.target, state);
  const ops: Operation[] = [];
  const r: Rendered = {
    store,
    ops,
    quits: 0,
    frame: () => plain(stdout.lastFrame()),
    ...driver(stdin, () => plain(stdout.lastFrame())),
    resize(columns, rows) {
      stdout.columns = columns;
      stdout.rows = rows;
      stdout.emit('resize');
    },
    unmount: () => ink.unmount(),
  };
  const run = (op: Operation) => {
    ops.push(op);
    opts.run?.(op);
  };
  const ink = render(<Root store={store} run={run} onQuit={() => r.quits++} />, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return r;
}

/** Any Ink element (the cluster dashboard) at `columns` x `rows`, with the same frame, keys and waiting as above. */
export function renderElement(element: ReactElement, opts: { columns: number; rows: number }): Pick<Rendered, 'frame' | 'press' | 'waitFor' | 'unmount'> {
  const stdout = new TestStdout(opts.columns, opts.rows);
  const stdin = new TestStdin();
  const ink = render(element, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const frame = () => plain(stdout.lastFrame());
  return {
    frame,
    ...driver(stdin, frame),
    unmount: () => ink.unmount(),
  };
}
