/**
 * `runClusterDashboard`: the dashboard over several nodes (`ode tui --node <admin url> ...`, docs/tui.md): the
 * cluster screen, refreshed every interval, until q or Ctrl+C. On a TTY it draws on the alternate screen.
 */
import { Box, render, Text, useApp, useInput } from 'ink';
import { useEffect, useState } from 'react';
import { startClusterFlow, type ClusterEndpoint, type ClusterNodeView } from './cluster.ts';
import { useTerminalSize } from './components/use-terminal-size.ts';
import { ClusterScreen } from './screens/cluster.tsx';

/** What the cluster dashboard needs. */
export interface ClusterDashboardOptions {
  endpoints: ClusterEndpoint[];
  /** Poll interval, ms (default 2000). */
  intervalMs?: number;
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
}

/** The cluster dashboard's frame: the cluster screen and its keys; polls while mounted. */
export function ClusterApp({ endpoints, intervalMs, onQuit }: { endpoints: ClusterEndpoint[]; intervalMs?: number; onQuit?(): void }) {
  const [nodes, setNodes] = useState<ClusterNodeView[]>(() => endpoints.map((e) => ({ target: e.url.replace(/^https?:\/\//, ''), documents: [] })));
  const { exit } = useApp();
  const { columns, rows } = useTerminalSize();
  useEffect(() => {
    const flow = startClusterFlow(endpoints, setNodes, intervalMs);
    return () => void flow.stop();
  }, [endpoints, intervalMs]);
  useInput((input, key) => {
    if (input === 'q' || (key.ctrl && input === 'c')) {
      onQuit?.();
      exit();
    }
  });
  const height = Math.max(8, rows - 1);
  return (
    <Box flexDirection="column" width={columns} height={height}>
      <Box flexDirection="column" height={height - 1} overflow="hidden">
        <ClusterScreen nodes={nodes} width={columns} height={height - 1} />
      </Box>
      <Text dimColor wrap="truncate-end">
        q quit
      </Text>
    </Box>
  );
}

const ALT_SCREEN_ON = '\x1b[?1049h';
const ALT_SCREEN_OFF = '\x1b[?1049l';

/** Runs the cluster dashboard until the user quits. */
export async function runClusterDashboard(opts: ClusterDashboardOptions): Promise<void> {
  const stdout = opts.stdout ?? process.stdout;
  const stdin = opts.stdin ?? process.stdin;
  const tty = Boolean(stdout.isTTY);
  const restore = () => tty && stdout.write(ALT_SCREEN_OFF);
  if (tty) stdout.write(ALT_SCREEN_ON);
  process.once('exit', restore);
  try {
    const ink = render(<ClusterApp endpoints={opts.endpoints} intervalMs={opts.intervalMs} />, { stdout, stdin, exitOnCtrlC: false, patchConsole: true });
    await ink.waitUntilExit();
  } finally {
    restore();
    process.off('exit', restore);
  }
}
