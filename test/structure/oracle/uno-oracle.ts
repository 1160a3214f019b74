import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** What LibreOffice's document model holds for one document (uno_oracle.py, op `inspect`). */
export interface UnoInspection {
  ok: boolean;
  error?: string;
  contentcontrols?: Array<Record<string, unknown>> | null;
  charts?: Record<string, Record<string, unknown>> | null;
  docprops?: Record<string, unknown>;
  trackchanges?: Array<{ type: string; author: string; dateTime: string; comment: string; textChanged: string | null }> | null;
  slides?: {
    SlideCount: number;
    MasterSlides: string[];
    Slides: Array<{ SlideName: string; MasterSlideName: string; LayoutId: number; Objects: Array<string[] | null> }>;
  } | null;
}

/** One python3-uno process with its own soffice, answering requests one at a time. */
export interface UnoOracle {
  inspect(path: string): Promise<UnoInspection>;
  /** True when LibreOffice loads the file; otherwise its error. */
  load(path: string): Promise<{ ok: boolean; error?: string; title?: string }>;
  stop(): Promise<void>;
}

const SCRIPT = fileURLToPath(new URL('./uno_oracle.py', import.meta.url));

/** Starts the oracle (Debian's /usr/bin/python3 with python3-uno, one headless soffice for all requests). */
export function startUnoOracle(): UnoOracle {
  const child: ChildProcessWithoutNullStreams = spawn('/usr/bin/python3', [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines = createInterface({ input: child.stdout });
  const waiting: Array<{ resolve: (line: string) => void; reject: (e: Error) => void }> = [];
  lines.on('line', (line) => waiting.shift()?.resolve(line));
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  // An oracle that exits (soffice never answered on its pipe, a crash) fails the requests waiting on it at once
  // instead of leaving them to the test's time limit.
  child.once('exit', (code) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`the UNO oracle exited (${code}): ${stderr}`));
  });
  const ask = (req: object): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      if (child.exitCode !== null) return reject(new Error(`the UNO oracle exited: ${stderr}`));
      waiting.push({ resolve: (line) => resolve(JSON.parse(line) as Record<string, unknown>), reject });
      child.stdin.write(`${JSON.stringify(req)}\n`);
    });
  return {
    inspect: async (path) => (await ask({ op: 'inspect', path })) as unknown as UnoInspection,
    load: async (path) => (await ask({ op: 'load', path })) as { ok: boolean; error?: string; title?: string },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.stdin.end(`${JSON.stringify({ op: 'quit' })}\n`);
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
