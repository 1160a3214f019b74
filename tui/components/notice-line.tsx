import { Box, Text } from 'ink';
import { truncate } from '../format.ts';
import type { Confirm, Notice } from '../state/store.ts';

/** The inline confirmation question, or the last result/error of an action (with the server's problems), or nothing. */
export function NoticeLine({ confirm, notice, width }: { confirm?: Confirm; notice?: Notice; width: number }) {
  if (confirm)
    return (
      <Text color="yellow" bold wrap="wrap">
        {confirm.prompt} (y/n)
      </Text>
    );
  if (!notice) return null;
  const color = notice.kind === 'error' ? 'red' : notice.kind === 'busy' ? 'yellow' : 'green';
  return (
    <Box flexDirection="column">
      <Text color={color} wrap="wrap">
        {notice.text}
      </Text>
      {(notice.problems ?? []).slice(0, 4).map((p, i) => (
        <Text key={i} color="red">
          {'  • '}
          {truncate(p, width - 4)}
        </Text>
      ))}
    </Box>
  );
}
