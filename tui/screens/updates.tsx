import { Box, Text } from 'ink';
import { cell, formatTime, truncate } from '../format.ts';
import { NoticeLine } from '../components/notice-line.tsx';
import type { Notice } from '../state/store.ts';
import type { UpdateInfo } from '../types.ts';

/** The Updates screen (spec: Update check): current vs available version, the update URL or that none is set, the last check and its error. */
export function UpdatesScreen({ updates, notice, error, width }: { updates?: UpdateInfo; notice?: Notice; error?: string; width: number }) {
  if (!updates) return <Text color={error ? 'red' : undefined}>{error ? `updates: ${error}` : 'loading the update check…'}</Text>;
  const row = (label: string, value: string, color?: string) => (
    <Text wrap="truncate-end">
      <Text bold>{cell(label, 12)}</Text>
      <Text color={color}>{truncate(value, width - 12)}</Text>
    </Text>
  );
  const available = updates.available
    ? `${updates.available}${updates.newer ? '  (newer: an update is available)' : '  (up to date)'}`
    : updates.configured
      ? 'unknown (no good answer yet)'
      : '-';
  return (
    <Box flexDirection="column" width={width}>
      {row('current', updates.current)}
      {row('available', available, updates.newer ? 'yellow' : updates.available ? 'green' : undefined)}
      {row('product', updates.product)}
      {updates.configured ? row('update url', updates.url ?? '') : row('update url', 'not configured: set updates.url in the configuration file', 'yellow')}
      {row('last check', formatTime(updates.checkedAt))}
      {updates.error ? row('last error', updates.error, 'red') : null}
      <Text> </Text>
      <NoticeLine notice={notice} width={width} />
    </Box>
  );
}
