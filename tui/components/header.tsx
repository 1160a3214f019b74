import { Box, Text } from 'ink';
import { formatClock, truncate } from '../format.ts';
import { SCREENS, type ConnectionState, type ScreenId } from '../state/store.ts';

/** The connection as one line of text and its colour. */
export function connectionText(c: ConnectionState): { text: string; color: string } {
  switch (c.kind) {
    case 'connecting':
      return { text: '◌ connecting…', color: 'yellow' };
    case 'connected':
      return { text: `● connected since ${formatClock(c.since)}`, color: 'green' };
    case 'reconnecting':
      return { text: `◌ reconnecting since ${formatClock(c.since)}…${c.reason ? ` (${c.reason})` : ''}`, color: 'yellow' };
    case 'unauthorized':
      return { text: '✗ unauthorized: the admin token was refused (ode admin token shows it)', color: 'red' };
  }
}

/** Line 1: product, target and connection; line 2: the screen tabs, the current one inverted. */
export function Header({ target, connection, screen, width }: { target: string; connection: ConnectionState; screen: ScreenId; width: number }) {
  const conn = connectionText(connection);
  const title = `Ode admin · ${target} · `;
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text bold>{truncate(title, Math.max(0, width - 20))}</Text>
        <Text color={conn.color}>{conn.text}</Text>
      </Text>
      <Text wrap="truncate-end">
        {SCREENS.map((s, i) => (
          <Text key={s.id} inverse={s.id === screen} bold={s.id === screen}>
            {` ${i + 1} ${s.title} `}
          </Text>
        ))}
      </Text>
    </Box>
  );
}
