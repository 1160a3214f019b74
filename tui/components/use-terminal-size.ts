import { useEffect, useState } from 'react';
import { useStdout } from 'ink';

/** The terminal's size in character cells. */
export interface TerminalSize {
  columns: number;
  rows: number;
}

/** The size of Ink's stdout (80x24 when unknown, e.g. not a TTY), updated on every `resize`. */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const read = (): TerminalSize => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
