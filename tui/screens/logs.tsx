import { Box, Text } from 'ink';
import { formatClock, truncate } from '../format.ts';
import type { LogLevel, LogLine } from '../types.ts';

const COLOR: Record<LogLevel, string | undefined> = { trace: 'gray', debug: 'gray', info: undefined, warn: 'yellow', error: 'red', fatal: 'red' };

/** A log line's other fields as `key=value` (strings unquoted, the rest as JSON). */
function fields(f: Record<string, unknown>): string {
  return Object.entries(f)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
}

/**
 * The Logs screen: the newest lines that fit, at or above `level`; following (new lines scroll in) or paused
 * (frozen; `newer` counts the lines that arrived since).
 */
export function LogsScreen({
  lines,
  level,
  paused,
  newer,
  error,
  width,
  height,
}: {
  lines: LogLine[];
  level: LogLevel;
  paused: boolean;
  newer: number;
  error?: string;
  width: number;
  height: number;
}) {
  const shown = lines.slice(-Math.max(1, height - 1));
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text bold>{`level ≥ ${level}`}</Text>
        {'  '}
        {paused ? (
          <Text color="yellow">{`paused${newer ? ` (${newer} newer line${newer === 1 ? '' : 's'})` : ''}`}</Text>
        ) : (
          <Text color="green">following</Text>
        )}
        {error ? <Text color="red">{`  logs: ${error}`}</Text> : null}
      </Text>
      {shown.length === 0 ? <Text dimColor>no log lines at this level yet</Text> : null}
      {shown.map((l) => (
        <Text key={`${l.seq}-${l.time}`} wrap="truncate-end">
          <Text dimColor>{formatClock(l.time)} </Text>
          <Text color={COLOR[l.level]}>{l.level.toUpperCase().padEnd(5)} </Text>
          {truncate(`${l.msg}${Object.keys(l.fields).length ? ` ${fields(l.fields)}` : ''}`, Math.max(1, width - 15))}
        </Text>
      ))}
    </Box>
  );
}
