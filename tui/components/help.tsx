import { Box, Text } from 'ink';

const HELP: Array<[string, string]> = [
  ['1-6, Tab, Shift+Tab', 'switch screens (Overview, Documents, Config, Proof key, Updates, Logs)'],
  ['?', 'this help (any key closes it)'],
  ['q, Ctrl+C', 'quit (the terminal is restored)'],
  ['Documents ↑↓ (j)', 'select a document'],
  ['Documents s / c / k', 'save now / close (saved first) / kill its kit; close and kill ask y/n'],
  ['Config ←→', 'frame-ancestors, post_allow hosts, WOPI hosts'],
  ['Config a / e,Enter / d', 'add / edit / remove an entry (Enter saves, Esc cancels)'],
  ['Proof key r', 'rotate (asks y/n); the current key becomes the old one'],
  ['Updates r', 'ask the update server again'],
  ['Logs ←→ or - +', 'lower / raise the minimum level'],
  ['Logs p, Space', 'pause / resume following'],
];

/** The help screen: every key, one line each, truncated to `width`. */
export function Help({ width }: { width: number }) {
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>Keys</Text>
      {HELP.map(([k, what]) => (
        <Text key={k} wrap="truncate-end">
          <Text color="cyan">{k.padEnd(24)}</Text>
          {what}
        </Text>
      ))}
    </Box>
  );
}
