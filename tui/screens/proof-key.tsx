import { Box, Text } from 'ink';
import { formatTime } from '../format.ts';
import { NoticeLine } from '../components/notice-line.tsx';
import type { Confirm, Notice } from '../state/store.ts';
import type { ProofKeyInfo } from '../types.ts';

/** A fingerprint as lines that fit `width` (two-space indent), broken after a colon so no hex pair is split. */
export function fingerprintLines(fp: string, width: number): string[] {
  const pairs = fp.split(':');
  const perLine = Math.max(1, Math.floor((width - 2 + 1) / 3));
  const lines: string[] = [];
  for (let i = 0; i < pairs.length; i += perLine) lines.push(`  ${pairs.slice(i, i + perLine).join(':')}${i + perLine < pairs.length ? ':' : ''}`);
  return lines;
}

/**
 * The Proof key screen: the current and old keys' SHA-256 fingerprints (95 characters: wrapped, never cut, since
 * an admin compares them with what a WOPI host shows) and created dates; `r` rotates after a y/n.
 */
export function ProofKeyScreen({
  proofKey,
  confirm,
  notice,
  error,
  width,
}: {
  proofKey?: ProofKeyInfo;
  confirm?: Confirm;
  notice?: Notice;
  error?: string;
  width: number;
}) {
  if (!proofKey) return <Text color={error ? 'red' : undefined}>{error ? `proof key: ${error}` : 'loading the proof key…'}</Text>;
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>Current key (discovery: proof-key)</Text>
      {fingerprintLines(proofKey.fingerprint, width).map((l, i) => (
        <Text key={i}>{l}</Text>
      ))}
      <Text>{`  created ${formatTime(proofKey.created)}`}</Text>
      <Text> </Text>
      <Text bold>Old key (discovery: oldproof-key)</Text>
      {fingerprintLines(proofKey.oldFingerprint, width).map((l, i) => (
        <Text key={i}>{l}</Text>
      ))}
      <Text>{`  created ${formatTime(proofKey.oldCreated)}`}</Text>
      <Text> </Text>
      <NoticeLine confirm={confirm} notice={notice} width={width} />
    </Box>
  );
}
