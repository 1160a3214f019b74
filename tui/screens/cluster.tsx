import { Box, Text } from 'ink';
import { cell, formatClock, formatDuration, truncate } from '../format.ts';
import { nodeState, type ClusterNodeView } from '../cluster.ts';

const STATE_COLOR: Record<ReturnType<typeof nodeState>, string> = {
  serving: 'green',
  draining: 'yellow',
  drained: 'yellow',
  unreachable: 'red',
  connecting: 'gray',
};

/** `ready/editing/busy/starting` kit counts of a status. */
function kitCounts(n: ClusterNodeView): string {
  const kits = n.status?.kits ?? [];
  const count = (s: string) => kits.filter((k) => k.state === s).length;
  return n.status ? `${count('ready')}/${count('editing')}/${count('busy')}/${count('starting')} of ${n.status.maxKits}` : '-';
}

/**
 * The cluster screen (`ode tui --node ... --node ...`): one row per node (its admin address, service state,
 * documents, views, kits ready/editing/busy/starting, uptime, version), the totals, then each node's open documents
 * with their views, as far as `height` allows. A node that does not answer shows `unreachable`, why, and when it
 * was last seen; its last known documents are not listed (they may be elsewhere by now).
 */
export function ClusterScreen({ nodes, width, height }: { nodes: ClusterNodeView[]; width: number; height: number }) {
  const nameW = Math.max(12, Math.min(24, width - 62));
  const live = nodes.filter((n) => !n.error);
  const total = (f: (n: ClusterNodeView) => number) => live.reduce((s, n) => s + f(n), 0);
  const docLines: Array<{ key: string; text: string; bold?: boolean }> = [];
  for (const n of nodes) {
    if (n.error || n.documents.length === 0) continue;
    docLines.push({ key: `h-${n.target}`, text: `${n.target} (${nodeState(n)})`, bold: true });
    for (const d of n.documents)
      docLines.push({
        key: `${n.target}-${d.id}`,
        text: `  ${d.modified ? '*' : ' '}${d.fileName}  ${d.views.length} view(s): ${d.views.map((v) => v.userName).join(', ')}`,
      });
  }
  // Title, table header, rows, totals, blank, documents title.
  const room = Math.max(0, height - nodes.length - 5);
  const shown = docLines.length > room ? docLines.slice(0, Math.max(0, room - 1)) : docLines;
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text bold>{`Ode cluster · ${nodes.length} nodes`}</Text>
        {`   ${live.filter((n) => n.status?.node === 'serving').length} serving`}
      </Text>
      <Text
        bold
        wrap="truncate-end"
      >{`${cell('node', nameW)} ${cell('state', 11)} ${cell('docs', 4)} ${cell('views', 5)} ${cell('kits r/e/b/s', 14)} ${cell('up', 8)} version`}</Text>
      {nodes.map((n) => {
        const state = nodeState(n);
        const s = n.status;
        return (
          <Text key={n.target} wrap="truncate-end">
            {`${cell(n.target, nameW)} `}
            <Text color={STATE_COLOR[state]}>{cell(state, 11)}</Text>
            {n.error
              ? ` ${truncate(`${n.seenAt ? `last seen ${formatClock(n.seenAt)}: ` : ''}${n.error}`, Math.max(1, width - nameW - 13))}`
              : ` ${cell(String(s?.documents ?? 0), 4)} ${cell(String(s?.views ?? 0), 5)} ${cell(kitCounts(n), 14)} ${cell(s ? formatDuration(s.uptimeMs) : '-', 8)} ${s?.version ?? ''}`}
          </Text>
        );
      })}
      <Text
        wrap="truncate-end"
        dimColor
      >{`${cell('total', nameW)} ${cell('', 11)} ${cell(String(total((n) => n.status?.documents ?? 0)), 4)} ${cell(String(total((n) => n.status?.views ?? 0)), 5)}`}</Text>
      <Text> </Text>
      <Text bold>{docLines.length ? 'Open documents' : 'No document open'}</Text>
      {shown.map((l) => (
        <Text key={l.key} bold={l.bold} wrap="truncate-end">
          {truncate(l.text, width)}
        </Text>
      ))}
      {shown.length < docLines.length ? <Text dimColor>{`… ${docLines.length - shown.length} more lines`}</Text> : null}
    </Box>
  );
}
