import { Box, Text } from 'ink';

/** The global keys, always shown after the screen's own. */
export const GLOBAL_KEYS = ['1-6/Tab screens', '? help', 'q quit'];

/** The legend's lines at `width`: items joined by two spaces, broken between items (never inside one). */
export function legendLines(keys: string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of [...keys, ...GLOBAL_KEYS]) {
    if (line && line.length + 2 + item.length > width) {
      lines.push(line);
      line = item;
    } else line = line ? `${line}  ${item}` : item;
  }
  if (line) lines.push(line);
  return lines;
}

/** The key legend at the bottom: the screen's keys, then the global ones. */
export function Legend({ keys, width }: { keys: string[]; width: number }) {
  return (
    <Box width={width} flexDirection="column">
      {legendLines(keys, width).map((l, i) => (
        <Text key={i} dimColor wrap="truncate-end">
          {l}
        </Text>
      ))}
    </Box>
  );
}

/** How many lines the legend takes at `width`. */
export function legendHeight(keys: string[], width: number): number {
  return legendLines(keys, width).length;
}
